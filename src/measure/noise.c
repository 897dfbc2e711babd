// SPDX-License-Identifier: MIT
/*
 * The run of `rtready noise` (see noise.h): spinners, the main thread's
 * sampling while they spin, and the attribution of their gaps afterwards.
 *
 * The spinning loop makes no system call: two vDSO clock reads per
 * iteration are one (the previous read ends the gap the next one starts),
 * a histogram update, and a relaxed load of the stop flag. Gaps go to a
 * preallocated array. Everything else (draining the kernel trace, reading
 * steal time and counters) happens in the main thread, pinned to the
 * housekeeping CPUs for the run.
 */
#include <errno.h>
#include <fcntl.h>
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
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

#include "util/grow.h"
#include "measure/latency.h"
#include "measure/memlock.h"
#include "measure/noise.h"
#include "probe/cgroupfs.h"
#include "probe/interrupts.h"
#include "probe/noisesrc.h"
#include "probe/procstat.h"
#include "probe/rootfs.h"
#include "rtready/error.h"
#include "rtready/mem.h"
#include "rtready/timespec.h"
#include "util/clock.h"
#include "util/say.h"

#define START_MARGIN_NS (20 * RTR_NSEC_PER_MSEC)
#define SPIN_STACK_BYTES (64u << 10)
/*
 * The trace is read back at the end of the run: each read while it goes
 * stalled the measured CPU for about 1.6 ms on the test VM (with nothing
 * of it visible in the trace). The buffer is sized for the run; only a run
 * longer than it holds is read during the run, every half buffer.
 */
#define TRACE_KB_PER_SEC 512u	/* a busy, not isolated CPU writes about 150 KiB/s */
#define TRACE_KB_MIN 4096u
#define TRACE_KB_MAX 65536u
#define TRACE_KB_TOTAL (256u << 10)	/* over all measured CPUs */
#define RTTIME_MARGIN_US 2000000ULL	/* past the duration, the kernel stops a spinner */
#define MSR_SMI_COUNT 0x34

struct window {
	int64_t t_ns;			/* end of the window */
	char irq_name[NOISE_NAME_LEN];	/* the interrupt row that rose most on the CPU */
	int irq_id;
	uint64_t irq_delta;
	int softirq_vec;
	uint64_t softirq_delta;
	uint64_t nvcsw_delta;		/* involuntary switches of the spinner */
	uint64_t steal_delta;
};

struct spinner {
	struct noise_run *run;
	int cpu;
	pthread_t thread;
	bool started;
	bool released;			/* placed mode: its go posted */
	bool go_init;
	sem_t go;			/* placed mode: placed, start spinning */
	struct rtr_cpuset pin;
	_Atomic int tid;
	uint64_t *hist;
	struct noise_gap *gaps;
	size_t cap_gaps;
	/* Written by the spinner at its end, read after the join. */
	size_t n_gaps;
	uint64_t loops, noise_ns, events, max_ns, unkept;
	int64_t first_ns, last_ns;
	/* Main thread only. */
	struct noise_cpu_log log;	/* at most NOISE_MAX_EVENTS events */
	struct window *win;
	size_t n_win, cap_win;
	uint64_t *irq_prev;		/* per row of the first /proc/interrupts read */
	size_t n_irq_prev;
	uint64_t softirq_prev[NOISESRC_SOFTIRQS];
	uint64_t nvcsw_prev;
	uint64_t steal_prev;
	bool have_prev;
	int64_t smi_start;
};

struct noise_run {
	struct noise_config cfg;
	bool tsc;			/* spin on the TSC (x86, invariant), mapped to CLOCK_MONOTONIC */
	struct spinner *w;
	size_t n;
	int64_t start_ns, end_ns;
	_Atomic int stop;
	struct rootfs fs;
	bool fs_open;
	struct trace_session *trace;
	int64_t drain_ns;		/* read the trace this often during the run; 0: at the end */
	int *cpu_index;			/* CPU number -> spinner, -1 */
	int max_cpu;
	bool placed;			/* cfg.cgroup: the main thread places each spinner */
	sem_t hello;			/* placed mode: a spinner has its tid */
	char *buf;			/* reused for /proc reads */
	size_t buf_size;
};

const char *noise_source_name(enum noise_source s)
{
	return s == NOISE_SRC_TRACE ? "trace" : "window";
}

const char *noise_stop_name(enum noise_stop s)
{
	switch (s) {
	case NOISE_STOP_DURATION: return "duration";
	case NOISE_STOP_SIGNAL: return "signal";
	case NOISE_STOP_RUNAWAY: return "runaway";
	}
	return "duration";
}

void noise_config_init(struct noise_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->cpus = (struct rtr_cpuset)RTR_CPUSET_INIT;
	cfg->policy = RTR_SCHED_FIFO;
	cfg->priority = NOISE_DEFAULT_PRIORITY;
	cfg->duration_ns = NOISE_DEFAULT_DURATION_NS;
	cfg->threshold_ns = NOISE_DEFAULT_THRESHOLD_NS;
	cfg->mlock = true;
	cfg->trace = true;
}

void noise_config_free(struct noise_config *cfg)
{
	rtr_cpuset_free(&cfg->cpus);
}

void noise_result_free(struct noise_result *r)
{
	if (!r)
		return;
	for (size_t i = 0; r->cpus && i < r->n_cpus; i++) {
		free(r->cpus[i].causes);
		free(r->cpus[i].gaps);
		free(r->cpus[i].attr);
	}
	free(r->cpus);
	noise_config_free(&r->cfg);
	memset(r, 0, sizeof(*r));
}

double noise_availability(const struct noise_cpu_result *c)
{
	if (c->elapsed_ns <= 0)
		return 0.0;
	if (c->noise_ns >= (uint64_t)c->elapsed_ns)
		return 0.0;
	return 100.0 * (1.0 - (double)c->noise_ns / (double)c->elapsed_ns);
}

