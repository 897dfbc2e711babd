// SPDX-License-Identifier: MIT
/* Text and JSON for rtready inspect; see inspect.h. Presentation only. */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "render/inspect.h"
#include "render/json.h"
#include "render/jsonw.h"
#include "util/parse.h"

static void thread_row(FILE *out, const struct inspect_result *res,
		       const struct inspect_thread *th)
{
	const struct task_info *t = th->t;
	char cpus[64], prio[8], faults[32], cs[32], pct[16];

	if (t->allowed_err)
		snprintf(cpus, sizeof(cpus), "?");
	else if (rtr_cpuset_format_list(&t->allowed, cpus, sizeof(cpus)) >= sizeof(cpus))
		snprintf(cpus + sizeof(cpus) - 4, 4, "...");
	if (task_is_rt(t))
		snprintf(prio, sizeof(prio), "%d", t->rt_priority);
	else
		snprintf(prio, sizeof(prio), "-");
	if (th->have_delta)
		snprintf(faults, sizeof(faults), "%llu/%llu", (unsigned long long)th->minflt_d,
			 (unsigned long long)th->majflt_d);
	else
		snprintf(faults, sizeof(faults), "-");
	if (th->have_ctxt_delta)
		snprintf(cs, sizeof(cs), "%llu/%llu", (unsigned long long)th->vcsw_d,
			 (unsigned long long)th->nvcsw_d);
	else
		snprintf(cs, sizeof(cs), "-");
	if (th->have_delta)
		snprintf(pct, sizeof(pct), "%.1f", inspect_cpu_percent(res, th));
	else
		snprintf(pct, sizeof(pct), "-");
	fprintf(out, "  %-8d %-16s %-8s %4s %4d %-12s %4d %11s %11s %6s%s\n", t->tid, t->comm,
		task_policy_name(t->policy), prio, t->nice, cpus, t->last_cpu, faults, cs, pct,
		th->vanished ? "  (exited)" : th->appeared ? "  (new)" : "");
}

/* A DEADLINE thread's reservation and the kernel's dl fields, under its row. */
static void deadline_row(FILE *out, const struct inspect_thread *th)
{
	const struct dlbw_thread *d = &th->dl;

	fputs("           deadline:", out);
	if (!d->attr_err)
		fprintf(out, " runtime %.1f us, deadline %.1f us, period %.1f us (%.1f%% of a CPU)",
			(double)d->runtime_ns / 1e3, (double)d->deadline_ns / 1e3,
			(double)d->period_ns / 1e3,
			d->period_ns ? 100.0 * (double)d->runtime_ns / (double)d->period_ns : 0.0);
	else
		fprintf(out, " parameters unknown (sched_getattr: %s)",
			d->attr_err == -ENOTSUP ? "not on a snapshot" : strerror(-d->attr_err));
	for (size_t k = 0; !d->sched_err && k < d->sched.n; k++)
		fprintf(out, "%s %s %lld", k ? "," : ";", d->sched.key[k],
			(long long)d->sched.value[k]);
	for (size_t k = 0; !d->sched_err && k < d->sched.n; k++)
		if (strcmp(d->sched.key[k], "dl.runtime") == 0 && d->sched.value[k] < 0)
			fputs(" (runtime overrun: throttled until its next period)", out);
	fputc('\n', out);
}

static void perf_row(FILE *out, const struct perf_thread *pt)
{
	fputs("           perf:", out);
	/* A counter that could not count is left out here; perf_line() says why. */
	for (int c = 0; c < PERF_NCOUNTERS; c++)
		if (pt->read_ok[c])
			fprintf(out, " %s %llu", perf_counter_name(c), (unsigned long long)pt->value[c]);
	fputc('\n', out);
}

static void proc_table(FILE *out, const struct inspect_result *res, const struct inspect_proc *p,
		       bool verbose)
{
	char lck[32], rss[32];

	fprintf(out, "\nprocess %d (%s)", p->pid, p->comm);
	if (p->vanished) {
		fputs(": exited during the window\n", out);
		return;
	}
	if (!p->status_err) {
		format_size(p->vm_lck_kb * 1024, lck, sizeof(lck));
		format_size(p->vm_rss_kb * 1024, rss, sizeof(rss));
		fprintf(out, ": %zu threads, %zu realtime, VmLck %s of VmRSS %s\n", p->n_threads,
			p->n_rt, lck, rss);
	} else {
		fprintf(out, ": %zu threads, %zu realtime (memory unknown: %s)\n", p->n_threads,
			p->n_rt, strerror(-p->status_err));
	}
	fprintf(out, "  %-8s %-16s %-8s %4s %4s %-12s %4s %11s %11s %6s\n", "TID", "COMM",
		"POLICY", "PRIO", "NICE", "CPUS", "LAST", "FAULTS", "VCSW/NVCSW", "CPU%");
	for (size_t i = 0; i < p->n_threads; i++) {
		const struct inspect_thread *th = &p->threads[i];

		thread_row(out, res, th);
		if (th->is_dl)
			deadline_row(out, th);
		if (th->perf && !res->perf_err && (verbose || task_is_rt(th->t)))
			perf_row(out, th->perf);
	}
}

