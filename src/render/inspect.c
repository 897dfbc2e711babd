// SPDX-License-Identifier: MIT
/* Text and JSON for rtready inspect; see inspect.h. Presentation only. */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "render/inspect.h"
#include "render/json.h"
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

static void perf_row(FILE *out, const struct perf_thread *pt)
{
	fputs("           perf:", out);
	for (int c = 0; c < PERF_NCOUNTERS; c++) {
		if (pt->read_ok[c])
			fprintf(out, " %s %llu", perf_counter_name(c), (unsigned long long)pt->value[c]);
		else
			fprintf(out, " %s n/a", perf_counter_name(c));
	}
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
	} else if (res->perf_skipped) {
		fprintf(out, "\nperf counters: %zu threads not counted (limit %d)\n",
			res->perf_skipped, INSPECT_PERF_MAX_THREADS);
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

static json_t *thread_json(const struct inspect_result *res, const struct inspect_thread *th)
{
	const struct task_info *t = th->t;
	json_t *o = json_object();
	char cpus[4096];

	if (!o)
		return NULL;
	rtr_cpuset_format_list(&t->allowed, cpus, sizeof(cpus));
	json_object_set_new(o, "tid", json_integer(t->tid));
	json_object_set_new(o, "comm", json_string(t->comm));
	json_object_set_new(o, "policy", json_string(task_policy_name(t->policy)));
	json_object_set_new(o, "priority", json_integer(t->rt_priority));
	json_object_set_new(o, "nice", json_integer(t->nice));
	json_object_set_new(o, "cpus", t->allowed_err ? json_null() : json_string(cpus));
	json_object_set_new(o, "last_cpu", json_integer(t->last_cpu));
	json_object_set_new(o, "start_ticks", json_integer((json_int_t)t->start_ticks));
	json_object_set_new(o, "state", json_string(th->vanished ? "exited"
						    : th->appeared ? "new" : "running"));
	if (th->have_delta) {
		json_object_set_new(o, "minflt_delta", json_integer((json_int_t)th->minflt_d));
		json_object_set_new(o, "majflt_delta", json_integer((json_int_t)th->majflt_d));
		json_object_set_new(o, "cpu_percent", json_real(inspect_cpu_percent(res, th)));
	}
	if (th->have_ctxt_delta) {
		json_object_set_new(o, "vcsw_delta", json_integer((json_int_t)th->vcsw_d));
		json_object_set_new(o, "nvcsw_delta", json_integer((json_int_t)th->nvcsw_d));
	}
	if (th->perf) {
		json_t *p = json_object();

		for (int c = 0; p && c < PERF_NCOUNTERS; c++)
			json_object_set_new(p, perf_counter_name(c),
					    th->perf->read_ok[c]
						    ? json_integer((json_int_t)th->perf->value[c])
						    : json_null());
		json_object_set_new(o, "perf", p);
	}
	return o;
}

json_t *inspect_to_json(const struct inspect_result *res, const struct report *r)
{
	json_t *o = report_to_json(r, "findings"), *procs, *perf;
	char why[256];

	if (!o)
		return NULL;
	json_object_set_new(o, "window_ns", json_integer(res->window_ns));
	json_object_set_new(o, "interrupted", json_boolean(res->interrupted));
	perf = json_object();
	json_object_set_new(perf, "requested", json_boolean(res->perf_requested));
	json_object_set_new(perf, "available",
			    json_boolean(res->perf_requested && !res->perf_err));
	if (res->perf_err) {
		perf_explain(res->perf_err, res->perf_paranoid, why, sizeof(why));
		json_object_set_new(perf, "reason", json_string(why));
	}
	json_object_set_new(o, "perf", perf);
	procs = json_array();
	for (size_t k = 0; procs && k < res->n_procs; k++) {
		const struct inspect_proc *p = &res->procs[k];
		json_t *jp = json_object(), *threads = json_array();

		json_object_set_new(jp, "pid", json_integer(p->pid));
		json_object_set_new(jp, "comm", json_string(p->comm));
		json_object_set_new(jp, "start_ticks", json_integer((json_int_t)p->start_ticks));
		json_object_set_new(jp, "state", json_string(p->vanished ? "exited" : "running"));
		if (!p->status_err && !p->vanished) {
			json_object_set_new(jp, "vm_lck_kb", json_integer((json_int_t)p->vm_lck_kb));
			json_object_set_new(jp, "vm_rss_kb", json_integer((json_int_t)p->vm_rss_kb));
		}
		json_object_set_new(jp, "rt_threads", json_integer((json_int_t)p->n_rt));
		for (size_t i = 0; threads && i < p->n_threads; i++)
			json_array_append_new(threads, thread_json(res, &p->threads[i]));
		json_object_set_new(jp, "threads", threads);
		json_array_append_new(procs, jp);
	}
	json_object_set_new(o, "processes", procs);
	if (res->before.unreadable) {
		json_t *u = json_object();

		json_object_set_new(u, "threads", json_integer((json_int_t)res->before.unreadable));
		json_object_set_new(u, "first", json_string(res->before.first_unreadable));
		json_object_set_new(u, "error", json_string(strerror(-res->before.first_unreadable_err)));
		json_object_set_new(o, "unreadable", u);
	}
	/* Keep summary last, where readers of check output expect it. */
	{
		json_t *s = json_object_get(o, "summary");

		json_incref(s);
		json_object_del(o, "summary");
		json_object_set_new(o, "summary", s);
	}
	return o;
}
