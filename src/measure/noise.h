/* SPDX-License-Identifier: MIT */
/*
 * The engine of `rtready noise`: what disturbs a CPU whose work never
 * sleeps (polling loops, DPDK-style packet processing, control loops that
 * spin). One pinned thread per measured CPU reads CLOCK_MONOTONIC in a
 * tight loop; every gap between two reads above the threshold is an event:
 * the CPU was taken from the loop for that long. Each event gets one cause.
 *
 * Attribution, best source first:
 *   - the kernel trace (tracefs: irq, softirq, x86 vectors, sched_switch,
 *     nmi events of the measured CPUs, recorded for the whole run and
 *     drained while it goes): each gap is matched to what ran on its CPU
 *     inside it (noise_match(), pure);
 *   - without tracefs, counters per 100 ms window: /proc/interrupts,
 *     /proc/softirqs, the thread's involuntary switches, steal time; the
 *     gaps of a window share what its counters show (per window, not per
 *     event, and the result says so).
 *
 * Never hanging the machine: the measured set must leave at least one
 * online CPU to housekeeping, where the (non-realtime) main thread runs;
 * each spinner checks the end of the run itself, so it stops on time even
 * when the main thread cannot run; RLIMIT_RTTIME is set a little past the
 * duration as a last resort. RT throttling (sched_rt_runtime_us below its
 * period) takes the CPU from a spinning SCHED_FIFO thread for
 * period - runtime (50 ms a second by default) to run other tasks: those
 * gaps are named rt_throttling.
 */
#ifndef RTR_MEASURE_NOISE_H
#define RTR_MEASURE_NOISE_H

#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "measure/trace.h"
#include "rtready/cpuset.h"
#include "rtready/thread.h"

#define NOISE_DEFAULT_THRESHOLD_NS 5000ULL	/* --threshold 5 (us) */
#define NOISE_DEFAULT_DURATION_NS 10000000000ULL	/* -D 10s */
#define NOISE_MAX_DURATION_NS (24ULL * 3600 * 1000000000ULL)
#define NOISE_DEFAULT_PRIORITY 80
#define NOISE_HIST_BUCKETS 1024		/* 1 us each; the last one holds the rest */
#define NOISE_HIST_BUCKET_NS 1000ULL
#define NOISE_MAX_GAPS (1u << 20)	/* gaps kept per CPU for attribution */
#define NOISE_MAX_EVENTS (1u << 21)	/* trace events kept per CPU */
#define NOISE_WINDOW_NS 100000000LL	/* counters sampled every 100 ms */
#define NOISE_STEAL_PERIOD_NS 10000000LL	/* steal sampled every 10 ms */
#define NOISE_NAME_LEN 48
#define NOISE_TOP_GAPS 10		/* the largest gaps reported one by one */

enum noise_kind {
	NOISE_IRQ,
	NOISE_SOFTIRQ,
	NOISE_THREAD,
	NOISE_NMI,
	NOISE_RT_THROTTLING,
	NOISE_HYPERVISOR,
	NOISE_HARDWARE,
	NOISE_UNKNOWN,
};

/* "irq", "softirq", "thread", "nmi", "rt_throttling", "hypervisor", "hardware", "unknown". */
const char *noise_kind_name(enum noise_kind k);

enum noise_source {
	NOISE_SRC_TRACE,	/* every gap matched to trace events */
	NOISE_SRC_WINDOW,	/* per-window counter deltas */
};

/* "trace", "window". */
const char *noise_source_name(enum noise_source s);

enum noise_clock {
	NOISE_CLOCK_AUTO,	/* the TSC where it is invariant (x86), else CLOCK_MONOTONIC */
	NOISE_CLOCK_MONOTONIC,	/* clock_gettime(CLOCK_MONOTONIC) on every loop */
};

/* What to measure; plain data filled by the CLI. */
struct noise_config {
	struct rtr_cpuset cpus;
	enum rtr_policy policy;		/* FIFO (default), RR or OTHER */
	int priority;
	uint64_t duration_ns;		/* > 0 */
	uint64_t threshold_ns;
	bool mlock;
	bool trace;			/* use tracefs when it can (else counters) */
	enum noise_clock clock;
	/*
	 * "" or a threaded cgroup v2 group (an isolated partition: noise
	 * --isolate) that the spinners join, one by one (cgroup.threads),
	 * before they pin themselves to their CPU; the process first joins
	 * the group's parent, its threaded domain. The main thread stays
	 * outside, on the housekeeping CPUs, and makes no noise inside.
	 */
	char cgroup[PATH_MAX];
};

