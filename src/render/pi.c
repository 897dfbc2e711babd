// SPDX-License-Identifier: MIT
/* Output of `rtready pi`; see pi.h. */
#include <errno.h>

#include "render/json.h"
#include "render/pi.h"

static json_t *mode_json(const struct pi_mode_result *m)
{
	return json_pack("{s:b, s:I, s:I, s:I, s:I, s:I, s:I}", "pi", m->pi, "rounds",
			 (json_int_t)m->rounds_valid, "rounds_skipped",
			 (json_int_t)m->rounds_skipped, "wait_p50_ns",
			 (json_int_t)rtr_hist_percentile(&m->wait, 0.5), "wait_p99_ns",
			 (json_int_t)rtr_hist_percentile(&m->wait, 0.99), "wait_max_ns",
			 (json_int_t)m->wait.max_ns, "wait_min_ns",
			 (json_int_t)(m->wait.samples ? m->wait.min_ns : 0));
}

json_t *pi_to_json(const struct pi_result *res, const struct report *r)
{
	json_t *j = report_to_json(r, "checks"), *pi;

	pi = json_pack("{s:{s:i, s:i, s:I, s:I, s:I}, s:o, s:o, s:s, s:s}", "config", "cpu",
		       res->config.cpu, "prio", res->config.prio, "rounds",
		       (json_int_t)res->config.rounds, "cs_ns", (json_int_t)res->config.cs_ns,
		       "medium_ns", (json_int_t)res->config.medium_ns, "with_pi",
		       mode_json(&res->with_pi), "plain", mode_json(&res->plain), "verdict",
		       pi_verdict_name(res->verdict), "reason", res->reason);
	if (!j || !pi) {
		json_decref(j);
		json_decref(pi);
		return NULL;
	}
	json_object_set_new(j, "pi", pi);
	return j;
}

int pi_text_write(FILE *out, const struct pi_result *res)
{
	const struct pi_mode_result *m[2] = { &res->with_pi, &res->plain };

	fprintf(out, "priority inversion on CPU %d: low %d, medium %d, high %d; "
		"critical section %.2f ms, medium spin %.2f ms\n\n",
		res->config.cpu, res->config.prio, res->config.prio + 1, res->config.prio + 2,
		(double)res->config.cs_ns / 1e6, (double)res->config.medium_ns / 1e6);
	fprintf(out, "  %-22s %7s %10s %10s %10s\n", "mutex", "rounds", "p50 wait", "p99 wait",
		"max wait");
	for (int i = 0; i < 2; i++)
		fprintf(out, "  %-22s %7u %7.2f ms %7.2f ms %7.2f ms\n",
			m[i]->pi ? "PTHREAD_PRIO_INHERIT" : "plain (PRIO_NONE)", m[i]->rounds_valid,
			(double)rtr_hist_percentile(&m[i]->wait, 0.5) / 1e6,
			(double)rtr_hist_percentile(&m[i]->wait, 0.99) / 1e6,
			(double)m[i]->wait.max_ns / 1e6);
	fprintf(out, "\npriority inheritance %s: %s\n", pi_verdict_name(res->verdict),
		res->reason);
	return ferror(out) ? -EIO : 0;
}
