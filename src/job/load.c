// SPDX-License-Identifier: MIT
/* The run of `rtready load` (job/load.h). */
#include <errno.h>
#include <string.h>

#include "job/load.h"
#include "render/load.h"

/* Run the load until it ends or a signal asks to stop. Return: 0 or -errno. */
static int run_load(const struct load_config *cfg, struct load_stats *st, bool *interrupted,
		    const struct job_ui *ui)
{
	/* Without SA_RESTART: a signal cuts the wait short. */
	int rc = load_run(cfg, ui->stop_catch(ui->stop_saved), st, interrupted);

	ui->stop_release(ui->stop_saved);
	return rc;
}

int load_job_run(void *opts, const struct job_ui *ui)
{
	const struct load_opts *o = opts;
	struct load_stats st = { 0 };
	struct output out;
	bool interrupted = false;
	int rc;

	rc = output_open(&out, o->output);
	if (rc) {
		say(&ui->say, false, "cannot write %s: %s", o->output, strerror(-rc));
		return JOB_FAILED;
	}
	if (o->format == FORMAT_TEXT && !o->quiet) {
		load_describe_text(out.fp, &o->cfg);
		fflush(out.fp);
	}
	rc = run_load(&o->cfg, &st, &interrupted, ui);
	if (rc) {
		say(&ui->say, false, "cannot start the load: %s", strerror(-rc));
		output_close(&out, false);
		return JOB_FAILED;
	}
	if (o->format == FORMAT_JSON) {
		struct host_info host = { 0 };

		rc = target_host_live(&host) ?: load_write(out.fp, &o->cfg, &st, interrupted, &host);
		host_info_free(&host);
	} else {
		rc = load_write(out.fp, &o->cfg, &st, interrupted, NULL);
	}
	rc = output_close(&out, rc == 0) ?: rc;
	if (rc)
		say(&ui->say, false, "cannot write the result: %s", strerror(-rc));
	if (st.error)
		say(&ui->say, false, "%s", st.error_text);
	return rc || st.error ? JOB_FAILED : JOB_OK;
}
