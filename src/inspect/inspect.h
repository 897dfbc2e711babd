/* SPDX-License-Identifier: MIT */
/*
 * rtready inspect: the checklist applied to running processes, thread by
 * thread, from the outside. Collection (sample.c) walks /proc twice, a
 * window apart, and matches threads by TID plus start time, so a reused
 * TID is never mistaken for the same thread; judging (judge.c) is a pure
 * function of what was collected and turns it into findings shaped like
 * the checks of `rtready check`, with a tid where a thread is meant.
 */
#ifndef RTR_INSPECT_INSPECT_H
#define RTR_INSPECT_INSPECT_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/report.h"
#include "inspect/perf.h"
#include "probe/dlbw.h"
#include "probe/irq.h"
#include "probe/tasks.h"
#include "rtready/cpuset.h"

/* Threads whose counters are opened at most (file descriptors are finite). */
#define INSPECT_PERF_MAX_THREADS 512

struct inspect_request {
	const char *root;	/* "/" (the live system) or a snapshot tree */
	const int *pids;	/* explicit PIDs, n_pids of them */
	size_t n_pids;
	const char *name;	/* --name COMM, or NULL */
	bool all;		/* --all: every user process */
	int64_t window_ns;	/* 0: one sample, no deltas */
	bool perf;		/* open perf counters over the window (live system only) */
};

struct inspect_thread {
	const struct task_info *t;	/* latest state (end of window, or start if it vanished) */
	bool appeared;			/* started during the window */
	bool vanished;			/* exited during the window */
	bool have_delta;		/* seen at both ends: the deltas below are valid */
	uint64_t minflt_d, majflt_d, cpu_ticks_d;
	bool have_ctxt_delta;
	uint64_t vcsw_d, nvcsw_d;
	const struct perf_thread *perf;	/* NULL when no counters were opened */
	bool is_dl;			/* SCHED_DEADLINE: @dl was read (at the end of the window) */
	struct dlbw_thread dl;
};

struct inspect_proc {
	int pid;
	uint64_t start_ticks;
	char comm[64];
	bool vanished;			/* exited (or its PID was reused) during the window */
	int status_err;			/* 0, or why VmLck/VmRSS are unknown (-ENODATA: no memory) */
	uint64_t vm_lck_kb, vm_rss_kb;
	struct inspect_thread *threads;
	size_t n_threads;
	size_t n_rt;			/* threads with a realtime policy */
	/* The CPU budget of its cgroup, read only for processes with a busy non-RT thread. */
	bool busy;			/* a non-RT thread used >= INSPECT_BUSY_PCT of a CPU */
	int cpu_limit_err;		/* 0, or why the cgroup's limit could not be read */
	double cpu_limit_pct;		/* the tightest cpu.max on its cgroup path, 0: none */
	char cgroup[256];		/* its cgroup (v2 path, or v1 cpu path) */
};

/* A non-RT thread this busy over the window counts as a load on its CPUs. */
#define INSPECT_BUSY_PCT 50.0

struct inspect_result {
	int64_t window_ns;
	long clk_tck;
	struct tasks_facts before, after;	/* every task, at both ends */
	struct irq_facts irq;
	struct inspect_proc *procs;
	size_t n_procs;
	struct perf_thread *perf;
	size_t n_perf;
	bool perf_requested;
	int perf_err;			/* 0, or why no counter at all could be opened */
	int perf_paranoid;		/* INT32_MIN when unknown */
	size_t perf_skipped;		/* threads beyond INSPECT_PERF_MAX_THREADS */
	bool interrupted;		/* the window was cut short by a signal */
};

/*
 * Collect: walk, wait @req->window_ns (returning early when *@stop becomes
 * non-zero), walk again. Under a root other than "/" no perf counter is
 * opened (they count live threads) and no process is left out as our own.
 * Return: 0; -ENODATA when the walk of /proc found no process at all,
 * readable or not (an empty directory, like a tmpfs mounted over /proc: on this machine there
 * is at least rtready itself); -ESRCH with *@bad_pid set when an explicit
 * PID does not exist; -ENOENT when --name matched nothing; -ENOMEM; other
 * -errno when the root or its /proc cannot be read.
 */
int inspect_collect(const struct inspect_request *req, struct inspect_result *res,
		    const volatile sig_atomic_t *stop, int *bad_pid);
void inspect_result_free(struct inspect_result *res);

struct inspect_env {
	const struct rtr_cpuset *rt_cpus;	/* empty when none declared */
	bool verbose;	/* report processes without RT threads too (explicit PIDs, --verbose) */
};

/* Judge @res into findings (ids proc.*). Return: 0 or -ENOMEM. */
int inspect_judge(const struct inspect_result *res, const struct inspect_env *env,
		  struct report *r);

/* CPU use of a thread over the window, in percent of one CPU (0 without a delta). */
double inspect_cpu_percent(const struct inspect_result *res, const struct inspect_thread *th);

#endif
