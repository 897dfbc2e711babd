// SPDX-License-Identifier: MIT
/* The run of `rtready report` (job/report.h). */
#include <string.h>

#include "job/report.h"
#include "render/files.h"

/*
 * Before anything is read: an output must not be one of the inputs (that
 * would replace a result with its own report), and every output must be
 * writable. Return: 0, or -1 after printing why.
 */
static int check_outputs(const struct report_opts *o, const struct job_ui *ui)
{
	const char *outs[] = { o->html, o->junit, o->prometheus };

	for (int a = 0; a < 3; a++) {
		int err;

		if (!outs[a])
			continue;
		for (size_t i = 0; i < o->n_inputs; i++) {
			if (output_is_input(outs[a], o->inputs[i])) {
				say(&ui->say, false, "'%s' is the result file '%s': the report "
				    "would replace it; name another output", outs[a],
				    o->inputs[i]);
				return -1;
			}
		}
		err = output_check(outs[a]);
		if (err) {
			say(&ui->say, false, "cannot write %s: %s", outs[a], strerror(-err));
			return -1;
		}
	}
	return 0;
}

int report_job_run(void *opts, const struct job_ui *ui)
{
	const struct report_opts *o = opts;
	struct result res[REPORT_MAX_INPUTS];
	const struct result *rp[REPORT_MAX_INPUTS];
	struct result_files f = { o->html, o->junit, o->prometheus, o->strict };
	char err[1536];
	int n, rc = JOB_FAILED;

	if (check_outputs(o, ui))
		return JOB_FAILED;
	n = result_load_all(o->inputs, o->n_inputs, o->max_latency_us, res, err, sizeof(err));
	if (n < 0) {
		say(&ui->say, false, "%s", err);
		return JOB_FAILED;
	}
	for (int i = 0; i < n; i++)
		rp[i] = &res[i];
	if (render_result_files(&f, rp, (size_t)n, err, sizeof(err)))
		say(&ui->say, false, "%s", err);
	else
		rc = result_exit_code(rp, (size_t)n, o->strict);
	for (int i = 0; i < n; i++)
		result_free(&res[i]);
	return rc;
}