int noise_default_cpus(const struct rtr_cpuset *online, const struct rtr_cpuset *rt,
		       const struct rtr_cpuset *allowed, struct rtr_cpuset *out)
{
	int err;

	rtr_cpuset_clear(out);
	if (rt && !rtr_cpuset_is_empty(rt)) {
		err = rtr_cpuset_copy(out, rt);
		if (err)
			return err;
		rtr_cpuset_and(out, online);
		/* RT CPUs that are all the online ones: the first stays to housekeeping. */
		if (rtr_cpuset_equal(out, online))
			rtr_cpuset_unset(out, rtr_cpuset_next(out, -1));
	} else {
		int first;

		err = rtr_cpuset_copy(out, online);
		if (err)
			return err;
		if (allowed)
			rtr_cpuset_and(out, allowed);
		/* The first one stays for housekeeping (CPU 0 takes most of it by default). */
		first = rtr_cpuset_next(out, -1);
		if (first >= 0)
			rtr_cpuset_unset(out, first);
	}
	return rtr_cpuset_is_empty(out) ? -ENOENT : 0;
}

/* What one spin loop counted, in its clock's units (ns or TSC cycles). */
struct spin_count {
	uint64_t loops, noise, events, unkept;
	int64_t max, last;
	size_t n_gaps;
};

/* One clock read of the loop: the TSC, or CLOCK_MONOTONIC in ns. */
static inline __attribute__((always_inline)) int64_t spin_read(bool tsc)
{
	struct timespec t;

#if defined(__x86_64__) || defined(__i386__)
	if (tsc)
		return (int64_t)__rdtsc();
#endif
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * RTR_NSEC_PER_SEC + t.tv_nsec;
}

/*
 * The loop. A gap is the time between two clock reads; the loop's own
 * cost is the smallest one. Only the stop flag and the end are looked at
 * besides, so the loop stops at its end even if the main thread never runs.
 * @tsc is a constant at each caller, so each gets a loop of its own with
 * no test of it inside; @prev, @threshold and @end are in that clock's
 * units, @us_mult maps TSC cycles to 1 us buckets ((d * mult) >> 32,
 * no division).
 */
static inline __attribute__((always_inline)) void spin_loop(struct spinner *w, bool tsc,
							    int64_t prev, int64_t threshold,
							    int64_t end, uint64_t us_mult,
							    struct spin_count *out)
{
	const int64_t last_bucket = NOISE_HIST_BUCKETS - 1;
	uint64_t *const hist = w->hist;
	struct noise_gap *const gaps = w->gaps;
	const size_t cap = w->cap_gaps;
	uint64_t loops = 0, noise = 0, events = 0, unkept = 0;
	int64_t now, d, max = 0;
	size_t n = 0;

	for (;;) {
		int64_t b;

		now = spin_read(tsc);
		d = now - prev;
		if (tsc)
			b = d < (INT64_C(1) << 31) ? (int64_t)(((uint64_t)d * us_mult) >> 32)
						   : last_bucket;
		else
			b = d / (int64_t)NOISE_HIST_BUCKET_NS;
		hist[b < last_bucket ? b : last_bucket]++;
		if (d > threshold) {
			events++;
			noise += (uint64_t)d;
			if (n < cap) {
				gaps[n].start_ns = prev;
				gaps[n].end_ns = now;
				n++;
			} else {
				unkept++;
			}
		}
		if (d > max)
			max = d;
		loops++;
		prev = now;
		if (now >= end || atomic_load_explicit(&w->run->stop, memory_order_relaxed))
			break;
	}
	*out = (struct spin_count){ loops, noise, events, unkept, max, now, n };
}

static void spin_clock(struct spinner *w)
{
	const struct noise_run *run = w->run;
	struct spin_count c;
	int64_t prev;

	do
		prev = spin_read(false);
	while (prev < run->start_ns && !atomic_load_explicit(&w->run->stop, memory_order_relaxed));
	w->first_ns = prev;
	spin_loop(w, false, prev, (int64_t)run->cfg.threshold_ns, run->end_ns, 0, &c);
	w->last_ns = c.last;
	w->n_gaps = c.n_gaps;
	w->loops = c.loops;
	w->noise_ns = c.noise;
	w->events = c.events;
	w->max_ns = (uint64_t)c.max;
	w->unkept = c.unkept;
}

#if defined(__x86_64__) || defined(__i386__)
static void pair(int64_t *ns, int64_t *tsc)
{
	struct timespec t;
	uint64_t a = __rdtsc(), b;

	clock_gettime(CLOCK_MONOTONIC, &t);
	b = __rdtsc();
	*ns = rtr_ts_to_ns(t);
	*tsc = (int64_t)(a / 2 + b / 2);
}

/*
 * The same loop on the TSC, as oslat reads it: a clock read costs a few
 * ns instead of the vDSO's tens, so the loop samples the CPU more often.
 * Only where the TSC is invariant (constant_tsc and nonstop_tsc). The
 * rate is measured on the start margin; the gaps are mapped to
 * CLOCK_MONOTONIC afterwards with the clock read at the start and the end
 * (a straight line: both count the same oscillator), so they compare with
 * the kernel trace as the clock loop's do.
 */
static void spin_tsc(struct spinner *w)
{
	const struct noise_run *run = w->run;
	struct noise_gap *const gaps = w->gaps;
	int64_t ns0, tsc0, ns1, tsc1, threshold, end;
	struct spin_count c;
	uint64_t us_mult;
	double per_ns;

	pair(&ns0, &tsc0);
	do
		pair(&ns1, &tsc1);
	while (ns1 < run->start_ns && !atomic_load_explicit(&w->run->stop, memory_order_relaxed));
	if (ns1 - ns0 < 1000000 || tsc1 <= tsc0) {
		/* No margin to measure the rate on (stopped at once): the clock loop. */
		spin_clock(w);
		return;
	}
	per_ns = (double)(tsc1 - tsc0) / (double)(ns1 - ns0);
	threshold = (int64_t)((double)run->cfg.threshold_ns * per_ns);
	end = tsc1 + (int64_t)((double)(run->end_ns - ns1) * per_ns);
	us_mult = (uint64_t)(4294967296.0 / (per_ns * 1000.0));
	ns0 = ns1;
	tsc0 = tsc1;
	spin_loop(w, true, spin_read(true), threshold, end, us_mult, &c);
	pair(&ns1, &tsc1);
	/* The line through the two anchors, for every time and length. */
	per_ns = tsc1 > tsc0 ? (double)(tsc1 - tsc0) / (double)(ns1 - ns0) : per_ns;
	for (size_t i = 0; i < c.n_gaps; i++) {
		gaps[i].start_ns = ns0 + (int64_t)((double)(gaps[i].start_ns - tsc0) / per_ns);
		gaps[i].end_ns = ns0 + (int64_t)((double)(gaps[i].end_ns - tsc0) / per_ns);
	}
	w->first_ns = ns0;
	w->last_ns = ns0 + (int64_t)((double)(c.last - tsc0) / per_ns);
	w->n_gaps = c.n_gaps;
	w->loops = c.loops;
	w->noise_ns = (uint64_t)((double)c.noise / per_ns);
	w->events = c.events;
	w->max_ns = (uint64_t)((double)c.max / per_ns);
	w->unkept = c.unkept;
}
#else
static void spin_tsc(struct spinner *w)
{
	spin_clock(w);
}
#endif

