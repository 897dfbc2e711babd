// SPDX-License-Identifier: MIT
/*
 * The wake-up latency engine; see latency.h. One worker per CPU runs the
 * measuring loop at a realtime priority; the calling thread stays at
 * SCHED_OTHER, takes the signals synchronously (sigtimedwait, no handler),
 * shows live figures and decides when the run ends. Each worker's data
 * lives in its own cache lines so that the workers never share a line
 * that one of them writes in every cycle.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <linux/capability.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "measure/latency.h"
#include "measure/memlock.h"
#include "probe/dlbw.h"
#include "probe/rootfs.h"
#include "rtready/error.h"
#include "rtready/mem.h"
#include "rtready/timespec.h"
#include "util/clock.h"
#include "util/say.h"

/*
 * The runaway guard. RLIMIT_RTTIME counts the CPU time a realtime thread
 * uses without blocking; our loop blocks every cycle, so only a bug can
 * reach it. The soft limit sends SIGXCPU (the main thread stops the run
 * with a message); the hard limit, one second later, SIGKILL (only where
 * the process may raise it back afterwards: see may_raise_limits()).
 */
#define RTTIME_SOFT_US 2000000
#define RTTIME_HARD_US 3000000

/* The first deadline is this far after the start, so that every worker is running by then. */
#define START_MARGIN_NS (20 * RTR_NSEC_PER_MSEC)

/* Memory prefaulted before the first sample: for the main thread's output while it runs. */
#define WORKER_STACK_BYTES (128u << 10)

/* Written by a worker, read by the main thread: relaxed atomics, no lock. */
struct live {
	_Atomic uint64_t cycles;
	_Atomic uint64_t act_ns;
	_Atomic uint64_t min_ns;
	_Atomic uint64_t max_ns;
	_Atomic uint64_t sum_ns;
	_Atomic int tid;
};

struct worker {
	/* Touched by the worker in every cycle. */
	struct rtr_hist hist;
	uint64_t range_ns;
	uint64_t *ovf_cycles;
	size_t n_ovf;
	size_t cap_ovf;
	_Atomic uint32_t *ring;	/* -v: sample of wake-up c at [c % LATENCY_SAMPLE_RING] */
	uint64_t missed;
	uint64_t throttled;	/* DEADLINE: jobs longer than the runtime */
	uint64_t *seen;		/* DEADLINE: bitmap of the CPUs its jobs ran on */
	size_t seen_words;
	int hit_cpu;		/* the CPU of the hit (a DEADLINE thread moves) */
	uint64_t hit_cycle;
	uint64_t hit_ns;
	int64_t hit_expected_ns;
	int64_t hit_woken_ns;
	struct latency_hit_rec *hits;	/* threshold_all: [0, n_hits) published */
	size_t n_hits_own;		/* the worker's count (n_hits is its published copy) */
	uint64_t hits_over;		/* every wake-up over the threshold */
	_Atomic size_t n_hits;
	int err;
	/* Read by the main thread while the worker runs: a line of its own. */
	struct live live __attribute__((aligned(64)));
	/* Set up before the start, read-only afterwards. */
	struct latency_run *run __attribute__((aligned(64)));
	int cpu;
	int index;
	uint64_t drained;	/* -v: wake-ups handed out by latency_run_drain() (main thread) */
	struct rtr_cpuset pin;
	pthread_t thread;
	bool started;
	/* DEADLINE: the worker makes itself SCHED_DEADLINE and posts dl_ready. */
	struct rtr_thread_attr dl_attr;
	sem_t dl_ready;
	bool dl_sem;
	int dl_err;
	char dl_why[256];
} __attribute__((aligned(64)));

struct latency_run {
	struct latency_config cfg;
	struct worker *w;
	size_t n;
	struct timespec start;	/* the grid's origin */
	struct timespec end;	/* with has_end */
	bool has_end;
	_Atomic int stop;	/* the main thread asks the workers to stop */
	_Atomic int hit;	/* index of the worker that crossed the threshold, or -1 */
	_Atomic size_t dl_turn;	/* -A, DEADLINE: the worker whose turn it is to become so */
	_Atomic int failed;	/* a worker failed (see its err) */
	_Atomic size_t looped;	/* workers that made their cfg.loops wake-ups */
	uint32_t *drain_buf;	/* -v: a copy of one ring, for latency_run_drain() */
	pthread_t main;
	sigset_t oldmask;
	bool mask_set;
	struct rlimit old_rttime;
	bool rttime_set;
	bool locked;
	struct dma_latency_hold dma_hold;
	struct dma_latency_state dma;
	enum latency_stop reason;
	int signo;
	struct timespec stopped;
	bool finished;
	void (*on_hit)(void *ctx, const struct latency_hit *hit);
	void *on_hit_ctx;
	void (*on_poll)(void *ctx, int64_t now_ns);
	void *on_poll_ctx;
	uint64_t poll_ns;
};

void latency_config_init(struct latency_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->policy = RTR_SCHED_FIFO;
	cfg->priority = LATENCY_DEFAULT_PRIORITY;
	cfg->interval_ns = LATENCY_DEFAULT_INTERVAL_NS;
	cfg->duration_ns = LATENCY_DEFAULT_DURATION_NS;
	cfg->bucket_ns = LATENCY_DEFAULT_BUCKET_NS;
	cfg->range_ns = LATENCY_DEFAULT_RANGE_NS;
	cfg->mlock = true;
}

void latency_config_free(struct latency_config *cfg)
{
	rtr_cpuset_free(&cfg->cpus);
}

const char *latency_stop_name(enum latency_stop s)
{
	switch (s) {
	case LATENCY_STOP_DURATION: return "duration";
	case LATENCY_STOP_SIGNAL: return "signal";
	case LATENCY_STOP_THRESHOLD: return "threshold";
	case LATENCY_STOP_RUNAWAY: return "runaway";
	case LATENCY_STOP_ERROR: return "error";
	case LATENCY_STOP_LOOPS: return "loops";
	}
	return "unknown";
}

void latency_stats_compute(const struct rtr_hist *h, uint64_t missed, struct latency_stats *out)
{
	memset(out, 0, sizeof(*out));
	out->samples = h->samples;
	out->overflows = h->overflows;
	out->missed = missed;
	if (!h->samples)
		return;
	out->min_ns = h->min_ns;
	out->max_ns = h->max_ns;
	out->avg_ns = rtr_hist_avg_ns(h);
	out->p50_ns = rtr_hist_percentile(h, 0.50);
	out->p99_ns = rtr_hist_percentile(h, 0.99);
	out->p999_ns = rtr_hist_percentile(h, 0.999);
}

