// SPDX-License-Identifier: MIT
/* Has an rtready ended; see pid.h. */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <unistd.h>

#include "util/pid.h"

bool pid_ended(long pid)
{
	if (pid <= 0 || pid > INT_MAX || pid == (long)getpid())
		return false;
	return kill((pid_t)pid, 0) < 0 && errno == ESRCH;
}
