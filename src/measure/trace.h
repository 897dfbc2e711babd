/* SPDX-License-Identifier: MIT */
/*
 * Root cause of a latency spike, from the kernel's own trace. While
 * `rtready latency --threshold US --trace` measures, a tracing instance of
 * our own records scheduler, IRQ, softirq and hrtimer events on a clock
 * that compares directly with CLOCK_MONOTONIC. When a wake-up passes the
 * threshold the (non-realtime) main thread marks the trace and stops it at
 * once; the window around the spike is then read back, saved to a file and
 * explained: what ran on that CPU between the deadline and the moment the
 * measuring thread got it back, for how long, and in which phase (the
 * timer fired late, or the thread was woken in time but could not run).
 *
 * Three parts:
 *   - trace_analyze(): a pure function from a list of decoded events to a
 *     struct trace_result (unit-tested without a kernel);
 *   - the session (start, stop at a hit, collect, free): trace_tracefs.c
 *     with libtracefs/libtraceevent, or trace_none.c when the build lacks
 *     them, which says so;
 *   - small helpers shared by both (trace.c).
 */
#ifndef RTR_MEASURE_TRACE_H
#define RTR_MEASURE_TRACE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "measure/latency.h"

#define TRACE_TRACEFS_DIR "/sys/kernel/tracing"
#define TRACE_INSTANCE_PREFIX "rtready-"
#define TRACE_BUFFER_KB 2048		/* per CPU; a spike needs a few ms of it */
#define TRACE_WINDOW_BEFORE_NS 5000000LL	/* saved before the deadline */
#define TRACE_WINDOW_AFTER_NS 1000000LL	/* saved after the wake-up */
#define TRACE_MAX_EVENTS 65536		/* decoded events of the spike's CPU kept */
#define TRACE_MAX_CONTRIB 16		/* contributors reported (the rest merged) */
#define TRACE_MAX_DEPTH 8		/* nesting of interrupt contexts followed */
#define TRACE_COMM_LEN 16		/* the kernel's TASK_COMM_LEN */
#define TRACE_NAME_LEN 32
#define TRACE_DEFAULT_FILE "latency-trace.txt"
/* The contributor (TRACE_KIND_TIMER) of task time before our timer fired. */
#define TRACE_TIMER_LATE "timer interrupt late"

/* What took the time. Names ("task", ...) are part of the JSON. */
enum trace_kind {
	TRACE_KIND_TASK,	/* a task ran (the idle task included: pid 0) */
	TRACE_KIND_IRQ,		/* a hard interrupt handler or an x86 system vector */
	TRACE_KIND_SOFTIRQ,
	TRACE_KIND_TIMER,	/* hrtimer callbacks, or the timer interrupt coming late */
	TRACE_KIND_UNKNOWN,	/* not visible in the trace */
};

const char *trace_kind_name(enum trace_kind k);

/* Softirq vector names as the kernel prints them (HI, TIMER, ..., RCU). */
const char *trace_softirq_name(int vec);

/*
 * The kernel's prio of sched_switch (0..139) to what users set: a realtime
 * priority 1..99, or 0 for a normal task (its nice is kernel_prio - 120).
 */
int trace_rt_priority(int kernel_prio);

/* One decoded event of the spike's CPU. */
enum trace_ev_type {
	TEV_SWITCH,		/* pid/prio/comm: next; prev_*: the task leaving */
	TEV_WAKING,		/* pid/prio/comm: the task being woken */
	TEV_IRQ_ENTRY,		/* num: irq; name: handler name */
	TEV_IRQ_EXIT,
	TEV_SOFTIRQ_ENTRY,	/* num: vector */
	TEV_SOFTIRQ_EXIT,
	TEV_VECTOR_ENTRY,	/* name: "local_timer", "reschedule", ... (x86 system vectors) */
	TEV_VECTOR_EXIT,
	TEV_HRTIMER_ENTRY,	/* ptr: the hrtimer; name: its callback ("" unknown) */
	TEV_HRTIMER_EXIT,
	TEV_IDLE,		/* power:cpu_idle; num: state, -1 when leaving idle */
	TEV_NMI,		/* nmi:nmi_handler, at the handler's end; ptr: its duration (ns) */
};

struct trace_ev {
	int64_t ts_ns;
	enum trace_ev_type type;
	int pid;
	int prio;
	int prev_pid;
	int prev_prio;
	int num;
	uint64_t ptr;
	char comm[TRACE_COMM_LEN];
	char prev_comm[TRACE_COMM_LEN];
	char name[TRACE_NAME_LEN];
};