void latency_result_free(struct latency_result *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->n_cpus; i++) {
		rtr_hist_free(&r->cpus[i].hist);
		free(r->cpus[i].ovf_cycles);
		rtr_cpuset_free(&r->cpus[i].cpus_seen);
		free(r->cpus[i].causes);
	}
	free(r->cpus);
	rtr_hist_free(&r->total);
	free(r->trace);	/* flat (struct trace_result has no pointers) */
	latency_config_free(&r->cfg);
	memset(r, 0, sizeof(*r));
}

int latency_default_cpus(const struct rtr_cpuset *online, const struct rtr_cpuset *isolated,
			 const struct rtr_cpuset *allowed, struct rtr_cpuset *out)
{
	int err = rtr_cpuset_copy(out, allowed);

	if (!err && isolated)
		err = rtr_cpuset_or(out, isolated);
	if (err)
		return err;
	rtr_cpuset_and(out, online);
	return rtr_cpuset_is_empty(out) ? -ENOENT : 0;
}

static void store(_Atomic uint64_t *p, uint64_t v)
{
	atomic_store_explicit(p, v, memory_order_relaxed);
}

static uint64_t load(_Atomic uint64_t *p)
{
	return atomic_load_explicit(p, memory_order_relaxed);
}

/* A worker's running figures, kept in registers or its stack by the loop. */
struct acc {
	uint64_t cycle;
	uint64_t min;
	uint64_t max;
	uint64_t sum;
};

/* Write every page a loop will touch, so that no first write faults. */
static void prepare(struct worker *w)
{
	atomic_store_explicit(&w->live.tid, (int)gettid(), memory_order_relaxed);
	rtr_hist_reset(&w->hist);
	if (w->cap_ovf)
		memset(w->ovf_cycles, 0, w->cap_ovf * sizeof(*w->ovf_cycles));
	for (size_t i = 0; w->ring && i < LATENCY_SAMPLE_RING; i++)
		atomic_store_explicit(&w->ring[i], 0, memory_order_relaxed);
	if (w->seen_words)
		memset(w->seen, 0, w->seen_words * sizeof(*w->seen));
	if (w->hits)
		memset(w->hits, 0, LATENCY_MAX_HITS * sizeof(*w->hits));
}

/*
 * Record sample @v (ns late; @expected_ns and @woken_ns on CLOCK_MONOTONIC)
 * of the wake-up or job numbered acc->cycle, on CPU @cpu.
 * Return: true when it crossed the threshold (the run is to stop).
 */
static inline __attribute__((always_inline)) bool record(struct worker *w, struct acc *acc,
							  uint64_t v, int64_t expected_ns,
							  int64_t woken_ns, int cpu)
{
	struct latency_run *run = w->run;
	const uint64_t threshold = run->cfg.threshold_ns;

	rtr_hist_add(&w->hist, v);
	if (v >= w->range_ns && w->n_ovf < w->cap_ovf)
		w->ovf_cycles[w->n_ovf++] = acc->cycle;
	acc->sum += v;
	if (v < acc->min)
		acc->min = v;
	if (v > acc->max)
		acc->max = v;
	if (w->ring)
		atomic_store_explicit(&w->ring[acc->cycle % LATENCY_SAMPLE_RING],
				      v > UINT32_MAX ? UINT32_MAX : (uint32_t)v,
				      memory_order_relaxed);
	acc->cycle++;
	store(&w->live.act_ns, v);
	store(&w->live.min_ns, acc->min);
	store(&w->live.max_ns, acc->max);
	store(&w->live.sum_ns, acc->sum);
	/* Release: latency_run_drain() reads the ring up to this count. */
	atomic_store_explicit(&w->live.cycles, acc->cycle, memory_order_release);
	if (threshold && v > threshold && w->hits) {
		/* Keep it and go on (--trace-all): the main thread reads the published ones. */
		w->hits_over++;
		if (w->n_hits_own < LATENCY_MAX_HITS) {
			w->hits[w->n_hits_own++] = (struct latency_hit_rec){
				acc->cycle - 1, v, expected_ns, woken_ns };
			atomic_store_explicit(&w->n_hits, w->n_hits_own, memory_order_release);
		}
	} else if (threshold && v > threshold) {
		int none = -1;

		w->hit_cycle = acc->cycle - 1;
		w->hit_ns = v;
		w->hit_cpu = cpu;
		w->hit_expected_ns = expected_ns;
		w->hit_woken_ns = woken_ns;
		atomic_compare_exchange_strong(&run->hit, &none, w->index);
		return true;
	}
	return false;
}

/*
 * Record a sample (record()) and say whether the worker ends with it: at
 * the threshold (*own_stop), after its --loops (*looped), or because the
 * run is being stopped. Both job loops end every job so.
 */
static inline __attribute__((always_inline)) bool record_last(struct worker *w, struct acc *acc,
							       uint64_t v, int64_t expected_ns,
							       int64_t woken_ns, int cpu,
							       bool *own_stop, bool *looped)
{
	const uint64_t loops = w->run->cfg.loops;

	if (record(w, acc, v, expected_ns, woken_ns, cpu))
		return *own_stop = true;
	if (loops && acc->cycle >= loops)
		return *looped = true;
	return atomic_load_explicit(&w->run->stop, memory_order_relaxed);
}

/* How a worker leaves: wake the main thread when it ends the run. */
static void finish(struct worker *w, bool own_stop, bool looped)
{
	struct latency_run *run = w->run;

	if (own_stop) {
		atomic_store_explicit(&run->stop, 1, memory_order_relaxed);
		/* Wake the main thread from sigtimedwait (outside the loop, once). */
		pthread_kill(run->main, SIGUSR1);
	} else if (looped && atomic_fetch_add(&run->looped, 1) + 1 == run->n) {
		/* The last one to finish its loops ends the run. */
		pthread_kill(run->main, SIGUSR1);
	}
}

/*
 * The measuring loop. Per cycle: one absolute sleep, one clock read (vDSO),
 * one histogram update and a few relaxed stores; nothing that can allocate,
 * fault (every page it touches was written before the loop, and mlockall
 * keeps them) or make another system call. Signals are blocked (inherited
 * mask), so the sleep is interrupted only by a ptrace stop.
 */
