// SPDX-License-Identifier: MIT
/*
 * Scheduling checks: RT throttling. By default the kernel lets realtime
 * tasks use 950 ms of every second (sched_rt_runtime_us 950000 of
 * sched_rt_period_us 1000000); in the remaining 50 ms no RT task runs,
 * which is a priority inversion that breaks any deadline shorter than that.
 */
#include "checks/check.h"

static void check_rt_throttling(const struct check_ctx *ctx, struct check_out *out)
{
	const struct sched_facts *s = &ctx->facts->sched;

	if (s->rt_runtime_err) {
		check_skip_read(out, "/proc/sys/kernel/sched_rt_runtime_us", s->rt_runtime_err);
		return;
	}
	if (s->rt_runtime_us < 0) {
		check_set(out, RTR_PASS, "sched_rt_runtime_us = %lld: RT throttling is off",
			  (long long)s->rt_runtime_us);
		return;
	}
	if (s->rt_period_err) {
		check_set(out, RTR_WARN, "sched_rt_runtime_us = %lld (period unreadable)",
			  (long long)s->rt_runtime_us);
		return;
	}
	check_set(out, RTR_WARN,
		  "sched_rt_runtime_us = %lld of sched_rt_period_us = %lld: RT tasks may "
		  "run %lld us per %lld us, then none runs for %lld us",
		  (long long)s->rt_runtime_us, (long long)s->rt_period_us,
		  (long long)s->rt_runtime_us, (long long)s->rt_period_us,
		  (long long)(s->rt_period_us - s->rt_runtime_us));
}

const struct check sched_checks[] = {
	{
		"sched.rt_throttling", "sched", "RT throttling",
		"The kernel stops every realtime task once they together used their runtime "
		"in a period (by default 950 ms per second). A task that needs the CPU in "
		"the remaining time misses its deadline; when the kernel logs "
		"\"sched: RT throttling activated\" the system has already failed.",
		"sysctl -w kernel.sched_rt_runtime_us=-1 (now), and "
		"'kernel.sched_rt_runtime_us = -1' in /etc/sysctl.d/90-rtready.conf (at boot); "
		"make sure no RT task can spin forever first.",
		check_rt_throttling,
	},
};
const size_t sched_checks_n = sizeof(sched_checks) / sizeof(sched_checks[0]);
