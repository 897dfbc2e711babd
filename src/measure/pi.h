/* SPDX-License-Identifier: MIT */
/*
 * rtready pi: the checklist's priority-inversion scenario, run for real.
 * Three SCHED_FIFO threads share one CPU: LOW takes a mutex and works in a
 * critical section, HIGH wakes and asks for the mutex, MEDIUM wakes and
 * spins without touching it. With priority inheritance LOW runs at HIGH's
 * priority until it unlocks, so HIGH waits about the rest of the critical
 * section; with a plain mutex MEDIUM preempts LOW and HIGH also waits for
 * MEDIUM's whole run. Both are measured, round after round, and compared.
 */
#ifndef RTR_MEASURE_PI_H
#define RTR_MEASURE_PI_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "rtready/hist.h"

struct pi_config {
	int cpu;		/* the one CPU all three threads share */
	int prio;		/* LOW's priority; MEDIUM prio+1, HIGH prio+2 (<= 98) */
	unsigned rounds;	/* rounds per mutex kind */
	int64_t cs_ns;		/* LOW's critical section, in its own CPU time */
	int64_t medium_ns;	/* MEDIUM's spin */
};

/* Defaults: 100 rounds of a 1 ms critical section against a 3 ms medium spin. */
void pi_config_default(struct pi_config *c);

struct pi_mode_result {
	bool pi;		/* this run used PTHREAD_PRIO_INHERIT */
	unsigned rounds_valid;	/* rounds where the scenario happened in order */
	unsigned rounds_skipped;	/* LOW had not locked before HIGH woke: not counted */
	struct rtr_hist wait;	/* HIGH's wait for the mutex */
};

enum pi_verdict {
	PI_WORKS,		/* PI bounded the wait, the plain mutex did not */
	PI_BROKEN,		/* the PI wait grew with MEDIUM's run */
	PI_INCONCLUSIVE,	/* the plain mutex was not delayed either: no inversion seen */
	PI_INTERRUPTED,		/* stopped before both runs finished */
};

struct pi_result {
	struct pi_config config;
	struct pi_mode_result with_pi, plain;
	enum pi_verdict verdict;
	char reason[256];
};

/*
 * Run both scenarios. Threads are bounded: each round has a deadline, each
 * spin checks the clock, and *@stop (SIGINT) ends the run after the current
 * round. Return: 0, or -errno with a message in rtr_last_error() style in
 * @err (privileges named: CAP_SYS_NICE / RLIMIT_RTPRIO).
 */
int pi_run(const struct pi_config *c, struct pi_result *r, const volatile sig_atomic_t *stop,
	   char *err, unsigned long errlen);
void pi_result_free(struct pi_result *r);

/* Decide the verdict from the two histograms (pure; also used by tests). */
void pi_judge(struct pi_result *r);

/* "works", "broken", "inconclusive", "interrupted". */
const char *pi_verdict_name(enum pi_verdict v);

#endif
