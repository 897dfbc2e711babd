// SPDX-License-Identifier: MIT
/*
 * The hog of the kernel matrix's trace scenario: a SCHED_FIFO task pinned
 * to one CPU that spins SPIN_MS out of every PERIOD_MS, for SECONDS. At a
 * priority above the measuring thread it delays every wake-up it overlaps
 * by up to SPIN_MS: the spike that `rtready latency --trace` and rtla
 * timerlat must both lay at its door. Its name is "rtr-hog".
 *
 *   hog CPU PRIO SPIN_MS PERIOD_MS SECONDS
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <time.h>

static long long now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

int main(int argc, char **argv)
{
	struct sched_param sp = { 0 };
	long long spin_ns, period_ns, end, next;
	cpu_set_t set;

	if (argc != 6) {
		fprintf(stderr, "usage: hog CPU PRIO SPIN_MS PERIOD_MS SECONDS\n");
		return 2;
	}
	prctl(PR_SET_NAME, "rtr-hog", 0, 0, 0);
	CPU_ZERO(&set);
	CPU_SET(atoi(argv[1]), &set);
	sp.sched_priority = atoi(argv[2]);
	if (sched_setaffinity(0, sizeof(set), &set) || sched_setscheduler(0, SCHED_FIFO, &sp)) {
		perror("hog");
		return 2;
	}
	spin_ns = atoll(argv[3]) * 1000000LL;
	period_ns = atoll(argv[4]) * 1000000LL;
	end = now_ns() + atoll(argv[5]) * 1000000000LL;
	for (next = now_ns(); next < end; next += period_ns) {
		struct timespec t = { (time_t)(next / 1000000000LL), (long)(next % 1000000000LL) };
		long long stop;

		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL);
		for (stop = now_ns() + spin_ns; now_ns() < stop;)
			;
	}
	return 0;
}
