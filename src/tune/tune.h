/* SPDX-License-Identifier: MIT */
/*
 * rtready tune: the model shared by the table of tunables, the plan, the
 * journal, apply/revert and the boot files. A tunable is one row of a table
 * (what it fixes, which files it may write, how the new value follows from
 * the old one); a plan is the list of concrete changes (a file path or a
 * task, old value, new value) computed from the live values; the journal
 * is the plan on disk with the progress of each change, so that a revert
 * after a crash knows exactly what to put back.
 */
#ifndef RTR_TUNE_TUNE_H
#define RTR_TUNE_TUNE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rtready/cpuset.h"

enum tune_id {
	TUNE_RT_THROTTLING,
	TUNE_IRQ_DEFAULT,
	TUNE_IRQS,
	TUNE_WORKQUEUE,
	TUNE_TASKS,
	TUNE_GOVERNOR,
	TUNE_IDLE,
	TUNE_THP,
	TUNE_TIMER_MIGRATION,
	TUNE_WATCHDOG,
	TUNE_HUNG_TASK,
	TUNE_KSM,
	TUNE_NUMA_BALANCING,
	TUNE_FAIR_SERVER,
	TUNE_IRQBALANCE,
	/*
	 * --isolate: a cgroup v2 isolated partition of the RT CPUs, in the
	 * order apply makes it (revert undoes it backwards). Off unless asked.
	 */
	TUNE_ISO_SUBTREE,	/* +cpuset in the root's cgroup.subtree_control */
	TUNE_ISO_GROUP,		/* the group rtready-isolated */
	TUNE_ISO_CPUS,		/* its cpuset.cpus */
	TUNE_ISO_PARTITION,	/* its cpuset.cpus.partition = isolated */
	TUNE_COUNT
};

/* The first row of --isolate; every row from it on belongs to the partition. */
#define TUNE_ISO_FIRST TUNE_ISO_SUBTREE
#define TUNE_ISO_GROUP_PATH "/sys/fs/cgroup/rtready-isolated"

static inline bool tune_is_isolate(enum tune_id id)
{
	return id >= TUNE_ISO_FIRST && id < TUNE_COUNT;
}

/* How a file's content maps to the value we store and write back. */
enum tune_value_kind {
	TUNE_VAL_PLAIN,	   /* the content, trailing white space removed */
	TUNE_VAL_SELECTOR, /* "always [madvise] never": the word in brackets */
	TUNE_VAL_AFFINITY, /* not a file: a task's CPU list (sched_setaffinity) */
	TUNE_VAL_FILE,	   /* a whole configuration file, replaced atomically */
	TUNE_VAL_CGROUP,   /* a cgroup directory: "present" (mkdir) or "absent" (rmdir) */
	TUNE_VAL_CONTROLLER, /* a controller in cgroup.subtree_control: "+cpuset" or "-cpuset" */
};

/* What the new values are computed from. */
struct tune_ctx {
	const struct rtr_cpuset *rt;	/* the CPUs reserved for realtime work */
	const struct rtr_cpuset *nonrt; /* the online CPUs that are not RT (never empty) */
};

struct tunable {
	enum tune_id id;
	const char *name;	/* "rt-throttling": journal and JSON key */
	const char *check_id;	/* the `rtready check` id this fixes */
	const char *switch_opt; /* the option that leaves it alone */
	/*
	 * The files it may write: '#' stands for a decimal number (an IRQ, a
	 * CPU, an idle state). NULL for tasks. Apply and revert refuse any
	 * path that does not match, so a tampered journal cannot make rtready
	 * write elsewhere.
	 */
	const char *pattern;
	enum tune_value_kind kind;
	const char *sysctl; /* its sysctl name when it is one, for sysctl.d; else NULL */
	/*
	 * The new value for an @old value: Return: 1 with the value in @out,
	 * 0 when @old is already right, -EINVAL when @old cannot be parsed,
	 * -ENOSPC when @out is too small.
	 */
	int (*compute)(const struct tune_ctx *ctx, const char *old, char *out, size_t len);
	const char *what; /* one line for --help and notes */
};

