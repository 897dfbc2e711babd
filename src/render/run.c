// SPDX-License-Identifier: MIT
/* Output of `rtready run --check`; see run.h. */
#include <errno.h>
#include <string.h>
#include <sys/wait.h>

#include "render/json.h"
#include "render/run.h"
#include "render/text.h"
#include "run/exec.h"
#include "util/output.h"

static json_t *checker_json(const struct run_view *v)
{
	const struct app_check *ac = v->ac;
	json_t *procs = json_array();

	for (size_t i = 0; procs && i < ac->n_procs; i++) {
		const struct app_process *p = &ac->procs[i];

		json_array_append_new(procs, json_pack("{s:I, s:I, s:s, s:b, s:s}", "pid",
						       (json_int_t)p->pid, "ppid",
						       (json_int_t)p->ppid, "exe", p->exe,
						       "complete", p->bye, "ended_by",
						       p->why ? p->why : ""));
	}
	return json_pack("{s:b, s:s, s:o, s:I}", "attached", app_check_attached(ac, v->pid),
			 "library", v->library, "processes", procs, "ignored_lines",
			 (json_int_t)ac->bad_lines);
}

static json_t *program_json(const struct run_view *v)
{
	json_t *argv = json_array();

	for (int i = 0; argv && i < v->argc; i++)
		json_array_append_new(argv, json_text(v->argv[i]));
	return json_pack("{s:o, s:s, s:I, s:i, s:o}", "argv", argv, "path", v->path, "pid",
			 (json_int_t)v->pid, "exit_status", spawn_exit_code(v->status), "signal",
			 WIFSIGNALED(v->status) ? json_integer(WTERMSIG(v->status)) : json_null());
}

json_t *run_to_json(const struct run_view *v)
{
	json_t *j = report_to_json(v->report, "findings");
	json_t *arr = json_object_get(j, "findings");

	if (!j)
		return NULL;
	for (size_t i = 0; i < json_array_size(arr) && i < json_array_size(v->extras); i++)
		json_object_update(json_array_get(arr, i), json_array_get(v->extras, i));
	json_object_set_new(j, "program", program_json(v));
	json_object_set_new(j, "checker", checker_json(v));
	return j;
}

void run_text_header(FILE *out, const struct run_view *v)
{
	const struct app_check *ac = v->ac;

	if (WIFSIGNALED(v->status))
		fprintf(out, "rtready run: %s (pid %ld) was killed by signal %d (%s)\n", v->argv[0],
			v->pid, WTERMSIG(v->status), strsignal(WTERMSIG(v->status)));
	else
		fprintf(out, "rtready run: %s (pid %ld) exited with status %d\n", v->argv[0],
			v->pid, spawn_exit_code(v->status));
	if (!app_check_attached(ac, v->pid)) {
		fputs("checker: not attached\n", out);
		return;
	}
	fprintf(out, "checker: attached to %zu process%s:", ac->n_procs,
		ac->n_procs == 1 ? "" : "es");
	for (size_t i = 0; i < ac->n_procs && i < 8; i++) {
		const char *s = strrchr(ac->procs[i].exe, '/');

		fprintf(out, " %ld (%s)", ac->procs[i].pid, s ? s + 1 : ac->procs[i].exe);
	}
	fputs(ac->n_procs > 8 ? " ...\n\n" : "\n\n", out);
}

int run_render_report(const struct run_session *s, const struct run_request *rq, bool json,
		      bool (*color)(FILE *fp), char *err, size_t errlen)
{
	const struct run_view v = { &s->report, s->extras, &s->ac,
				    (const char *const *)rq->spawn.argv, rq->argc, s->path,
				    (long)s->pid, s->status, s->preload };
	struct output out = { 0 };
	int rc;

	if (rq->report) {
		rc = output_open(&out, rq->report);
		if (rc) {
			snprintf(err, errlen, "cannot write %s: %s", rq->report, strerror(-rc));
			return rc;
		}
	} else {
		out.fp = stderr;
	}
	if (json) {
		rc = json_write_free(out.fp, run_to_json(&v));
	} else {
		struct text_style ts = { color(out.fp), false };

		run_text_header(out.fp, &v);
		rc = text_write_findings(out.fp, &s->report, &ts);
	}
	if (rq->report)
		rc = output_close(&out, rc == 0) ?: rc;
	if (rc)
		snprintf(err, errlen, "cannot write the report: %s", strerror(-rc));
	return rc;
}
