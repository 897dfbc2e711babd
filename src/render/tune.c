// SPDX-License-Identifier: MIT
/* Output of `rtready tune`; see tune.h. */
#include <errno.h>
#include <string.h>

#include "render/json.h"
#include "render/tune.h"

static void describe(const struct tune_change *c, char *buf, size_t len)
{
	if (c->path)
		snprintf(buf, len, "%s%s%s%s", c->path, c->label ? " (" : "",
			 c->label ? c->label : "", c->label ? ")" : "");
	else
		snprintf(buf, len, "task %d (%s) CPUs", c->tid, c->label ? c->label : "?");
}

static void text_change(FILE *out, const struct tune_change *c, bool show_state,
			const char *current)
{
	const struct tunable *t = tunable_get(c->id);
	char what[512];

	if (t->kind == TUNE_VAL_FILE) {
		/* A whole file: the line that changes, not the file twice. */
		fprintf(out, "  %-22s %s: %s", t->check_id, c->path,
			c->label ? c->label : "rewritten");
		current = current ? "changed by someone else since" : NULL;
	} else {
		describe(c, what, sizeof(what));
		fprintf(out, "  %-22s %s: %s -> %s", t->check_id, what, c->old_value,
			c->new_value);
	}
	if (show_state)
		fprintf(out, "  [%s%s%s]", change_state_name(c->state), c->err ? ": " : "",
			c->err ? strerror(c->err) : "");
	if (current)
		fprintf(out, "  (now %s)", current);
	fputc('\n', out);
	if (c->note)
		fprintf(out, "  %-22s   %s\n", "", c->note);
}

static void text_notes(FILE *out, const struct tune_plan *p)
{
	if (!p->n_notes)
		return;
	fputs("\nNot changed:\n", out);
	for (size_t i = 0; i < p->n_notes; i++)
		fprintf(out, "  %-22s %s\n", tunable_get(p->notes[i].id)->check_id,
			p->notes[i].text);
}

static void text_plan(FILE *out, const struct tune_view *v)
{
	const struct tune_plan *p = v->plan;

	fprintf(out,
		"Dry run for RT CPUs %s (the rest of the system keeps CPUs %s): nothing is "
		"changed.\n",
		v->rt_list, v->nonrt_list);
	if (p->n)
		fputs("\nChanges (check fixed, what, old -> new):\n", out);
	for (size_t i = 0; i < p->n; i++)
		text_change(out, &p->changes[i], false, NULL);
	text_notes(out, p);
	if (p->n)
		fprintf(out, "\n%zu change(s). Make them with --apply; --revert puts them back.\n",
			p->n);
	else
		fputs("\nNothing to change.\n", out);
	fputs("Runtime values are lost at reboot: --emit-boot DIR writes what makes them last.\n",
	      out);
}

static void text_apply(FILE *out, const struct tune_view *v)
{
	const struct apply_result *r = v->result;

	fprintf(out, "Applied for RT CPUs %s (the rest of the system keeps CPUs %s).\n\n",
		v->rt_list, v->nonrt_list);
	for (size_t i = 0; i < v->plan->n; i++)
		text_change(out, &v->plan->changes[i], true, NULL);
	text_notes(out, v->plan);
	fprintf(out,
		"\n%zu change(s) made, %zu refused by the kernel (expected: see the notes), "
		"%zu failed.\nJournal: %s/%s. Undo with 'rtready tune --revert'.\n",
		r->done, r->refused, r->failed, v->state_dir, JOURNAL_NAME);
}

static void text_revert(FILE *out, const struct tune_view *v)
{
	const struct tune_plan *p = &v->journal->plan;
	const struct apply_result *r = v->result;

	fprintf(out, "Reverted the apply at %s (RT CPUs %s).\n\n", v->when, v->journal->rt_cpus);
	for (size_t i = p->n; i-- > 0;)
		if (p->changes[i].state == CHANGE_REVERT_FAILED || p->changes[i].note)
			text_change(out, &p->changes[i], true, NULL);
	fprintf(out, "%s%zu value(s) put back, %zu already as they were (or gone), %zu failed.\n",
		r->failed || r->unchanged ? "\n" : "", r->done, r->unchanged, r->failed);
}

static void text_status(FILE *out, const struct tune_view *v)
{
	const struct journal *j = v->journal;
	size_t live = v->this_boot ? journal_live_count(j) : 0;

	fprintf(out, "Journal %s/%s: apply at %s for RT CPUs %s, %s; %s.\n", v->state_dir,
		JOURNAL_NAME, v->when, j->rt_cpus, journal_state_name(j->state),
		v->this_boot ? "this boot"
			     : "an EARLIER boot (its runtime values were reset by the reboot)");
	fprintf(out, "%zu of %zu change(s) in effect.\n", live, j->plan.n);
	if (live)
		fputs("\n", out);
	for (size_t i = 0; live && i < j->plan.n; i++) {
		const struct tune_change *c = &j->plan.changes[i];

		if (!journal_change_live(c) || !c->current)
			continue;
		text_change(out, c, true, strcmp(c->current, c->new_value) ? c->current : NULL);
	}
	/* What the apply left alone, and why: as its dry run and its own output said. */
	text_notes(out, &j->plan);
}

