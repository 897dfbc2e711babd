// SPDX-License-Identifier: MIT
/*
 * Known noise for the `rtready noise` tests and bench: pinned to one CPU at
 * SCHED_FIFO 98, it wakes every PERIOD us (absolute CLOCK_MONOTONIC
 * deadlines), busy-waits SPIN us and sleeps again, for MS milliseconds.
 * Periods it wakes too late for are skipped, not caught up, so each
 * injection is one stretch of SPIN us. At the end it prints what it did:
 *
 *   noise-inject CPU PERIOD_US SPIN_US MS [-v]
 *   -> "pid 1234" first, then at the end
 *      "injections 200 spin_max_ns 50410 spin_min_ns 50003"
 *      and with -v, before it, one line per injection: "inj START_NS END_NS"
 *      (CLOCK_MONOTONIC: its first and last clock read)
 *
 * Plain POSIX on purpose: the tests must not depend on the code under test.
 */
#include <errno.h>
#include <stdbool.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static long arg(const char *s, long min, long max, const char *what)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || end == s || v < min || v > max) {
		fprintf(stderr, "noise-inject: %s '%s' is not in %ld..%ld\n", what, s, min, max);
		exit(2);
	}
	return v;
}

static long long now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

int main(int argc, char **argv)
{
	struct sched_param sp = { .sched_priority = 98 };
	long long period, spin, end, next, max = 0, min = -1;
	unsigned long injections = 0;
	long long *log = NULL;
	bool verbose;
	struct timespec ts;
	cpu_set_t set;
	long cpu;

	verbose = argc == 6 && !strcmp(argv[5], "-v");
	if (argc != 5 && !verbose) {
		fprintf(stderr, "usage: noise-inject CPU PERIOD_US SPIN_US MS [-v]\n");
		return 2;
	}
	cpu = arg(argv[1], 0, CPU_SETSIZE - 1, "CPU");
	period = arg(argv[2], 100, 1000000, "period in us") * 1000LL;
	spin = arg(argv[3], 1, 1000, "spin in us") * 1000LL;
	end = arg(argv[4], 1, 60000, "duration in ms") * 1000000LL;
	if (spin * 2 > period) {
		fprintf(stderr, "noise-inject: the spin must be at most half the period\n");
		return 2;
	}
	/* Written before the first injection: no page fault while it runs. */
	if (verbose) {
		log = calloc((size_t)(end / period + 1) * 2, sizeof(*log));
		if (!log)
			return 1;
		memset(log, 1, (size_t)(end / period + 1) * 2 * sizeof(*log));
	}
	CPU_ZERO(&set);
	CPU_SET((int)cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		fprintf(stderr, "noise-inject: cannot pin to CPU %ld: %s\n", cpu, strerror(errno));
		return 1;
	}
	if (sched_setscheduler(0, SCHED_FIFO, &sp)) {
		fprintf(stderr, "noise-inject: SCHED_FIFO 98: %s\n", strerror(errno));
		return 1;
	}
	printf("pid %d\n", (int)getpid());
	fflush(stdout);
	next = now_ns() + period;
	end += next;
	while (next < end) {
		long long t0, t;

		ts.tv_sec = next / 1000000000LL;
		ts.tv_nsec = next % 1000000000LL;
		if (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL))
			continue;
		t0 = now_ns();
		do
			t = now_ns();
		while (t - t0 < spin);
		if (log) {
			log[injections * 2] = t0;
			log[injections * 2 + 1] = t;
		}
		injections++;
		if (t - t0 > max)
			max = t - t0;
		if (min < 0 || t - t0 < min)
			min = t - t0;
		/* Skip the periods already over: one injection per wake-up. */
		do
			next += period;
		while (next <= t);
	}
	for (unsigned long i = 0; log && i < injections; i++)
		printf("inj %lld %lld\n", log[i * 2], log[i * 2 + 1]);
	free(log);
	printf("injections %lu spin_max_ns %lld spin_min_ns %lld\n", injections, max, min);
	return 0;
}