static void perf_line(FILE *out, const struct inspect_result *res)
{
	char why[256];

	if (!res->perf_requested)
		return;
	if (res->perf_err) {
		perf_explain(res->perf_err, res->perf_paranoid, why, sizeof(why));
		fprintf(out, "\nperf counters: unavailable: %s\n", why);
		return;
	}
	if (res->perf_skipped)
		fprintf(out, "\nperf counters: %zu threads not counted (limit %d)\n",
			res->perf_skipped, INSPECT_PERF_MAX_THREADS);
	for (int c = 0; c < PERF_NCOUNTERS; c++) {
		int err;
		size_t gaps = perf_counter_gaps(res->perf, res->n_perf, (enum perf_counter)c, &err);

		if (!gaps)
			continue;
		perf_counter_explain((enum perf_counter)c, err, res->perf_paranoid, why,
				     sizeof(why));
		fprintf(out, "\nperf counter %s: not counted on %zu of %zu threads: %s\n",
			perf_counter_name((enum perf_counter)c), gaps, res->n_perf, why);
	}
}

int inspect_write_text(FILE *out, const struct inspect_result *res, const struct report *r,
		       const struct text_style *st)
{
	int err = 0;

	size_t shown = 0, rt = 0;

	if (r->n_findings)
		err = text_write_findings(out, r, st);
	for (size_t k = 0; k < res->n_procs; k++) {
		rt += res->procs[k].n_rt > 0;
		if (res->procs[k].n_rt || st->verbose || res->n_procs <= 8) {
			proc_table(out, res, &res->procs[k], st->verbose);
			shown++;
		}
	}
	if (res->n_procs == 0)
		fputs("no user process to inspect\n", out);
	else if (shown < res->n_procs)
		fprintf(out, "\n%zu processes inspected, %zu with realtime threads; "
			"--verbose lists the others\n", res->n_procs, rt);
	if (res->before.unreadable)
		fprintf(out, "\n%zu threads could not be read (first: %s: %s)\n",
			res->before.unreadable, res->before.first_unreadable,
			strerror(-res->before.first_unreadable_err));
	perf_line(out, res);
	if (res->interrupted)
		fputs("\n(interrupted: the window was cut short)\n", out);
	return err ? err : ferror(out) ? -EIO : 0;
}

/* "@key": @v, or null when it was not @known. */
static void key_int_or_null(struct jsonw *w, const char *key, bool known, int64_t v)
{
	jsonw_key(w, key);
	if (known)
		jsonw_int(w, v);
	else
		jsonw_null(w);
}

static void thread_json(struct jsonw *w, const struct inspect_result *res,
			const struct inspect_thread *th)
{
	const struct task_info *t = th->t;
	char cpus[4096];

	jsonw_object(w);
	jsonw_key_int(w, "tid", t->tid);
	jsonw_key_str(w, "comm", t->comm);
	jsonw_key_str(w, "policy", task_policy_name(t->policy));
	jsonw_key_int(w, "priority", t->rt_priority);
	jsonw_key_int(w, "nice", t->nice);
	jsonw_key(w, "cpus");
	if (t->allowed_err) {
		jsonw_null(w);
	} else {
		rtr_cpuset_format_list(&t->allowed, cpus, sizeof(cpus));
		jsonw_str(w, cpus);
	}
	jsonw_key_int(w, "last_cpu", t->last_cpu);
	jsonw_key_int(w, "start_ticks", (int64_t)t->start_ticks);
	jsonw_key_str(w, "state", th->vanished ? "exited" : th->appeared ? "new" : "running");
	if (th->have_delta) {
		json_t *pct = json_real(inspect_cpu_percent(res, th));

		jsonw_key_int(w, "minflt_delta", (int64_t)th->minflt_d);
		jsonw_key_int(w, "majflt_delta", (int64_t)th->majflt_d);
		jsonw_key(w, "cpu_percent");
		jsonw_value(w, pct);
		json_decref(pct);
	}
	if (th->have_ctxt_delta) {
		jsonw_key_int(w, "vcsw_delta", (int64_t)th->vcsw_d);
		jsonw_key_int(w, "nvcsw_delta", (int64_t)th->nvcsw_d);
	}
	if (th->is_dl) {
		jsonw_key(w, "deadline");
		jsonw_object(w);
		key_int_or_null(w, "runtime_ns", !th->dl.attr_err, (int64_t)th->dl.runtime_ns);
		key_int_or_null(w, "deadline_ns", !th->dl.attr_err, (int64_t)th->dl.deadline_ns);
		key_int_or_null(w, "period_ns", !th->dl.attr_err, (int64_t)th->dl.period_ns);
		jsonw_key(w, "sched");
		jsonw_object(w);
		for (size_t k = 0; !th->dl.sched_err && k < th->dl.sched.n; k++)
			jsonw_key_int(w, th->dl.sched.key[k], th->dl.sched.value[k]);
		jsonw_close(w, '}');
		jsonw_close(w, '}');
	}
	if (th->perf) {
		jsonw_key(w, "perf");
		jsonw_object(w);
		for (int c = 0; c < PERF_NCOUNTERS; c++)
			key_int_or_null(w, perf_counter_name(c), th->perf->read_ok[c],
					(int64_t)th->perf->value[c]);
		jsonw_close(w, '}');
	}
	jsonw_close(w, '}');
}

