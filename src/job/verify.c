// SPDX-License-Identifier: MIT
/*
 * The run of `rtready verify` (job/verify.h): the system check, the
 * priority-inheritance run, the noise phase, latency on the idle machine
 * and under load, then one verdict. The verdict is decided by
 * result_judge() on the same model the report renders, so the page, the
 * CI file and the exit status always agree.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "checks/run.h"
#include "job/progress.h"
#include "job/verify.h"
#include "measure/latency.h"
#include "measure/noise.h"
#include "measure/session.h"
#include "measure/trace.h"
#include "render/files.h"
#include "render/json.h"
#include "render/latency.h"
#include "render/summary.h"
#include "render/verify.h"
#include "report/noise.h"
#include "report/pi.h"
#include "report/result.h"

/* ---- the steps ------------------------------------------------------------------------- */

/* What one verify run holds until it is written. */
struct verify_run {
	struct report check;
	struct latency_result lat[PHASE_COUNT];
	bool measured[PHASE_COUNT];
	struct noise_result noise;	/* --max-noise; n_cpus 0 when it did not run */
	struct rtr_cpuset cpus;		/* measured */
	bool interrupted;
	bool failed_run;		/* a measurement or the load failed: exit 2 */
	char error[512];		/* the first failure, also written into verify.json */
	struct target *t;		/* the facts, CPU sets and RT CPUs: read once */
	const struct job_ui *ui;
};

/* Report a failure of the run on stderr and keep the first one for the artefacts. */
__attribute__((format(printf, 2, 3)))
static void run_failed(struct verify_run *v, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	v->failed_run = true;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (!v->error[0])
		snprintf(v->error, sizeof(v->error), "%.*s", (int)sizeof(v->error) - 1, msg);
	say(&v->ui->say, false, "%s", msg);
}

/* The checklist on the target's facts. Return: 0 or -errno (printed). */
static int run_check(struct verify_run *v)
{
	struct check_filter flt = { 0 };
	struct check_ctx ctx = { &v->t->facts, &v->t->rt.cpus,
				 rtcpus_source_name(v->t->rt.source) };
	int err;

	report_init(&v->check, "check");
	err = checks_run(&ctx, &flt, &v->check);
	err = err ?: target_host_info(v->t, &v->check.host);
	if (err)
		say(&v->ui->say, false, "%s", strerror(-err));
	else
		report_sort(&v->check);
	return err;
}

/*
 * The checklist's priority-inversion scenario on the last measured CPU, as
 * `rtready pi` runs it (fewer rounds): its verdict joins the checks as
 * sync.priority_inheritance. A run that cannot start is a skip with the
 * reason, not a failure of verify.
 */
static int run_pi(const struct verify_opts *o, struct verify_run *v)
{
	struct pi_config c;
	struct pi_result r;
	char err[512] = "";
	int rc;

	if (o->no_pi)
		return 0;
	pi_config_default(&c);
	c.rounds = 50;
	for (int cpu = rtr_cpuset_next(&v->cpus, -1); cpu >= 0; cpu = rtr_cpuset_next(&v->cpus, cpu))
		c.cpu = cpu;
	rc = pi_run(&c, &r, NULL, err, sizeof(err));
	if (rc) {
		pi_result_free(&r);
		r.verdict = PI_INTERRUPTED;
		snprintf(r.reason, sizeof(r.reason), "could not run: %s", err);
	}
	rc = pi_finding_add(&v->check, &r);
	pi_result_free(&r);
	if (!rc)
		report_sort(&v->check);
	return rc;
}

/* --max-noise: the noise phase on the measured CPUs, as the finding noise.max_gap. */
static void run_noise(const struct verify_opts *o, struct verify_run *v, struct progress *pr)
{
	const struct rtr_cpuset *online = &v->t->facts.cpu.online;
	const volatile sig_atomic_t *stop;
	struct noise_config cfg;
	char why[512] = "";
	bool stopped;
	int err;

	progress_begin(pr, 1, "noise on spinning CPUs", o->duration_ns);
	memset(&v->noise, 0, sizeof(v->noise));
	noise_config_init(&cfg);
	cfg.duration_ns = (uint64_t)o->duration_ns;
	err = rtr_cpuset_copy(&cfg.cpus, &v->cpus);
	if (!err) {
		rtr_cpuset_and(&cfg.cpus, online);
		/* The loops never sleep: one online CPU stays to housekeeping. */
		if (rtr_cpuset_equal(&cfg.cpus, online))
			rtr_cpuset_unset(&cfg.cpus, rtr_cpuset_next(&cfg.cpus, -1));
		stop = v->ui->stop_catch(v->ui->stop_saved);
		err = noise_run(&cfg, stop, &v->noise, why, sizeof(why));
		v->ui->stop_release(v->ui->stop_saved);
	}
	noise_config_free(&cfg);
	if (err == -ENOMEM || noise_finding_add(&v->check, &v->noise, err, why, o->max_noise_us)) {
		run_failed(v, "noise: out of memory");
		return;
	}
	report_sort(&v->check);
	stopped = !err && v->noise.stop == NOISE_STOP_SIGNAL;
	if (stopped)
		v->interrupted = true;
	progress_end(pr, stopped ? "interrupted" : why[0] ? why : "done");
}

