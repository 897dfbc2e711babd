// SPDX-License-Identifier: MIT
/* The finding of verify's noise phase; see noise.h. */
#include <stdio.h>
#include <string.h>

#include "report/noise.h"

/* The CPU of @r with the largest gap, and the cause of that gap. */
static const struct noise_cpu_result *worst_cpu(const struct noise_result *r)
{
	const struct noise_cpu_result *w = NULL;

	for (size_t i = 0; i < r->n_cpus; i++)
		if (!w || r->cpus[i].max_ns > w->max_ns)
			w = &r->cpus[i];
	return w;
}

int noise_finding_add(struct report *r, const struct noise_result *res, int run_err,
		      const char *why, double max_noise_us)
{
	static const char title[] = "Spinning RT CPUs are not disturbed past --max-noise";
	static const char whytext[] =
		"A realtime loop that polls instead of sleeping (packet processing, a control "
		"loop that spins) loses the CPU to every interrupt, softirq, kernel thread, "
		"RT throttling period and hypervisor stall on its CPU; the largest gap is the "
		"longest it was blind.";
	static const char fix[] =
		"see the cause of the largest gaps (rtready noise -a CPUS --gaps FILE): move "
		"IRQs off the RT CPUs (rtready tune), isolate them (isolcpus, nohz_full, "
		"rcu_nocbs: rtready plan), turn RT throttling off for a loop that must never "
		"yield, and pin the vCPUs of a virtual machine";
	const struct noise_cpu_result *w;
	bool interrupted = !run_err && res->stop == NOISE_STOP_SIGNAL;
	enum rtr_status st;
	char ev[512];

	if (run_err) {
		snprintf(ev, sizeof(ev), "could not run: %s", why);
		return report_add(r, "noise.max_gap", "noise", RTR_SKIP, 0, title, ev, whytext, fix);
	}
	w = worst_cpu(res);
	if (!w)
		return report_add(r, "noise.max_gap", "noise", RTR_SKIP, 0, title, "no CPU measured",
				  whytext, fix);
	st = interrupted ? RTR_SKIP :
	     (double)w->max_ns / 1000.0 > max_noise_us ? RTR_FAIL : RTR_PASS;
	snprintf(ev, sizeof(ev), "largest gap %.1f us on CPU %d (limit %.1f us); %llu events "
		 "over %.0f us, availability %.5f %%, attributed %s", (double)w->max_ns / 1000.0,
		 w->cpu, max_noise_us, (unsigned long long)w->events,
		 (double)res->cfg.threshold_ns / 1000.0, noise_availability(w),
		 res->source == NOISE_SRC_TRACE ? "per event" : "per window");
	if (w->n_top) {
		size_t len = strlen(ev);

		snprintf(ev + len, sizeof(ev) - len, "; the largest: %s %s",
			 noise_kind_name(w->top[0].cause.kind), w->top[0].cause.name);
	}
	return report_add(r, "noise.max_gap", "noise", st, 0, title, ev, whytext, fix);
}