static void *spin_main(void *arg)
{
	struct spinner *w = arg;

	atomic_store_explicit(&w->tid, (int)gettid(), memory_order_relaxed);
	/* Write every page the loop touches before it starts. */
	memset(w->hist, 0, NOISE_HIST_BUCKETS * sizeof(*w->hist));
	memset(w->gaps, 0, w->cap_gaps * sizeof(*w->gaps));
	if (w->run->placed) {
		/* Blocked, not spinning, while the main thread moves and pins it. */
		sem_post(&w->run->hello);
		while (sem_wait(&w->go) != 0 && errno == EINTR)
			;
		if (atomic_load(&w->run->stop))
			return NULL;
	}
	if (w->run->tsc)
		spin_tsc(w);
	else
		spin_clock(w);
	return NULL;
}

/* ---- sampling in the main thread ---- */

static bool kept_type(enum trace_ev_type t)
{
	switch (t) {
	case TEV_SWITCH:
	case TEV_IRQ_ENTRY:
	case TEV_IRQ_EXIT:
	case TEV_SOFTIRQ_ENTRY:
	case TEV_SOFTIRQ_EXIT:
	case TEV_VECTOR_ENTRY:
	case TEV_VECTOR_EXIT:
	case TEV_NMI:
		return true;
	default:
		return false;
	}
}

static void on_event(void *ctx, int cpu, const struct trace_ev *ev, long long missed)
{
	struct noise_run *run = ctx;

	if (cpu < 0 || cpu > run->max_cpu || run->cpu_index[cpu] < 0)
		return;
	noise_log_event(&run->w[run->cpu_index[cpu]].log, ev, missed, kept_type(ev->type),
			NOISE_MAX_EVENTS);
}

static void sample_steal(struct noise_run *run, int64_t t)
{
	size_t len;

	if (noisesrc_read(&run->fs, "/proc/stat", &run->buf, &run->buf_size, &len))
		return;
	for (size_t i = 0; i < run->n; i++) {
		struct spinner *w = &run->w[i];
		uint64_t steal;

		if (noisesrc_parse_steal(run->buf, len, w->cpu, &steal) == 0)
			noise_log_steal(&w->log, t, steal, 1u << 22);
	}
}

/* The counters of one window (no trace): deltas since the last one. */
static void sample_window(struct noise_run *run, int64_t t)
{
	struct interrupts_table it;
	uint64_t soft[NOISESRC_SOFTIRQS];
	bool have_it = false;
	size_t len;
	char path[64];

	memset(&it, 0, sizeof(it));
	if (!noisesrc_read(&run->fs, "/proc/interrupts", &run->buf, &run->buf_size, &len) &&
	    !interrupts_parse(run->buf, len, &it))
		have_it = true;
	for (size_t i = 0; i < run->n; i++) {
		struct spinner *w = &run->w[i];
		struct window win;
		struct proc_status st;
		size_t col = SIZE_MAX;
		uint64_t nvcsw = w->nvcsw_prev, steal = w->log.n_steal ?
			w->log.steal[w->log.n_steal - 1].steal_ticks : w->steal_prev;

		memset(&win, 0, sizeof(win));
		win.t_ns = t;
		win.irq_id = -1;
		win.softirq_vec = -1;
		for (size_t c = 0; have_it && c < it.n_cols; c++)
			if (it.col_cpu[c] == w->cpu)
				col = c;
		/*
		 * Per row: the count of this CPU's column, compared with the last
		 * window (rows that appeared since are compared from the next one).
		 */
		if (col != SIZE_MAX && it.n_rows > w->n_irq_prev) {
			uint64_t *p = realloc(w->irq_prev, it.n_rows * sizeof(*p));

			if (p) {
				for (size_t r = w->n_irq_prev; r < it.n_rows; r++)
					p[r] = UINT64_MAX;
				w->irq_prev = p;
				w->n_irq_prev = it.n_rows;
			}
		}
		if (col != SIZE_MAX && it.n_rows <= w->n_irq_prev) {
			for (size_t r = 0; r < it.n_rows; r++) {
				const struct interrupt_row *row = &it.rows[r];
				uint64_t v = col < row->n_counts ? it.counts[row->counts_off + col] : 0;
				uint64_t p = w->irq_prev[r];
				uint64_t dlt = w->have_prev && p != UINT64_MAX && v > p ? v - p : 0;

				if (dlt > win.irq_delta) {
					win.irq_delta = dlt;
					win.irq_id = row->irq;
					snprintf(win.irq_name, sizeof(win.irq_name), "%.*s",
						 (int)sizeof(win.irq_name) - 1,
						 row->irq >= 0 && row->actions[0] ? row->actions :
						 row->name);
				}
				w->irq_prev[r] = v;
			}
		}
		if (!noisesrc_read(&run->fs, "/proc/softirqs", &run->buf, &run->buf_size, &len) &&
		    !noisesrc_parse_softirqs(run->buf, len, w->cpu, soft)) {
			for (int v = 0; v < NOISESRC_SOFTIRQS; v++) {
				uint64_t dlt = w->have_prev && soft[v] > w->softirq_prev[v] ?
					soft[v] - w->softirq_prev[v] : 0;

				if (dlt > win.softirq_delta) {
					win.softirq_delta = dlt;
					win.softirq_vec = v;
				}
				w->softirq_prev[v] = soft[v];
			}
		}
		snprintf(path, sizeof(path), "/proc/self/task/%d/status",
			 atomic_load_explicit(&w->tid, memory_order_relaxed));
		memset(&st, 0, sizeof(st));
		if (!noisesrc_read(&run->fs, path, &run->buf, &run->buf_size, &len) &&
		    !parse_proc_status(run->buf, len, &st))
			nvcsw = st.nonvoluntary_ctxt_switches;
		proc_status_free(&st);
		win.nvcsw_delta = w->have_prev && nvcsw > w->nvcsw_prev ? nvcsw - w->nvcsw_prev : 0;
		win.steal_delta = w->have_prev && steal > w->steal_prev ? steal - w->steal_prev : 0;
		w->nvcsw_prev = nvcsw;
		w->steal_prev = steal;
		if (w->have_prev && !grow_array((void **)&w->win, &w->cap_win, w->n_win, sizeof(*w->win),
					  1u << 22))
			w->win[w->n_win++] = win;
		w->have_prev = true;
	}
	interrupts_free(&it);
}

