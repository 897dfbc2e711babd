// SPDX-License-Identifier: MIT
/* What the jobs share; see job.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "job/job.h"
#include "measure/trace.h"

struct target *job_target(const struct job_ui *ui, const char *root,
			  const struct rt_request *rt, unsigned int want)
{
	struct target *t = malloc(sizeof(*t));
	char msg[4200];
	int err = t ? target_open(t, root, rt, want, msg, sizeof(msg)) : -ENOMEM;

	if (err) {
		say(&ui->say, false, "%s", err == -ENOMEM ? strerror(ENOMEM) : msg);
		free(t);
		return NULL;
	}
	if (t->plan_warning[0])
		say(&ui->say, true, "%s", t->plan_warning);
	return t;
}

void job_target_free(struct target *t)
{
	if (!t)
		return;
	target_close(t);
	free(t);
}

int job_collisions(const struct job_ui *ui, const struct output_file *outs,
		   size_t n_outs, const struct output_file *ins, size_t n_ins)
{
	char err[8400];
	int e = output_collisions(outs, n_outs, ins, n_ins, err, sizeof(err));

	if (e)
		say(&ui->say, false, "%s", err);
	return e;
}

int job_out_reserve(const struct job_ui *ui, struct output *o, const char *path)
{
	int err = output_reserve(o, path);

	if (err)
		say(&ui->say, false, "cannot write %s: %s", path, strerror(-err));
	return err;
}

int job_out_ready(const struct job_ui *ui, struct output *o, const char *path)
{
	int err = output_ready(o);

	if (err)
		say(&ui->say, false, "cannot write %s: %s", path ? path : "the output", strerror(-err));
	return err;
}

void job_out_close(const struct job_ui *ui, struct output *o, const char *path,
		   bool written, int *rc)
{
	int err = output_close(o, written);

	if (err && written) {
		say(&ui->say, false, "cannot write %s: %s", path ? path : "the output", strerror(-err));
		*rc = JOB_FAILED;
	}
}

int job_write(const struct job_ui *ui, const char *path, job_write_fn *fn,
	      const void *ctx)
{
	struct output out;
	int err = output_open(&out, path);

	if (err) {
		say(&ui->say, false, "cannot write %s: %s", path, strerror(-err));
		return err;
	}
	err = fn(out.fp, ctx);
	err = output_close(&out, err == 0) ?: err;
	if (err)
		say(&ui->say, false, "cannot write the result: %s", strerror(-err));
	return err;
}

static void note_stale_trace(void *ctx, const char *name, int err)
{
	const struct job_ui *ui = ctx;

	if (err)
		say(&ui->say, true, "tracing instance %s, left by a killed rtready, is stopped but "
		    "cannot be removed: %s", name, strerror(-err));
	else
		say(&ui->say, true, "removed tracing instance %s, left tracing by a killed rtready",
		    name);
}

void job_remove_stale_trace(const struct job_ui *ui)
{
	trace_remove_stale(note_stale_trace, (void *)ui);
}

struct target *job_target_measure(const struct job_ui *ui, const struct rt_request *cpus,
				  struct host_info *host)
{
	struct target *t;

	memset(host, 0, sizeof(*host));
	t = job_target(ui, "/", cpus->kind == RT_REQUEST_AUTO ? cpus : NULL, TARGET_HOST);
	if (t && target_host_info(t, host)) {
		say(&ui->say, false, "out of memory");
		host_info_free(host);
		job_target_free(t);
		return NULL;
	}
	return t;
}
