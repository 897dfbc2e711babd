// SPDX-License-Identifier: MIT
/*
 * The absolute-deadline periodic loop. The start time is read once; every
 * later deadline is start + k * period, so sleeping late in one cycle does
 * not shift the ones after it (a relative sleep would drift by the wake-up
 * latency every cycle). Runs in the realtime thread: no allocation, and the
 * only system calls are the sleep and one clock read.
 */
#include <errno.h>
#include <string.h>
#include <time.h>

#include "rtready/period.h"
#include "rtready/timespec.h"
#include "internal.h"

RTR_EXPORT int rtr_period_init(struct rtr_period *p, int64_t period_ns)
{
	struct timespec now;

	memset(p, 0, sizeof(*p));
	if (period_ns <= 0)
		return rtr__fail(-EINVAL, "period: %lld ns is not a positive period",
				(long long)period_ns);
	if (clock_gettime(CLOCK_MONOTONIC, &now) != 0) {
		int err = -errno;

		return rtr__fail(err, "clock_gettime(CLOCK_MONOTONIC): %s", strerror(-err));
	}
	p->period_ns = period_ns;
	p->next = rtr_ts_add_ns(now, period_ns);
	return 0;
}

RTR_EXPORT int rtr_period_wait(struct rtr_period *p, int64_t *latency_ns)
{
	struct timespec now;
	int64_t late;
	int err;

	if (p->period_ns <= 0)
		return -EINVAL;
	/*
	 * clock_nanosleep returns the error number (it does not set errno). An
	 * absolute sleep interrupted by a signal is simply restarted with the
	 * same deadline: no time is lost, so the loop needs no bound.
	 */
	do
		err = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &p->next, NULL);
	while (err == EINTR);
	if (err)
		return -err;
	if (clock_gettime(CLOCK_MONOTONIC, &now) != 0)
		return -errno;
	late = rtr_ts_diff_ns(now, p->next);
	if (latency_ns)
		*latency_ns = late;
	p->cycles++;
	p->next = rtr_ts_add_ns(p->next, p->period_ns);
	/*
	 * Already past the next deadline: count every period that is gone and
	 * jump past them, instead of running a burst of back-to-back cycles.
	 */
	if (late >= p->period_ns) {
		int64_t missed = late / p->period_ns;

		p->overruns += (uint64_t)missed;
		if (missed > INT64_MAX / p->period_ns)
			missed = INT64_MAX / p->period_ns;
		p->next = rtr_ts_add_ns(p->next, missed * p->period_ns);
	}
	return 0;
}