int tune_text_write(FILE *out, const struct tune_view *v)
{
	switch (v->kind) {
	case TUNE_VIEW_PLAN:
		text_plan(out, v);
		break;
	case TUNE_VIEW_APPLY:
		text_apply(out, v);
		break;
	case TUNE_VIEW_REVERT:
		text_revert(out, v);
		break;
	case TUNE_VIEW_NOTHING:
		fprintf(out, "Nothing to revert: %s.\n", v->why);
		break;
	case TUNE_VIEW_STATUS:
		text_status(out, v);
		break;
	case TUNE_VIEW_NO_JOURNAL:
		fprintf(out, "No tuning applied: no journal in %s.\n", v->state_dir);
		break;
	case TUNE_VIEW_EMIT_BOOT:
		fprintf(out,
			"Kernel command line (add to the boot loader, e.g. GRUB_CMDLINE_LINUX):\n"
			"  %s\n\n"
			"Wrote %s/%s (install into /etc/sysctl.d/)\n"
			"  and %s/%s (install into /etc/systemd/system/, then systemctl enable "
			"%s).\n",
			v->cmdline, v->boot_dir, v->boot_files[0], v->boot_dir, v->boot_files[1],
			v->boot_files[1]);
		break;
	}
	return ferror(out) ? -EIO : 0;
}

/* The changes as JSON; "current" where --status read it. */
static json_t *json_changes(const struct tune_plan *p)
{
	json_t *arr = json_array();

	for (size_t i = 0; arr && i < p->n; i++) {
		const struct tune_change *c = &p->changes[i];
		json_t *o = journal_change_to_json(c);

		if (!o)
			continue;
		if (c->current && strcmp(c->current, "gone") != 0)
			json_object_set_new(o, "current", json_text(c->current));
		json_array_append_new(arr, o);
	}
	return arr;
}

static json_t *json_notes(const struct tune_plan *p)
{
	json_t *arr = json_array();

	for (size_t i = 0; arr && i < p->n_notes; i++) {
		const struct tunable *t = tunable_get(p->notes[i].id);

		json_array_append_new(arr, json_pack("{s:s, s:s, s:s}", "tunable", t->name, "check",
						     t->check_id, "text", p->notes[i].text));
	}
	return arr;
}

static json_t *json_result(const struct apply_result *r)
{
	static const struct apply_result none;

	if (!r)
		r = &none;
	return json_pack("{s:I, s:I, s:I, s:I}", "done", (json_int_t)r->done, "unchanged",
			 (json_int_t)r->unchanged, "refused", (json_int_t)r->refused, "failed",
			 (json_int_t)r->failed);
}

static const char *const mode_names[] = {
	[TUNE_VIEW_PLAN] = "plan",	 [TUNE_VIEW_APPLY] = "apply",
	[TUNE_VIEW_REVERT] = "revert",	 [TUNE_VIEW_NOTHING] = "revert",
	[TUNE_VIEW_STATUS] = "status",	 [TUNE_VIEW_NO_JOURNAL] = "status",
	[TUNE_VIEW_EMIT_BOOT] = "emit-boot",
};

json_t *tune_to_json(const struct tune_view *v)
{
	const struct journal *j = v->journal;
	json_t *o = json_envelope("tune", &v->host);

	if (!o)
		return NULL;
	json_object_set_new(o, "mode", json_text(mode_names[v->kind]));
	switch (v->kind) {
	case TUNE_VIEW_PLAN:
	case TUNE_VIEW_APPLY:
		json_object_set_new(o, "changes", json_changes(v->plan));
		json_object_set_new(o, "notes", json_notes(v->plan));
		if (v->kind == TUNE_VIEW_APPLY)
			json_object_set_new(o, "summary", json_result(v->result));
		break;
	case TUNE_VIEW_REVERT:
		json_object_set_new(o, "changes", json_changes(&j->plan));
		json_object_set_new(o, "summary", json_result(v->result));
		break;
	case TUNE_VIEW_NOTHING:
		json_object_set_new(o, "nothing_to_revert", json_text(v->why));
		json_object_set_new(o, "changes", json_array());
		json_object_set_new(o, "summary", json_result(NULL));
		break;
	case TUNE_VIEW_STATUS:
		json_object_set_new(o, "journal",
				    json_pack("{s:s, s:s, s:b, s:I, s:s, s:I}", "state",
					      journal_state_name(j->state), "boot_id", j->boot_id,
					      "this_boot", v->this_boot, "created",
					      (json_int_t)j->created_s, "rt_cpus", j->rt_cpus, "live",
					      (json_int_t)journal_live_count(j)));
		json_object_set_new(o, "changes", json_changes(&j->plan));
		json_object_set_new(o, "notes", json_notes(&j->plan));
		break;
	case TUNE_VIEW_NO_JOURNAL:
		json_object_set_new(o, "journal", json_null());
		break;
	case TUNE_VIEW_EMIT_BOOT:
		json_object_set_new(o, "cmdline", json_text(v->cmdline));
		json_object_set_new(o, "files",
				    json_pack("[s, s]", v->boot_files[0], v->boot_files[1]));
		json_object_set_new(o, "dir", json_text(v->boot_dir));
		break;
	}
	return o;
}

int tune_render(FILE *out, const struct tune_view *v, bool json)
{
	return json ? json_write_free(out, tune_to_json(v)) : tune_text_write(out, v);
}