static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct latency_run *run = w->run;
	const int64_t interval = (int64_t)run->cfg.interval_ns;
	struct timespec next = run->start, now;
	struct acc acc = { .min = UINT64_MAX };
	int64_t late;
	bool own_stop = false, looped = false;

	prepare(w);

	/*
	 * Aligned (-A): one grid for every thread, start + offset + k *
	 * interval, k >= 1, joined at its first point ahead of now (a late
	 * start is not a late wake-up). Else, as cyclictest: the thread's own
	 * grid, one interval after the moment it is ready, so that the CPUs do
	 * not all wake at the same instant.
	 */
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (run->cfg.aligned) {
		next = rtr_ts_add_ns(next, (int64_t)run->cfg.align_offset_ns);
		late = rtr_ts_diff_ns(now, next);
		next = rtr_ts_add_ns(next, (late >= 0 ? late / interval + 1 : 1) * interval);
	} else {
		/* The thread's own phase, its first point at or after the run's start. */
		next = rtr_ts_add_ns(now, interval);
		late = rtr_ts_diff_ns(run->start, next);
		if (late > 0)
			next = rtr_ts_add_ns(next, (late + interval - 1) / interval * interval);
	}

	for (;;) {
		uint64_t v;
		int rc;

		if (run->has_end && rtr_ts_cmp(next, run->end) > 0)
			break;
		rc = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
		if (rc == EINTR)
			continue;
		if (rc) {
			w->err = -rc;
			atomic_store_explicit(&run->failed, 1, memory_order_relaxed);
			own_stop = true;
			break;
		}
		clock_gettime(CLOCK_MONOTONIC, &now);
		late = rtr_ts_diff_ns(now, next);
		v = late > 0 ? (uint64_t)late : 0;
		if (record_last(w, &acc, v, rtr_ts_to_ns(next), rtr_ts_to_ns(now), w->cpu, &own_stop,
				&looped))
			break;
		/* Keep the grid: periods that are already over are counted, not slept for. */
		if (late >= interval) {
			int64_t k = late / interval;

			/* Only grid points inside the run count as missed. */
			if (run->has_end) {
				int64_t left = rtr_ts_diff_ns(run->end, next) / interval;

				w->missed += (uint64_t)(k < left ? k : left);
			} else {
				w->missed += (uint64_t)k;
			}
			next = rtr_ts_add_ns(next, (k + 1) * interval);
		} else {
			next = rtr_ts_add_ns(next, interval);
		}
	}
	finish(w, own_stop, looped);
	return NULL;
}

uint64_t latency_dl_job(int64_t *period_start_ns, int64_t now_ns, uint64_t period_ns,
			uint64_t deadline_ns, uint64_t *missed)
{
	int64_t late = now_ns - *period_start_ns;
	int64_t k;

	if (late < 0) {
		*period_start_ns = now_ns;
		late = 0;
	}
	k = late / (int64_t)period_ns;
	*missed += (uint64_t)k;
	if ((uint64_t)late >= deadline_ns)
		/* The kernel may have begun a new period at the wake-up: follow it. */
		*period_start_ns = now_ns + (int64_t)period_ns;
	else
		/* The next job's period follows the one this job started in. */
		*period_start_ns += (k + 1) * (int64_t)period_ns;
	return (uint64_t)late;
}

int64_t latency_dl_first(int64_t origin_ns, int64_t start_ns, uint64_t period_ns)
{
	if (start_ns < origin_ns)
		return start_ns;
	return origin_ns + (start_ns - origin_ns) / (int64_t)period_ns * (int64_t)period_ns;
}

/*
 * The calling thread's absolute deadline on the run-queue clock (the
 * dl.deadline of its /proc sched file, present with CONFIG_SCHED_DEBUG).
 * Return: 0 or -errno.
 */
static int own_deadline(const struct rootfs *fs, int64_t *deadline_ns)
{
	struct dlbw_sched_fields f;
	char path[64], buf[8192];
	int err;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/sched", (int)getpid(), (int)gettid());
	err = rootfs_read_str(fs, path, buf, sizeof(buf));
	if (!err)
		err = dlbw_parse_proc_sched(buf, &f);
	if (err)
		return err;
	for (size_t i = 0; i < f.n; i++) {
		if (strcmp(f.key[i], "dl.deadline") == 0 && f.value[i] > 0) {
			*deadline_ns = f.value[i];
			return 0;
		}
	}
	return -ENOENT;
}

int64_t latency_dl_resync(int64_t rq_deadline_ns, int64_t rq_offset_ns, uint64_t deadline_ns,
			  uint64_t period_ns)
{
	return rq_deadline_ns - (int64_t)deadline_ns + rq_offset_ns + (int64_t)period_ns;
}

/*
 * Make the calling worker SCHED_DEADLINE and tell start_workers() how it
 * went. The kernel begins the thread's first period inside sched_setattr,
 * at its run-queue clock; the clock read right after the call is that
 * origin to within the call's tail (admission is done by then, and the
 * thread, now DEADLINE, is not preempted on the way out). Before the
 * call the thread is SCHED_OTHER and may wait for the CPU, so the start of
 * the call says little. Return: that origin, or -1 when refused.
 */
/*
 * How long before an aligned instant a DEADLINE worker stops sleeping and
 * spins: more than a timer wake-up is late on a VM (up to about 220 us
 * measured on the development VM).
 */
#define DL_ALIGN_SPIN_NS 500000
/* How long past that instant a worker waits for its turn (about 10 us a thread here). */
#define DL_TURN_WAIT_NS 20000000

static int64_t become_deadline(struct worker *w, bool aligned)
{
	int err = rtr_thread_apply(&w->dl_attr);
	int64_t origin = mono_ns();

	if (aligned)
		atomic_fetch_add_explicit(&w->run->dl_turn, 1, memory_order_release);

	w->dl_err = err;
	if (err) {
		const char *lib = rtr_last_error();

		snprintf(w->dl_why, sizeof(w->dl_why), "%s", lib ? lib : "");
	}
	sem_post(&w->dl_ready);
	return err ? -1 : origin;
}

/* Mark @cpu in the worker's bitmap (preallocated: nothing allocates here). */
static void mark_cpu(struct worker *w, int cpu)
{
	if (cpu >= 0 && (size_t)cpu / 64 < w->seen_words)
		w->seen[cpu / 64] |= 1ULL << (cpu % 64);
}

/*
 * The SCHED_DEADLINE job loop. The thread makes itself SCHED_DEADLINE
 * (become_deadline), which gives the origin of the kernel's periods; every
 * job reads the clock, records how late it started against its period
 * (latency_dl_first for the first, latency_dl_job) and ends with
 * sched_yield(), which
 * hands the rest of the runtime back: the kernel throttles the thread
 * until its next period begins and then makes it runnable, so the job's
 * lateness is the wake-up latency of the deadline scheduler's replenishment
 * timer. A job whose start-to-yield time exceeds the runtime ran out of
 * budget (the kernel throttled it before it yielded, or a deadline task
 * with an earlier deadline preempted it): counted as throttled. Per job:
 * the yield, two clock reads and sched_getcpu() (rseq/vDSO, no system call).
 *
 * The clock is CLOCK_MONOTONIC, the clock of the replenishment timer. The
 * kernel counts the periods on its scheduler clock and converts each
 * expiry to CLOCK_MONOTONIC when it arms the timer: where that clock is
 * "unstable" (VMs; it then follows CLOCK_MONOTONIC tick by tick) the
 * periods are whole periods of CLOCK_MONOTONIC (measured: the timer's
 * expiries stayed within 0.4 ns a period of it while it moved 1 to 5 ns a
 * period against CLOCK_MONOTONIC_RAW). Where it is stable (the TSC) the
 * periods run at its rate, and an NTP slew of CLOCK_MONOTONIC moves the
 * grid by the slew (10 ppm: 10 ns a 1 ms period).
 */