/* ---- SMI count (x86: MSR 0x34, where the msr driver is loaded and we may read it) ---- */

static int64_t read_smi(int cpu)
{
	char path[64];
	uint64_t v;
	int fd;
	ssize_t n;

	snprintf(path, sizeof(path), "/dev/cpu/%d/msr", cpu);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -1;
	n = pread(fd, &v, sizeof(v), MSR_SMI_COUNT);
	close(fd);
	return n == (ssize_t)sizeof(v) ? (int64_t)(v & 0xffffffffu) : -1;
}

/* ---- set-up and tear-down ---- */

static int read_online(const struct rootfs *fs, struct rtr_cpuset *online)
{
	char buf[4096];
	int err = rootfs_read_text(fs, "/sys/devices/system/cpu/online", buf, sizeof(buf));

	return err ? err : rtr_cpuset_parse_list(online, buf);
}

static int validate(const struct noise_config *cfg, const struct rtr_cpuset *online, char *why,
		    size_t len)
{
	struct rtr_cpuset rest = RTR_CPUSET_INIT;
	int cpu = -1, err = 0;

	if (rtr_cpuset_is_empty(&cfg->cpus))
		return say_why(why, len, -EINVAL, "no CPU to measure");
	while ((cpu = rtr_cpuset_next(&cfg->cpus, cpu)) >= 0) {
		if (!rtr_cpuset_test(online, cpu))
			return say_why(why, len, -EINVAL, "CPU %d is not online", cpu);
	}
	if (cfg->policy != RTR_SCHED_FIFO && cfg->policy != RTR_SCHED_RR &&
	    cfg->policy != RTR_SCHED_OTHER)
		return say_why(why, len, -EINVAL,
			       "the spinning threads run at SCHED_FIFO, SCHED_RR or SCHED_OTHER");
	if (cfg->policy != RTR_SCHED_OTHER &&
	    (cfg->priority < 1 || cfg->priority > RTR_PRIO_MAX_SAFE))
		return say_why(why, len, -EINVAL, "priority %d is outside 1..%d", cfg->priority,
			       RTR_PRIO_MAX_SAFE);
	if (cfg->duration_ns == 0 || cfg->duration_ns > NOISE_MAX_DURATION_NS)
		return say_why(why, len, -EINVAL, "the duration must be from 1 ns to 24 h");
	err = rtr_cpuset_copy(&rest, online);
	if (!err) {
		rtr_cpuset_andnot(&rest, &cfg->cpus);
		if (rtr_cpuset_is_empty(&rest)) {
			say_why(why, len, 0,
				"every online CPU would spin: leave at least one to "
				"housekeeping (the spinners never sleep)");
			err = -EINVAL;
		}
	}
	rtr_cpuset_free(&rest);
	return err;
}

static int setup(struct noise_run *run, char *why, size_t len)
{
	size_t n = rtr_cpuset_count(&run->cfg.cpus);
	uint64_t secs = run->cfg.duration_ns / RTR_NSEC_PER_SEC + 1;
	size_t cap = secs * 5000 < 65536 ? 65536 : secs * 5000;
	int cpu = -1, err;

	if (cap > NOISE_MAX_GAPS)
		cap = NOISE_MAX_GAPS;
	run->w = calloc(n, sizeof(*run->w));
	if (!run->w)
		return -ENOMEM;
	run->n = n;
	for (size_t i = 0; i < n; i++) {
		struct spinner *w = &run->w[i];

		cpu = rtr_cpuset_next(&run->cfg.cpus, cpu);
		if (cpu > run->max_cpu)
			run->max_cpu = cpu;
		w->run = run;
		w->cpu = cpu;
		w->pin = (struct rtr_cpuset)RTR_CPUSET_INIT;
		w->smi_start = -1;
		w->hist = calloc(NOISE_HIST_BUCKETS, sizeof(*w->hist));
		w->gaps = calloc(cap, sizeof(*w->gaps));
		w->cap_gaps = cap;
		if (!w->hist || !w->gaps)
			return -ENOMEM;
		err = rtr_cpuset_set(&w->pin, cpu);
		if (err)
			return err;
		if (run->placed) {
			if (sem_init(&w->go, 0, 0) != 0)
				return -errno;
			w->go_init = true;
		}
	}
	run->cpu_index = malloc(((size_t)run->max_cpu + 1) * sizeof(*run->cpu_index));
	if (!run->cpu_index)
		return -ENOMEM;
	for (int c = 0; c <= run->max_cpu; c++)
		run->cpu_index[c] = -1;
	for (size_t i = 0; i < n; i++)
		run->cpu_index[run->w[i].cpu] = (int)i;
	(void)why;
	(void)len;
	return 0;
}

