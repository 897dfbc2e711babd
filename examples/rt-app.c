// SPDX-License-Identifier: MIT
/*
 * rt-app: a complete periodic realtime application, written only against
 * librtready, to copy from. It follows the checklist in order: malloc kept
 * on the heap, all memory locked and prefaulted, one SCHED_FIFO thread
 * (priority 80 by default) pinned to one CPU that wakes every millisecond
 * on absolute CLOCK_MONOTONIC deadlines, a PI mutex it shares with an
 * ordinary thread, and a monotonic condition variable to hand results to
 * that thread. At the end it prints a histogram of the wake-up latencies.
 *
 *   rt-app [-D DURATION] [-c CPU] [-p PRIO] [-i INTERVAL_US] [-q]
 *
 * Exit status: 0 when the run completed, 2 on bad usage or when the system
 * refused what a realtime application needs (the message names the
 * missing privilege).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rtready/rtready.h>

#define HEAP_PREFAULT_BYTES (8u << 20)
#define STACK_PREFAULT_BYTES (256u << 10)
#define HIST_BUCKET_NS 1000u		/* 1 us buckets ... */
#define HIST_RANGE_NS 10000000u	/* ... up to 10 ms; beyond: exact outliers */
#define HIST_OUTLIERS 256
#define MAX_DURATION_NS (7LL * 24 * 3600 * RTR_NSEC_PER_SEC)

struct options {
	int64_t duration_ns;
	int64_t interval_ns;
	int cpu;		/* -1: the last CPU we may use */
	int prio;
	bool quiet;
};

/* One window of samples, handed from the RT thread to the logger. */
struct window {
	uint64_t cycles;
	uint64_t max_ns;
	uint64_t overruns;
};

struct app {
	struct options opt;
	pthread_mutex_t lock;	/* PI: the RT thread may wait on the logger */
	pthread_cond_t handoff;	/* CLOCK_MONOTONIC */
	/* Protected by lock. */
	struct rtr_hist hist;
	struct window window, ready;
	bool has_ready;
	bool done;
	/* Written by the RT thread before it exits. */
	struct rtr_period period;
	uint64_t rt_minor_faults, rt_major_faults;
	int rt_err;
};

/* The only state a signal handler may touch. */
static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

static void usage(FILE *f)
{
	fputs("Usage: rt-app [OPTION]...\n"
	      "A periodic SCHED_FIFO application built on librtready; prints a latency\n"
	      "histogram at the end.\n\n"
	      "  -D, --duration=TIME    how long to run (10s; units ms, s, m, h)\n"
	      "  -c, --cpu=N            CPU for the realtime thread (default: the last one)\n"
	      "  -p, --prio=N           SCHED_FIFO priority, 1-98 (default 80)\n"
	      "  -i, --interval=US      period in microseconds (default 1000)\n"
	      "  -q, --quiet            no progress lines\n"
	      "  -h, --help             this text\n", f);
}

static int parse_long(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max)
		return -EINVAL;
	*out = v;
	return 0;
}

/* "10" (seconds), "500ms", "10s", "2m", "1h". */
static int parse_duration(const char *s, int64_t *ns)
{
	static const struct { const char *unit; int64_t ns; } units[] = {
		{ "", RTR_NSEC_PER_SEC }, { "ms", RTR_NSEC_PER_MSEC }, { "s", RTR_NSEC_PER_SEC },
		{ "m", 60 * RTR_NSEC_PER_SEC }, { "h", 3600 * RTR_NSEC_PER_SEC },
	};
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || end == s || v <= 0)
		return -EINVAL;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(end, units[i].unit) != 0)
			continue;
		if (v > MAX_DURATION_NS / units[i].ns)
			return -ERANGE;
		*ns = v * units[i].ns;
		return 0;
	}
	return -EINVAL;
}

