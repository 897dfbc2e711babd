// SPDX-License-Identifier: MIT
/* The run of `rtready check` (job/check.h). */
#include <errno.h>
#include <string.h>

#include "checks/run.h"
#include "job/check.h"
#include "probe/rtcpus.h"
#include "render/json.h"
#include "render/text.h"

static void list_checks(FILE *out)
{
	for (size_t i = 0; i < checks_count(); i++) {
		const struct check *c = checks_at(i);

		fprintf(out, "%-26s %s\n", c->id, c->title);
	}
}

struct check_view {
	const struct check_opts *o;
	const struct report *r;
	const struct job_ui *ui;
};

static int check_write(FILE *fp, const void *ctx)
{
	const struct check_view *v = ctx;
	struct text_style st = { v->ui->use_color(fp), v->o->verbose };

	if (v->o->format == FORMAT_JSON)
		return json_write_free(fp, report_to_json(v->r, "checks"));
	return text_write_findings(fp, v->r, &st);
}

/* Open the target, run the checks into @r. Return: 0 or -errno (said). */
static int check_execute(const struct check_opts *o, struct report *r, const struct job_ui *ui)
{
	struct check_filter flt = { o->only, o->n_only, o->skip, o->n_skip };
	struct target *t = job_target(ui, o->root, &o->rt, TARGET_FACTS);
	struct check_ctx ctx;
	int err;

	if (!t)
		return -EINVAL;
	ctx = (struct check_ctx){ &t->facts, &t->rt.cpus, rtcpus_source_name(t->rt.source) };
	err = checks_run(&ctx, &flt, r);
	err = err ?: target_host_info(t, &r->host);
	if (err)
		say(&ui->say, false, "%s", strerror(-err));
	job_target_free(t);
	return err;
}

int check_job_run(void *opts, const struct job_ui *ui)
{
	const struct check_opts *o = opts;
	struct report r;
	int rc;

	if (o->list) {
		list_checks(stdout);
		return JOB_OK;
	}
	report_init(&r, "check");
	if (check_execute(o, &r, ui) ||
	    job_write(ui, o->output, check_write, &(struct check_view){ o, &r, ui }))
		rc = JOB_FAILED;
	else
		rc = report_exit_code(&r, o->strict);
	report_free(&r);
	return rc;
}
