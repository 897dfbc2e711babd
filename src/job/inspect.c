// SPDX-License-Identifier: MIT
/* The run of `rtready inspect` (job/inspect.h). */
#include <errno.h>
#include <signal.h>
#include <string.h>

#include "inspect/inspect.h"
#include "job/inspect.h"
#include "render/inspect.h"

struct inspect_view {
	const struct inspect_opts *o;
	const struct inspect_result *res;
	const struct report *r;
	const struct job_ui *ui;
};

static int inspect_write(FILE *fp, const void *ctx)
{
	const struct inspect_view *v = ctx;
	struct text_style st = { v->ui->use_color(fp), v->o->verbose };

	if (v->o->format == FORMAT_JSON)
		return inspect_write_json(fp, v->res, v->r);
	return inspect_write_text(fp, v->res, v->r, &st);
}

int inspect_job_run(void *opts, const struct job_ui *ui)
{
	const struct inspect_opts *o = opts;
	struct inspect_request req = { o->root, o->pids, o->n_pids, o->name,
				       o->all, o->window_ns, o->perf };
	const volatile sig_atomic_t *stop = ui->stop_catch(NULL);
	struct target *t;
	struct inspect_result res;
	struct inspect_env env;
	struct report r;
	int bad = 0, err, rc = JOB_FAILED;

	report_init(&r, "inspect");
	/* Unread online CPUs leave the list empty; inspect can still judge threads. */
	t = job_target(ui, o->root, &o->rt, TARGET_HOST);
	if (!t || target_host_info(t, &r.host)) {
		if (t)
			say(&ui->say, false, "%s", strerror(ENOMEM));
		job_target_free(t);
		report_free(&r);
		return JOB_FAILED;
	}
	err = inspect_collect(&req, &res, stop, &bad);
	if (err == -ENODATA && strcmp(o->root, "/") == 0)
		say(&ui->say, false, "no process found under /proc: /proc is unreadable (empty, "
				     "not procfs: is procfs mounted there?)");
	else if (err == -ENODATA)
		say(&ui->say, false, "no process found under %s%sproc: it is empty or unreadable",
		    o->root, o->root[strlen(o->root) - 1] == '/' ? "" : "/");
	else if (err == -ESRCH)
		say(&ui->say, false, "no process with PID %d", bad);
	else if (err == -ENOENT && o->name)
		say(&ui->say, false, "no process named '%s'", o->name);
	else if (err == -ENOENT)
		say(&ui->say, false, "no process found under %s%sproc", o->root,
		    o->root[strlen(o->root) - 1] == '/' ? "" : "/");
	else if (err)
		say(&ui->say, false, "cannot read the processes: %s", strerror(-err));
	if (err) {
		inspect_result_free(&res);
		report_free(&r);
		job_target_free(t);
		return JOB_FAILED;
	}
	env = (struct inspect_env){ &t->rt.cpus, o->verbose || !o->all };
	err = inspect_judge(&res, &env, &r);
	if (err)
		say(&ui->say, false, "%s", strerror(-err));
	else if (!job_write(ui, o->output, inspect_write,
			    &(struct inspect_view){ o, &res, &r, ui }))
		rc = report_exit_code(&r, o->strict);
	report_free(&r);
	inspect_result_free(&res);
	job_target_free(t);
	return rc;
}
