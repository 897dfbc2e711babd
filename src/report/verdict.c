// SPDX-License-Identifier: MIT
/*
 * The verdict of a result: the one place that decides whether a machine
 * passed. Checks that failed fail it; with a latency limit, every measured
 * CPU of every phase is a threshold (its maximum against the limit), and one
 * above the limit fails it. Without a limit the latency is shown but not
 * judged, and the reason says so: a number on an idle machine proves
 * little and we will not call it good on our own. A CPU that took no sample
 * (an interval longer than the run, a thread that never woke) was not
 * measured at all: its threshold is skipped and the verdict warns, limit or
 * not, since a run that measured nothing must never read as a pass.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/result.h"
#include "util/strbuf.h"

/* The thread with the highest maximum among those with samples, or NULL. */
static const struct result_thread *worst(const struct result_latency *l)
{
	const struct result_thread *w = NULL;

	for (size_t i = 0; i < l->n_threads; i++) {
		const struct result_thread *t = &l->threads[i];

		if (t->samples && (!w || t->max_ns > w->max_ns))
			w = t;
	}
	return w;
}

/* A list written "a, b, c and 4 more": its first @max items, then how many others. */
struct shortlist {
	size_t max, shown, total;
};

/* Count one more item of @l. Return: whether to write it (its ", " is written). */
static bool shortlist_next(struct strbuf *sb, struct shortlist *l)
{
	l->total++;
	if (l->shown == l->max)
		return false;
	if (l->shown++)
		strbuf_puts(sb, ", ");
	return true;
}

static void shortlist_end(struct strbuf *sb, const struct shortlist *l)
{
	if (l->total > l->shown)
		strbuf_printf(sb, " and %zu more", l->total - l->shown);
}

/* "a, b, c and 4 more" of the checks with status @s. */
static void list_ids(struct strbuf *sb, const struct result *r, enum rtr_status s)
{
	struct shortlist l = { .max = 3 };

	for (size_t i = 0; i < r->n_checks; i++)
		if (r->checks[i].status == s && shortlist_next(sb, &l))
			strbuf_puts(sb, r->checks[i].id);
	shortlist_end(sb, &l);
}

static int add_thresholds(const struct result *r, double limit_ns, struct result_verdict *v)
{
	size_t n = 0;

	for (int p = 0; p < PHASE_COUNT; p++)
		n += r->lat[p].n_threads;
	v->thresholds = calloc(n ? n : 1, sizeof(*v->thresholds));
	if (!v->thresholds)
		return -ENOMEM;
	for (int p = 0; p < PHASE_COUNT; p++) {
		const struct result_latency *l = &r->lat[p];

		for (size_t i = 0; i < l->n_threads; i++) {
			const struct result_thread *t = &l->threads[i];
			struct result_threshold *th = &v->thresholds[v->n_thresholds];

			if (asprintf(&th->name, "latency.%s.cpu%d.max", result_phase_name(p),
				     t->cpu) < 0) {
				th->name = NULL;
				return -ENOMEM;
			}
			v->n_thresholds++;
			th->phase = p;
			th->cpu = t->cpu;
			th->limit_ns = limit_ns;
			th->value_ns = t->max_ns;
			if (!t->samples)
				th->status = RTR_SKIP;
			else
				th->status = t->max_ns > limit_ns ? RTR_FAIL : RTR_PASS;
		}
	}
	return 0;
}

/*
 * Say which runs measured nothing: "; no samples on idle CPU 0, 1 and loaded
 * CPU 3 (not judged)". Return: whether there was any.
 */
static bool describe_unmeasured(struct strbuf *sb, const struct result *r)
{
	bool any = false, listed = false;

	for (int p = 0; p < PHASE_COUNT; p++) {
		const struct result_latency *l = &r->lat[p];
		struct shortlist cpus = { .max = 4 };

		if (!l->present)
			continue;
		if (!l->n_threads) {
			strbuf_printf(sb, "%s the %s run measured no CPU", any ? "," : ";",
				      p == PHASE_LOAD ? "loaded" : "idle");
			any = true;
			continue;
		}
		for (size_t i = 0; i < l->n_threads; i++) {
			if (l->threads[i].samples)
				continue;
			if (!cpus.total)
				strbuf_printf(sb, "%s %s CPU ", listed ? " and" :
					      any ? ", no samples on" : "; no samples on",
					      p == PHASE_LOAD ? "loaded" : "idle");
			if (shortlist_next(sb, &cpus))
				strbuf_printf(sb, "%d", l->threads[i].cpu);
		}
		shortlist_end(sb, &cpus);
		listed |= cpus.total > 0;
		any |= cpus.total > 0;
	}
	if (any)
		strbuf_puts(sb, " (not measured, so not judged)");
	return any;
}