static void *worker_dl_main(void *arg)
{
	struct worker *w = arg;
	struct latency_run *run = w->run;
	const uint64_t period = run->cfg.dl_period_ns;
	const int64_t runtime = (int64_t)run->cfg.dl_runtime_ns;
	const int64_t end = run->has_end ? rtr_ts_to_ns(run->end) : INT64_MAX;
	struct acc acc = { .min = UINT64_MAX };
	struct timespec now;
	int64_t start, period_start, rq_deadline, rq_offset = 0;
	bool own_stop = false, looped = false, resync, fs_open, calibrated = false;
	struct rootfs fs;

	prepare(w);
	fs_open = rootfs_open(&fs, "/") == 0;
	resync = fs_open;
	if (run->cfg.aligned) {
		/*
		 * -A: every worker's first period begins at one instant, run
		 * start + offset + k * period (the first such point ahead),
		 * so that all their grids coincide, as cyclicdeadline's do.
		 */
		struct timespec at = rtr_ts_add_ns(run->start, (int64_t)run->cfg.align_offset_ns);
		int64_t late;

		struct timespec near;

		clock_gettime(CLOCK_MONOTONIC, &now);
		late = rtr_ts_diff_ns(now, at);
		if (late > 0)
			at = rtr_ts_add_ns(at, (late / (int64_t)period + 1) * (int64_t)period);
		/*
		 * Each thread's own timer wakes it late by its own amount (5 to
		 * 220 us apart here, so the grids were that far apart): sleep to
		 * DL_ALIGN_SPIN_NS before the instant, then spin to it, so that
		 * every thread is on its CPU and becomes SCHED_DEADLINE within
		 * a clock read of the others. The spin is at SCHED_FIFO 1, once.
		 */
		near = rtr_ts_add_ns(at, -DL_ALIGN_SPIN_NS);
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &near, NULL) == EINTR)
			;
		do
			clock_gettime(CLOCK_MONOTONIC, &now);
		while (rtr_ts_diff_ns(now, at) < 0);
		/*
		 * Then one after the other, in index order, each as soon as the
		 * one before has returned. At one instant they would meet in the
		 * kernel (a DEADLINE change takes the cpuset mutex): the one that
		 * waits sleeps and is woken a wake-up later, and the one it
		 * waited for returns late by the wake it sends, so its clock
		 * read after the call, the origin of its grid, would be late by
		 * that (21 us here). In turn each call is uncontended and the
		 * grids lie one call apart (about 10 us here). A yield, not a
		 * pure spin: two of them may share a CPU.
		 */
		while (atomic_load_explicit(&run->dl_turn, memory_order_acquire) != (size_t)w->index &&
		       !atomic_load_explicit(&run->stop, memory_order_relaxed)) {
			sched_yield();
			/*
			 * The one before kept from its CPU (a higher RT task
			 * there) for DL_TURN_WAIT_NS: go without it rather
			 * than spin at SCHED_FIFO 1 for as long as it waits.
			 */
			clock_gettime(CLOCK_MONOTONIC, &now);
			if (rtr_ts_diff_ns(now, at) > DL_TURN_WAIT_NS)
				break;
		}
	}
	period_start = become_deadline(w, run->cfg.aligned);
	if (period_start < 0) {
		if (fs_open)
			rootfs_close(&fs);
		return NULL;
	}
	/* Jobs until the run's start: each yield ends one. */
	do {
		sched_yield();
		start = mono_ns();
	} while (start < rtr_ts_to_ns(run->start));
	period_start = latency_dl_first(period_start, start, period);
	for (;;) {
		uint64_t v;
		int cpu;

		clock_gettime(CLOCK_MONOTONIC, &now);
		start = rtr_ts_to_ns(now);
		if (start > end)
			break;
		v = latency_dl_job(&period_start, start, period, run->cfg.dl_deadline_ns,
				   &w->missed);
		cpu = sched_getcpu();
		mark_cpu(w, cpu);
		/* Against the period's start (the one it was measured from). */
		if (record_last(w, &acc, v, start - (int64_t)v, start, cpu, &own_stop, &looped))
			break;
		/*
		 * A job a deadline or more late: the kernel began a new period
		 * if its timer fired that late (at that moment, which the
		 * thread cannot see), or kept its grid if only the thread was
		 * held up. Its deadline says which: the next period is one
		 * period after the start of this one.
		 */
		if (calibrated && v >= run->cfg.dl_deadline_ns &&
		    own_deadline(&fs, &rq_deadline) == 0)
			period_start = latency_dl_resync(rq_deadline, rq_offset,
							 run->cfg.dl_deadline_ns, period);
		/*
		 * Once, on a job that started in time: where the run-queue
		 * clock's deadlines lie on CLOCK_MONOTONIC, for the above. Each
		 * thread on a job of its own number, so that aligned threads do
		 * not read their files at the same moment (they contend, and a
		 * DEADLINE thread that blocks early in its period is given a
		 * new one when it wakes). Without the sched file (no
		 * CONFIG_SCHED_DEBUG), the guess of latency_dl_job() stands.
		 */
		if (resync && !calibrated && acc.cycle >= 2 + 3 * (uint64_t)w->index &&
		    v < run->cfg.dl_deadline_ns) {
			calibrated = own_deadline(&fs, &rq_deadline) == 0;
			if (calibrated)
				rq_offset = start - (int64_t)v -
					    (rq_deadline - (int64_t)run->cfg.dl_deadline_ns);
			resync = calibrated;
		}
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (rtr_ts_to_ns(now) - start > runtime)
			w->throttled++;
		sched_yield();
	}
	if (fs_open)
		rootfs_close(&fs);
	finish(w, own_stop, looped);
	return NULL;
}

void latency_explain_eperm(enum rtr_policy policy, int priority, const char *instead, char *why,
			   size_t len)
{
	struct rlimit rl;
	char lim[32] = "unknown";

	if (getrlimit(RLIMIT_RTPRIO, &rl) == 0) {
		if (rl.rlim_cur == RLIM_INFINITY)
			snprintf(lim, sizeof(lim), "unlimited");
		else
			snprintf(lim, sizeof(lim), "%llu", (unsigned long long)rl.rlim_cur);
	}
	say_why(why, len, 0,
		"SCHED_%s priority %d was refused: it needs CAP_SYS_NICE or RLIMIT_RTPRIO >= %d "
		"(RLIMIT_RTPRIO is %s; as root, RT group scheduling refuses it in a cgroup "
		"without an RT budget: see rtready check --only sched.rt_group)%s%s",
		rtr_policy_name(policy), priority, priority, lim, instead ? "; " : "",
		instead ? instead : "");
}

