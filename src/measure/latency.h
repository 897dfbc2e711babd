/* SPDX-License-Identifier: MIT */
/*
 * The wake-up latency engine behind `rtready latency`: one pinned realtime
 * thread per CPU sleeps to absolute CLOCK_MONOTONIC deadlines on a fixed
 * grid and records how late each wake-up was in a preallocated histogram.
 * The measuring loop makes no system call but the sleep (the clock is read
 * through the vDSO), never allocates and takes no page fault; the calling
 * (non-realtime) thread watches signals, shows live figures and stops the
 * workers. Results are plain data for the renderers and the histfile
 * writer: everything they print is computed here.
 *
 * Life cycle: latency_run_start() -> latency_run_wait() ->
 * latency_run_finish() -> latency_run_free(); then latency_result_free().
 */
#ifndef RTR_MEASURE_LATENCY_H
#define RTR_MEASURE_LATENCY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "measure/dma_latency.h"
#include "rtready/cpuset.h"
#include "rtready/hist.h"
#include "rtready/thread.h"

/* Defaults and limits of the options (cyclictest's where it has one). */
#define LATENCY_DEFAULT_INTERVAL_NS 1000000ULL	/* -i 1000 */
#define LATENCY_DEFAULT_DURATION_NS 10000000000ULL	/* -D 10s */
#define LATENCY_DEFAULT_BUCKET_NS 1000ULL	/* 1 us, the histfile's unit */
#define LATENCY_DEFAULT_RANGE_NS 10000000ULL	/* -h 10000: 10 ms of buckets */
#define LATENCY_DEFAULT_PRIORITY 80
#define LATENCY_MIN_INTERVAL_NS 10000ULL	/* below this the loop only measures itself */
#define LATENCY_MAX_INTERVAL_NS 10000000000ULL
/*
 * 8 MiB of counters per CPU at most; also what `rtready report` reads back
 * (RESULT_MAX_BUCKETS), so a result latency writes is one report can read.
 */
#define LATENCY_MAX_BUCKETS (1u << 20)
#define LATENCY_OUTLIERS 64	/* largest overflowing values kept exactly, per CPU */
#define LATENCY_OVF_CYCLES_MAX 4096	/* overflow cycle numbers kept for the histfile */
#define LATENCY_SAMPLE_RING (1u << 16)	/* -v: samples per CPU waiting to be printed */
#define LATENCY_MAX_HITS (1u << 14)	/* threshold_all: wake-ups over it kept per CPU */

/*
 * What to measure. Plain data, filled by the CLI; the engine copies it.
 * @cpus: one thread per CPU in the set.
 * @duration_ns: 0 runs until latency_run_stop() or a signal.
 * @threshold_ns: stop at the first sample above it (0: never).
 * @mlock: mlockall and prefault before the first sample.
 * @loops: each thread stops after this many wake-ups (0: no limit), like
 *         cyclictest's -l; the run ends when every thread has.
 * @sample_log: also keep each thread's latest samples in a ring of
 *              LATENCY_SAMPLE_RING, for latency_run_drain() (-v).
 * @dl_runtime_ns, @dl_deadline_ns, @dl_period_ns: with @policy
 *              RTR_SCHED_DEADLINE, each thread's reservation; @interval_ns
 *              must equal @dl_period_ns and @priority is not used. The
 *              threads are then not pinned to their CPU (the kernel
 *              refuses a DEADLINE affinity narrower than the root domain
 *              while admission control is on): one per CPU of @cpus, each
 *              bound to that CPU's root domain (the isolcpus CPUs, or the
 *              other online CPUs) and placed there by the kernel.
 * @aligned: every thread on one grid, run start + @align_offset_ns + k *
 *           interval, so that every CPU wakes at the same instant
 *           (cyclictest's -A); without it each thread keeps its own grid from
 *           the moment it starts, as cyclictest does by default. Many
 *           control loops wake every core on one tick: that is the harder
 *           case (on a VM, p50 about 1.5 times the per-thread one here).
 * @threshold_all: with @threshold_ns, do not stop at a wake-up over it:
 *                 keep each (at most LATENCY_MAX_HITS per CPU, the rest
 *                 counted) for latency_run_hits() (--trace-all).
 */