/*
 * The target, and the CPUs to measure: --rt-cpus (each online), else every
 * online CPU we may use. Return: 0 or -errno (printed).
 */
static int measured_cpus(const struct verify_opts *o, struct verify_run *v)
{
	struct rtr_cpuset allowed = RTR_CPUSET_INIT;
	char msg[4200];
	const struct job_ui *ui = v->ui;
	int err;

	/* The facts once, with the RT CPUs resolved as check resolves them. */
	v->t = job_target(ui, "/", &o->rt, TARGET_FACTS);
	if (!v->t)
		return -EINVAL;
	err = target_need_online(v->t, msg, sizeof(msg));
	/* The load's CPUs too: a bad one must fail before the first phase, not after two. */
	if (!err && o->load_cpus_given)
		err = target_check_online(v->t, "--load-cpus", &o->load_cpus, msg, sizeof(msg));
	if (!err && o->rt.kind == RT_REQUEST_LIST)
		err = target_check_online(v->t, "--rt-cpus", &o->rt.cpus, msg, sizeof(msg));
	if (err) {
		say(&ui->say, false, "%s", msg);
		return err;
	}
	if (o->rt.kind != RT_REQUEST_NONE) {
		err = rtr_cpuset_copy(&v->cpus, &v->t->rt.cpus);
	} else {
		err = rtr_cpuset_get_affinity(&allowed);
		err = err ?: latency_default_cpus(&v->t->facts.cpu.online, &v->t->rt.cpus,
						  &allowed, &v->cpus);
		if (err)
			say(&ui->say, false, "no CPU to measure on: %s", strerror(-err));
	}
	rtr_cpuset_free(&allowed);
	return err;
}

/* One latency run, idle or under load. Return: 0 or -errno (printed). */
static int run_latency(const struct verify_opts *o, struct verify_run *v, enum result_phase ph,
		       struct progress *pr)
{
	struct latency_result *res = &v->lat[ph];
	struct latency_config cfg;
	struct latency_session s = {
		&cfg, -1, ph == PHASE_LOAD, o->load, o->load_cpus_given ? &o->load_cpus : NULL,
		(unsigned int)rtr_cpuset_count(o->load_cpus_given ? &o->load_cpus :
					       &v->t->facts.cpu.online),
		o->trace, NULL, 250000000ULL, pr->tty ? progress_tick : NULL, NULL, pr, false,
	};
	struct session_outcome so;
	char done[96], tfile[PATH_MAX];
	int err;

	latency_config_init(&cfg);
	cfg.interval_ns = o->interval_ns;
	cfg.duration_ns = (uint64_t)o->duration_ns;
	err = rtr_cpuset_copy(&cfg.cpus, &v->cpus);
	if (err) {
		run_failed(v, "%s", strerror(-err));
		latency_config_free(&cfg);
		return err;
	}
	if (o->trace) {
		/* The run stops at the first wake-up past the limit; the trace explains it. */
		cfg.threshold_ns = (uint64_t)(o->max_latency_us * 1000.0);
		snprintf(tfile, sizeof(tfile), "%s/trace-%s.txt", o->report_dir,
			 ph == PHASE_LOAD ? "load" : "idle");
		s.trace_file = tfile;
	}
	err = latency_session_run(&s, res, &so);
	if (so.failed != SESSION_OK)
		run_failed(v, "%s", so.why);
	if (so.trace_note[0])
		say(&v->ui->say, false, "%s", so.trace_note);
	v->measured[ph] = so.measured;
	if (so.measured && res->stop == LATENCY_STOP_SIGNAL)
		v->interrupted = true;
	if (so.measured) {
		snprintf(done, sizeof(done), "%s, worst wake-up %.1f us",
			 v->interrupted ? "interrupted"
			 : res->stop == LATENCY_STOP_THRESHOLD ? "stopped at the limit (traced)"
							       : "done",
			 (double)res->total_stats.max_ns / 1000.0);
		progress_end(pr, done);
	}
	latency_config_free(&cfg);
	return err;
}

/* ---- the result ------------------------------------------------------------------------ */

static int write_json(const char *path, const json_t *j, const struct job_ui *ui)
{
	struct output out;
	int err = output_open(&out, path);

	if (!err) {
		err = json_write(out.fp, j);
		err = output_close(&out, err == 0) ?: err;
	}
	if (err)
		say(&ui->say, false, "cannot write %s: %s", path, strerror(-err));
	return err;
}

