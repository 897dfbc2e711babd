// SPDX-License-Identifier: MIT
/* What the jobs share; see job.h. */
#include <string.h>

#include "job/job.h"
#include "measure/trace.h"

int job_write(const struct job_ui *ui, const char *cmd, const char *path, job_write_fn *fn,
	      const void *ctx)
{
	struct output out;
	int err = output_open(&out, path);

	if (err) {
		ui->error(cmd, "cannot write %s: %s", path, strerror(-err));
		return err;
	}
	err = fn(out.fp, ctx);
	err = output_close(&out, err == 0) ?: err;
	if (err)
		ui->error(cmd, "cannot write the result: %s", strerror(-err));
	return err;
}

struct stale_note {
	const struct job_ui *ui;
	const char *cmd;
};

static void note_stale_trace(void *ctx, const char *name, int err)
{
	const struct stale_note *n = ctx;

	if (err)
		n->ui->warn(n->cmd, "tracing instance %s, left by a killed rtready, is stopped but "
				    "cannot be removed: %s", name, strerror(-err));
	else
		n->ui->warn(n->cmd, "removed tracing instance %s, left tracing by a killed rtready",
			    name);
}

void job_remove_stale_trace(const struct job_ui *ui, const char *cmd)
{
	struct stale_note n = { ui, cmd };

	trace_remove_stale(note_stale_trace, &n);
}

struct target *job_target_measure(const struct job_ui *ui, const char *cmd,
				  const struct rt_request *cpus)
{
	return ui->target(cmd, "/", cpus->kind == RT_REQUEST_AUTO ? cpus : NULL, TARGET_HOST);
}
