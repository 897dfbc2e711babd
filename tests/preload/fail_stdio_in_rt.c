// SPDX-License-Identifier: MIT
/*
 * The good program, but each period reports its progress with printf
 * (argv[1] "printf"), fprintf to stderr ("fprintf") or syslog ("syslog").
 * The stream and the log connection are set up before the loop, so
 * nothing allocates in it. Expected: app.stdio_in_rt only (pass_stdio
 * formats into a preallocated buffer that a non-RT thread prints).
 */
#include <syslog.h>

#include "rtprog.h"

static const char *how = "printf";

static void work_print(struct rt_job *job, int period)
{
	if (strcmp(how, "syslog") == 0)
		syslog(LOG_DEBUG, "period %d sum %lu", period, job->sum);
	else if (strcmp(how, "fprintf") == 0)
		fprintf(stderr, "period %d sum %lu\n", period, job->sum);
	else
		printf("period %d sum %lu\n", period, job->sum);
	/* After the call, so that it is no tail call and work_print stays in the backtrace. */
	work_default(job, period);
}

int main(int argc, char **argv)
{
	pthread_mutex_t pi;
	struct rt_job job;

	if (argc > 1)
		how = argv[1];
	set_mallopt();
	lock_memory(MCL_CURRENT | MCL_FUTURE);
	init_pi_mutex(&pi);
	/* First uses: stdout's buffer, the time zone, the log socket. */
	printf("start\n");
	openlog("fail_stdio_in_rt", LOG_NDELAY, LOG_USER);
	syslog(LOG_DEBUG, "start");
	job_defaults(&job, &pi);
	job.work = work_print;
	run_good(&job);
	closelog();
	return 0;
}
