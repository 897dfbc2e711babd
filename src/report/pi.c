// SPDX-License-Identifier: MIT
/* The finding of a priority-inheritance run; see pi.h. */
#include "report/pi.h"

int pi_finding_add(struct report *r, const struct pi_result *res)
{
	static const char why[] =
		"A high-priority task that waits for a lock held by a low-priority one can be "
		"delayed without bound by any medium-priority task, unless the holder inherits "
		"the waiter's priority. Linux does this for futex-based mutexes created with "
		"PTHREAD_PRIO_INHERIT, and only for those.";
	static const char fix[] =
		"initialise every mutex an RT thread takes with "
		"pthread_mutexattr_setprotocol(&attr, PTHREAD_PRIO_INHERIT) (rtr_mutex_init_pi); "
		"if the PI run itself is delayed, check the C library and kernel "
		"(CONFIG_FUTEX_PI)";
	enum rtr_status st = RTR_SKIP;

	switch (res->verdict) {
	case PI_WORKS: st = RTR_PASS; break;
	case PI_BROKEN: st = RTR_FAIL; break;
	case PI_INCONCLUSIVE: st = RTR_WARN; break;
	case PI_INTERRUPTED: st = RTR_SKIP; break;
	}
	return report_add(r, "sync.priority_inheritance", "sync", st, 0,
			  "Priority inheritance bounds lock waits", res->reason, why, fix);
}