static int make_dir(const char *dir, const struct job_ui *ui)
{
	struct stat st;

	if (mkdir(dir, 0755) == 0)
		return 0;
	if (errno != EEXIST) {
		int err = -errno;

		say(&ui->say, false, "cannot create %s: %s", dir, strerror(-err));
		return err;
	}
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
		say(&ui->say, false, "%s exists and is not a directory", dir);
		return -ENOTDIR;
	}
	return 0;
}

struct paths {
	char json[PATH_MAX], html[PATH_MAX], junit[PATH_MAX], prom[PATH_MAX];
};

static int make_paths(const char *dir, struct paths *p, const struct job_ui *ui)
{
	if ((size_t)snprintf(p->json, sizeof(p->json), "%s/verify.json", dir) >= sizeof(p->json) ||
	    (size_t)snprintf(p->html, sizeof(p->html), "%s/report.html", dir) >= sizeof(p->html) ||
	    (size_t)snprintf(p->junit, sizeof(p->junit), "%s/junit.xml", dir) >= sizeof(p->junit) ||
	    (size_t)snprintf(p->prom, sizeof(p->prom), "%s/metrics.prom", dir) >= sizeof(p->prom)) {
		say(&ui->say, false, "--report: directory name too long");
		return -ENAMETOOLONG;
	}
	return 0;
}

/*
 * Judge, write verify.json and the three renderings, print the summary.
 * Return: the exit status.
 */
static int finish(const struct verify_opts *o, struct verify_run *v, const struct host_info *host,
		  const struct paths *p)
{
	const struct result *rp[1];
	struct result res;
	char err[4400] = "", abs[PATH_MAX];
	struct verify_view vv = { host, v->t->hostname, &v->cpus, o->load_cpus_given ?
				  &o->load_cpus : NULL, v->t->online_list, o->duration_ns,
				  o->interval_ns, latency_load_name(o->load), o->max_latency_us,
				  &v->check, { v->measured[0] ? &v->lat[0] : NULL,
					       v->measured[1] ? &v->lat[1] : NULL },
				  v->interrupted, v->error, v->noise.n_cpus ? &v->noise : NULL,
				  o->max_noise_us };
	json_t *j = verify_to_json(&vv);
	const struct job_ui *ui = v->ui;
	int rc = JOB_FAILED, e;

	memset(&res, 0, sizeof(res));
	if (!j) {
		say(&ui->say, false, "out of memory");
		return JOB_FAILED;
	}
	/* Judge the model read back from the document, as `rtready report` would. */
	e = result_from_json(j, "verify", &res, err, sizeof(err));
	if (e) {
		say(&ui->say, false, "internal error in the result: %s", e == -EINVAL ? err :
		    strerror(-e));
		goto out;
	}
	if (result_judge(&res, o->max_latency_us, &res.verdict) ||
	    json_object_set_new(j, "verdict", result_verdict_to_json(&res.verdict))) {
		say(&ui->say, false, "out of memory");
		goto out;
	}
	if (res.hostname[0]) {
		free(res.label);
		res.label = strdup(res.hostname);
		if (!res.label)
			goto out;
	}
	if (write_json(p->json, j, ui))
		goto out;
	rp[0] = &res;
	{
		struct result_files dir = { p->html, p->junit, p->prom, o->strict };
		/* --prometheus: the same metrics where a collector reads them. */
		struct result_files prom = { NULL, NULL, o->prometheus, o->strict };

		if (render_result_files(&dir, rp, 1, err, sizeof(err)) ||
		    render_result_files(&prom, rp, 1, err, sizeof(err))) {
			say(&ui->say, false, "%s", err);
			goto out;
		}
	}
	if (o->format == FORMAT_JSON) {
		if (json_write(stdout, j))
			goto out;
	} else {
		fputc('\n', stdout);
		summary_write(stdout, &res, ui->use_color(stdout));
		/* --trace: what delayed the first wake-up past the limit, per run. */
		for (int ph = 0; ph < 2; ph++) {
			const struct trace_result *t = v->lat[ph].trace;

			if (!t || !t->triggered)
				continue;
			fprintf(stdout, "\nSpike %s:\n", ph == PHASE_LOAD ? "under load" : "idle");
			latency_trace_text_write(stdout, t, ui->use_color(stdout));
		}
	}
	if (!realpath(p->html, abs))
		snprintf(abs, sizeof(abs), "%s", p->html);
	fprintf(o->format == FORMAT_JSON ? stderr : stdout,
		"\nReport: %s\n        (with verify.json, junit.xml and metrics.prom beside it)\n",
		abs);
	rc = result_exit_code(rp, 1, o->strict);
	if (v->interrupted) {
		say(&ui->say, false, "interrupted: the results above are partial");
		rc = JOB_FAILED;
	} else if (v->failed_run) {
		rc = JOB_FAILED;
	}
out:
	fflush(stdout);
	result_free(&res);
	json_decref(j);
	return rc;
}