/* What the analysis is given: the events of one CPU, in time order. */
struct trace_window {
	int cpu;
	pid_t tid;			/* the measuring thread of that CPU */
	int64_t expected_ns;		/* its deadline */
	int64_t woken_ns;		/* its clock read after the wake-up */
	const struct trace_ev *ev;
	size_t n;
	const struct trace_ev *before;	/* the last TEV_SWITCH before ev[0], or NULL */
	uint64_t lost_events;		/* the ring buffer dropped this many */
};

struct trace_contrib {
	enum trace_kind kind;
	char name[TRACE_NAME_LEN];
	int id;			/* task: pid; irq: irq number (-1: a system vector); softirq: vector */
	int kernel_prio;	/* task: as in sched_switch; -1 otherwise */
	uint64_t duration_ns;
	unsigned int count;	/* separate stretches of time summed */
	bool self;		/* the measuring thread itself (its way back to user space) */
};

/* Which part of the wake-up was slow. */
enum trace_phase {
	TRACE_PHASE_UNKNOWN,
	TRACE_PHASE_TIMER,	/* the timer fired (or woke the thread) late */
	TRACE_PHASE_WAIT,	/* woken in time, then waited for the CPU */
	TRACE_PHASE_RESUME,	/* got the CPU in time, then was slow to return to user space */
};

const char *trace_phase_name(enum trace_phase p);

/*
 * The explanation of one threshold hit. Flat (no pointers): freed with free().
 * Times are CLOCK_MONOTONIC ns; -1 when the trace did not show the event.
 */
struct trace_result {
	bool triggered;			/* a hit was traced and analysed */
	int cpu;
	pid_t tid;
	char comm[TRACE_COMM_LEN];	/* of the measuring thread, from the trace */
	int kernel_prio;		/* of the measuring thread; -1 unseen */
	uint64_t latency_ns;
	int64_t expected_ns;
	int64_t woken_ns;
	int64_t timer_ns;		/* our hrtimer's callback started */
	int64_t waking_ns;		/* sched_waking of our thread */
	int64_t switch_ns;		/* sched_switch to our thread */
	int64_t timer_late_ns;		/* timer_ns (or waking_ns) - expected_ns */
	int64_t wait_ns;		/* switch_ns - waking_ns: runnable, not running */
	int64_t resume_ns;		/* woken_ns - switch_ns */
	enum trace_phase phase;		/* the largest of the three */
	bool idle_at_deadline;		/* the CPU ran its idle task at the deadline */
	int idle_state;			/* power:cpu_idle state it was in, -1 unknown */
	size_t n_contrib;
	struct trace_contrib contrib[TRACE_MAX_CONTRIB];	/* largest first */
	uint64_t explained_ns;		/* sum of the contributors but "unknown" */
	size_t n_events;		/* events of that CPU in [deadline, wake-up] */
	int64_t stop_delay_ns;		/* from the wake-up to the trace being stopped; -1 unknown */
	uint64_t lost_events;
	char file[4096];		/* where the window goes ("" before a hit) */
	bool file_saved;		/* it was written there */
	char file_error[160];		/* why not (strerror text) */
	bool timerlat_available;	/* the kernel has the timerlat tracer */
	bool osnoise_available;
	char missing_events[160];	/* optional events this kernel lacks */
	char error[160];		/* why there is no analysis ("" with triggered) */
	/* The cause as `rtready noise` names it (noise_match_wakeup()); "" not judged. */
	char cause_kind[16];
	char cause_name[48];
	int cause_id;			/* pid, IRQ number, vector; -1 none */
	int64_t steal_ticks;		/* steal of the CPU around the wake-up (USER_HZ); -1 unread */
};

/*
 * trace_analyze() - explain the spike of @w into @out (its cpu, tid, times,
 * phases and contributors; the rest of @out is left alone). Every
 * nanosecond of [expected, woken] goes to exactly one contributor: the
 * innermost context running at that time (hrtimer callback, hard IRQ or
 * system vector, softirq, else the current task); task time before the
 * thread's timer fired counts as the timer coming late. Pure.
 */
void trace_analyze(const struct trace_window *w, struct trace_result *out);

/* The first index of @ev (@n events in time order) at or after @t; @n if none. */
size_t trace_ev_first_at(const struct trace_ev *ev, size_t n, int64_t t);

/* What --trace asks for. */
struct trace_options {
	const char *file;	/* where to save the window; NULL: TRACE_DEFAULT_FILE */
	const struct rtr_cpuset *cpus;	/* the measured CPUs, traced alone; NULL: all */
};

struct trace_session;

