// SPDX-License-Identifier: MIT
/*
 * dl-app: a periodic SCHED_DEADLINE application, written only against
 * librtready, to copy from. Memory is locked and prefaulted, then one
 * thread is made SCHED_DEADLINE with rtr_thread_attr_set_deadline(): the
 * kernel gives it RUNTIME of CPU time in every PERIOD, to be used within
 * DEADLINE of the period's start, and runs it before every FIFO and RR
 * thread. Each job ends with sched_yield(), which gives the rest of the
 * runtime back and sleeps until the next period: no timer and no sleep
 * call in the loop. The job measures how late it started against its
 * period's absolute start and prints the figures at the end.
 *
 *   dl-app [-D DURATION_S] [-r RUNTIME_US] [-d DEADLINE_US] [-p PERIOD_US] [-q]
 *
 * Exit status: 0 when the run completed, 2 on bad usage or when the kernel
 * refused the thread (the message says why: admission control, privilege).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rtready/rtready.h>

#define HIST_BUCKET_NS 1000u	/* 1 us buckets up to 10 ms */
#define HIST_RANGE_NS 10000000u
#define HIST_OUTLIERS 64

struct dl_app {
	uint64_t runtime_ns, deadline_ns, period_ns;
	unsigned int duration_s;
	bool quiet;
	struct rtr_hist hist;	/* written by the DEADLINE thread only, read after join */
	uint64_t late_jobs;	/* jobs that started after deadline - runtime */
	_Atomic bool stop;
};

static int parse_us(const char *arg, uint64_t *ns)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(arg, &end, 10);
	if (errno || end == arg || *end || v == 0 || v > 4000000ULL)
		return -EINVAL;
	*ns = v * 1000u;
	return 0;
}

/*
 * The job loop. The first sched_yield() lines the thread up on a fresh
 * period; from then on each job's period starts one period after the one
 * before, and a job that starts before its supposed start moves the origin
 * (the kernel's period is then earlier than we thought).
 */
static void *job_loop(void *arg)
{
	struct dl_app *app = arg;
	struct timespec now;
	int64_t start_ns, late;

	sched_yield();
	clock_gettime(CLOCK_MONOTONIC, &now);
	start_ns = rtr_ts_to_ns(now);
	while (!atomic_load_explicit(&app->stop, memory_order_relaxed)) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		late = rtr_ts_to_ns(now) - start_ns;
		if (late < 0) {
			start_ns += late;
			late = 0;
		}
		/* Several periods late: the job belongs to the latest period begun. */
		while (late >= (int64_t)app->period_ns) {
			start_ns += (int64_t)app->period_ns;
			late -= (int64_t)app->period_ns;
		}
		rtr_hist_add(&app->hist, (uint64_t)late);
		if ((uint64_t)late > app->deadline_ns - app->runtime_ns)
			app->late_jobs++;
		/* ... the application's work goes here, within the runtime ... */
		/* Woken after its deadline, the thread got a new period from the kernel. */
		if ((uint64_t)late >= app->deadline_ns)
			start_ns = rtr_ts_to_ns(now) + (int64_t)app->period_ns;
		else
			start_ns += (int64_t)app->period_ns;
		sched_yield();
	}
	return NULL;
}

static int run(struct dl_app *app)
{
	struct rtr_mem_setup ms = { .lock = true, .heap_bytes = 1u << 20,
				    .stack_bytes = 64u << 10 };
	struct rtr_thread_attr attr = { .stack_bytes = 128u << 10, .prefault_stack = true,
					.name = "dl-app" };
	pthread_t t;
	int err;

	/* Not fatal: musl has no such tunables, and the loop allocates nothing. */
	if (rtr_mem_mallopt() && !app->quiet)
		fprintf(stderr, "dl-app: note: %s\n", rtr_last_error());
	err = rtr_mem_setup(&ms);
	if (err) {
		fprintf(stderr, "dl-app: %s\n", rtr_last_error());
		return 2;
	}
	err = rtr_thread_attr_set_deadline(&attr, app->runtime_ns, app->deadline_ns,
					   app->period_ns);
	if (!err)
		err = rtr_thread_create(&t, &attr, job_loop, app);
	if (err) {
		fprintf(stderr, "dl-app: %s\n", rtr_last_error());
		return 2;
	}
	sleep(app->duration_s);
	atomic_store(&app->stop, true);
	pthread_join(t, NULL);
	printf("dl-app: %" PRIu64 " jobs, SCHED_DEADLINE %" PRIu64 "/%" PRIu64 "/%" PRIu64
	       " us: start after period start min %" PRIu64 " p50 %" PRIu64 " p99 %" PRIu64
	       " max %" PRIu64 " ns, %" PRIu64 " too late to finish the runtime by the deadline\n",
	       app->hist.samples, app->runtime_ns / 1000, app->deadline_ns / 1000,
	       app->period_ns / 1000, app->hist.samples ? app->hist.min_ns : 0,
	       rtr_hist_percentile(&app->hist, 0.5), rtr_hist_percentile(&app->hist, 0.99),
	       app->hist.max_ns, app->late_jobs);
	return 0;
}

int main(int argc, char **argv)
{
	struct dl_app app = { .runtime_ns = 200000, .deadline_ns = 1000000,
			      .period_ns = 1000000, .duration_s = 2 };
	int c, rc;

	while ((c = getopt(argc, argv, "D:r:d:p:qh")) != -1) {
		switch (c) {
		case 'D':
			app.duration_s = (unsigned int)atoi(optarg);
			if (app.duration_s < 1 || app.duration_s > 3600) {
				fprintf(stderr, "dl-app: -D takes 1..3600 seconds\n");
				return 2;
			}
			break;
		case 'r':
		case 'd':
		case 'p':
			if (parse_us(optarg, c == 'r' ? &app.runtime_ns :
					 c == 'd' ? &app.deadline_ns : &app.period_ns)) {
				fprintf(stderr, "dl-app: -%c takes 1..4000000 microseconds\n", c);
				return 2;
			}
			break;
		case 'q':
			app.quiet = true;
			break;
		default:
			fprintf(stderr, "usage: dl-app [-D SECONDS] [-r RUNTIME_US] [-d DEADLINE_US] "
				"[-p PERIOD_US] [-q]\n");
			return c == 'h' ? 0 : 2;
		}
	}
	if (rtr_hist_init(&app.hist, HIST_BUCKET_NS, HIST_RANGE_NS, HIST_OUTLIERS)) {
		fprintf(stderr, "dl-app: out of memory\n");
		return 2;
	}
	if (!app.quiet)
		printf("dl-app: SCHED_DEADLINE runtime %" PRIu64 " us every %" PRIu64
		       " us (deadline %" PRIu64 " us) for %u s\n", app.runtime_ns / 1000,
		       app.period_ns / 1000, app.deadline_ns / 1000, app.duration_s);
	rc = run(&app);
	rtr_hist_free(&app.hist);
	return rc;
}
