// SPDX-License-Identifier: MIT
/*
 * The plugin of fail_killed_dlopen.c, loaded with dlopen() after the
 * program started: its work allocates in the RT loop.
 */
#include "rtprog.h"

void plugin_work(struct rt_job *job, int period);

void plugin_work(struct rt_job *job, int period)
{
	char *volatile p = malloc(32);

	p[0] = (char)period;
	job->sum += (unsigned char)p[0];
}