/*
 * trace_session_start() - mount tracefs if it is not (and note it), create
 * the instance "rtready-<pid>" (removing ones left by dead rtready
 * processes), set its clock to "mono", enable the events and start it.
 * A guard process ("rtr-trace-guard", forked before the instance exists)
 * removes the instance if rtready dies without trace_session_free()
 * (kill -9); trace_session_free() ends it.
 * @why: what is missing, on failure (no libtracefs in this build, no
 *       tracefs in the kernel, no privilege, ...).
 * Return: 0, -ENOTSUP (no tracing in this build or kernel), -EPERM/-EACCES,
 * or another -errno; on failure nothing is left changed.
 */
int trace_session_start(const struct trace_options *opt, struct trace_session **out, char *why,
			size_t whylen) __attribute__((warn_unused_result));

/*
 * trace_session_hit() - a latency_run_on_threshold() callback: write a
 * marker into the trace and stop it (one write each, on descriptors opened
 * at the start). The first hit only.
 */
void trace_session_hit(void *session, const struct latency_hit *hit);

/*
 * trace_session_collect() - stop tracing, read the window around the hit
 * of @res, save it and explain it. On return *@out is a new result (also
 * when there was no hit: triggered false, error says why).
 * Return: 0, or -ENOMEM with *@out NULL.
 */
int trace_session_collect(struct trace_session *s, const struct latency_result *res,
			  struct trace_result **out) __attribute__((warn_unused_result));

/*
 * trace_session_start_run() - as trace_session_start(), for `rtready noise`:
 * the same events (and nmi:nmi_handler) on @cpus, recorded for the whole
 * run in @buffer_kb per CPU, read with trace_session_drain(); no file.
 * Return: as trace_session_start().
 */
int trace_session_start_run(const struct rtr_cpuset *cpus, unsigned int buffer_kb,
			    struct trace_session **out, char *why, size_t whylen)
	__attribute__((warn_unused_result));

/*
 * trace_session_drain() - read (and consume) what the instance holds now,
 * calling @fn for each decoded event of the traced CPUs, in time order per
 * CPU; @missed is the number of events the ring buffer dropped just before
 * this one (0 mostly; -1 when the kernel did not say how many). Called
 * while tracing goes on (a whole_run session), and once more after
 * trace_session_stop(). Return: 0 or -errno (-EIO: the buffers could not
 * be read).
 */
int trace_session_drain(struct trace_session *s,
			void (*fn)(void *ctx, int cpu, const struct trace_ev *ev, long long missed),
			void *ctx) __attribute__((warn_unused_result));

/* trace_session_stop() - stop recording (nothing is removed yet). */
void trace_session_stop(struct trace_session *s);

/*
 * trace_session_free() - the one place that puts tracing back: events off,
 * instance removed, tracefs unmounted if we mounted it. NULL: no-op.
 */
void trace_session_free(struct trace_session *s);

/*
 * trace_remove_stale() - stop and remove the tracing instances
 * "rtready-<pid>" whose rtready no longer runs (killed with SIGKILL in the
 * middle of a --trace run, they go on tracing, at a cost to every
 * measurement after them). Needs tracefs mounted at TRACE_TRACEFS_DIR and
 * root; does nothing otherwise (it never mounts). Works without
 * libtracefs: plain writes and rmdir.
 * @fn: called for each one found, with its name and 0 when it was
 *      removed, or the -errno of rmdir (it is stopped all the same);
 *      may be NULL.
 * Return: the number found.
 */
int trace_remove_stale(void (*fn)(void *ctx, const char *name, int err), void *ctx);

/*
 * trace_instance_remove() - stop the tracing instance @name (tracing_on and
 * its events off) and remove it, with plain writes and rmdir under
 * TRACE_TRACEFS_DIR (async-signal-safe: usable in a forked child).
 * Return: 0, or the -errno of rmdir (-EBUSY while a file of it is open).
 */
int trace_instance_remove(const char *name);

/* Whether this build has the libtracefs backend. */
bool trace_supported(void);

/*
 * trace_default_file() - "latency-trace.txt" in the directory of @output
 * (or the current directory when @output is NULL or has none).
 * Return: 0 or -ENAMETOOLONG.
 */
int trace_default_file(const char *output, char *buf, size_t len);

/*
 * trace_signals_hold() / trace_signals_release() - block SIGINT, SIGTERM
 * and SIGHUP in the calling thread while tracing is set up and read back,
 * so that Ctrl-C cannot leave an instance behind: during the run the
 * latency engine takes them as usual; after it, a pending one is dropped
 * (the run has ended anyway) and the old mask comes back.
 */
void trace_signals_hold(sigset_t *old);
void trace_signals_release(const sigset_t *old);

#endif
