/* SPDX-License-Identifier: MIT */
/*
 * The checklist as data. A check is a row: id (part of the interface),
 * area, title, why it matters, the usual fix, and a pure function of the
 * facts that sets the status, the evidence it read and, when the fix
 * depends on the machine, the exact fix. Adding a check is one function and
 * one row in its area's table; --only/--skip, the docs and JSON all come
 * from the rows.
 */
#ifndef RTR_CHECKS_CHECK_H
#define RTR_CHECKS_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "probe/facts.h"
#include "rtready/cpuset.h"
#include "rtready/selfcheck.h"
#include "util/strbuf.h"

struct check_ctx {
	const struct facts *facts;
	const struct rtr_cpuset *rt_cpus;	/* empty when none declared */
	const char *rt_cpus_source;		/* "--rt-cpus", "isolcpus", ... or NULL */
};

struct check_out {
	enum rtr_status status;
	struct strbuf evidence;	/* what was read, with values */
	struct strbuf fix;	/* empty: the row's fix applies */
};

struct check {
	const char *id;
	const char *area;
	const char *title;
	const char *why;
	const char *fix;	/* the usual fix; a check may write a precise one */
	void (*fn)(const struct check_ctx *ctx, struct check_out *out);
};

/* Each area's table (src/checks/<area>.c). */
extern const struct check kernel_checks[];	/* kernel.* */
extern const size_t kernel_checks_n;
extern const struct check sched_checks[];	/* sched.* */
extern const size_t sched_checks_n;
extern const struct check cpu_checks[];		/* cpu.* */
extern const size_t cpu_checks_n;
extern const struct check irq_checks[];		/* irq.* */
extern const size_t irq_checks_n;
extern const struct check mem_checks[];		/* mem.*, limits.* */
extern const size_t mem_checks_n;
extern const struct check platform_checks[];	/* clock.*, sys.* */
extern const size_t platform_checks_n;

/* Every check, in table order. */
size_t checks_count(void);
const struct check *checks_at(size_t i);

/* Set status and evidence in one go (evidence printf-style). */
void check_set(struct check_out *out, enum rtr_status status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Write a precise fix (printf-style), replacing the row's default. */
void check_fix(struct check_out *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* What per-CPU checks say when no RT CPUs are declared. */
extern const char check_no_rt_cpus[];

/* Append @s as a cpu list ("none" when empty), never truncated. */
void check_put_cpus(struct strbuf *sb, const struct rtr_cpuset *s);

/* Append "RT CPUs LIST (from SOURCE)". */
void check_put_rt(struct strbuf *sb, const struct check_ctx *ctx);

/* The online CPUs (present when unreadable) that are not RT. Return: 0 or -ENOMEM. */
int check_housekeeping(const struct check_ctx *ctx, struct rtr_cpuset *out);

/*
 * status skip with "cannot read PATH: strerror" ("PATH is empty" for
 * -ENODATA, "not in the expected format" for -EINVAL/-ERANGE).
 */
void check_skip_read(struct check_out *out, const char *path, int err);
/*
 * Skip (and return true) when the task list cannot be judged: /proc not
 * listed, or no thread in it read (saying the first unreadable file).
 */
bool check_tasks_unusable(const struct tasks_facts *t, struct check_out *out);
/*
 * Skip (and return true) when neither the online nor the present CPUs
 * could be read (a running kernel always exports them): RT CPUs cannot be
 * judged on a machine whose CPUs are unknown.
 */
bool check_cpus_unknown(const struct check_ctx *ctx, struct check_out *out);
/* The words of check_skip_read() for @path and @err, appended to @sb. */
void check_put_read_err(struct strbuf *sb, const char *path, int err);

/*
 * Judge by the CPUs in @bad: none is a pass, with @none appended to the
 * evidence; else a warning, with @some and the list. Return: whether it warned.
 */
bool check_judge_cpus(struct check_out *out, const struct rtr_cpuset *bad, const char *none,
		      const char *some);

/* The words of check_off_rt(), each appended as it stands. */
struct check_off_rt {
	const char *allows;	/* after the RT CPUs, before the set: "; X may run on " */
	const char *none;	/* the set has no RT CPU: ": none of them RT." */
	const char *some;	/* before the RT CPUs in the set */
	const char *harm;	/* after them: what that does */
	const char *all_rt;	/* "Every online CPU is RT: leave at least one CPU for " this */
};

/*
 * The body of a check that a kernel CPU set @set (where new work may run)
 * leaves out the RT CPUs, which the caller has made sure are declared:
 * the evidence names both, and the set's RT CPUs make it a warning.
 * Return: true when it warned and @hk (freed by the caller) holds the
 * housekeeping CPUs for the caller's fix; false when status and fix are set.
 */
bool check_off_rt(const struct check_ctx *ctx, struct check_out *out,
		  const struct rtr_cpuset *set, const struct check_off_rt *t,
		  struct rtr_cpuset *hk);

#endif
