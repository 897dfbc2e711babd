// SPDX-License-Identifier: MIT
/* Text and JSON of `rtready plan`; see plan.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "render/json.h"
#include "render/plan.h"
#include "util/output.h"

/* What each path to isolation gives: the facts behind cpu.isolation. */
static const char iso_boot_gives[] =
	"no other task balanced onto the RT CPUs, no tick while one task runs, RCU callbacks "
	"elsewhere, managed IRQs and other interrupts elsewhere";
static const char iso_part_gives[] =
	"no other task or load balancing on the RT CPUs, unbound workqueues elsewhere (6.8+)";
static const char iso_part_not[] =
	"the tick (nohz_full=), RCU callbacks (rcu_nocbs=), managed IRQs (isolcpus=managed_irq)";

/* Findings that still need work: warn and fail. */
static bool open_finding(const struct finding *f)
{
	return f->status == RTR_WARN || f->status == RTR_FAIL;
}

int plan_text_write(FILE *out, const struct plan_view *v)
{
	const struct cpuplan *p = v->plan;
	char *rt = cpuplan_set_list(&p->rt), *hk = cpuplan_set_list(&p->housekeeping);
	size_t open = 0;

	if (!rt || !hk) {
		free(rt);
		free(hk);
		return -ENOMEM;
	}
	fprintf(out, "RT CPUs:            %s (%zu of %zu online)\n", rt,
		rtr_cpuset_count(&p->rt), v->online);
	fprintf(out, "Housekeeping CPUs:  %s\n\nWhy:\n", hk);
	for (size_t i = 0; i < p->n_notes; i++)
		fprintf(out, "  - %s[%s] %s\n", p->notes[i].relaxed ? "RELAXED " : "",
			cpuplan_rule_name(p->notes[i].rule), p->notes[i].text);
	fputs("\nClusters (cores sharing an L2 cache):\n", out);
	for (size_t i = 0; i < p->n_units; i++) {
		char *c = cpuplan_unit_list(&p->units[i]);

		fprintf(out, "  %-12s %s\n", c ? c : "?", p->units[i].reason);
		free(c);
	}
	fprintf(out, "\nKernel command line (GRUB_CMDLINE_LINUX in /etc/default/grub, then "
		     "update-grub and reboot):\n  %s\n", v->cmdline);
	if (v->cmdline_note)
		fprintf(out, "  (%s)\n", v->cmdline_note);
	fprintf(out, "  gives: %s\n", iso_boot_gives);
	fprintf(out, "\nOr without a reboot (a cgroup v2 isolated partition, lost at reboot):\n"
		     "  %s\n  gives: %s\n  not: %s\n", v->tune_isolate, iso_part_gives,
		iso_part_not);
	if (v->isolate_why && v->isolate_why[0])
		fprintf(out, "  (not on this machine: %s)\n", v->isolate_why);
	fprintf(out, "\nRuntime settings now, and at every boot:\n  %s\n  %s\n", v->tune_apply,
		v->tune_emit_boot);
	fputs("\nAfter the reboot, check will still report:\n", out);
	for (size_t i = 0; v->after && i < v->after->n_findings; i++) {
		const struct finding *f = &v->after->findings[i];

		if (!open_finding(f))
			continue;
		fprintf(out, "  %-4s %-26s %s\n", rtr_status_name(f->status), f->id, f->title);
		open++;
	}
	if (!open)
		fputs("  nothing to fix (no warning, no failure)\n", out);
	else
		fputs("  (rtready tune --apply fixes the runtime ones; see rtready check)\n", out);
	free(rt);
	free(hk);
	return ferror(out) ? -EIO : 0;
}

static json_t *unit_json(const struct cpuplan_unit *u)
{
	char *c = cpuplan_unit_list(u);
	json_t *o = json_object();

	if (!c || !o) {
		free(c);
		json_decref(o);
		return NULL;
	}
	json_object_set_new(o, "cpus", json_text(c));
	json_object_set_new(o, "role", json_text(cpuplan_role_name(u->role)));
	json_object_set_new(o, "cores", json_integer((json_int_t)u->n_cores));
	json_object_set_new(o, "threads_per_core", json_integer((json_int_t)u->core_size));
	json_object_set_new(o, "node", u->node >= 0 ? json_integer(u->node) : json_null());
	json_object_set_new(o, "capacity",
			    u->capacity >= 0 ? json_integer(u->capacity) : json_null());
	json_object_set_new(o, "fast", json_boolean(u->fast));
	json_object_set_new(o, "boot", json_boolean(u->boot));
	json_object_set_new(o, "managed_irq_cpus", json_integer((json_int_t)u->n_managed));
	json_object_set_new(o, "reason", json_text(u->reason));
	free(c);
	return o;
}