static void free_run(struct noise_run *run)
{
	for (size_t i = 0; run->w && i < run->n; i++) {
		struct spinner *w = &run->w[i];

		free(w->hist);
		free(w->gaps);
		noise_log_free(&w->log);
		free(w->win);
		free(w->irq_prev);
		rtr_cpuset_free(&w->pin);
		if (w->go_init)
			sem_destroy(&w->go);
	}
	free(run->w);
	if (run->placed)
		sem_destroy(&run->hello);
	free(run->cpu_index);
	free(run->buf);
	trace_session_free(run->trace);
	if (run->fs_open)
		rootfs_close(&run->fs);
	noise_config_free(&run->cfg);
	free(run);
}

/*
 * Placed mode: move the spinner @w (blocked on its go) into the group
 * and pin it there. Its CPU is outside the process's cpuset once the
 * partition exists, so it could not be pinned before the move.
 */
static int place_spinner(struct noise_run *run, struct spinner *w, char *why, size_t len)
{
	long tid;
	cpu_set_t *cs = NULL;
	size_t size = 0;
	int err;

	while (sem_wait(&run->hello) != 0 && errno == EINTR)
		;
	tid = atomic_load(&w->tid);
	err = cgroupfs_move_thread(&run->fs, run->cfg.cgroup, tid);
	if (err)
		return say_why(why, len, err,
			       "cannot move the spinner of CPU %d (thread %ld) into %s "
			       "(cgroup.threads): %s%s",
			       w->cpu, tid, run->cfg.cgroup, strerror(-err),
			       err == -EOPNOTSUPP ? "; only a threaded group of the process's own "
						    "threaded domain takes single threads"
						  : "");
	err = rtr_cpuset_to_sched(&w->pin, &cs, &size);
	if (!err) {
		err = -pthread_setaffinity_np(w->thread, size, cs);
		if (err)
			say_why(why, len, 0, "cannot pin the spinner to CPU %d inside %s: %s",
				w->cpu, run->cfg.cgroup, strerror(-err));
	}
	free(cs);
	return err;
}

/* Placed mode: let every spinner that waits go (to spin, or to end on the stop flag). */
static void release_spinners(struct noise_run *run)
{
	for (size_t i = 0; run->placed && i < run->n; i++) {
		if (run->w[i].started && !run->w[i].released) {
			run->w[i].released = true;
			sem_post(&run->w[i].go);
		}
	}
}

/*
 * Placed mode: the process joins the group's parent (the threaded domain
 * the group belongs to), as only threads of that domain may move into it.
 */
static int join_domain(struct noise_run *run, char *why, size_t len)
{
	char parent[PATH_MAX], pid[24];
	char *slash;
	int err;

	snprintf(parent, sizeof(parent), "%s", run->cfg.cgroup);
	slash = strrchr(parent, '/');
	if (!slash || slash == parent)
		return say_why(why, len, -EINVAL, "'%s' is not a group below a cgroup2 mount",
			       run->cfg.cgroup);
	*slash = '\0';
	snprintf(pid, sizeof(pid), "%ld", (long)getpid());
	err = cgroupfs_write(&run->fs, parent, "cgroup.procs", pid);
	if (err)
		say_why(why, len, 0,
			"cannot move rtready into %s (cgroup.procs), the threaded domain "
			"of %s: %s",
			parent, run->cfg.cgroup, strerror(-err));
	return err;
}

static int start_spinners(struct noise_run *run, char *why, size_t len)
{
	char name[16];
	int err;

	if (run->placed && (err = join_domain(run, why, len)))
		return err;
	for (size_t i = 0; i < run->n; i++) {
		struct spinner *w = &run->w[i];
		struct rtr_thread_attr attr = {
			.policy = run->cfg.policy,
			.priority = run->cfg.policy == RTR_SCHED_OTHER ? 0 : run->cfg.priority,
			/* Placed: started where the main thread is, pinned once moved. */
			.cpus = run->placed ? NULL : &w->pin,
			.stack_bytes = SPIN_STACK_BYTES,
			.prefault_stack = true,
			.name = name,
		};

		snprintf(name, sizeof(name), "rtr-noise/%d", w->cpu);
		err = rtr_thread_create(&w->thread, &attr, spin_main, w);
		if (err) {
			const char *lib = rtr_last_error();

			if (err == -EPERM && !(lib && *lib))
				latency_explain_eperm(run->cfg.policy, run->cfg.priority,
						      "or measure with --policy other", why, len);
			else
				say_why(why, len, 0,
					"cannot start the spinning thread on CPU %d: %s", w->cpu,
					lib && *lib ? lib : strerror(-err));
			return err;
		}
		w->started = true;
		if (run->placed && (err = place_spinner(run, w, why, len)))
			return err;
	}
	return 0;
}

static void join_spinners(struct noise_run *run)
{
	atomic_store(&run->stop, 1);
	release_spinners(run);
	for (size_t i = 0; i < run->n; i++) {
		if (run->w[i].started) {
			pthread_join(run->w[i].thread, NULL);
			run->w[i].started = false;
		}
	}
}

/* The main thread goes to the housekeeping CPUs for the run (@old: its affinity before). */
static void pin_main(const struct noise_run *run, const struct rtr_cpuset *online,
		     cpu_set_t **old, size_t *old_size)
{
	struct rtr_cpuset hk = RTR_CPUSET_INIT;
	cpu_set_t *cs = NULL;
	size_t size = 0;

	*old = NULL;
	if (rtr_cpuset_copy(&hk, online) == 0) {
		rtr_cpuset_andnot(&hk, &run->cfg.cpus);
		if (!rtr_cpuset_is_empty(&hk) && rtr_cpuset_to_sched(&hk, &cs, &size) == 0) {
			cpu_set_t *prev = CPU_ALLOC(RTR_CPUSET_MAX_CPUS);
			size_t psize = CPU_ALLOC_SIZE(RTR_CPUSET_MAX_CPUS);

			if (prev && pthread_getaffinity_np(pthread_self(), psize, prev) == 0 &&
			    pthread_setaffinity_np(pthread_self(), size, cs) == 0) {
				*old = prev;
				*old_size = psize;
				prev = NULL;
			}
			if (prev)
				CPU_FREE(prev);
		}
	}
	free(cs);
	rtr_cpuset_free(&hk);
}

