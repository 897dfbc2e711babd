/* SPDX-License-Identifier: MIT */
/*
 * Whether the rtready that made something named after its pid (a trace
 * instance, a cgroup, a partition, a report file) has ended, so that what it
 * left may be removed.
 */
#ifndef RTR_UTIL_PID_H
#define RTR_UTIL_PID_H

#include <stdbool.h>

/*
 * True when no process @pid is left and @pid is not this process: kill(@pid,
 * 0) fails with ESRCH. A process we may not signal (EPERM: another user's, or
 * one in another PID namespace that took the number) counts as alive, and so
 * does a @pid outside 1..INT_MAX.
 */
bool pid_ended(long pid);

#endif