static int validate(const struct latency_config *cfg, char *why, size_t len)
{
	if (rtr_cpuset_is_empty(&cfg->cpus))
		return say_why(why, len, -EINVAL, "no CPU to measure");
	if (cfg->policy == RTR_SCHED_DEADLINE) {
		struct rtr_thread_attr a = { 0 };

		if (rtr_thread_attr_set_deadline(&a, cfg->dl_runtime_ns, cfg->dl_deadline_ns,
						 cfg->dl_period_ns))
			return say_why(why, len, -EINVAL, "%s", rtr_last_error());
		if (cfg->interval_ns != cfg->dl_period_ns)
			return say_why(why, len, -EINVAL,
				       "with SCHED_DEADLINE the interval is the period");
	} else if (cfg->policy != RTR_SCHED_FIFO && cfg->policy != RTR_SCHED_RR) {
		return say_why(why, len, -EINVAL,
			       "the measuring threads run at SCHED_FIFO, SCHED_RR or SCHED_DEADLINE");
	}
	if (cfg->policy != RTR_SCHED_DEADLINE &&
	    (cfg->priority < 1 || cfg->priority > RTR_PRIO_MAX_SAFE))
		return say_why(why, len, -EINVAL, "priority %d is outside 1..%d", cfg->priority,
			       RTR_PRIO_MAX_SAFE);
	if (cfg->interval_ns < LATENCY_MIN_INTERVAL_NS ||
	    cfg->interval_ns > LATENCY_MAX_INTERVAL_NS)
		return say_why(why, len, -EINVAL, "interval out of range");
	if (cfg->bucket_ns == 0 || cfg->range_ns < cfg->bucket_ns ||
	    cfg->range_ns / cfg->bucket_ns > LATENCY_MAX_BUCKETS)
		return say_why(why, len, -EINVAL,
			       "histogram range and bucket do not fit (at most %u buckets)",
			       LATENCY_MAX_BUCKETS);
	return 0;
}

/*
 * A DEADLINE worker's affinity: the root domain of its CPU, which the kernel
 * requires it to span. The isolcpus CPUs (/sys/devices/system/cpu/isolated)
 * share the default root domain; the other online CPUs form the main one.
 * (Exclusive cpuset partitions, which split them further, are not seen.)
 */
static int dl_domains(struct rtr_cpuset *main_dom, struct rtr_cpuset *iso_dom)
{
	char buf[4096];
	struct rootfs fs;
	int err = rootfs_open(&fs, "/");

	if (err)
		return err;
	err = rootfs_read_str(&fs, "/sys/devices/system/cpu/online", buf, sizeof(buf));
	if (!err)
		err = rtr_cpuset_parse_list(main_dom, buf);
	if (!err && rootfs_read_str(&fs, "/sys/devices/system/cpu/isolated", buf, sizeof(buf)) == 0 &&
	    rtr_cpuset_parse_list(iso_dom, buf) == 0) {
		rtr_cpuset_and(iso_dom, main_dom);
		rtr_cpuset_andnot(main_dom, iso_dom);
	}
	rootfs_close(&fs);
	return err;
}

static int setup_workers(struct latency_run *run, char *why, size_t len)
{
	struct rtr_cpuset main_dom = RTR_CPUSET_INIT, iso_dom = RTR_CPUSET_INIT;
	size_t n = rtr_cpuset_count(&run->cfg.cpus);
	int cpu = -1, err;

	if (run->cfg.policy == RTR_SCHED_DEADLINE) {
		err = dl_domains(&main_dom, &iso_dom);
		if (err) {
			say_why(why, len, 0, "cannot read the online CPUs: %s", strerror(-err));
			goto out;
		}
	}
	run->w = aligned_alloc(64, n * sizeof(*run->w));
	if (!run->w) {
		err = -ENOMEM;
		goto out;
	}
	memset(run->w, 0, n * sizeof(*run->w));
	run->n = n;
	if (run->cfg.sample_log) {
		run->drain_buf = calloc(LATENCY_SAMPLE_RING, sizeof(*run->drain_buf));
		if (!run->drain_buf) {
			err = -ENOMEM;
			goto out;
		}
	}
	for (size_t i = 0; i < n; i++) {
		struct worker *w = &run->w[i];

		cpu = rtr_cpuset_next(&run->cfg.cpus, cpu);
		w->run = run;
		w->cpu = cpu;
		w->index = (int)i;
		err = rtr_hist_init(&w->hist, run->cfg.bucket_ns, run->cfg.range_ns, LATENCY_OUTLIERS);
		if (err) {
			say_why(why, len, 0, "cannot allocate the histogram: %s", strerror(-err));
			goto out;
		}
		w->range_ns = rtr_hist_range_ns(&w->hist);
		w->cap_ovf = w->hist.nbuckets < LATENCY_OVF_CYCLES_MAX ? w->hist.nbuckets
								       : LATENCY_OVF_CYCLES_MAX;
		err = -ENOMEM;
		w->ovf_cycles = calloc(w->cap_ovf, sizeof(*w->ovf_cycles));
		if (!w->ovf_cycles)
			goto out;
		if (run->cfg.sample_log) {
			w->ring = calloc(LATENCY_SAMPLE_RING, sizeof(*w->ring));
			if (!w->ring)
				goto out;
		}
		if (run->cfg.policy == RTR_SCHED_DEADLINE) {
			long ncpu = sysconf(_SC_NPROCESSORS_CONF);

			w->seen_words = (size_t)(ncpu > cpu ? ncpu : cpu + 1) / 64 + 1;
			w->seen = calloc(w->seen_words, sizeof(*w->seen));
			if (!w->seen)
				goto out;
			/* Its CPU's root domain (the main one when the CPU is in neither). */
			err = rtr_cpuset_copy(&w->pin, rtr_cpuset_test(&iso_dom, cpu) ? &iso_dom
										  : &main_dom);
		} else {
			err = rtr_cpuset_set(&w->pin, cpu);
		}
		if (!err && run->cfg.threshold_all && run->cfg.threshold_ns) {
			w->hits = calloc(LATENCY_MAX_HITS, sizeof(*w->hits));
			if (!w->hits)
				err = -ENOMEM;
		}
		if (err)
			goto out;
	}
	err = 0;
out:
	rtr_cpuset_free(&main_dom);
	rtr_cpuset_free(&iso_dom);
	return err;
}

