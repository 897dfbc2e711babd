/* SPDX-License-Identifier: MIT */
/*
 * Every task (thread) on the machine, as the scheduler sees it: policy,
 * realtime priority, nice, the CPUs it may run on, and whether it is a
 * kernel thread. Read once from /proc/PID/task/TID/{stat,status} (one read
 * of each per thread), so the sched.*, cpu.tasks_on_rt_cpus and other
 * checks share one walk. Tasks that exit during the walk are skipped and
 * counted; a task whose files are garbage is kept with its error so a check
 * can say what could not be read.
 */
#ifndef RTR_PROBE_TASKS_H
#define RTR_PROBE_TASKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "probe/rootfs.h"
#include "rtready/cpuset.h"

/* A bound on the walk: far above any real machine, below a hostile tree's flood. */
#define TASKS_MAX 1000000

/* Kernel task flags from /proc/PID/stat field 9 (include/linux/sched.h). */
#define TASK_PF_KTHREAD 0x00200000u		/* a kernel thread */
#define TASK_PF_NO_SETAFFINITY 0x04000000u	/* affinity fixed by the kernel (per-CPU kthread) */

struct task_info {
	int pid;		/* thread group id (the process) */
	int tid;		/* thread id; == pid for the main thread */
	char comm[64];		/* as in /proc/PID/stat (at most 15 bytes on Linux, NUL-ended) */
	int policy;		/* SCHED_OTHER 0, FIFO 1, RR 2, BATCH 3, IDLE 5, DEADLINE 6, EXT 7 */
	int rt_priority;	/* 1..99 for FIFO/RR, 0 otherwise */
	int nice;		/* -20..19 */
	unsigned int flags;	/* PF_* flags (TASK_PF_*) */
	bool kthread;		/* flags & TASK_PF_KTHREAD, or "Kthread: 1" in status */
	bool per_cpu;		/* a kernel thread whose affinity the user cannot change */
	uint64_t start_ticks;	/* start time after boot, in clock ticks (USER_HZ) */
	int last_cpu;		/* the CPU it last ran on, -1 unknown */
	int allowed_err;	/* 0, or why Cpus_allowed_list was not read */
	struct rtr_cpuset allowed;	/* Cpus_allowed_list of /proc/PID/task/TID/status */
	/* Counters, for deltas over a window (rtready inspect). */
	uint64_t minflt;	/* minor page faults of this thread */
	uint64_t majflt;	/* major page faults */
	uint64_t cpu_ticks;	/* utime + stime, clock ticks */
	bool have_ctxt;		/* the two switch counts below were read */
	uint64_t vcsw;		/* voluntary context switches */
	uint64_t nvcsw;		/* involuntary context switches (preemptions) */
	/* Memory of the whole process (the status of any of its threads shows it). */
	bool have_vm;		/* VmRSS was read: a user task, not a zombie */
	uint64_t vm_lck_kb;	/* VmLck: mlock()ed memory, 0 when the line is missing */
	uint64_t vm_rss_kb;	/* VmRSS */
};

struct tasks_facts {
	int err;		/* 0, or why /proc could not be listed at all */
	struct task_info *tasks;	/* n entries, sorted by pid then tid */
	size_t n;
	size_t cap;
	size_t vanished;	/* threads that exited during the walk (not listed) */
	size_t unreadable;	/* threads whose stat could not be parsed (not listed) */
	int first_unreadable_err;	/* the error of the first of those */
	char first_unreadable[64];	/* its path, for evidence */
	bool truncated;		/* TASKS_MAX reached */
	/*
	 * Whether rtready runs in a child PID namespace (a container, unshare
	 * -p): then /proc is normally that namespace's and lists only its
	 * tasks, none of the host's (probe_tasks() only). Two signs, either
	 * enough: /proc/self/ns/pid is not the initial namespace's
	 * "pid:[4026531836]" (@pidns_link, "" when unread: @pidns_err), or the
	 * NSpid line of /proc/self/status has more than one id
	 * (@pidns_levels, 0 when unread; no such line before 4.1). NSpid
	 * alone misses the usual case: a namespace's own /proc shows only
	 * the ids from its level down.
	 */
	int pidns_err;
	char pidns_link[32];
	int pidns_levels;
	bool pidns_child;
};

/* The initial PID namespace's inode (the kernel's PROC_PID_INIT_INO, 0xEFFFFFFC). */
#define TASKS_PIDNS_INIT "pid:[4026531836]"

/* Whether @t lists only the tasks of a child PID namespace (see pidns_levels). */
static inline bool tasks_pidns_only(const struct tasks_facts *t)
{
	return t->pidns_child;
}

/* Whether @t runs with a realtime policy (FIFO, RR or DEADLINE). */
static inline bool task_is_rt(const struct task_info *t)
{
	return t->policy == 1 || t->policy == 2 || t->policy == 6;
}

/* A short name of a scheduling policy ("FIFO", "OTHER", ...; "?" when unknown). */
const char *task_policy_name(int policy);

/*
 * Fill @out with every thread under @fs's /proc. Never fails as a whole:
 * @out->err is set when /proc cannot be listed (-ENOMEM on allocation
 * failure).
 */
void probe_tasks(const struct rootfs *fs, struct tasks_facts *out);
void probe_tasks_free(struct tasks_facts *out);

/*
 * Fill @out with the threads of process @pid only (same rules as
 * probe_tasks). Return: 0, -ESRCH when the process does not exist (or
 * vanished), -ENOMEM, or the error that kept its thread list unreadable.
 */
int probe_tasks_of(const struct rootfs *fs, int pid, struct tasks_facts *out);

/*
 * Append a copy of @t to @out (used by the probe and by tests that build
 * facts by hand; the cpuset is copied). Return: 0 or -ENOMEM.
 */
int tasks_append(struct tasks_facts *out, const struct task_info *t);

#endif
