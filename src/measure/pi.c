// SPDX-License-Identifier: MIT
/*
 * The priority-inversion experiment; see pi.h. All three threads are
 * pinned to one CPU so that priorities alone decide who runs. LOW's
 * critical section is measured in its own CPU time, so time spent
 * preempted does not shorten it; HIGH and MEDIUM wake on absolute
 * CLOCK_MONOTONIC deadlines inside LOW's critical section.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "measure/pi.h"
#include "rtready/error.h"
#include "rtready/sync.h"
#include "rtready/thread.h"
#include "rtready/timespec.h"
#include "util/clock.h"

#define HIST_RANGE_NS (100 * RTR_NSEC_PER_MSEC)
#define HIST_BUCKET_NS (10 * RTR_NSEC_PER_USEC)

void pi_config_default(struct pi_config *c)
{
	c->cpu = -1;
	c->prio = 70;
	c->rounds = 100;
	c->cs_ns = 1 * RTR_NSEC_PER_MSEC;
	c->medium_ns = 3 * RTR_NSEC_PER_MSEC;
}

const char *pi_verdict_name(enum pi_verdict v)
{
	switch (v) {
	case PI_WORKS: return "works";
	case PI_BROKEN: return "broken";
	case PI_INCONCLUSIVE: return "inconclusive";
	case PI_INTERRUPTED: return "interrupted";
	}
	return "?";
}

/* Shared by the three threads of one run. */
struct pi_run {
	const struct pi_config *c;
	pthread_mutex_t mutex;
	struct timespec start;		/* round 0 begins here */
	int64_t period_ns;
	int64_t high_at_ns, medium_at_ns;	/* offsets of HIGH and MEDIUM in a round */
	atomic_uint locked_round;	/* LOW holds the mutex in this round (+1), 0: not */
	atomic_int stop;
	const volatile sig_atomic_t *user_stop;
	struct pi_mode_result *res;
};

static struct timespec at(const struct pi_run *run, unsigned round, int64_t offset_ns)
{
	return rtr_ts_add_ns(run->start, (int64_t)round * run->period_ns + offset_ns);
}

static void sleep_until(struct timespec t)
{
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL) == EINTR)
		;
}

static bool stopping(struct pi_run *run)
{
	if (run->user_stop && *run->user_stop)
		atomic_store(&run->stop, 1);
	return atomic_load(&run->stop);
}

/* LOW: lock, work cs_ns of its own CPU time (bounded by wall time too), unlock. */
static void *low_fn(void *arg)
{
	struct pi_run *run = arg;

	for (unsigned i = 0; i < run->c->rounds && !stopping(run); i++) {
		int64_t cpu0, wall_end;

		sleep_until(at(run, i, 0));
		pthread_mutex_lock(&run->mutex);
		atomic_store(&run->locked_round, i + 1);
		cpu0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
		/* The wall bound keeps a starved LOW from holding on forever. */
		wall_end = clock_ns(CLOCK_MONOTONIC) + run->period_ns;
		while (clock_ns(CLOCK_THREAD_CPUTIME_ID) - cpu0 < run->c->cs_ns &&
		       clock_ns(CLOCK_MONOTONIC) < wall_end)
			;
		atomic_store(&run->locked_round, 0);
		pthread_mutex_unlock(&run->mutex);
	}
	return NULL;
}

/* MEDIUM: wake inside LOW's critical section and spin, never locking. */
static void *medium_fn(void *arg)
{
	struct pi_run *run = arg;

	for (unsigned i = 0; i < run->c->rounds && !stopping(run); i++) {
		int64_t end;

		sleep_until(at(run, i, run->medium_at_ns));
		end = clock_ns(CLOCK_MONOTONIC) + run->c->medium_ns;
		while (clock_ns(CLOCK_MONOTONIC) < end)
			;
	}
	return NULL;
}

/* HIGH: wake inside LOW's critical section, time the wait for the mutex. */
static void *high_fn(void *arg)
{
	struct pi_run *run = arg;

	for (unsigned i = 0; i < run->c->rounds && !stopping(run); i++) {
		int64_t t0, waited;
		bool valid;

		sleep_until(at(run, i, run->high_at_ns));
		/* Only a round where LOW already holds the lock shows the scenario. */
		valid = atomic_load(&run->locked_round) == i + 1;
		t0 = clock_ns(CLOCK_MONOTONIC);
		pthread_mutex_lock(&run->mutex);
		waited = clock_ns(CLOCK_MONOTONIC) - t0;
		pthread_mutex_unlock(&run->mutex);
		if (valid) {
			rtr_hist_add(&run->res->wait, (uint64_t)(waited > 0 ? waited : 0));
			run->res->rounds_valid++;
		} else {
			run->res->rounds_skipped++;
		}
	}
	return NULL;
}

/* Started lowest first, so that no round begins before all three exist. */
static const struct {
	int dprio;
	const char *name;
	void *(*fn)(void *);
} roles[3] = {
	{ 0, "rtr-pi-low", low_fn },
	{ 1, "rtr-pi-medium", medium_fn },
	{ 2, "rtr-pi-high", high_fn },
};

static int start_thread(pthread_t *t, int prio, const char *name, void *(*fn)(void *), void *arg,
			const struct rtr_cpuset *cpus)
{
	struct rtr_thread_attr a;

	memset(&a, 0, sizeof(a));
	a.policy = RTR_SCHED_FIFO;
	a.priority = prio;
	a.cpus = cpus;
	a.name = name;
	return rtr_thread_create(t, &a, fn, arg);
}