/*
 * Lowering a hard limit is for good unless the process may raise it again
 * (CAP_SYS_RESOURCE): without it, every realtime thread the process starts
 * after the run (verify's next phase, a caller of the engine) would be
 * killed after RTTIME_HARD_US. Containers and users with CAP_SYS_NICE alone
 * do not have it.
 */
static bool may_raise_limits(void)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3];

	if (syscall(SYS_capget, &h, d) != 0)
		return false;
	return d[CAP_TO_INDEX(CAP_SYS_RESOURCE)].effective & CAP_TO_MASK(CAP_SYS_RESOURCE);
}

static void set_runaway_guard(struct latency_run *run)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_RTTIME, &run->old_rttime) < 0)
		return;
	rl.rlim_cur = RTTIME_SOFT_US;
	rl.rlim_max = may_raise_limits() ? RTTIME_HARD_US : run->old_rttime.rlim_max;
	/* A stricter limit already in force stays. */
	if (run->old_rttime.rlim_max != RLIM_INFINITY && run->old_rttime.rlim_max < rl.rlim_max)
		rl.rlim_max = run->old_rttime.rlim_max;
	if (rl.rlim_cur > rl.rlim_max)
		rl.rlim_cur = rl.rlim_max;
	if (setrlimit(RLIMIT_RTTIME, &rl) == 0)
		run->rttime_set = true;
}

static void join_workers(struct latency_run *run)
{
	atomic_store(&run->stop, 1);
	for (size_t i = 0; i < run->n; i++) {
		if (!run->w[i].started)
			continue;
		pthread_join(run->w[i].thread, NULL);
		run->w[i].started = false;
	}
}

/* Undo what latency_run_start() changed in the process. */
static void restore_process(struct latency_run *run)
{
	if (run->rttime_set) {
		setrlimit(RLIMIT_RTTIME, &run->old_rttime);
		run->rttime_set = false;
	}
	dma_latency_release(&run->dma_hold);
}

/* Say why worker @i could not start (@lib: the library's reason, or ""). */
static int start_failed(struct latency_run *run, size_t i, int err, const char *lib, char *why,
			size_t len)
{
	bool dl = run->cfg.policy == RTR_SCHED_DEADLINE;

	if (err == -EPERM && lib && *lib)
		say_why(why, len, 0, "cannot start the measuring thread on CPU %d: %s",
			run->w[i].cpu, lib);
	else if (err == -EPERM)
		latency_explain_eperm(run->cfg.policy, run->cfg.priority, NULL, why, len);
	else
		say_why(why, len, 0, "cannot start the measuring thread %s%d: %s",
			dl ? "" : "on CPU ", dl ? (int)i + 1 : run->w[i].cpu,
			lib && *lib ? lib : strerror(-err));
	return err;
}

/* Wait until DEADLINE worker @i has made itself SCHED_DEADLINE (or failed to). */
static int dl_started(struct latency_run *run, size_t i, char *why, size_t len)
{
	struct worker *w = &run->w[i];

	while (sem_wait(&w->dl_ready) != 0)
		;	/* EINTR only */
	return w->dl_err ? start_failed(run, i, w->dl_err, w->dl_why, why, len) : 0;
}

static int start_workers(struct latency_run *run, char *why, size_t len)
{
	bool dl = run->cfg.policy == RTR_SCHED_DEADLINE;
	char name[16];
	int err;

	for (size_t i = 0; i < run->n; i++) {
		struct worker *w = &run->w[i];
		struct rtr_thread_attr attr = {
			.policy = run->cfg.policy,
			.priority = run->cfg.priority,
			.cpus = &w->pin,
			.stack_bytes = WORKER_STACK_BYTES,
			.prefault_stack = true,
			.name = name,
		};

		snprintf(name, sizeof(name), dl ? "rtr-dl/%d" : "rtr-lat/%d", w->cpu);
		err = 0;
		if (dl) {
			/*
			 * Pinned to its CPU's root domain (see struct
			 * latency_config); it starts as SCHED_OTHER (with -A,
			 * SCHED_FIFO 1) and makes itself SCHED_DEADLINE
			 * (become_deadline), to know when the kernel's first
			 * period began.
			 */
			attr.policy = RTR_SCHED_OTHER;
			attr.priority = 0;
			if (run->cfg.aligned) {
				/* Woken at the instant as SCHED_FIFO 1, ahead of the load. */
				attr.policy = RTR_SCHED_FIFO;
				attr.priority = 1;
			}
			memset(&w->dl_attr, 0, sizeof(w->dl_attr));
			err = rtr_thread_attr_set_deadline(&w->dl_attr, run->cfg.dl_runtime_ns,
							   run->cfg.dl_deadline_ns,
							   run->cfg.dl_period_ns);
			if (!err && !w->dl_sem) {
				if (sem_init(&w->dl_ready, 0, 0) != 0)
					err = -errno;
				else
					w->dl_sem = true;
			}
		}
		if (!err)
			err = rtr_thread_create(&w->thread, &attr, dl ? worker_dl_main : worker_main,
						w);
		/*
		 * SCHED_FIFO 1 refused (a cgroup whose RT budget is 0, where
		 * SCHED_DEADLINE is still admitted): the wait for the instant
		 * runs at SCHED_OTHER, later under load but not refused.
		 */
		if (err == -EPERM && dl && attr.policy == RTR_SCHED_FIFO) {
			attr.policy = RTR_SCHED_OTHER;
			attr.priority = 0;
			err = rtr_thread_create(&w->thread, &attr, worker_dl_main, w);
		}
		if (err)
			return start_failed(run, i, err, rtr_last_error(), why, len);
		w->started = true;
		/* Aligned, they all become DEADLINE at one instant: wait for them below. */
		if (dl && !run->cfg.aligned) {
			err = dl_started(run, i, why, len);
			if (err)
				return err;
		}
	}
	for (size_t i = 0; dl && run->cfg.aligned && i < run->n; i++) {
		err = dl_started(run, i, why, len);
		if (err)
			return err;
	}
	return 0;
}