struct latency_config {
	struct rtr_cpuset cpus;
	enum rtr_policy policy;
	int priority;
	uint64_t interval_ns;
	uint64_t duration_ns;
	uint64_t bucket_ns;
	uint64_t range_ns;
	uint64_t threshold_ns;
	uint64_t loops;
	bool mlock;
	bool sample_log;
	uint64_t dl_runtime_ns;
	uint64_t dl_deadline_ns;
	uint64_t dl_period_ns;
	bool threshold_all;
	bool aligned;
	uint64_t align_offset_ns;
};

/*
 * Why creating a thread at @policy/@priority was refused (EPERM), when the
 * library did not say: the privilege, RLIMIT_RTPRIO, and RT group
 * scheduling; @instead (or NULL) adds what the user may do instead.
 * Also used by noise.
 */
void latency_explain_eperm(enum rtr_policy policy, int priority, const char *instead, char *why,
			   size_t len);

/* Fill @cfg with the defaults (cpus left empty). */
void latency_config_init(struct latency_config *cfg);
void latency_config_free(struct latency_config *cfg);

/* Statistics of one histogram, as reported (all in ns). */
struct latency_stats {
	uint64_t samples;
	uint64_t min_ns;	/* 0 when there is no sample */
	uint64_t avg_ns;
	uint64_t max_ns;
	uint64_t p50_ns;
	uint64_t p99_ns;
	uint64_t p999_ns;
	uint64_t overflows;	/* samples past the histogram's range */
	uint64_t missed;	/* grid periods skipped because a wake-up came later than one interval */
	uint64_t throttled;	/* DEADLINE: jobs that took longer than their runtime */
};

/* Compute the statistics of @h (pure; allocates only for the percentiles). */
void latency_stats_compute(const struct rtr_hist *h, uint64_t missed, struct latency_stats *out);

/*
 * latency_dl_job() - where one SCHED_DEADLINE job started against its
 * period: the job started at @now_ns (CLOCK_MONOTONIC) and its period is
 * taken to start at *@period_start_ns (the kernel's, from
 * latency_dl_first()). A job that
 * starts before that moves the origin there (the guess was late); a job
 * that starts one or more whole periods late counts them in *@missed.
 * Afterwards *@period_start_ns is the start of the period after the one the
 * job began in, for the next job; but after a job that started @deadline_ns
 * late or more, one period after this job's start: a thread woken after its
 * deadline gets a new period from the kernel, beginning then (the CBS
 * rule), and the old grid would make every later job look late by the
 * shift. Where the kernel kept its grid, the next job starts early against
 * that guess and moves the origin back. Pure.
 * Return: how late the job started, in ns.
 */
uint64_t latency_dl_job(int64_t *period_start_ns, int64_t now_ns, uint64_t period_ns,
			uint64_t deadline_ns, uint64_t *missed);

/*
 * latency_dl_first() - the start of the period in which a SCHED_DEADLINE
 * job that began at @start_ns runs, when the kernel began the thread's
 * first period at @origin_ns (inside its sched_setattr) and has kept its
 * grid since: the last origin + k * @period_ns at or before @start_ns, so
 * the job is taken to be less than a period late. @start_ns itself when it
 * is before @origin_ns. Both on CLOCK_MONOTONIC. Pure.
 *
 * The origin must be the kernel's, not the first job's start: that job is
 * itself late by a wake-up, and a grid begun there reads every later job
 * short by it (by the least wake-up seen, once early jobs have moved the
 * origin), as cyclicdeadline does.
 */
int64_t latency_dl_first(int64_t origin_ns, int64_t start_ns, uint64_t period_ns);

/*
 * latency_dl_resync() - the start of the next period (CLOCK_MONOTONIC) of a
 * SCHED_DEADLINE thread whose current absolute deadline on the run-queue
 * clock is @rq_deadline_ns (its /proc sched file's dl.deadline), that clock
 * being @rq_offset_ns behind CLOCK_MONOTONIC. Read after a job that started
 * @deadline_ns or more late, it follows the kernel whether it began a new
 * period (its timer fired after the deadline: the period began then, which
 * the thread cannot see) or kept its grid. Pure.
 */
int64_t latency_dl_resync(int64_t rq_deadline_ns, int64_t rq_offset_ns, uint64_t deadline_ns,
			  uint64_t period_ns);

/* One wake-up over the threshold (CLOCK_MONOTONIC ns). */
struct latency_hit_rec {
	uint64_t cycle;
	uint64_t late_ns;
	int64_t expected_ns;
	int64_t woken_ns;
};

