// SPDX-License-Identifier: MIT
/*
 * A competing realtime task for the --trace tests: pinned to one CPU at a
 * SCHED_FIFO priority, it busy-waits for a bounded time and exits, so that
 * a measuring thread of lower priority on that CPU wakes up late by about
 * that much, for a known reason.
 *
 *   spinner CPU PRIO MS      (MS at most 1000; prints its pid, then spins)
 *
 * Plain POSIX on purpose: the tests must not depend on the code under test.
 */
#include <errno.h>
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
		fprintf(stderr, "spinner: %s '%s' is not in %ld..%ld\n", what, s, min, max);
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
	struct sched_param sp = { 0 };
	cpu_set_t set;
	long cpu, prio, ms;
	long long end;
	volatile unsigned long spins = 0;

	if (argc != 4) {
		fprintf(stderr, "usage: spinner CPU PRIO MS\n");
		return 2;
	}
	cpu = arg(argv[1], 0, CPU_SETSIZE - 1, "CPU");
	prio = arg(argv[2], 1, 98, "priority");
	ms = arg(argv[3], 1, 1000, "duration in ms");
	CPU_ZERO(&set);
	CPU_SET((int)cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		fprintf(stderr, "spinner: cannot pin to CPU %ld: %s\n", cpu, strerror(errno));
		return 1;
	}
	sp.sched_priority = (int)prio;
	if (sched_setscheduler(0, SCHED_FIFO, &sp)) {
		fprintf(stderr, "spinner: SCHED_FIFO %ld: %s\n", prio, strerror(errno));
		return 1;
	}
	printf("%d\n", (int)getpid());
	fflush(stdout);
	/* Bounded by the clock: at most 1 s of busy waiting. */
	end = now_ns() + ms * 1000000LL;
	while (now_ns() < end)
		spins++;
	return 0;
}