/* RLIMIT_RTTIME a little past the duration: the kernel's own stop for a spinner left behind. */
static int set_rttime(const struct noise_run *run, struct rlimit *old, bool *set, char *why,
		      size_t len)
{
	uint64_t us = run->cfg.duration_ns / 1000 + RTTIME_MARGIN_US;
	struct rlimit rl = { us, us + RTTIME_MARGIN_US };

	*set = false;
	if (run->cfg.policy == RTR_SCHED_OTHER || getrlimit(RLIMIT_RTTIME, old) < 0)
		return 0;
	if (setrlimit(RLIMIT_RTTIME, &rl) == 0) {
		*set = true;
		return 0;
	}
	if (old->rlim_cur == RLIM_INFINITY || old->rlim_cur >= rl.rlim_cur)
		return 0;
	return say_why(why, len, -EPERM,
		       "RLIMIT_RTTIME is %llu us, shorter than the run: the kernel would stop the "
		       "spinners; raise it (as root) or shorten -D",
		       (unsigned long long)old->rlim_cur);
}

static void start_trace(struct noise_run *run, struct noise_result *out)
{
	uint64_t secs = run->cfg.duration_ns / RTR_NSEC_PER_SEC + 1;
	uint64_t max = TRACE_KB_TOTAL / run->n;
	uint64_t kb = secs * TRACE_KB_PER_SEC;
	char why[256] = "";
	int err;

	if (max > TRACE_KB_MAX)
		max = TRACE_KB_MAX;
	if (max < TRACE_KB_MIN)
		max = TRACE_KB_MIN;
	if (kb > max) {
		kb = max;
		run->drain_ns = (int64_t)(kb / TRACE_KB_PER_SEC) * RTR_NSEC_PER_SEC / 2;
	}

	out->source = NOISE_SRC_WINDOW;
	if (!run->cfg.trace) {
		snprintf(out->source_note, sizeof(out->source_note), "tracing not asked for");
		return;
	}
	if (kb < TRACE_KB_MIN)
		kb = TRACE_KB_MIN;
	err = trace_session_start_run(&run->cfg.cpus, (unsigned int)kb, &run->trace, why,
				      sizeof(why));
	if (err == 0) {
		out->source = NOISE_SRC_TRACE;
		return;
	}
	run->trace = NULL;
	/* The session's own words name latency's --trace option: say it for noise. */
	if (err == -EPERM || err == -EACCES)
		snprintf(out->source_note, sizeof(out->source_note),
			 "kernel tracing (tracefs) needs root (CAP_SYS_ADMIN)");
	else
		snprintf(out->source_note, sizeof(out->source_note), "%s", why);
}

/*
 * The gaps of one window share its counters. A gap as long as the
 * throttled part of a period is rt_throttling; the thread's involuntary
 * switches go to the largest gaps (a switch costs more than an interrupt);
 * the rest to steal, else the interrupt row or softirq that rose most.
 */
static void window_attr(const struct window *win, bool throttle, uint64_t throttle_ns,
			bool switched, uint64_t gap_ns, struct noise_attr *a)
{
	a->id = -1;
	if (!win) {
		a->kind = NOISE_UNKNOWN;
		snprintf(a->name, sizeof(a->name), "after the last counter sample");
	} else if (throttle && gap_ns >= throttle_ns * 8 / 10) {
		a->kind = NOISE_RT_THROTTLING;
		snprintf(a->name, sizeof(a->name), "RT runtime used up");
	} else if (switched) {
		a->kind = NOISE_THREAD;
		snprintf(a->name, sizeof(a->name), "preempted (involuntary switch)");
	} else if (win->steal_delta) {
		a->kind = NOISE_HYPERVISOR;
		snprintf(a->name, sizeof(a->name), "vCPU not running (steal time)");
	} else if (win->irq_delta) {
		a->kind = NOISE_IRQ;
		a->id = win->irq_id;
		snprintf(a->name, sizeof(a->name), "%s", win->irq_name);
	} else if (win->softirq_delta) {
		a->kind = NOISE_SOFTIRQ;
		a->id = win->softirq_vec;
		snprintf(a->name, sizeof(a->name), "%s", trace_softirq_name(win->softirq_vec));
	} else {
		a->kind = NOISE_HARDWARE;
		snprintf(a->name, sizeof(a->name), "no counter rose");
	}
}

static uint64_t gap_ns(const struct noise_gap *g)
{
	return (uint64_t)(g->end_ns - g->start_ns);
}

/* Gap indexes by duration, longest first (qsort_r is not everywhere: a pair array). */
struct gap_ref {
	uint64_t ns;
	size_t i;
};

static int cmp_ref(const void *pa, const void *pb)
{
	const struct gap_ref *a = pa, *b = pb;

	return a->ns < b->ns ? 1 : a->ns > b->ns ? -1 : 0;
}

static int attribute_windows(const struct spinner *w, bool throttle, uint64_t throttle_ns,
			     struct noise_attr *attr)
{
	struct gap_ref *ref = malloc((w->n_gaps ? w->n_gaps : 1) * sizeof(*ref));
	size_t g = 0;

	if (!ref)
		return -ENOMEM;
	for (size_t wi = 0; g < w->n_gaps; wi++) {
		const struct window *win = wi < w->n_win ? &w->win[wi] : NULL;
		uint64_t switches = win ? win->nvcsw_delta : 0;
		size_t n = 0;

		/* The gaps that ended in this window (all the rest after the last one). */
		while (g < w->n_gaps && (!win || w->gaps[g].end_ns <= win->t_ns)) {
			ref[n].ns = gap_ns(&w->gaps[g]);
			ref[n].i = g;
			n++;
			g++;
		}
		qsort(ref, n, sizeof(*ref), cmp_ref);
		for (size_t k = 0; k < n; k++) {
			bool th = throttle && ref[k].ns >= throttle_ns * 8 / 10;

			window_attr(win, throttle, throttle_ns, !th && switches > 0, ref[k].ns,
				    &attr[ref[k].i]);
			/* A throttled thread is switched out too. */
			if (switches)
				switches--;
		}
	}
	free(ref);
	return 0;
}

