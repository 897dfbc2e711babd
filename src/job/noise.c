// SPDX-License-Identifier: MIT
/*
 * The run of `rtready noise` (job/noise.h): the CPUs (-a, else the RT CPUs,
 * else all but the first), the outputs reserved before the run, the
 * spinners, then the result, --gaps and the exit status.
 */
#include <errno.h>
#include <string.h>

#include "job/noise.h"
#include "measure/trace.h"
#include "render/json.h"
#include "render/noise.h"
#include "run/isolate.h"

/* The CPUs: -a, else the RT CPUs, else all but the first. Return: 0 or -errno (printed). */
static int resolve_cpus(struct noise_opts *o, const struct target *t, const struct job_ui *ui)
{
	struct rtr_cpuset allowed = RTR_CPUSET_INIT;
	char msg[4200];
	int err = target_need_online(t, msg, sizeof(msg));

	if (err) {
		say(&ui->say, false, "%s", msg);
		return err;
	}
	if (o->affinity.kind == RT_REQUEST_LIST)
		return rtr_cpuset_copy(&o->cfg.cpus, &o->affinity.cpus);
	if (o->affinity.kind == RT_REQUEST_AUTO)
		return rtr_cpuset_copy(&o->cfg.cpus, &t->rt.cpus);
	err = rtr_cpuset_get_affinity(&allowed) ?:
	      noise_default_cpus(&t->facts.cpu.online, &t->rt.cpus, &allowed, &o->cfg.cpus);
	if (err)
		say(&ui->say, false, "no CPU to measure: %s (one online CPU stays for housekeeping)",
		    strerror(-err));
	rtr_cpuset_free(&allowed);
	return err;
}

static int render(const struct noise_opts *o, const struct noise_result *r,
		  struct output *out, const struct host_info *host)
{
	if (o->format == FORMAT_JSON)
		return json_write_free(out->fp, noise_to_json(r, host));
	return noise_text_write(out->fp, r);
}

static void note_stale(void *ctx, const char *dir, long pid, int err)
{
	const struct job_ui *ui = ctx;

	if (err)
		say(&ui->say, true, "cannot remove the partition %s, left by rtready pid %ld, which has "
		    "ended: %s", dir, pid, strerror(-err));
}

static void note_affinity(void *ctx, long pid, const char *why)
{
	const struct job_ui *ui = ctx;

	say(&ui->say, true, "the partition of rtready pid %ld, which has ended: %s", pid, why);
}

int noise_job_run(void *opts, const struct job_ui *ui)
{
	struct noise_opts *o = opts;
	struct noise_result res;
	struct host_info host;
	struct output out = { 0 }, gout = { 0 };
	const struct output_file outs[] = { { "--output", o->output }, { "--gaps", o->gaps } };
	const volatile sig_atomic_t *stop;
	struct run_cgroup cg;
	char why[512] = "";
	bool written = false, gwritten = false, left = false;
	int rc = JOB_FAILED, err;
	struct target *t = job_target_measure(ui, &o->affinity, &host);

	if (!t)
		return JOB_FAILED;
	memset(&res, 0, sizeof(res));
	memset(&cg, 0, sizeof(cg));
	if (resolve_cpus(o, t, ui))
		goto out;
	if (job_collisions(ui, outs, 2, NULL, 0))
		goto out;
	if (job_out_reserve(ui, &out, o->output) ||
	    (o->gaps && job_out_reserve(ui, &gout, o->gaps)))
		goto out;
	/* A --trace instance left by a killed rtready would cost this measurement. */
	trace_remove_stale(NULL, NULL);
	if (o->isolate) {
		/* A partition a killed rtready left would hold these CPUs. */
		run_isolate_clean_stale(&(struct run_isolate_notes){ note_stale, note_affinity,
								     (void *)ui });
		if (run_isolate_create(&cg, &o->cfg.cpus, true, why, sizeof(why))) {
			say(&ui->say, false, "--isolate: %s", why);
			goto out;
		}
		snprintf(o->cfg.cgroup, sizeof(o->cfg.cgroup), "%s", cg.dirs[0]);
	}
	stop = ui->stop_catch(ui->stop_saved);
	err = noise_run(&o->cfg, stop, &res, why, sizeof(why));
	ui->stop_release(ui->stop_saved);
	if (cg.n_dirs) {
		char rmerr[512];

		/* Said, and exit 2, but the measurement is still written. */
		left = run_isolate_remove(&cg, rmerr, sizeof(rmerr)) != 0;
		if (left)
			say(&ui->say, false, "--isolate: %s", rmerr);
	}
	if (err) {
		say(&ui->say, false, "%s", why[0] ? why : strerror(-err));
		goto out;
	}
	if (res.stop == NOISE_STOP_RUNAWAY)
		say(&ui->say, false, "RLIMIT_RTTIME stopped a spinner (SIGXCPU); the result is partial");
	err = output_ready(&out) ?: render(o, &res, &out, &host);
	if (err) {
		say(&ui->say, false, "cannot write the result: %s", strerror(-err));
		goto out;
	}
	written = true;
	if (o->gaps) {
		err = output_ready(&gout) ?: noise_gaps_write(gout.fp, &res);
		if (err) {
			say(&ui->say, false, "cannot write %s: %s", o->gaps, strerror(-err));
			goto out;
		}
		gwritten = true;
	}
	rc = res.stop == NOISE_STOP_RUNAWAY || left ? JOB_FAILED : JOB_OK;
out:
	if (o->gaps)
		job_out_close(ui, &gout, o->gaps, gwritten, &rc);
	job_out_close(ui, &out, o->output, written, &rc);
	noise_result_free(&res);
	host_info_free(&host);
	job_target_free(t);
	return rc;
}