static int host_fill(struct host_info *h, const struct verify_run *v)
{
	memset(h, 0, sizeof(*h));
	return target_host_info(v->t, h);
}

/*
 * --prometheus must not name a file of the report directory: one of the two
 * would be lost (verify.json, read back by `rtready report`, most of all).
 */
static int check_collisions(const struct verify_opts *o, const struct paths *p,
			    const struct job_ui *ui)
{
	char idle[PATH_MAX], load[PATH_MAX];
	struct output_file outs[] = {
		{ "--prometheus", o->prometheus },
		{ "the report file", p->json },
		{ "the report file", p->html },
		{ "the report file", p->junit },
		{ "the report file", p->prom },
		{ "the trace file", o->trace ? idle : NULL },
		{ "the trace file", o->trace ? load : NULL },
	};

	snprintf(idle, sizeof(idle), "%s/trace-idle.txt", o->report_dir);
	snprintf(load, sizeof(load), "%s/trace-load.txt", o->report_dir);
	/* The directory's own files are distinct by name: compare --prometheus only. */
	for (size_t i = 1; o->prometheus && i < sizeof(outs) / sizeof(outs[0]); i++) {
		struct output_file pair[2] = { outs[0], outs[i] };

		if (job_collisions(ui, pair, 2, NULL, 0))
			return -EINVAL;
	}
	return 0;
}

int verify_job_run(void *opts, const struct job_ui *ui)
{
	const struct verify_opts *o = opts;
	struct progress pr = { NULL, 0, NULL, 0, 0, 0 };
	struct host_info host = { 0 };
	struct verify_run v;
	struct paths paths;
	char what[64];
	int rc = JOB_FAILED;

	memset(&v, 0, sizeof(v));
	v.ui = ui;
	if (!o->quiet && isatty(STDERR_FILENO))
		pr.tty = stderr;
	/* The output paths first: a bad one must not cost a measurement. */
	if (make_paths(o->report_dir, &paths, ui) || check_collisions(o, &paths, ui))
		return JOB_FAILED;
	if (o->prometheus) {
		int err = output_check(o->prometheus);

		if (err) {
			say(&ui->say, false, "cannot write %s: %s", o->prometheus, strerror(-err));
			return JOB_FAILED;
		}
	}
	if (make_dir(o->report_dir, ui) || measured_cpus(o, &v)) {
		job_target_free(v.t);
		return JOB_FAILED;
	}
	/* A dead rtready's tracing would cost both measurements, --trace or not. */
	job_remove_stale_trace(ui);

	progress_begin(&pr, 1, "checking the system", 0);
	if (run_check(&v))
		goto out;
	if (run_pi(o, &v)) {
		say(&ui->say, false, "out of memory");
		goto out;
	}
	{
		struct summary s = report_summary(&v.check);
		char done[96];

		snprintf(done, sizeof(done), "%u fail, %u warn, %u pass", s.fail, s.warn, s.pass);
		progress_end(&pr, done);
	}
	if (host_fill(&host, &v)) {
		say(&ui->say, false, "out of memory");
		goto out;
	}

	/*
	 * A phase that fails ends the run, but what did run is still written (the
	 * check, the idle phase), with the error: stale files of an earlier run in
	 * the same directory must not stand for this one.
	 */
	/*
	 * Before the latency runs: the latency engine lowers RLIMIT_RTTIME to 3 s
	 * and, without CAP_SYS_RESOURCE, cannot raise it back; the spinners
	 * need it past the duration.
	 */
	if (o->max_noise_us > 0)
		run_noise(o, &v, &pr);
	progress_begin(&pr, 2, "latency, idle", o->duration_ns);
	run_latency(o, &v, PHASE_IDLE, &pr);
	if (!v.interrupted && !v.failed_run) {
		snprintf(what, sizeof(what), "latency under load (%s)", latency_load_name(o->load));
		progress_begin(&pr, 3, what, o->duration_ns);
		run_latency(o, &v, PHASE_LOAD, &pr);
	}
	rc = finish(o, &v, &host, &paths);
out:
	if (pr.tty && rc == JOB_FAILED)
		fputc('\n', pr.tty);
	report_free(&v.check);
	for (int p = 0; p < PHASE_COUNT; p++)
		latency_result_free(&v.lat[p]);
	noise_result_free(&v.noise);
	rtr_cpuset_free(&v.cpus);
	job_target_free(v.t);
	host_info_free(&host);
	return rc;
}