static void add_top(struct noise_cpu_result *c, const struct noise_gap *g,
		    const struct noise_attr *a)
{
	uint64_t d = (uint64_t)(g->end_ns - g->start_ns);
	size_t at = c->n_top;

	while (at > 0 && c->top[at - 1].duration_ns < d)
		at--;
	if (at >= NOISE_TOP_GAPS)
		return;
	if (c->n_top < NOISE_TOP_GAPS)
		c->n_top++;
	memmove(&c->top[at + 1], &c->top[at], (c->n_top - 1 - at) * sizeof(c->top[0]));
	c->top[at].start_ns = g->start_ns;
	c->top[at].duration_ns = d;
	c->top[at].cause = *a;
}

static int attribute(struct noise_run *run, struct noise_result *out)
{
	bool throttling = out->rt_runtime_us >= 0 && out->rt_period_us > 0 &&
			  out->rt_runtime_us < out->rt_period_us;

	uint64_t throttle_ns = throttling ?
		(uint64_t)(out->rt_period_us - out->rt_runtime_us) * 1000 : 0;

	for (size_t i = 0; i < run->n; i++) {
		struct spinner *w = &run->w[i];
		struct noise_cpu_result *c = &out->cpus[i];
		struct noise_attr *attr = calloc(w->n_gaps ? w->n_gaps : 1, sizeof(*attr));
		int err = 0;

		if (!attr)
			return -ENOMEM;
		if (out->source == NOISE_SRC_TRACE) {
			struct noise_match_input in = {
				.ev = w->log.ev,
				.n_ev = w->log.n_ev,
				.tid = atomic_load(&w->tid),
				.rt = run->cfg.policy != RTR_SCHED_OTHER,
				.throttling = throttling,
				.steal = w->log.steal,
				.n_steal = w->log.n_steal,
				.lost = w->log.lost,
				.smi_delta = c->smi_count,
				.virtual_machine = out->virtual_machine,
			};

			noise_match(&in, w->gaps, w->n_gaps, attr);
		} else {
			err = attribute_windows(w, throttling && run->cfg.policy != RTR_SCHED_OTHER,
						throttle_ns, attr);
		}
		for (size_t g = 0; !err && g < w->n_gaps; g++) {
			err = noise_causes_add(&c->causes, &c->n_causes, &attr[g],
					       (uint64_t)(w->gaps[g].end_ns - w->gaps[g].start_ns));
			add_top(c, &w->gaps[g], &attr[g]);
		}
		if (!err && w->unkept) {
			/* Counted, not kept: one line so that the causes add up to the events. */
			struct noise_attr a = { NOISE_UNKNOWN, -1, "not kept (gap store full)" };

			err = noise_causes_add(&c->causes, &c->n_causes, &a, 0);
			if (!err)
				c->causes[c->n_causes - 1].count = w->unkept;
		}
		if (err) {
			free(attr);
			return err;
		}
		/* The result keeps every gap with its cause (--gaps). */
		c->attr = attr;
		c->gaps = w->gaps;
		c->n_gaps = w->n_gaps;
		w->gaps = NULL;
		noise_causes_sort(c->causes, c->n_causes);
	}
	return 0;
}

static void read_throttling(struct noise_run *run, struct noise_result *out)
{
	int64_t v;

	out->rt_runtime_us = -1;
	out->rt_period_us = 0;
	if (rootfs_read_int64(&run->fs, "/proc/sys/kernel/sched_rt_runtime_us", &v) == 0)
		out->rt_runtime_us = v;
	if (rootfs_read_int64(&run->fs, "/proc/sys/kernel/sched_rt_period_us", &v) == 0)
		out->rt_period_us = v;
}

/* /proc/cpuinfo: a virtual machine, and an invariant TSC (x86 only) to spin on. */
static void read_cpuinfo(struct noise_run *run, struct noise_result *out)
{
	size_t len;

	if (noisesrc_read(&run->fs, "/proc/cpuinfo", &run->buf, &run->buf_size, &len) != 0)
		return;
	out->virtual_machine = strstr(run->buf, " hypervisor") != NULL;
#if defined(__x86_64__) || defined(__i386__)
	run->tsc = run->cfg.clock != NOISE_CLOCK_MONOTONIC &&
		   strstr(run->buf, " constant_tsc") && strstr(run->buf, " nonstop_tsc");
#endif
	out->tsc = run->tsc;
}

static void collect(struct noise_run *run, struct noise_result *out)
{
	for (size_t i = 0; i < run->n; i++) {
		struct spinner *w = &run->w[i];
		struct noise_cpu_result *c = &out->cpus[i];
		int64_t smi_end = w->smi_start >= 0 ? read_smi(w->cpu) : -1;

		c->cpu = w->cpu;
		c->tid = atomic_load(&w->tid);
		c->loops = w->loops;
		c->elapsed_ns = w->last_ns > w->first_ns ? w->last_ns - w->first_ns : 0;
		c->noise_ns = w->noise_ns;
		c->events = w->events;
		c->max_ns = w->max_ns;
		memcpy(c->hist, w->hist, sizeof(c->hist));
		c->gaps_unkept = w->unkept;
		c->trace_events = w->log.n_ev;
		c->trace_lost = w->log.lost;
		c->steal_ticks = w->log.n_steal >= 2 ?
			w->log.steal[w->log.n_steal - 1].steal_ticks - w->log.steal[0].steal_ticks : 0;
		c->smi_count = smi_end >= 0 ? (int64_t)((uint32_t)(smi_end - w->smi_start)) : -1;
	}
}

