// SPDX-License-Identifier: MIT
/*
 * A small periodic realtime program that follows the checklist, or breaks
 * exactly one rule of it, chosen by MODE; used by the inspect integration
 * tests to prove that each finding fires on its program and only there.
 *
 *   rt-sample MODE SECONDS
 *   good    SCHED_FIFO 80, pinned to the last allowed CPU, memory locked and
 *           prefaulted, 1 ms absolute sleeps, nothing touched in the loop
 *   prio99  as good, but at priority 99
 *   nolock  as good, but without mlockall
 *   faults  as good, but maps and touches a fresh page every period (and
 *           locks only the memory mapped at start)
 *   float   as good, but allowed on every CPU
 *   churn   as good, and the main thread keeps starting short-lived
 *           SCHED_OTHER workers (one every 200 ms, each living 300 ms), so
 *           threads appear and exit during any window of 1 s
 *
 * Plain POSIX on purpose: the tests must not depend on librtready.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static const char *mode;
static int seconds;

static int last_allowed_cpu(void)
{
	cpu_set_t set;
	int last = 0;

	if (sched_getaffinity(0, sizeof(set), &set))
		return 0;
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set))
			last = c;
	return last;
}

static void *rt_loop(void *arg)
{
	struct timespec next;
	long page = sysconf(_SC_PAGESIZE);
	long cycles = (long)seconds * 1000;

	(void)arg;
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (long i = 0; i < cycles; i++) {
		next.tv_nsec += 1000000;
		if (next.tv_nsec >= 1000000000) {
			next.tv_nsec -= 1000000000;
			next.tv_sec++;
		}
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
		if (strcmp(mode, "faults") == 0) {
			/* A fresh anonymous page each period: one fault each time. */
			char *p = mmap(NULL, (size_t)page, PROT_READ | PROT_WRITE,
				       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

			if (p != MAP_FAILED) {
				*(volatile char *)p = 1;
				munmap(p, (size_t)page);
			}
		}
	}
	return NULL;
}

static void *worker(void *arg)
{
	struct timespec life = { 0, 300000000 };

	(void)arg;
	nanosleep(&life, NULL);
	return NULL;
}

/* Until the RT loop ends: a new detached worker every 200 ms. */
static void churn(void)
{
	struct timespec step = { 0, 200000000 };
	pthread_attr_t attr;
	long rounds = (long)seconds * 5;

	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	for (long i = 0; i < rounds; i++) {
		pthread_t w;

		if (pthread_create(&w, &attr, worker, NULL) == 0)
			pthread_setname_np(w, "churn");
		nanosleep(&step, NULL);
	}
	pthread_attr_destroy(&attr);
}

int main(int argc, char **argv)
{
	struct sched_param sp = { .sched_priority = 80 };
	pthread_attr_t attr;
	pthread_t t;
	cpu_set_t cpus;
	int err;

	if (argc != 3) {
		fprintf(stderr, "usage: rt-sample good|prio99|nolock|faults|float|churn SECONDS\n");
		return 2;
	}
	mode = argv[1];
	seconds = atoi(argv[2]);
	/*
	 * faults locks what is mapped now but not later mappings: under
	 * MCL_FUTURE its fresh page would be populated inside mmap(), which
	 * /proc counts as a minor fault but the perf page-faults event, which
	 * counts only faults taken on an access, does not.
	 */
	if (strcmp(mode, "nolock") != 0 &&
	    mlockall(strcmp(mode, "faults") == 0 ? MCL_CURRENT : MCL_CURRENT | MCL_FUTURE)) {
		perror("mlockall");
		return 1;
	}
	if (strcmp(mode, "prio99") == 0)
		sp.sched_priority = 99;
	pthread_attr_init(&attr);
	pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
	pthread_attr_setschedpolicy(&attr, SCHED_FIFO);
	pthread_attr_setschedparam(&attr, &sp);
	if (strcmp(mode, "float") != 0) {
		CPU_ZERO(&cpus);
		CPU_SET(last_allowed_cpu(), &cpus);
		pthread_attr_setaffinity_np(&attr, sizeof(cpus), &cpus);
	}
	err = pthread_create(&t, &attr, rt_loop, NULL);
	if (err) {
		fprintf(stderr, "pthread_create: %s\n", strerror(err));
		return 1;
	}
	pthread_setname_np(t, "rt-loop");
	printf("ready %d\n", getpid());
	fflush(stdout);
	if (strcmp(mode, "churn") == 0)
		churn();
	pthread_join(t, NULL);
	return 0;
}