/* Return: 0 to run, 1 after --help, -1 on bad usage (message printed). */
static int parse_options(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "duration", required_argument, NULL, 'D' },
		{ "cpu", required_argument, NULL, 'c' },
		{ "prio", required_argument, NULL, 'p' },
		{ "interval", required_argument, NULL, 'i' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	long v;
	int c;

	*o = (struct options){ .duration_ns = 10 * RTR_NSEC_PER_SEC,
			       .interval_ns = RTR_NSEC_PER_MSEC, .cpu = -1, .prio = 80 };
	while ((c = getopt_long(argc, argv, "D:c:p:i:qh", longopts, NULL)) != -1) {
		switch (c) {
		case 'D':
			if (parse_duration(optarg, &o->duration_ns) == 0)
				break;
			fprintf(stderr, "rt-app: bad duration '%s' (e.g. 500ms, 10s, 2m)\n", optarg);
			return -1;
		case 'c':
			if (parse_long(optarg, 0, RTR_CPUSET_MAX_CPUS - 1, &v) == 0) {
				o->cpu = (int)v;
				break;
			}
			fprintf(stderr, "rt-app: bad CPU number '%s'\n", optarg);
			return -1;
		case 'p':
			if (parse_long(optarg, 1, RTR_PRIO_MAX_SAFE, &v) == 0) {
				o->prio = (int)v;
				break;
			}
			fprintf(stderr, "rt-app: priority must be 1-%d, not '%s' (99 belongs to the "
				"kernel's own threads)\n", RTR_PRIO_MAX_SAFE, optarg);
			return -1;
		case 'i':
			if (parse_long(optarg, 50, 1000000, &v) == 0) {
				o->interval_ns = v * RTR_NSEC_PER_USEC;
				break;
			}
			fprintf(stderr, "rt-app: interval must be 50-1000000 us, not '%s'\n", optarg);
			return -1;
		case 'q':
			o->quiet = true;
			break;
		case 'h':
			usage(stdout);
			return 1;
		default:
			fputs("Try 'rt-app --help'.\n", stderr);
			return -1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "rt-app: unexpected argument '%s'\n", argv[optind]);
		return -1;
	}
	return 0;
}

/*
 * The realtime thread. Inside the loop: the sleep, a clock read, the PI
 * mutex and arithmetic on memory allocated and touched before the loop.
 */
static void *rt_main(void *arg)
{
	struct app *app = arg;
	uint64_t cycles = (uint64_t)(app->opt.duration_ns / app->opt.interval_ns);
	uint64_t per_window = (uint64_t)(RTR_NSEC_PER_SEC / app->opt.interval_ns);
	uint64_t min0 = 0, maj0 = 0, overruns_before = 0;
	int err;

	err = rtr_period_init(&app->period, app->opt.interval_ns);
	for (uint64_t i = 0; !err && i < cycles && !stop_requested; i++) {
		int64_t late_ns = 0;

		err = rtr_period_wait(&app->period, &late_ns);
		if (err)
			break;
		/* Count faults from the end of the first cycle on. */
		if (i == 0)
			rtr_mem_thread_faults(&min0, &maj0);
		pthread_mutex_lock(&app->lock);
		rtr_hist_add(&app->hist, (uint64_t)late_ns);
		app->window.cycles++;
		if ((uint64_t)late_ns > app->window.max_ns)
			app->window.max_ns = (uint64_t)late_ns;
		if (app->window.cycles >= per_window) {
			app->window.overruns = app->period.overruns - overruns_before;
			overruns_before = app->period.overruns;
			app->ready = app->window;
			app->has_ready = true;
			memset(&app->window, 0, sizeof(app->window));
			pthread_cond_signal(&app->handoff);
		}
		pthread_mutex_unlock(&app->lock);
	}
	rtr_mem_thread_faults(&app->rt_minor_faults, &app->rt_major_faults);
	app->rt_minor_faults -= min0;
	app->rt_major_faults -= maj0;
	app->rt_err = err;
	return NULL;
}