/* While the spinners spin: drain the trace, sample steal and counters, watch for the end. */
static void wait_run(struct noise_run *run, struct noise_result *out,
		     const volatile sig_atomic_t *stop)
{
	int64_t next_drain = run->drain_ns ? run->start_ns + run->drain_ns : INT64_MAX;
	int64_t next_window = 0;
	sigset_t xcpu;

	sigemptyset(&xcpu);
	sigaddset(&xcpu, SIGXCPU);
	out->stop = NOISE_STOP_DURATION;
	for (;;) {
		struct timespec to = rtr_ts_from_ns(NOISE_STEAL_PERIOD_NS);
		int64_t t = mono_ns();

		if (stop && *stop) {
			out->stop = NOISE_STOP_SIGNAL;
			out->stop_signal = *stop;
			break;
		}
		if (t >= run->end_ns)
			break;
		sample_steal(run, t);
		if (run->trace && t >= next_drain) {
			/* A failed read is tried again; the final one decides. */
			if (trace_session_drain(run->trace, on_event, run))
				out->trace_retries++;
			next_drain = t + run->drain_ns;
		}
		if (!run->trace && t >= next_window) {
			sample_window(run, t);
			next_window = t + NOISE_WINDOW_NS;
		}
		if (run->end_ns - t < NOISE_STEAL_PERIOD_NS)
			to = rtr_ts_from_ns(run->end_ns - t);
		/* SIGXCPU: RLIMIT_RTTIME caught a spinner (it should have ended long before). */
		if (sigtimedwait(&xcpu, NULL, &to) == SIGXCPU) {
			out->stop = NOISE_STOP_RUNAWAY;
			break;
		}
	}
	atomic_store(&run->stop, 1);
}

int noise_run(const struct noise_config *cfg, const volatile sig_atomic_t *stop,
	      struct noise_result *out, char *why, size_t whylen)
{
	struct rtr_cpuset online = RTR_CPUSET_INIT;
	struct noise_run *run;
	struct rlimit old_rttime;
	bool rttime_set = false, locked = false;
	cpu_set_t *old_aff = NULL;
	size_t old_aff_size = 0;
	sigset_t all, oldmask, xcpu;
	int err;

	memset(out, 0, sizeof(*out));
	out->cfg.cpus = (struct rtr_cpuset)RTR_CPUSET_INIT;
	run = calloc(1, sizeof(*run));
	if (!run)
		return -ENOMEM;
	run->cfg = *cfg;
	run->cfg.cpus = (struct rtr_cpuset)RTR_CPUSET_INIT;
	atomic_init(&run->stop, 0);
	run->placed = cfg->cgroup[0] != '\0' && sem_init(&run->hello, 0, 0) == 0;
	if (cfg->cgroup[0] && !run->placed) {
		err = -errno;
		free(run);
		return err;
	}
	err = rtr_cpuset_copy(&run->cfg.cpus, &cfg->cpus);
	if (!err)
		err = rootfs_open(&run->fs, "/");
	if (err)
		goto out;
	run->fs_open = true;
	err = read_online(&run->fs, &online);
	if (err) {
		say_why(why, whylen, 0, "cannot read the online CPUs: %s", strerror(-err));
		goto out;
	}
	err = validate(cfg, &online, why, whylen) ?: setup(run, why, whylen);
	if (err)
		goto out;
	err = -ENOMEM;
	out->cpus = calloc(run->n, sizeof(*out->cpus));
	if (!out->cpus || rtr_cpuset_copy(&out->cfg.cpus, &cfg->cpus))
		goto out;
	out->cfg.policy = cfg->policy;
	out->cfg.priority = cfg->priority;
	out->cfg.duration_ns = cfg->duration_ns;
	out->cfg.threshold_ns = cfg->threshold_ns;
	out->cfg.mlock = cfg->mlock;
	out->cfg.trace = cfg->trace;
	out->cfg.clock = cfg->clock;
	memcpy(out->cfg.cgroup, cfg->cgroup, sizeof(out->cfg.cgroup));
	out->n_cpus = run->n;
	read_throttling(run, out);
	read_cpuinfo(run, out);
	err = set_rttime(run, &old_rttime, &rttime_set, why, whylen);
	if (err)
		goto out;
	start_trace(run, out);
	if (cfg->mlock) {
		err = measure_lock_memory(why, whylen);
		if (err)
			goto out;
		locked = true;
	}
	for (size_t i = 0; i < run->n; i++)
		run->w[i].smi_start = read_smi(run->w[i].cpu);
	pin_main(run, &online, &old_aff, &old_aff_size);
	if (!run->trace)
		sample_window(run, mono_ns());
	/* Spinners block every signal (inherited); the main thread takes SIGXCPU by waiting. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &oldmask);
	run->start_ns = mono_ns() + START_MARGIN_NS;
	run->end_ns = run->start_ns + (int64_t)cfg->duration_ns;
	err = start_spinners(run, why, whylen);
	if (!err && run->placed) {
		/* Every spinner placed: the run starts now, for its whole duration. */
		run->start_ns = mono_ns() + START_MARGIN_NS;
		run->end_ns = run->start_ns + (int64_t)cfg->duration_ns;
		release_spinners(run);
	}
	sigemptyset(&xcpu);
	sigaddset(&xcpu, SIGXCPU);
	pthread_sigmask(SIG_SETMASK, &oldmask, NULL);
	pthread_sigmask(SIG_BLOCK, &xcpu, NULL);
	if (!err) {
		wait_run(run, out, stop);
	}
	join_spinners(run);
	out->elapsed_ns = mono_ns() - run->start_ns;
	if (run->trace) {
		trace_session_stop(run->trace);
		if (trace_session_drain(run->trace, on_event, run)) {
			out->source = NOISE_SRC_WINDOW;
			snprintf(out->source_note, sizeof(out->source_note),
				 "the trace could not be read back");
		}
		trace_session_free(run->trace);
		run->trace = NULL;
	} else if (!err) {
		sample_window(run, mono_ns());
	}
	/* A SIGXCPU left pending is dropped before the old mask comes back. */
	{
		struct timespec zero = { 0, 0 };

		sigtimedwait(&xcpu, NULL, &zero);
	}
	pthread_sigmask(SIG_SETMASK, &oldmask, NULL);
	if (old_aff) {
		pthread_setaffinity_np(pthread_self(), old_aff_size, old_aff);
		CPU_FREE(old_aff);
	}
	if (rttime_set)
		setrlimit(RLIMIT_RTTIME, &old_rttime);
	if (locked)
		munlockall();
	if (err)
		goto out;
	collect(run, out);
	err = attribute(run, out);
	if (err)
		say_why(why, whylen, 0, "out of memory while attributing the gaps");
out:
	rtr_cpuset_free(&online);
	free_run(run);
	if (err)
		noise_result_free(out);
	return err;
}