struct noise_cause;

/* The result of one CPU. */
struct latency_cpu_result {
	int cpu;
	pid_t tid;
	struct rtr_hist hist;
	uint64_t missed;
	uint64_t *ovf_cycles;	/* cycle numbers of the first overflows (0-based) */
	size_t n_ovf_cycles;
	uint64_t last_ns;	/* the last sample (cyclictest's "Act") */
	uint64_t throttled;	/* DEADLINE: jobs longer than the runtime */
	struct rtr_cpuset cpus_seen;	/* DEADLINE: the CPUs its jobs ran on */
	struct latency_stats stats;
	/* threshold_all: the wake-ups over the threshold and, with --trace-all, their causes. */
	uint64_t over_threshold;	/* every one, kept or not */
	struct noise_cause *causes;	/* (measure/noise.h) largest total first; owned */
	size_t n_causes;
	uint64_t steal_ticks;		/* steal time of the CPU during the run (USER_HZ) */
};

enum latency_stop {
	LATENCY_STOP_DURATION,	/* the duration ran out */
	LATENCY_STOP_SIGNAL,	/* SIGINT, SIGTERM or SIGHUP */
	LATENCY_STOP_THRESHOLD,	/* a sample went past --threshold */
	LATENCY_STOP_RUNAWAY,	/* SIGXCPU: a thread ran without sleeping (RLIMIT_RTTIME) */
	LATENCY_STOP_ERROR,	/* a measuring thread failed */
	LATENCY_STOP_LOOPS,	/* every thread made its --loops wake-ups */
};

/* Return: "duration", "signal", "threshold", "runaway", "error", "loops". */
const char *latency_stop_name(enum latency_stop s);

/* The load that ran during the measurement (--load), as the CLI saw it. */
struct latency_load_info {
	const char *kind;		/* NULL: no load */
	uint64_t runs;			/* messaging runs completed */
	uint64_t messages;
	uint64_t cpu_loops;		/* CPU hog work units (~1M iterations each) */
	uint64_t memory_cycles;		/* allocate-touch-free cycles */
	char error[160];		/* "" when the load ran to the end */
};

struct trace_result;

struct latency_result {
	struct latency_config cfg;	/* what was asked (own copy) */
	size_t n_cpus;
	struct latency_cpu_result *cpus;
	struct rtr_hist total;		/* every CPU merged */
	struct latency_stats total_stats;
	enum latency_stop stop;
	int stop_signal;		/* with LATENCY_STOP_SIGNAL */
	int hit_cpu;			/* with LATENCY_STOP_THRESHOLD: which CPU, */
	pid_t hit_tid;			/* which thread, */
	uint64_t hit_cycle;		/* at which wake-up (0-based), */
	uint64_t hit_ns;		/* how late */
	int64_t hit_expected_ns;	/* with a threshold hit: the deadline (CLOCK_MONOTONIC) */
	int64_t hit_woken_ns;		/* and the clock read after the wake-up */
	struct trace_result *trace;	/* --trace: what the kernel trace shows (owned; may be NULL) */
	bool trace_all;			/* --trace-all: every wake-up over the threshold attributed */
	uint64_t trace_all_lost;	/* events the trace dropped (or rtready could not keep) */
	char trace_all_note[200];	/* why some could not be attributed; "" */
	int64_t elapsed_ns;		/* from the first deadline to the stop */
	int error;			/* with LATENCY_STOP_ERROR: -errno of the sleep */
	struct dma_latency_state dma;	/* /dev/cpu_dma_latency during the run */
	struct latency_load_info load;
};

void latency_result_free(struct latency_result *r);

/* Live figures of one CPU while the run goes on. */
struct latency_live_view {
	int cpu;
	pid_t tid;
	uint64_t cycles;
	uint64_t act_ns;
	uint64_t min_ns;
	uint64_t avg_ns;
	uint64_t max_ns;
};

struct latency_run;

/*
 * latency_run_start() - allocate, lock memory (cfg->mlock), set the runaway
 * guard (RLIMIT_RTTIME), block every signal in the calling thread (the
 * workers inherit the mask; latency_run_wait() takes the signals it
 * handles with sigtimedwait) and start one worker per CPU.
 * @dma_us: hold /dev/cpu_dma_latency at this value for the run, or -1 to
 *          leave it alone (its state is read and reported either way).
 * @why: receives an explanation on failure (naming the missing privilege
 *       or limit: CAP_SYS_NICE, RLIMIT_RTPRIO, RLIMIT_MEMLOCK).
 * Return: 0, or -errno with *@out NULL and the process as it was.
 */