static void describe_latency(struct strbuf *sb, const struct result *r,
			     const struct result_verdict *v)
{
	const struct result_threshold *over = NULL;
	bool any = false;

	for (size_t i = 0; i < v->n_thresholds; i++) {
		const struct result_threshold *t = &v->thresholds[i];

		/* The worst excess, loaded phase first (that is what the limit is for). */
		if (t->status == RTR_FAIL &&
		    (!over || t->phase > over->phase ||
		     (t->phase == over->phase && t->value_ns > over->value_ns)))
			over = t;
	}
	if (over) {
		strbuf_printf(sb, "; %s max %.1f us on CPU %d exceeds the %.0f us limit",
			      over->phase == PHASE_LOAD ? "loaded" : "idle", over->value_ns / 1000.0,
			      over->cpu, v->max_latency_us);
		return;
	}
	for (int p = PHASE_COUNT - 1; p >= 0; p--) {
		const struct result_thread *w = worst(&r->lat[p]);

		if (!w)
			continue;
		strbuf_printf(sb, "; worst %s latency %.1f us on CPU %d",
			      p == PHASE_LOAD ? "loaded" : "idle", w->max_ns / 1000.0, w->cpu);
		if (v->max_latency_us > 0)
			strbuf_printf(sb, ", within the %.0f us limit", v->max_latency_us);
		else
			strbuf_puts(sb, " (not judged: no latency limit given)");
		any = true;
		break;
	}
	/* A run that took no sample is named by describe_unmeasured(). */
	if (!any && v->max_latency_us > 0 && !r->lat[PHASE_IDLE].present &&
	    !r->lat[PHASE_LOAD].present)
		strbuf_puts(sb, "; no latency was measured to judge against the limit");
}

bool result_over_limit(const struct result *r, enum result_phase p, int cpu)
{
	for (size_t i = 0; i < r->verdict.n_thresholds; i++) {
		const struct result_threshold *t = &r->verdict.thresholds[i];

		if (t->phase == p && t->cpu == cpu && t->status == RTR_FAIL)
			return true;
	}
	return false;
}

int result_judge(const struct result *r, double max_latency_us, struct result_verdict *v)
{
	struct summary s = findings_summary(r->checks, r->n_checks);
	struct strbuf sb = STRBUF_INIT;
	bool lat_fail = false, unmeasured;
	int err = 0;

	result_verdict_free(v);
	v->present = true;
	v->max_latency_us = max_latency_us > 0 ? max_latency_us : 0;
	if (v->max_latency_us > 0)
		err = add_thresholds(r, v->max_latency_us * 1000.0, v);
	if (err)
		goto out;
	for (size_t i = 0; i < v->n_thresholds; i++)
		lat_fail |= v->thresholds[i].status == RTR_FAIL;

	if (s.fail) {
		strbuf_printf(&sb, "%u check%s failed (", s.fail, s.fail == 1 ? "" : "s");
		list_ids(&sb, r, RTR_FAIL);
		strbuf_puts(&sb, ")");
	} else if (s.warn) {
		strbuf_printf(&sb, "no check failed, %u warned (", s.warn);
		list_ids(&sb, r, RTR_WARN);
		strbuf_puts(&sb, ")");
	} else if (r->has_checks) {
		strbuf_puts(&sb, "no check failed or warned");
	} else {
		strbuf_puts(&sb, "no checks in this result");
	}
	describe_latency(&sb, r, v);
	unmeasured = describe_unmeasured(&sb, r);
	if (s.fail || lat_fail)
		v->status = RTR_FAIL;
	else if (s.warn || unmeasured || (!r->has_checks && !v->n_thresholds))
		v->status = RTR_WARN;	/* a warning, a run without samples, or nothing judged */
	else
		v->status = RTR_PASS;
	if (sb.err) {
		err = sb.err;
		goto out;
	}
	v->reason = strbuf_take(&sb);
	if (!v->reason)
		v->reason = strdup("");
	if (!v->reason)
		err = -ENOMEM;
out:
	strbuf_free(&sb);
	if (err)
		result_verdict_free(v);
	return err;
}

json_t *result_verdict_to_json(const struct result_verdict *v)
{
	json_t *o = json_object(), *arr = json_array();

	if (!o || !arr)
		goto fail;
	json_object_set_new(o, "status", json_string(rtr_status_name(v->status)));
	json_object_set_new(o, "reason", json_string(v->reason ? v->reason : ""));
	if (v->max_latency_us > 0)
		json_object_set_new(o, "max_latency_us", json_real(v->max_latency_us));
	for (size_t i = 0; i < v->n_thresholds; i++) {
		const struct result_threshold *t = &v->thresholds[i];
		json_t *th = json_pack("{s:s, s:s, s:i, s:f, s:f, s:s}", "name", t->name, "phase",
				       result_phase_name(t->phase), "cpu", t->cpu, "limit_ns",
				       t->limit_ns, "value_ns", t->value_ns, "status",
				       rtr_status_name(t->status));

		if (!th || json_array_append_new(arr, th))
			goto fail;
	}
	json_object_set_new(o, "thresholds", arr);
	return o;
fail:
	json_decref(o);
	json_decref(arr);
	return NULL;
}

int result_exit_code(const struct result *const *rs, size_t n, bool strict)
{
	for (size_t i = 0; i < n; i++)
		if (status_exit_code(rs[i]->verdict.status, strict))
			return 1;
	return 0;
}