void noise_config_init(struct noise_config *cfg);
void noise_config_free(struct noise_config *cfg);

/* One gap over the threshold (CLOCK_MONOTONIC ns: the two clock reads around it). */
struct noise_gap {
	int64_t start_ns;
	int64_t end_ns;
};

/* The cause given to one gap. */
struct noise_attr {
	enum noise_kind kind;
	int id;				/* irq: number (-1 a system vector); softirq: vector; thread: pid */
	char name[NOISE_NAME_LEN];
};

/* A line of the cause table: every gap with that kind and name. */
struct noise_cause {
	enum noise_kind kind;
	int id;
	char name[NOISE_NAME_LEN];
	uint64_t count;
	uint64_t total_ns;
	uint64_t max_ns;
};

struct noise_top_gap {
	int64_t start_ns;
	uint64_t duration_ns;
	struct noise_attr cause;
};

struct noise_cpu_result {
	int cpu;
	pid_t tid;
	uint64_t loops;
	int64_t elapsed_ns;		/* of this thread's loop */
	uint64_t noise_ns;		/* sum of the gaps over the threshold */
	uint64_t events;		/* gaps over the threshold */
	uint64_t max_ns;		/* largest gap (over the threshold or not) */
	uint64_t hist[NOISE_HIST_BUCKETS];	/* every gap between two reads, by us */
	uint64_t gaps_unkept;		/* events past NOISE_MAX_GAPS: counted, not attributed */
	struct noise_cause *causes;	/* largest total first */
	size_t n_causes;
	struct noise_top_gap top[NOISE_TOP_GAPS];	/* largest first */
	size_t n_top;
	uint64_t trace_events;		/* trace events of this CPU matched against */
	uint64_t trace_lost;		/* events the ring buffer dropped */
	uint64_t steal_ticks;		/* steal time during the run (USER_HZ ticks) */
	int64_t smi_count;		/* SMIs during the run (MSR 0x34); -1 unread */
	struct noise_gap *gaps;		/* every gap kept, in time order */
	struct noise_attr *attr;	/* and its cause */
	size_t n_gaps;
};

enum noise_stop {
	NOISE_STOP_DURATION,
	NOISE_STOP_SIGNAL,
	NOISE_STOP_RUNAWAY,	/* SIGXCPU: RLIMIT_RTTIME (should never happen) */
};

const char *noise_stop_name(enum noise_stop s);

struct noise_result {
	struct noise_config cfg;	/* own copy */
	size_t n_cpus;
	struct noise_cpu_result *cpus;
	enum noise_stop stop;
	int stop_signal;
	int64_t elapsed_ns;
	enum noise_source source;
	char source_note[256];		/* why the trace was not used, "" when it was */
	int64_t rt_runtime_us;		/* sched_rt_runtime_us (-1: no throttling) */
	int64_t rt_period_us;		/* sched_rt_period_us (0: unread) */
	bool virtual_machine;		/* /proc/cpuinfo says hypervisor */
	unsigned int trace_retries;	/* reads of the trace that failed during the run */
	bool tsc;			/* the loops read the TSC (mapped to CLOCK_MONOTONIC) */
};

void noise_result_free(struct noise_result *r);

/* 100 * (1 - noise / elapsed), as rtla osnoise's "% CPU Aval". */
double noise_availability(const struct noise_cpu_result *c);

/*
 * noise_run() - measure: validate @cfg, start tracing (cfg->trace), lock
 * memory, start one spinner per CPU, wait for the duration or *@stop
 * (the CLI's signal flag), then attribute every gap into @out.
 * @why: the reason on failure (naming CAP_SYS_NICE, RLIMIT_RTPRIO, ...).
 * Return: 0, or -errno (-EINVAL: bad config; -EPERM: privilege).
 */
int noise_run(const struct noise_config *cfg, const volatile sig_atomic_t *stop,
	      struct noise_result *out, char *why, size_t whylen)
	__attribute__((warn_unused_result));

/*
 * noise_default_cpus() - the RT CPUs when there are (@rt not empty), else
 * every online CPU we may use but the first one (kept for housekeeping);
 * RT CPUs that are every online CPU lose their first one too.
 * Return: 0, -ENOMEM, or -ENOENT when that leaves none.
 */