int latency_run_start(const struct latency_config *cfg, int32_t dma_us, struct latency_run **out,
		      char *why, size_t whylen)
{
	struct latency_run *run;
	sigset_t all;
	int err;

	*out = NULL;
	err = validate(cfg, why, whylen);
	if (err)
		return err;
	run = calloc(1, sizeof(*run));
	if (!run)
		return -ENOMEM;
	run->dma_hold.fd = -1;
	run->cfg = *cfg;
	run->cfg.cpus = (struct rtr_cpuset)RTR_CPUSET_INIT;
	atomic_init(&run->stop, 0);
	atomic_init(&run->hit, -1);
	atomic_init(&run->dl_turn, 0);
	atomic_init(&run->failed, 0);
	run->main = pthread_self();
	err = rtr_cpuset_copy(&run->cfg.cpus, &cfg->cpus);
	if (err)
		goto fail;
	err = setup_workers(run, why, whylen);
	if (err)
		goto fail;

	if (dma_us >= 0) {
		err = dma_latency_hold(DMA_LATENCY_DEV, dma_us, &run->dma_hold);
		if (err) {
			say_why(why, whylen, 0, "cannot hold %s at %d us: %s%s", DMA_LATENCY_DEV,
				dma_us, strerror(-err),
				err == -EACCES || err == -EPERM ? " (needs root)" : "");
			goto fail;
		}
	}
	dma_latency_read(DMA_LATENCY_DEV, &run->dma);
	run->dma.held = run->dma_hold.fd >= 0;
	run->dma.held_us = run->dma_hold.us;

	if (cfg->mlock) {
		err = measure_lock_memory(why, whylen);
		if (err)
			goto fail;
		run->locked = true;
	}
	set_runaway_guard(run);

	/* Every signal blocked here and, by inheritance, in the workers. */
	sigfillset(&all);
	err = -pthread_sigmask(SIG_SETMASK, &all, &run->oldmask);
	if (err)
		goto fail;
	run->mask_set = true;

	clock_gettime(CLOCK_MONOTONIC, &run->start);
	run->start = rtr_ts_add_ns(run->start, START_MARGIN_NS);
	run->has_end = cfg->duration_ns > 0;
	if (run->has_end)
		run->end = rtr_ts_add_ns(run->start, (int64_t)cfg->duration_ns);
	err = start_workers(run, why, whylen);
	if (err)
		goto fail;
	*out = run;
	return 0;
fail:
	join_workers(run);
	restore_process(run);
	if (run->locked)
		munlockall();
	latency_run_free(run);
	return err;
}

size_t latency_run_ncpus(const struct latency_run *run)
{
	return run->n;
}

void latency_run_stop(struct latency_run *run)
{
	atomic_store_explicit(&run->stop, 1, memory_order_relaxed);
}

static void live_views(struct latency_run *run, struct latency_live_view *v)
{
	for (size_t i = 0; i < run->n; i++) {
		struct worker *w = &run->w[i];
		uint64_t c = load(&w->live.cycles);

		v[i].cpu = w->cpu;
		v[i].tid = atomic_load_explicit(&w->live.tid, memory_order_relaxed);
		v[i].cycles = c;
		v[i].act_ns = load(&w->live.act_ns);
		v[i].min_ns = c ? load(&w->live.min_ns) : 0;
		v[i].max_ns = load(&w->live.max_ns);
		v[i].avg_ns = c ? load(&w->live.sum_ns) / c : 0;
	}
}

/*
 * The ring is read without stopping its writer: copy the new part, then
 * look at the count again; what the worker may have overwritten meanwhile
 * (older than count - ring size) is dropped, the rest is exact.
 */
void latency_run_drain(struct latency_run *run,
		       void (*fn)(void *ctx, size_t thread, uint64_t cycle, uint64_t ns),
		       void *ctx, uint64_t *lost)
{
	for (size_t i = 0; run->drain_buf && i < run->n; i++) {
		struct worker *w = &run->w[i];
		uint64_t end = atomic_load_explicit(&w->live.cycles, memory_order_acquire);
		uint64_t first = w->drained, from, valid;

		if (end - first > LATENCY_SAMPLE_RING)
			first = end - LATENCY_SAMPLE_RING;
		for (uint64_t c = first; c < end; c++)
			run->drain_buf[c - first] = atomic_load_explicit(
				&w->ring[c % LATENCY_SAMPLE_RING], memory_order_relaxed);
		atomic_thread_fence(memory_order_acquire);
		valid = atomic_load_explicit(&w->live.cycles, memory_order_relaxed);
		valid = valid > LATENCY_SAMPLE_RING ? valid - LATENCY_SAMPLE_RING : 0;
		from = first < valid ? (valid < end ? valid : end) : first;
		lost[i] += from - w->drained;
		for (uint64_t c = from; c < end; c++)
			fn(ctx, i, c, run->drain_buf[c - first]);
		w->drained = end;
	}
}

void latency_run_on_threshold(struct latency_run *run,
			      void (*fn)(void *ctx, const struct latency_hit *hit), void *ctx)
{
	run->on_hit = fn;
	run->on_hit_ctx = ctx;
}

void latency_run_on_poll(struct latency_run *run, uint64_t period_ns,
			 void (*fn)(void *ctx, int64_t now_ns), void *ctx)
{
	run->on_poll = fn;
	run->on_poll_ctx = ctx;
	run->poll_ns = period_ns ? period_ns : 1;
}

size_t latency_run_hits(struct latency_run *run, size_t i, const struct latency_hit_rec **hits,
			pid_t *tid)
{
	struct worker *w = &run->w[i];

	*hits = w->hits;
	*tid = (pid_t)atomic_load_explicit(&w->live.tid, memory_order_relaxed);
	/* Acquire: the records below the count were written before it. */
	return w->hits ? atomic_load_explicit(&w->n_hits, memory_order_acquire) : 0;
}

/* The worker wrote its hit fields before publishing run->hit (seq_cst), so they are visible. */
static void call_on_hit(struct latency_run *run)
{
	int i = atomic_load(&run->hit);
	struct latency_hit h;

	if (!run->on_hit || i < 0)
		return;
	h.cpu = run->w[i].hit_cpu;
	h.tid = atomic_load_explicit(&run->w[i].live.tid, memory_order_relaxed);
	h.cycle = run->w[i].hit_cycle;
	h.late_ns = run->w[i].hit_ns;
	h.expected_ns = run->w[i].hit_expected_ns;
	h.woken_ns = run->w[i].hit_woken_ns;
	run->on_hit(run->on_hit_ctx, &h);
}