static int run_mode(const struct pi_config *c, bool pi, struct pi_mode_result *res,
		    const volatile sig_atomic_t *user_stop, char *err, unsigned long errlen)
{
	struct rtr_cpuset cpus = RTR_CPUSET_INIT;
	struct pi_run run;
	pthread_t t[3];
	int n = 0, rc;

	memset(&run, 0, sizeof(run));
	run.c = c;
	run.res = res;
	run.user_stop = user_stop;
	res->pi = pi;
	rc = rtr_hist_init(&res->wait, HIST_BUCKET_NS, HIST_RANGE_NS, 32);
	if (rc)
		return rc;
	rc = pi ? rtr_mutex_init_pi(&run.mutex) : -pthread_mutex_init(&run.mutex, NULL);
	if (rc) {
		snprintf(err, errlen, "cannot create the %s mutex: %s", pi ? "PI" : "plain",
			 strerror(-rc));
		return rc;
	}
	rc = rtr_cpuset_set(&cpus, c->cpu);
	/*
	 * A round: LOW locks at 0, HIGH wakes at a fifth of the critical
	 * section, MEDIUM at two fifths; the period leaves room for the worst
	 * case (cs + medium) twice over, plus a millisecond of slack.
	 */
	run.high_at_ns = c->cs_ns / 5;
	run.medium_at_ns = 2 * c->cs_ns / 5;
	run.period_ns = 2 * (c->cs_ns + c->medium_ns) + RTR_NSEC_PER_MSEC;
	clock_gettime(CLOCK_MONOTONIC, &run.start);
	run.start = rtr_ts_add_ns(run.start, 20 * RTR_NSEC_PER_MSEC);
	for (int i = 0; i < 3 && !rc; i++) {
		rc = start_thread(&t[n], c->prio + roles[i].dprio, roles[i].name, roles[i].fn, &run,
				  &cpus);
		if (!rc)
			n++;
	}
	if (rc) {
		snprintf(err, errlen, "cannot start a SCHED_FIFO thread on CPU %d: %s", c->cpu,
			 *rtr_last_error() ? rtr_last_error() : strerror(-rc));
		atomic_store(&run.stop, 1);
	}
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	pthread_mutex_destroy(&run.mutex);
	rtr_cpuset_free(&cpus);
	return rc;
}

void pi_judge(struct pi_result *r)
{
	const struct pi_config *c = &r->config;
	int64_t expect = c->cs_ns - c->cs_ns / 5;	/* what HIGH waits with PI */
	int64_t line = expect + c->medium_ns / 2;	/* halfway to the inverted wait */
	uint64_t pi50 = rtr_hist_percentile(&r->with_pi.wait, 0.5);
	uint64_t plain50 = rtr_hist_percentile(&r->plain.wait, 0.5);

	if (!r->with_pi.wait.samples || !r->plain.wait.samples) {
		r->verdict = PI_INTERRUPTED;
		snprintf(r->reason, sizeof(r->reason), "no complete round with %s",
			 r->with_pi.wait.samples ? "the plain mutex" : "the PI mutex");
		return;
	}
	if ((int64_t)pi50 >= line) {
		r->verdict = PI_BROKEN;
		snprintf(r->reason, sizeof(r->reason),
			 "with PTHREAD_PRIO_INHERIT the high task still waited %.2f ms (median), "
			 "beyond the %.2f ms left of the critical section: the medium task ran "
			 "while the lock holder could not",
			 (double)pi50 / 1e6, (double)expect / 1e6);
	} else if ((int64_t)plain50 < line) {
		r->verdict = PI_INCONCLUSIVE;
		snprintf(r->reason, sizeof(r->reason),
			 "the plain mutex was not delayed by the medium task either (median "
			 "%.2f ms): no inversion could be provoked on this CPU",
			 (double)plain50 / 1e6);
	} else {
		r->verdict = PI_WORKS;
		snprintf(r->reason, sizeof(r->reason),
			 "with PI the high task waited %.2f ms (median), the rest of the critical "
			 "section; with a plain mutex %.2f ms, the medium task's run on top",
			 (double)pi50 / 1e6, (double)plain50 / 1e6);
	}
}

int pi_run(const struct pi_config *c, struct pi_result *r, const volatile sig_atomic_t *stop,
	   char *err, unsigned long errlen)
{
	int rc;

	memset(r, 0, sizeof(*r));
	r->config = *c;
	if (c->prio < 1 || c->prio + 2 > 98 || c->rounds == 0 || c->cs_ns <= 0 ||
	    c->medium_ns <= 0 || c->cpu < 0) {
		snprintf(err, errlen, "invalid configuration");
		return -EINVAL;
	}
	rc = run_mode(c, true, &r->with_pi, stop, err, errlen);
	if (!rc)
		rc = run_mode(c, false, &r->plain, stop, err, errlen);
	if (rc)
		return rc;
	pi_judge(r);
	if (stop && *stop && r->verdict != PI_INTERRUPTED) {
		r->verdict = PI_INTERRUPTED;
		snprintf(r->reason, sizeof(r->reason), "interrupted after %u and %u rounds",
			 r->with_pi.rounds_valid, r->plain.rounds_valid);
	}
	return 0;
}

void pi_result_free(struct pi_result *r)
{
	rtr_hist_free(&r->with_pi.wait);
	rtr_hist_free(&r->plain.wait);
}