int noise_default_cpus(const struct rtr_cpuset *online, const struct rtr_cpuset *rt,
		       const struct rtr_cpuset *allowed, struct rtr_cpuset *out)
	__attribute__((warn_unused_result));

/* What the matcher knows besides the events. */
struct noise_steal_sample {
	int64_t t_ns;
	uint64_t steal_ticks;	/* cumulative */
};

/*
 * What a measurement keeps of one CPU for noise_match(), in its main thread
 * (noise, and latency's --trace-all): the trace events and the steal-time
 * samples, in time order, each list capped.
 */
struct noise_cpu_log {
	struct trace_ev *ev;
	size_t n_ev, cap_ev;
	uint64_t lost;			/* events the kernel dropped, or past the cap */
	struct noise_steal_sample *steal;
	size_t n_steal, cap_steal;
};

/*
 * Count the @missed events the kernel dropped before @ev (-1: some, counted
 * as one); keep @ev when @keep, at most @max events (past that, it is lost).
 */
void noise_log_event(struct noise_cpu_log *log, const struct trace_ev *ev, long long missed,
		     bool keep, size_t max);
/* Keep a steal-time sample: the cumulative @ticks at @t_ns, at most @max samples. */
void noise_log_steal(struct noise_cpu_log *log, int64_t t_ns, uint64_t ticks, size_t max);
void noise_log_free(struct noise_cpu_log *log);

struct noise_match_input {
	const struct trace_ev *ev;	/* this CPU's events, in time order */
	size_t n_ev;
	pid_t tid;			/* the spinner */
	bool rt;			/* it runs SCHED_FIFO/RR */
	bool throttling;		/* RT throttling is on (runtime < period) */
	const struct noise_steal_sample *steal;	/* in time order; may be NULL */
	size_t n_steal;
	uint64_t lost;			/* events dropped: unseen causes possible */
	int64_t smi_delta;		/* SMIs during the run, -1 unknown */
	bool virtual_machine;		/* the names say "guest" */
};

/*
 * noise_match() - give each of the @n gaps (in time order) one cause in
 * @out[i], from the events inside it: another task ran (thread; or
 * rt_throttling when our RT thread gave way to a normal task or the idle
 * task, which only throttling makes it do), else the interrupt context
 * that took most of it (irq, softirq, nmi), else nothing ran in the
 * kernel: hypervisor when steal time rose around it, hardware otherwise
 * (unknown if the trace lost events). Pure.
 */
void noise_match(const struct noise_match_input *in, const struct noise_gap *gaps, size_t n,
		 struct noise_attr *out);

/*
 * noise_match_wakeup() - the cause of one late wake-up of `latency
 * --trace` from @tr, trace_analyze() of its window [expected, woken], and
 * what @in knows besides (its events are not used). Largest share first:
 * another task (thread: a higher priority, or a normal task the kernel did
 * not preempt; never rt_throttling, which a thread that sleeps does not
 * reach); the idle task or the timer coming late, with steal time rising
 * around it: hypervisor (the vCPU was not running; its trace shows idle,
 * not a cause); the idle task without steal: hardware (idle-state exit, or
 * a VM exit the host did not count); an interrupt context (irq, softirq,
 * or the timer interrupt coming late while a task kept interrupts off);
 * else unknown. Pure.
 */
void noise_match_wakeup(const struct noise_match_input *in, const struct trace_result *tr,
			struct noise_attr *out);

/*
 * noise_match_wakeups() - as noise_match() for late wake-ups: each window
 * [start_ns = deadline, end_ns = wake-up] of @wakeups (in time order) is
 * explained by trace_analyze() over @in's events and judged by
 * noise_match_wakeup(). Pure.
 */
void noise_match_wakeups(const struct noise_match_input *in, const struct noise_gap *wakeups,
			 size_t n, struct noise_attr *out);

/*
 * noise_steal_delta() - how many steal ticks (USER_HZ) the samples of @in
 * show around [@a, @b], one sample more on each side (steal counts in
 * ticks). 0 without samples. Pure.
 */
uint64_t noise_steal_delta(const struct noise_match_input *in, int64_t a, int64_t b);

/*
 * noise_causes_add() - count one gap of @ns under @a in the table
 * *@causes of *@n entries (grown). Return: 0 or -ENOMEM.
 */
int noise_causes_add(struct noise_cause **causes, size_t *n, const struct noise_attr *a,
		     uint64_t ns) __attribute__((warn_unused_result));

/* Sort a cause table, largest total first. */
void noise_causes_sort(struct noise_cause *causes, size_t n);

#endif