void latency_run_wait(struct latency_run *run, uint64_t tick_ns,
		      void (*tick)(void *ctx, const struct latency_live_view *v, size_t n),
		      void *ctx)
{
	struct latency_live_view *views = NULL;
	int64_t end = run->has_end ? rtr_ts_to_ns(run->end) : INT64_MAX;
	int64_t next_tick = mono_ns() + (int64_t)tick_ns, next_poll = 0;
	sigset_t set;

	if (tick && tick_ns)
		views = calloc(run->n, sizeof(*views));
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGXCPU);
	sigaddset(&set, SIGUSR1);
	run->reason = LATENCY_STOP_DURATION;
	for (;;) {
		int64_t now = mono_ns(), wait = INT64_MAX;
		struct timespec to;
		int sig;

		if (atomic_load(&run->hit) >= 0) {
			run->reason = LATENCY_STOP_THRESHOLD;
			call_on_hit(run);
			break;
		}
		if (atomic_load(&run->failed)) {
			run->reason = LATENCY_STOP_ERROR;
			break;
		}
		if (run->cfg.loops && atomic_load(&run->looped) == run->n) {
			run->reason = LATENCY_STOP_LOOPS;
			break;
		}
		if (atomic_load(&run->stop))
			break;	/* latency_run_stop() from elsewhere */
		if (now >= end) {
			run->reason = LATENCY_STOP_DURATION;
			break;
		}
		if (views && now >= next_tick) {
			live_views(run, views);
			tick(ctx, views, run->n);
			next_tick = now + (int64_t)tick_ns;
		}
		if (run->on_poll && now >= next_poll) {
			run->on_poll(run->on_poll_ctx, now);
			next_poll = now + (int64_t)run->poll_ns;
		}
		if (end - now < wait)
			wait = end - now;
		if (views && next_tick - now < wait)
			wait = next_tick - now;
		if (run->on_poll && next_poll - now < wait)
			wait = next_poll - now > 0 ? next_poll - now : 0;
		/* Without an end or a tick, still look at the flags once a second. */
		if (wait > RTR_NSEC_PER_SEC)
			wait = RTR_NSEC_PER_SEC;
		to = rtr_ts_from_ns(wait);
		sig = sigtimedwait(&set, NULL, &to);
		if (sig == SIGINT || sig == SIGTERM || sig == SIGHUP) {
			run->reason = LATENCY_STOP_SIGNAL;
			run->signo = sig;
			break;
		}
		if (sig == SIGXCPU) {
			run->reason = LATENCY_STOP_RUNAWAY;
			break;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &run->stopped);
	atomic_store(&run->stop, 1);
	if (views) {
		/* A last refresh, so the live lines end with the final figures. */
		join_workers(run);
		live_views(run, views);
		tick(ctx, views, run->n);
	}
	free(views);
}

static int cmp_desc(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? 1 : x > y ? -1 : 0;
}

/* Largest first, so that every reader shows the worst ones without sorting. */
static void sort_outliers(struct rtr_hist *h)
{
	if (h->n_outliers > 1)
		qsort(h->outliers, h->n_outliers, sizeof(*h->outliers), cmp_desc);
}

int latency_run_finish(struct latency_run *run, struct latency_result *res)
{
	uint64_t throttled;
	int err = 0, hit;

	memset(res, 0, sizeof(*res));
	if (!run->stopped.tv_sec && !run->stopped.tv_nsec)
		clock_gettime(CLOCK_MONOTONIC, &run->stopped);
	join_workers(run);
	restore_process(run);

	res->cfg = run->cfg;
	res->cfg.cpus = (struct rtr_cpuset)RTR_CPUSET_INIT;
	err = rtr_cpuset_copy(&res->cfg.cpus, &run->cfg.cpus);
	res->stop = run->reason;
	res->stop_signal = run->signo;
	res->hit_cpu = -1;
	res->dma = run->dma;
	if (run->has_end && rtr_ts_cmp(run->stopped, run->end) > 0)
		res->elapsed_ns = rtr_ts_diff_ns(run->end, run->start);
	else
		res->elapsed_ns = rtr_ts_diff_ns(run->stopped, run->start);
	if (res->elapsed_ns < 0)
		res->elapsed_ns = 0;
	if (err)
		return err;
	res->cpus = calloc(run->n, sizeof(*res->cpus));
	if (!res->cpus)
		return -ENOMEM;
	res->n_cpus = run->n;
	err = rtr_hist_init(&res->total, run->cfg.bucket_ns, run->cfg.range_ns, LATENCY_OUTLIERS);
	if (err)
		return err;
	hit = atomic_load(&run->hit);
	for (size_t i = 0; i < run->n; i++) {
		struct worker *w = &run->w[i];
		struct latency_cpu_result *c = &res->cpus[i];

		c->cpu = w->cpu;
		c->tid = atomic_load(&w->live.tid);
		/* Move, not copy: the worker is done with them. */
		c->hist = w->hist;
		memset(&w->hist, 0, sizeof(w->hist));
		c->ovf_cycles = w->ovf_cycles;
		c->n_ovf_cycles = w->n_ovf;
		w->ovf_cycles = NULL;
		c->missed = w->missed;
		c->throttled = w->throttled;
		c->cpus_seen = (struct rtr_cpuset)RTR_CPUSET_INIT;
		for (size_t b = 0; !err && b < w->seen_words * 64; b++)
			if (w->seen[b / 64] & (1ULL << (b % 64)))
				err = rtr_cpuset_set(&c->cpus_seen, (int)b);
		if (err)
			return err;
		c->over_threshold = w->hits_over;
		c->last_ns = load(&w->live.act_ns);
		if (w->err && !res->error)
			res->error = w->err;
		latency_stats_compute(&c->hist, c->missed, &c->stats);
		c->stats.throttled = c->throttled;
		rtr_hist_merge(&res->total, &c->hist);
		sort_outliers(&c->hist);
		res->total_stats.missed += c->missed;
		res->total_stats.throttled += c->throttled;
		if ((int)i == hit) {
			res->hit_cpu = w->hit_cpu;
			res->hit_tid = c->tid;
			res->hit_cycle = w->hit_cycle;
			res->hit_ns = w->hit_ns;
			res->hit_expected_ns = w->hit_expected_ns;
			res->hit_woken_ns = w->hit_woken_ns;
		}
	}
	throttled = res->total_stats.throttled;
	latency_stats_compute(&res->total, res->total_stats.missed, &res->total_stats);
	res->total_stats.throttled = throttled;
	sort_outliers(&res->total);
	run->finished = true;
	return 0;
}

void latency_run_free(struct latency_run *run)
{
	if (!run)
		return;
	join_workers(run);
	restore_process(run);
	for (size_t i = 0; i < run->n; i++) {
		rtr_hist_free(&run->w[i].hist);
		free(run->w[i].ovf_cycles);
		free(run->w[i].ring);
		free(run->w[i].seen);
		free(run->w[i].hits);
		rtr_cpuset_free(&run->w[i].pin);
		if (run->w[i].dl_sem)
			sem_destroy(&run->w[i].dl_ready);
	}
	free(run->w);
	free(run->drain_buf);
	if (run->mask_set) {
		/*
		 * A worker's wake-up (SIGUSR1) or a late SIGXCPU may still be
		 * pending: take them now, or the restored mask would let their
		 * default action kill the process.
		 */
		struct timespec zero = { 0, 0 };
		sigset_t ours;

		sigemptyset(&ours);
		sigaddset(&ours, SIGUSR1);
		sigaddset(&ours, SIGXCPU);
		for (int i = 0; i < 8 && sigtimedwait(&ours, NULL, &zero) > 0; i++)
			;
		pthread_sigmask(SIG_SETMASK, &run->oldmask, NULL);
	}
	rtr_cpuset_free(&run->cfg.cpus);
	free(run);
}
