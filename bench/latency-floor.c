// SPDX-License-Identifier: MIT
/*
 * The floor of a latency measurement's CPU cost (bench/latency-cpu.sh): one
 * SCHED_FIFO thread per online CPU (64 KiB stacks, pinned), mlockall, an
 * absolute CLOCK_MONOTONIC clock_nanosleep per period and the lateness of
 * each wake-up kept as a maximum. Nothing else: no histogram, no output
 * while it runs, no libraries but libc.
 *
 *   latency-floor SECONDS INTERVAL_US PRIO
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define MAX_CPUS 1024

struct worker {
	int cpu;
	long loops, interval_ns;
	long long max_ns;
};

static void *run(void *arg)
{
	struct worker *w = arg;
	struct timespec next, now;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(w->cpu, &set);
	if (pthread_setaffinity_np(pthread_self(), sizeof(set), &set))
		return NULL;
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (long i = 0; i < w->loops; i++) {
		long long late;

		next.tv_nsec += w->interval_ns;
		while (next.tv_nsec >= 1000000000L) {
			next.tv_nsec -= 1000000000L;
			next.tv_sec++;
		}
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
		clock_gettime(CLOCK_MONOTONIC, &now);
		late = (now.tv_sec - next.tv_sec) * 1000000000LL + now.tv_nsec - next.tv_nsec;
		if (late > w->max_ns)
			w->max_ns = late;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	static struct worker w[MAX_CPUS];
	static pthread_t t[MAX_CPUS];
	struct sched_param sp = { 0 };
	pthread_attr_t a;
	cpu_set_t online;
	int n = 0;

	if (argc != 4) {
		fprintf(stderr, "usage: latency-floor SECONDS INTERVAL_US PRIO\n");
		return 2;
	}
	sp.sched_priority = atoi(argv[3]);
	if (mlockall(MCL_CURRENT | MCL_FUTURE)) {
		perror("latency-floor: mlockall");
		return 1;
	}
	sched_getaffinity(0, sizeof(online), &online);
	pthread_attr_init(&a);
	pthread_attr_setstacksize(&a, 64 << 10);
	pthread_attr_setinheritsched(&a, PTHREAD_EXPLICIT_SCHED);
	pthread_attr_setschedpolicy(&a, SCHED_FIFO);
	pthread_attr_setschedparam(&a, &sp);
	for (int cpu = 0; cpu < CPU_SETSIZE && n < MAX_CPUS; cpu++) {
		if (!CPU_ISSET(cpu, &online))
			continue;
		w[n].cpu = cpu;
		w[n].interval_ns = atol(argv[2]) * 1000L;
		w[n].loops = (long)(atof(argv[1]) * 1e9 / (double)w[n].interval_ns);
		if (pthread_create(&t[n], &a, run, &w[n])) {
			perror("latency-floor: pthread_create (SCHED_FIFO needs root)");
			return 1;
		}
		n++;
	}
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	for (int i = 0; i < n; i++)
		printf("T:%d max %lld us\n", w[i].cpu, w[i].max_ns / 1000);
	return 0;
}