static void proc_json(struct jsonw *w, const struct inspect_result *res,
		      const struct inspect_proc *p)
{
	jsonw_object(w);
	jsonw_key_int(w, "pid", p->pid);
	jsonw_key_str(w, "comm", p->comm);
	jsonw_key_int(w, "start_ticks", (int64_t)p->start_ticks);
	jsonw_key_str(w, "state", p->vanished ? "exited" : "running");
	if (!p->status_err && !p->vanished) {
		jsonw_key_int(w, "vm_lck_kb", (int64_t)p->vm_lck_kb);
		jsonw_key_int(w, "vm_rss_kb", (int64_t)p->vm_rss_kb);
	}
	jsonw_key_int(w, "rt_threads", (int64_t)p->n_rt);
	jsonw_key(w, "threads");
	jsonw_array(w);
	for (size_t i = 0; i < p->n_threads; i++)
		thread_json(w, res, &p->threads[i]);
	jsonw_close(w, ']');
	jsonw_close(w, '}');
}

static json_t *perf_json(const struct inspect_result *res)
{
	json_t *perf = json_object();
	char why[256];

	if (!perf)
		return NULL;
	json_object_set_new(perf, "requested", json_boolean(res->perf_requested));
	json_object_set_new(perf, "available",
			    json_boolean(res->perf_requested && !res->perf_err));
	if (res->perf_err) {
		perf_explain(res->perf_err, res->perf_paranoid, why, sizeof(why));
		json_object_set_new(perf, "reason", json_text(why));
		return perf;
	}
	/* Why a thread's counter is null: per counter, the threads it missed and the reason. */
	for (int c = 0; c < PERF_NCOUNTERS; c++) {
		int err;
		size_t gaps = perf_counter_gaps(res->perf, res->n_perf, (enum perf_counter)c, &err);
		json_t *u;

		if (!gaps)
			continue;
		perf_counter_explain((enum perf_counter)c, err, res->perf_paranoid, why,
				     sizeof(why));
		u = json_object_get(perf, "unavailable");
		if (!u) {
			u = json_object();
			json_object_set_new(perf, "unavailable", u);
		}
		json_object_set_new(u, perf_counter_name((enum perf_counter)c),
				    json_pack("{s:I, s:s}", "threads", (json_int_t)gaps, "reason",
					      why));
	}
	return perf;
}

/*
 * Streamed: with --all on a large machine the processes hold tens of
 * thousands of threads, which as a jansson tree cost more time and memory
 * than reading them. The envelope, findings and summary are still built
 * with jansson (they are small), and the layout is json_write()'s.
 */
int inspect_write_json(FILE *out, const struct inspect_result *res, const struct report *r)
{
	json_t *env = report_to_json(r, "findings"), *perf, *v;
	struct jsonw w;
	const char *key;
	int err;

	if (!env)
		return -ENOMEM;
	jsonw_init(&w, out);
	jsonw_object(&w);
	json_object_foreach(env, key, v) {
		if (strcmp(key, "summary") == 0)
			continue;
		jsonw_key(&w, key);
		jsonw_value(&w, v);
	}
	jsonw_key_int(&w, "window_ns", res->window_ns);
	jsonw_key(&w, "interrupted");
	jsonw_bool(&w, res->interrupted);
	perf = perf_json(res);
	jsonw_key(&w, "perf");
	jsonw_value(&w, perf);
	json_decref(perf);
	jsonw_key(&w, "processes");
	jsonw_array(&w);
	for (size_t k = 0; k < res->n_procs; k++)
		proc_json(&w, res, &res->procs[k]);
	jsonw_close(&w, ']');
	if (res->before.unreadable) {
		jsonw_key(&w, "unreadable");
		jsonw_object(&w);
		jsonw_key_int(&w, "threads", (int64_t)res->before.unreadable);
		jsonw_key_str(&w, "first", res->before.first_unreadable);
		jsonw_key_str(&w, "error", strerror(-res->before.first_unreadable_err));
		jsonw_close(&w, '}');
	}
	/* Summary last, where readers of check output expect it. */
	jsonw_key(&w, "summary");
	jsonw_value(&w, json_object_get(env, "summary"));
	jsonw_close(&w, '}');
	err = jsonw_end(&w);
	json_decref(env);
	return err;
}