/*
 * irqbalance's environment file with IRQBALANCE_BANNED_CPULIST covering the
 * RT CPUs (added to what it bans already): the value of the line that sets
 * it is replaced (every other byte stays), or two lines are added at the
 * end in the file's line ending. Line and value come from irqbalance_find(),
 * the grammar the reader uses too.
 * Return: 1 with the new text in *@out (free it), 0 already right, -EEXIST
 * when the file bans CPUs with the older IRQBALANCE_BANNED_CPUS mask
 * (rtready does not rewrite it), -EINVAL when the setting is outside the
 * grammar or not a CPU list (*@summary says which line and why), -ENOMEM.
 * On 1, *@summary (@slen bytes) says what changes, one line.
 */
int tune_irqbalance_compute(const struct rtr_cpuset *rt, const char *old, char **out,
			    char *summary, size_t slen) __attribute__((warn_unused_result));

/* The table, indexed by enum tune_id. */
const struct tunable *tunable_get(enum tune_id id);
/* Find a row by its name; NULL when unknown. */
const struct tunable *tunable_by_name(const char *name);

/*
 * Whether @path is one that @t may write: it matches the pattern ('#' is
 * one or more digits, nothing else is special) and lies under /proc/sys/,
 * /proc/irq/ or /sys/.
 */
bool tunable_path_allowed(const struct tunable *t, const char *path);

/*
 * Put @a and then @b (or -1: unused) in place of the '#'s of @pattern.
 * Return: 0 or -ENAMETOOLONG / -EINVAL (wrong number of '#').
 */
int tunable_path(char *buf, size_t len, const char *pattern, int a, int b);

/*
 * The value stored for a file's content: trailing white space removed, and
 * for a selector the word in brackets. Return: 0, -EINVAL (no brackets),
 * -ENOSPC.
 */
int tunable_normalize(enum tune_value_kind kind, const char *content, char *out, size_t len);

/*
 * Write @set as a hex mask laid out like @like (same number of digits and
 * commas), as the kernel prints /proc/irq/default_smp_affinity.
 * Return: 0, -ERANGE (a CPU beyond @like's width), -ENOSPC, -EINVAL.
 */
int tunable_format_mask_like(const struct rtr_cpuset *set, const char *like, char *out, size_t len);

/* The journal's view of one change, and its progress. */
enum change_state {
	CHANGE_PENDING,	   /* planned, not tried */
	CHANGE_ATTEMPTING, /* journalled just before the write: it may have landed */
	CHANGE_APPLIED,
	CHANGE_FAILED,	 /* the kernel refused it (err) */
	CHANGE_REVERTED, /* put back, or nothing was left to put back */
	CHANGE_REVERT_FAILED,
};

const char *change_state_name(enum change_state s);
/* Return: the state, or -EINVAL for an unknown name. */
int change_state_parse(const char *name);

struct tune_change {
	enum tune_id id;
	char *path;	      /* the file written; NULL for a task */
	int tid;	      /* a task: its thread id ... */
	uint64_t start_ticks; /* ... and start time, so a reused tid is never touched */
	char *label;	      /* "virtio0-config", a task's comm; may be NULL */
	char *old_value;
	char *new_value;
	enum change_state state;
	int err;    /* errno of the last failed write, 0 */
	char *note; /* what apply or revert saw (effective affinity, ...); may be NULL */
	/* --status: the value read now (apply_read_current), "gone" when unreadable; NULL unread. */
	char *current;
};

/* A remark about a tunable that gave no change: skipped, already right. */
struct tune_note {
	enum tune_id id;
	char *text;
};

struct tune_plan {
	struct tune_change *changes;
	size_t n;
	size_t cap;
	struct tune_note *notes;
	size_t n_notes;
	size_t cap_notes;
};

void tune_plan_free(struct tune_plan *p);
/* Append a change (strings copied; NULLs allowed for label/note). Return: 0 or -ENOMEM. */
int tune_plan_add(struct tune_plan *p, const struct tune_change *c);
struct task_info;
/*
 * Append @c as a change of task @t's affinity from @old to @nw: its tid,
 * start time and name come from @t. Return: 0 or -ENOMEM.
 */
int tune_plan_add_task(struct tune_plan *p, struct tune_change *c, const struct task_info *t,
		       const char *old, const char *nw);
int tune_plan_note(struct tune_plan *p, enum tune_id id, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Replace a change's note (copied; NULL clears). Return: 0 or -ENOMEM. */
int tune_change_set_note(struct tune_change *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