static json_t *after_json(const struct report *r)
{
	json_t *o = json_object(), *arr = json_array();
	struct summary s = report_summary(r);

	if (!o || !arr) {
		json_decref(o);
		json_decref(arr);
		return NULL;
	}
	for (size_t i = 0; i < r->n_findings; i++)
		if (open_finding(&r->findings[i]))
			json_array_append_new(arr, finding_to_json(&r->findings[i]));
	json_object_set_new(o, "checks", arr);
	json_object_set_new(o, "summary",
			    json_pack("{s:I, s:I, s:I, s:I, s:I}", "pass", (json_int_t)s.pass,
				      "warn", (json_int_t)s.warn, "fail", (json_int_t)s.fail,
				      "info", (json_int_t)s.info, "skip", (json_int_t)s.skip));
	return o;
}

json_t *plan_to_json(const struct plan_view *v)
{
	const struct cpuplan *p = v->plan;
	json_t *o = json_envelope("plan", v->host), *pl = json_object();
	json_t *units = json_array(), *rules = json_array();
	char *rt = cpuplan_set_list(&p->rt), *hk = cpuplan_set_list(&p->housekeeping);

	if (!o || !pl || !units || !rules || !rt || !hk)
		goto fail;
	json_object_set_new(pl, "rt_cpus", json_text(rt));
	json_object_set_new(pl, "housekeeping_cpus", json_text(hk));
	json_object_set_new(pl, "rt_count", json_integer((json_int_t)rtr_cpuset_count(&p->rt)));
	json_object_set_new(pl, "requested",
			    p->requested ? json_integer((json_int_t)p->requested) : json_null());
	json_object_set_new(pl, "boot_cpu", json_integer(p->boot_cpu));
	json_object_set_new(pl, "node", p->node >= 0 ? json_integer(p->node) : json_null());
	for (size_t i = 0; i < p->n_notes; i++) {
		const struct cpuplan_note *n = &p->notes[i];

		json_array_append_new(rules, json_pack("{s:s, s:b, s:o}", "rule",
						       cpuplan_rule_name(n->rule), "relaxed",
						       n->relaxed, "reason", json_text(n->text)));
	}
	json_object_set_new(pl, "rules", rules);
	rules = NULL;
	for (size_t i = 0; i < p->n_units; i++)
		json_array_append_new(units, unit_json(&p->units[i]));
	json_object_set_new(pl, "clusters", units);
	units = NULL;
	json_object_set_new(pl, "kernel_cmdline", json_text(v->cmdline));
	json_object_set_new(pl, "kernel_cmdline_note", json_text(v->cmdline_note));
	json_object_set_new(pl, "tune_apply", json_text(v->tune_apply));
	json_object_set_new(pl, "tune_emit_boot", json_text(v->tune_emit_boot));
	json_object_set_new(pl, "boot_gives", json_text(iso_boot_gives));
	json_object_set_new(pl, "runtime_isolation",
			    json_pack("{s:o, s:b, s:o, s:s, s:s}", "command",
				      json_text(v->tune_isolate), "available",
				      !(v->isolate_why && v->isolate_why[0]), "why_not",
				      v->isolate_why && v->isolate_why[0] ? json_text(v->isolate_why)
									  : json_null(),
				      "gives", iso_part_gives, "does_not_give", iso_part_not));
	json_object_set_new(o, "plan", pl);
	pl = NULL;
	if (v->after)
		json_object_set_new(o, "after", after_json(v->after));
	free(rt);
	free(hk);
	return o;
fail:
	json_decref(o);
	json_decref(pl);
	json_decref(units);
	json_decref(rules);
	free(rt);
	free(hk);
	return NULL;
}

int plan_render(const char *path, const struct plan_view *v, bool json, char *err,
		size_t errlen)
{
	struct output out;
	int rc = output_open(&out, path);

	if (rc) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(-rc));
		return rc;
	}
	rc = json ? json_write_free(out.fp, plan_to_json(v)) : plan_text_write(out.fp, v);
	rc = output_close(&out, rc == 0) ?: rc;
	if (rc)
		snprintf(err, errlen, "cannot write the plan: %s", strerror(-rc));
	return rc;
}