int latency_run_start(const struct latency_config *cfg, int32_t dma_us, struct latency_run **out,
		      char *why, size_t whylen) __attribute__((warn_unused_result));

/*
 * latency_run_wait() - block until the duration ends, a signal arrives or a
 * worker stops the run; every @tick_ns (0: never) call @tick with the live
 * figures of every CPU (an array of latency_run_ncpus()).
 */
void latency_run_wait(struct latency_run *run, uint64_t tick_ns,
		      void (*tick)(void *ctx, const struct latency_live_view *v, size_t n),
		      void *ctx);

/*
 * latency_run_drain() - with cfg->sample_log, hand the samples logged since
 * the last call to @fn, thread by thread in wake-up order (@thread: index
 * in the run, @cycle: wake-up number from 0). Samples that the ring
 * overwrote before they were read are not shown: *@lost (per thread, an
 * array of latency_run_ncpus()) is raised by their number. Call from the
 * thread of latency_run_wait(), e.g. in its tick.
 */
void latency_run_drain(struct latency_run *run,
		       void (*fn)(void *ctx, size_t thread, uint64_t cycle, uint64_t ns),
		       void *ctx, uint64_t *lost);

/* Ask the workers to stop; they do within one interval. Async-signal-safe. */
void latency_run_stop(struct latency_run *run);

size_t latency_run_ncpus(const struct latency_run *run);

/*
 * latency_run_finish() - stop and join the workers, release what the run
 * held (/dev/cpu_dma_latency, RLIMIT_RTTIME) and move every sample into
 * @res, with statistics per CPU and overall.
 * Return: 0 or -ENOMEM.
 */
int latency_run_finish(struct latency_run *run, struct latency_result *res)
	__attribute__((warn_unused_result));

/* A threshold hit, as the measuring thread saw it (CLOCK_MONOTONIC ns). */
struct latency_hit {
	int cpu;
	pid_t tid;
	uint64_t cycle;
	uint64_t late_ns;
	int64_t expected_ns;
	int64_t woken_ns;
};

/*
 * latency_run_on_threshold() - have latency_run_wait() call @fn, in the
 * calling (non-realtime) thread, as soon as it learns of a threshold hit and
 * before anything else; the measuring thread itself only sets a flag. Used
 * by --trace to stop the kernel trace at once. Call before latency_run_wait().
 */
void latency_run_on_threshold(struct latency_run *run,
			      void (*fn)(void *ctx, const struct latency_hit *hit), void *ctx);

/*
 * latency_run_on_poll() - have latency_run_wait() call @fn every @period_ns
 * (with CLOCK_MONOTONIC now), in the calling thread: --trace samples steal
 * time and drains the kernel trace there. Call before latency_run_wait().
 */
void latency_run_on_poll(struct latency_run *run, uint64_t period_ns,
			 void (*fn)(void *ctx, int64_t now_ns), void *ctx);

/*
 * latency_run_hits() - with cfg.threshold_all, the wake-ups over the
 * threshold that thread @i (index in the run) has published so far, in
 * time order, while it runs or after; *@tid: that thread's tid (0 before
 * it started). Return: their number.
 */
size_t latency_run_hits(struct latency_run *run, size_t i, const struct latency_hit_rec **hits,
			pid_t *tid);

/* Free @run (NULL: no-op); restores the signal mask of latency_run_start(). */
void latency_run_free(struct latency_run *run);

/*
 * latency_default_cpus() - the CPUs to measure when none are named: every
 * online CPU that this process may run on, isolated CPUs included (they are
 * left out of inherited affinity masks, and are the ones that matter).
 * @online, @isolated: kernel cpu lists (/sys/devices/system/cpu/online and
 *                     .../isolated); @allowed: our affinity.
 * Return: 0, -ENOMEM, or -ENOENT when nothing is left.
 */
int latency_default_cpus(const struct rtr_cpuset *online, const struct rtr_cpuset *isolated,
			 const struct rtr_cpuset *allowed, struct rtr_cpuset *out);

#endif