/* The ordinary thread: takes each window the RT thread hands over. */
static void *logger_main(void *arg)
{
	struct app *app = arg;
	uint64_t windows = 0;

	pthread_mutex_lock(&app->lock);
	while (!app->done) {
		struct timespec now, deadline;
		struct window w;

		clock_gettime(CLOCK_MONOTONIC, &now);
		deadline = rtr_ts_add_ns(now, 2 * RTR_NSEC_PER_SEC);
		rtr_cond_wait_until(&app->handoff, &app->lock, &deadline);
		if (!app->has_ready)
			continue;
		w = app->ready;
		app->has_ready = false;
		/* Never print with the lock held: the RT thread may need it. */
		pthread_mutex_unlock(&app->lock);
		windows++;
		if (!app->opt.quiet)
			printf("rt-app: %3" PRIu64 "s  cycles %" PRIu64 "  max %" PRIu64
			       " us  overruns %" PRIu64 "\n", windows, w.cycles, w.max_ns / 1000,
			       w.overruns);
		fflush(stdout);
		pthread_mutex_lock(&app->lock);
	}
	pthread_mutex_unlock(&app->lock);
	return NULL;
}

/* mallopt, mlockall, prefault. Return: 0 or -errno (message printed). */
static int setup_memory(void)
{
	struct rtr_mem_setup mem = { .mallopt = true, .lock = true,
				     .heap_bytes = HEAP_PREFAULT_BYTES,
				     .stack_bytes = STACK_PREFAULT_BYTES };
	int err = rtr_mem_mallopt();

	/* Not fatal: musl has no such tunables; we allocate everything up front. */
	if (err)
		fprintf(stderr, "rt-app: note: %s\n", rtr_last_error());
	mem.mallopt = false;
	err = rtr_mem_setup(&mem);
	if (err)
		fprintf(stderr, "rt-app: memory setup failed: %s\n", rtr_last_error());
	return err;
}

static int pick_cpu(int want, struct rtr_cpuset *cpu)
{
	struct rtr_cpuset allowed = RTR_CPUSET_INIT;
	char list[128];
	int err = rtr_cpuset_get_affinity(&allowed), last = -1;

	if (err) {
		fprintf(stderr, "rt-app: %s\n", rtr_last_error());
		return err;
	}
	for (int c = rtr_cpuset_next(&allowed, -1); c >= 0; c = rtr_cpuset_next(&allowed, c))
		last = c;
	if (want < 0)
		want = last;
	if (!rtr_cpuset_test(&allowed, want)) {
		rtr_cpuset_format_list(&allowed, list, sizeof(list));
		fprintf(stderr, "rt-app: CPU %d is not available to this process (allowed: %s)\n",
			want, list);
		rtr_cpuset_free(&allowed);
		return -EINVAL;
	}
	rtr_cpuset_free(&allowed);
	return rtr_cpuset_set(cpu, want);
}

static void print_selfcheck(void)
{
	struct rtr_finding f[32];
	size_t n = 0;

	if (rtr_selfcheck(f, 32, &n) != 0)
		return;
	for (size_t i = 0; i < n && i < 32; i++)
		printf("rt-app: selfcheck %-4s %-18s %s\n", rtr_status_name(f[i].status), f[i].id,
		       f[i].evidence);
}

static void print_results(const struct app *app, int cpu)
{
	const struct rtr_hist *h = &app->hist;

	printf("rt-app: %" PRIu64 " cycles on CPU %d, SCHED_FIFO %d, interval %" PRId64
	       " us, overruns %" PRIu64 "\n", app->period.cycles, cpu, app->opt.prio,
	       app->opt.interval_ns / 1000, app->period.overruns);
	if (h->samples == 0)
		return;
	printf("rt-app: latency us: min %" PRIu64 "  avg %" PRIu64 "  p50 %" PRIu64
	       "  p99 %" PRIu64 "  p99.9 %" PRIu64 "  max %" PRIu64 "  (past %" PRIu64
	       " us: %" PRIu64 ")\n", h->min_ns / 1000, rtr_hist_avg_ns(h) / 1000,
	       rtr_hist_percentile(h, 0.5) / 1000, rtr_hist_percentile(h, 0.99) / 1000,
	       rtr_hist_percentile(h, 0.999) / 1000, h->max_ns / 1000,
	       rtr_hist_range_ns(h) / 1000, h->overflows);
	printf("rt-app: RT thread page faults after its first cycle: %" PRIu64 " minor, %"
	       PRIu64 " major\n", app->rt_minor_faults, app->rt_major_faults);
	printf("# histogram: latency_us samples\n");
	for (size_t i = 0; i < h->nbuckets; i++)
		if (h->counts[i])
			printf("%zu %" PRIu64 "\n", i * (size_t)(h->bucket_ns / 1000), h->counts[i]);
}

static int run(struct app *app)
{
	struct rtr_cpuset cpu = RTR_CPUSET_INIT;
	struct rtr_thread_attr rt = { .policy = RTR_SCHED_FIFO, .priority = app->opt.prio,
				      .cpus = &cpu, .prefault_stack = true, .name = "rt-app-rt" };
	struct rtr_thread_attr other = { .policy = RTR_SCHED_OTHER, .name = "rt-app-log" };
	pthread_t rt_thread, log_thread;
	int err;

	err = pick_cpu(app->opt.cpu, &cpu);
	if (err)
		return err;
	err = rtr_thread_create(&log_thread, &other, logger_main, app);
	if (err) {
		fprintf(stderr, "rt-app: cannot start the logger thread: %s\n", rtr_last_error());
		goto out;
	}
	err = rtr_thread_create(&rt_thread, &rt, rt_main, app);
	if (err)
		fprintf(stderr, "rt-app: cannot start the realtime thread: %s\n",
			rtr_last_error());
	else if (!app->opt.quiet)
		print_selfcheck();
	if (!err) {
		/* Threads inherited the blocked mask; only this one takes signals. */
		sigset_t stop;

		sigemptyset(&stop);
		sigaddset(&stop, SIGINT);
		sigaddset(&stop, SIGTERM);
		pthread_sigmask(SIG_UNBLOCK, &stop, NULL);
		pthread_join(rt_thread, NULL);
		err = app->rt_err;
		if (err)
			fprintf(stderr, "rt-app: periodic wait failed: %s\n", strerror(-err));
	}
	pthread_mutex_lock(&app->lock);
	app->done = true;
	pthread_cond_signal(&app->handoff);
	pthread_mutex_unlock(&app->lock);
	pthread_join(log_thread, NULL);
	if (!err)
		print_results(app, rtr_cpuset_next(&cpu, -1));
out:
	rtr_cpuset_free(&cpu);
	return err;
}

int main(int argc, char **argv)
{
	struct sigaction sa;
	sigset_t all;
	struct app app;
	int err;

	memset(&app, 0, sizeof(app));
	err = parse_options(argc, argv, &app.opt);
	if (err)
		return err > 0 ? 0 : 2;
	/* Block signals before any thread starts, so all of them inherit it. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	printf("rt-app: pid %ld, running %" PRId64 " ms\n", (long)getpid(),
	       (int64_t)(app.opt.duration_ns / RTR_NSEC_PER_MSEC));
	fflush(stdout);

	if (setup_memory() != 0)
		return 2;
	/* Everything the RT loop touches exists before it starts. */
	err = rtr_hist_init(&app.hist, HIST_BUCKET_NS, HIST_RANGE_NS, HIST_OUTLIERS);
	if (!err)
		err = rtr_mutex_init_pi(&app.lock);
	if (!err)
		err = rtr_cond_init_monotonic(&app.handoff);
	if (err) {
		fprintf(stderr, "rt-app: setup failed: %s\n", strerror(-err));
		return 2;
	}
	err = run(&app);
	pthread_cond_destroy(&app.handoff);
	pthread_mutex_destroy(&app.lock);
	rtr_hist_free(&app.hist);
	return err ? 2 : 0;
}
