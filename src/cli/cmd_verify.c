// SPDX-License-Identifier: MIT
/*
 * rtready verify: the main job in one command. It runs the system check,
 * a latency measurement on the idle machine and one under load (messaging,
 * CPU and memory pressure from the load generator), judges the whole, and
 * leaves one JSON with everything plus the HTML report, JUnit XML and
 * Prometheus text in a report directory. The verdict is decided by
 * result_judge() on the same model the report renders, so the page, the CI
 * file and the exit status always agree.
 */
#include <errno.h>
#include <stdarg.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/opt.h"
#include "checks/run.h"
#include "measure/noise.h"
#include "report/noise.h"
#include "report/pi.h"
#include "cli/cmd_verify.h"
#include "measure/latency.h"
#include "measure/latency_load.h"
#include "measure/session.h"
#include "measure/load.h"
#include "measure/trace.h"
#include "probe/rootfs.h"
#include "render/json.h"
#include "render/files.h"
#include "render/verify.h"
#include "render/latency.h"
#include "render/summary.h"
#include "report/result.h"
#include "util/parse.h"

/* Keys of the options without a short letter. */
enum { OPT_LOAD = 256, OPT_LOAD_CPUS, OPT_TRACE, OPT_NO_PI, OPT_PROMETHEUS, OPT_MAX_NOISE };

static int verify_main(void *opts);

static const struct cli_opt verify_opts[] = {
	{ "duration", 'D', CLI_ARG, "TIME",
	  "length of each latency run (default 10s; 500ms, 2m)", NULL, CLI_OWN, 0 },
	CLI_OPT_RT_CPUS("rt-cpus", 'c', "LIST",
			"the realtime CPUs: checked as such, and the CPUs\n"
			"measured (default: the isolated CPUs are checked,\n"
			"every online CPU is measured); auto or auto:N:\n"
			"the choice of rtready plan (N CPUs)"),
	{ "max-latency", 'm', CLI_ARG, "US",
	  "fail when a CPU's maximum latency exceeds US (in us;\n"
	  "100us, 1ms accepted); without it latency is shown,\n"
	  "not judged", NULL, CLI_OWN, 0 },
	{ "max-noise", OPT_MAX_NOISE, CLI_ARG, "US",
	  "also spin on the measured CPUs for -D (rtready noise;\n"
	  "one CPU stays to housekeeping) and fail when a gap\n"
	  "exceeds US (check noise.max_gap)", NULL, CLI_OWN, 0 },
	{ "report", 'r', CLI_ARG, "DIR",
	  "where to write the results (default rtready-report)", "@dir", CLI_OWN, 0 },
	{ "prometheus", OPT_PROMETHEUS, CLI_ARG, "FILE",
	  "also write the metrics there (replaced atomically), such\n"
	  "as the node exporter's textfile directory:\n"
	  "/var/lib/prometheus/node-exporter/rtready.prom", "@file", CLI_OWN, 0 },
	{ "interval", 'i', CLI_ARG, "US",
	  "wake-up period of the measuring threads (default 1000)", NULL, CLI_OWN, 0 },
	{ "load", OPT_LOAD, CLI_ARG, "KIND",
	  "the load: hackbench, cpu, memory or all (default all)", "hackbench cpu memory all", CLI_OWN, 0 },
	{ "load-cpus", OPT_LOAD_CPUS, CLI_ARG, "LIST",
	  "CPUs the load runs on (default: every CPU)", "@cpus", CLI_OWN, 0 },
	{ "format", 'f', CLI_ARG, "FMT",
	  "text (default) or json (the verify.json on stdout)", "text json", CLI_OWN, 0 },
	CLI_OPT_SET("no-pi", OPT_NO_PI, struct verify_opts, no_pi,
		    "skip the priority-inheritance run (check\n"
		    "sync.priority_inheritance, about 1 s)"),
	CLI_OPT_SET("trace", OPT_TRACE, struct verify_opts, trace,
		    "with --max-latency: stop a run at its first wake-up\n"
		    "past the limit and explain it from a kernel trace\n"
		    "(saved as trace-idle.txt / trace-load.txt in DIR)"),
	CLI_OPT_SET("strict", 's', struct verify_opts, strict, "warnings fail too"),
	CLI_OPT_SET("quiet", 'q', struct verify_opts, quiet, "no progress line"),
	CLI_OPT_HELP('h'),
	CLI_OPT_VERSION,
};

const struct cli_cmd verify_cmd = {
	"verify",
	"Usage: rtready verify [OPTIONS]\n"
	"\n"
	"Check this machine, measure wake-up latency on the idle machine and under load\n"
	"(messaging, CPU and memory), and give one verdict. Everything is written to a\n"
	"report directory: verify.json, report.html, junit.xml and metrics.prom.\n"
	"\n",
	CLI_CMD_OPTS(verify_opts), 26,
	"\n"
	"Needs root (or CAP_SYS_NICE, RLIMIT_RTPRIO and RLIMIT_MEMLOCK) for the latency\n"
	"runs. Exit status: 0 passed, 1 a check or a latency limit failed (or warned with\n"
	"--strict), 2 usage error, or a step could not run (the message says why).\n",
	CLI_NO_OPERANDS,
	CLI_CMD_STRUCT(struct verify_opts), verify_opts_parse, verify_main, verify_opts_free,
};

void verify_opts_free(void *opts)
{
	struct verify_opts *o = opts;

	rt_request_free(&o->rt);
	rtr_cpuset_free(&o->load_cpus);
	memset(o, 0, sizeof(*o));
}

static int parse_us_option(const char *opt, const char *arg, int64_t min_ns, int64_t max_ns,
			   int64_t *out, char *err, size_t errlen)
{
	if (parse_duration_ns(arg, 1000, out) || *out < min_ns || *out > max_ns) {
		snprintf(err, errlen, "%s: '%s' is not a time in us (like 100, 100us or 1ms)", opt,
			 arg);
		return -EINVAL;
	}
	return 0;
}

static int verify_opt(struct cli_parse *p, int key, char *err, size_t errlen)
{
	struct verify_opts *o = p->dst;
	const char *arg = p->arg;
	int64_t v;

	switch (key) {
	case 'D':
		/* A verify needs an end: 0 ("until Ctrl-C" in latency) is refused. */
		if (parse_duration_ns(arg, 1000000000LL, &v) || v < 100000000LL ||
		    v > 24LL * 3600 * 1000000000LL) {
			snprintf(err, errlen, "--duration: '%s' is not a duration from 100ms to 24h "
				 "(like 10s, 500ms, 2m)", arg);
			return -EINVAL;
		}
		o->duration_ns = v;
		return 0;
	case 'm':
		if (parse_us_option("--max-latency", arg, 1000, 3600LL * 1000000000LL, &v, err, errlen))
			return -EINVAL;
		o->max_latency_us = (double)v / 1000.0;
		return 0;
	case OPT_MAX_NOISE:
		if (parse_us_option("--max-noise", arg, 1000, 3600LL * 1000000000LL, &v, err, errlen))
			return -EINVAL;
		o->max_noise_us = (double)v / 1000.0;
		return 0;
	case 'r':
		o->report_dir = arg;
		if (*arg)
			return 0;
		snprintf(err, errlen, "--report: empty directory name");
		return -EINVAL;
	case OPT_PROMETHEUS:
		o->prometheus = arg;
		if (*arg)
			return 0;
		snprintf(err, errlen, "--prometheus: empty file name");
		return -EINVAL;
	case 'i':
		if (parse_us_option("--interval", arg, (int64_t)LATENCY_MIN_INTERVAL_NS,
				    (int64_t)LATENCY_MAX_INTERVAL_NS, &v, err, errlen))
			return -EINVAL;
		o->interval_ns = (uint64_t)v;
		return 0;
	case OPT_LOAD:
		if (latency_load_parse(arg, &o->load) == 0)
			return 0;
		snprintf(err, errlen, "--load: '%s' is not one of hackbench, cpu, memory, all", arg);
		return -EINVAL;
	case OPT_LOAD_CPUS:
		o->load_cpus_given = true;
		return target_parse_cpulist("--load-cpus", arg, &o->load_cpus, err, errlen);
	case 'f':
		return cli_parse_format(arg, &o->format, err, errlen);
	}
	return 0;
}

int verify_opts_parse(int argc, char **argv, void *opts, char *err, size_t errlen)
{
	struct verify_opts *o = opts;
	const struct cli_common com = { &o->help, &o->version, NULL, NULL, NULL, &o->rt };
	struct cli_parse p;
	int rc;

	memset(o, 0, sizeof(*o));
	o->duration_ns = VERIFY_DEFAULT_DURATION_NS;
	o->interval_ns = LATENCY_DEFAULT_INTERVAL_NS;
	o->load = LATENCY_LOAD_ALL;
	o->report_dir = VERIFY_DEFAULT_REPORT_DIR;
	cli_parse_begin(&p, &verify_cmd, &com, o, argc, argv);
	rc = cli_parse(&p, verify_opt, err, errlen);
	if (rc == 0 && o->trace && !(o->max_latency_us > 0)) {
		snprintf(err, errlen, "--trace needs --max-latency US: the trace is stopped and "
			 "explained at the first wake-up past it");
		rc = -EINVAL;
	}
	return rc;
}

/* ---- progress on a terminal ------------------------------------------------------------ */

struct progress {
	FILE *tty;		/* NULL: show nothing */
	int step;		/* 1..3 */
	const char *what;
	int64_t start_ns, duration_ns;
	uint64_t max_ns;	/* worst wake-up so far in this run */
};

static int64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void progress_begin(struct progress *p, int step, const char *what, int64_t duration_ns)
{
	p->step = step;
	p->what = what;
	p->start_ns = mono_ns();
	p->duration_ns = duration_ns;
	p->max_ns = 0;
	if (p->tty) {
		fprintf(p->tty, "\r\033[K[%d/3] %s ...", step, what);
		fflush(p->tty);
	}
}

static void progress_tick(void *ctx, const struct latency_live_view *v, size_t n)
{
	struct progress *p = ctx;
	int64_t left = p->duration_ns - (mono_ns() - p->start_ns);

	for (size_t i = 0; i < n; i++)
		if (v[i].max_ns > p->max_ns)
			p->max_ns = v[i].max_ns;
	if (left < 0)
		left = 0;
	fprintf(p->tty, "\r\033[K[%d/3] %s: %lld s left, worst wake-up so far %.1f us", p->step,
		p->what, (long long)((left + 999999999) / 1000000000), (double)p->max_ns / 1000.0);
	fflush(p->tty);
}

static void progress_end(struct progress *p, const char *how)
{
	if (!p->tty)
		return;
	fprintf(p->tty, "\r\033[K[%d/3] %s: %s\n", p->step, p->what, how);
	fflush(p->tty);
}

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
};

/* Report a failure of the run on stderr and keep the first one for the artefacts. */
__attribute__((format(printf, 2, 3)))
static void run_failed(struct verify_run *v, const char *fmt, ...)
{
	va_list ap;

	v->failed_run = true;
	va_start(ap, fmt);
	if (!v->error[0])
		vsnprintf(v->error, sizeof(v->error), fmt, ap);
	va_end(ap);
	va_start(ap, fmt);
	fputs("rtready: verify: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

static int run_check(const struct verify_opts *o, struct verify_run *v)
{
	struct check_filter flt = { 0 };
	struct check_ctx ctx = { &v->t->facts, &v->t->rt.cpus,
				 rtcpus_source_name(v->t->rt.source) };
	int err;

	(void)o;
	report_init(&v->check, "check");
	err = checks_run(&ctx, &flt, &v->check);
	err = err ?: target_host_info(v->t, &v->check.host);
	if (err)
		cli_error("verify", "%s", strerror(-err));
	else
		report_sort(&v->check);
	return err;
}

/* The CPUs to measure: --rt-cpus (each online), else every online CPU we may use. */
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
	struct cli_stop saved;
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
		stop = cli_stop_catch(&saved);
		err = noise_run(&cfg, stop, &v->noise, why, sizeof(why));
		cli_stop_release(&saved);
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

static int measured_cpus(const struct verify_opts *o, struct verify_run *v)
{
	struct rtr_cpuset allowed = RTR_CPUSET_INIT;
	char msg[4200];
	int err;

	/* The facts once, with the RT CPUs resolved as check resolves them. */
	v->t = cli_target("verify", "/", &o->rt, TARGET_FACTS);
	if (!v->t)
		return -EINVAL;
	err = target_need_online(v->t, msg, sizeof(msg));
	/* The load's CPUs too: a bad one must fail before the first phase, not after two. */
	if (!err && o->load_cpus_given)
		err = target_check_online(v->t, "--load-cpus", &o->load_cpus, msg, sizeof(msg));
	if (!err && o->rt.kind == RT_REQUEST_LIST)
		err = target_check_online(v->t, "--rt-cpus", &o->rt.cpus, msg, sizeof(msg));
	if (err) {
		cli_error("verify", "%s", msg);
		return err;
	}
	if (o->rt.kind != RT_REQUEST_NONE) {
		err = rtr_cpuset_copy(&v->cpus, &v->t->rt.cpus);
	} else {
		err = rtr_cpuset_get_affinity(&allowed);
		err = err ?: latency_default_cpus(&v->t->facts.cpu.online, &v->t->rt.cpus,
						  &allowed, &v->cpus);
		if (err)
			cli_error("verify", "no CPU to measure on: %s", strerror(-err));
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
		cli_error("verify", "%s", so.trace_note);
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

static int write_json(const char *path, const json_t *j)
{
	struct output out;
	int err = output_open(&out, path);

	if (!err) {
		err = json_write(out.fp, j);
		err = output_close(&out, err == 0) ?: err;
	}
	if (err)
		cli_error("verify", "cannot write %s: %s", path, strerror(-err));
	return err;
}

static int make_dir(const char *dir)
{
	struct stat st;

	if (mkdir(dir, 0755) == 0)
		return 0;
	if (errno != EEXIST) {
		int err = -errno;

		cli_error("verify", "cannot create %s: %s", dir, strerror(-err));
		return err;
	}
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
		cli_error("verify", "%s exists and is not a directory", dir);
		return -ENOTDIR;
	}
	return 0;
}

struct paths {
	char json[PATH_MAX], html[PATH_MAX], junit[PATH_MAX], prom[PATH_MAX];
};

static int make_paths(const char *dir, struct paths *p)
{
	if ((size_t)snprintf(p->json, sizeof(p->json), "%s/verify.json", dir) >= sizeof(p->json) ||
	    (size_t)snprintf(p->html, sizeof(p->html), "%s/report.html", dir) >= sizeof(p->html) ||
	    (size_t)snprintf(p->junit, sizeof(p->junit), "%s/junit.xml", dir) >= sizeof(p->junit) ||
	    (size_t)snprintf(p->prom, sizeof(p->prom), "%s/metrics.prom", dir) >= sizeof(p->prom)) {
		cli_error("verify", "--report: directory name too long");
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
	int rc = EXIT_USAGE, e;

	memset(&res, 0, sizeof(res));
	if (!j) {
		cli_error("verify", "out of memory");
		return EXIT_USAGE;
	}
	/* Judge the model read back from the document, as `rtready report` would. */
	e = result_from_json(j, "verify", &res, err, sizeof(err));
	if (e) {
		cli_error("verify", "internal error in the result: %s", e == -EINVAL ? err :
			  strerror(-e));
		goto out;
	}
	if (result_judge(&res, o->max_latency_us, &res.verdict) ||
	    json_object_set_new(j, "verdict", result_verdict_to_json(&res.verdict))) {
		cli_error("verify", "out of memory");
		goto out;
	}
	if (res.hostname[0]) {
		free(res.label);
		res.label = strdup(res.hostname);
		if (!res.label)
			goto out;
	}
	if (write_json(p->json, j))
		goto out;
	rp[0] = &res;
	{
		struct result_files dir = { p->html, p->junit, p->prom, o->strict };
		/* --prometheus: the same metrics where a collector reads them. */
		struct result_files prom = { NULL, NULL, o->prometheus, o->strict };

		if (render_result_files(&dir, rp, 1, err, sizeof(err)) ||
		    render_result_files(&prom, rp, 1, err, sizeof(err))) {
			cli_error("verify", "%s", err);
			goto out;
		}
	}
	if (o->format == FORMAT_JSON) {
		if (json_write(stdout, j))
			goto out;
	} else {
		fputc('\n', stdout);
		summary_write(stdout, &res, cli_use_color(stdout));
		/* --trace: what delayed the first wake-up past the limit, per run. */
		for (int ph = 0; ph < 2; ph++) {
			const struct trace_result *t = v->lat[ph].trace;

			if (!t || !t->triggered)
				continue;
			fprintf(stdout, "\nSpike %s:\n", ph == PHASE_LOAD ? "under load" : "idle");
			latency_trace_text_write(stdout, t, cli_use_color(stdout));
		}
	}
	if (!realpath(p->html, abs))
		snprintf(abs, sizeof(abs), "%s", p->html);
	fprintf(o->format == FORMAT_JSON ? stderr : stdout,
		"\nReport: %s\n        (with verify.json, junit.xml and metrics.prom beside it)\n",
		abs);
	rc = result_exit_code(rp, 1, o->strict);
	if (v->interrupted) {
		cli_error("verify", "interrupted: the results above are partial");
		rc = EXIT_USAGE;
	} else if (v->failed_run) {
		rc = EXIT_USAGE;
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


static void note_stale_trace(void *ctx, const char *name, int err)
{
	(void)ctx;
	if (err)
		cli_warn("verify", "tracing instance %s, left by a killed rtready, is stopped but "
				   "cannot be removed: %s", name, strerror(-err));
	else
		cli_warn("verify", "removed tracing instance %s, left tracing by a killed rtready",
			 name);
}

/*
 * --prometheus must not name a file of the report directory: one of the two
 * would be lost (verify.json, read back by `rtready report`, most of all).
 */
static int check_collisions(const struct verify_opts *o, const struct paths *p)
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

		if (cli_check_collisions("verify", pair, 2, NULL, 0))
			return -EINVAL;
	}
	return 0;
}

static int run_verify(const struct verify_opts *o)
{
	struct progress pr = { NULL, 0, NULL, 0, 0, 0 };
	struct host_info host = { 0 };
	struct verify_run v;
	struct paths paths;
	char what[64];
	int rc = EXIT_USAGE;

	memset(&v, 0, sizeof(v));
	if (!o->quiet && isatty(STDERR_FILENO))
		pr.tty = stderr;
	/* The output paths first: a bad one must not cost a measurement. */
	if (make_paths(o->report_dir, &paths) || check_collisions(o, &paths))
		return EXIT_USAGE;
	if (o->prometheus) {
		int err = output_check(o->prometheus);

		if (err) {
			cli_error("verify", "cannot write %s: %s", o->prometheus, strerror(-err));
			return EXIT_USAGE;
		}
	}
	if (make_dir(o->report_dir) || measured_cpus(o, &v)) {
		cli_target_free(v.t);
		return EXIT_USAGE;
	}
	/* A dead rtready's tracing would cost both measurements, --trace or not. */
	trace_remove_stale(note_stale_trace, NULL);

	progress_begin(&pr, 1, "checking the system", 0);
	if (run_check(o, &v))
		goto out;
	if (run_pi(o, &v)) {
		cli_error("verify", "out of memory");
		goto out;
	}
	{
		struct summary s = report_summary(&v.check);
		char done[96];

		snprintf(done, sizeof(done), "%u fail, %u warn, %u pass", s.fail, s.warn, s.pass);
		progress_end(&pr, done);
	}
	if (host_fill(&host, &v)) {
		cli_error("verify", "out of memory");
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
	if (pr.tty && rc == EXIT_USAGE)
		fputc('\n', pr.tty);
	report_free(&v.check);
	for (int p = 0; p < PHASE_COUNT; p++)
		latency_result_free(&v.lat[p]);
	noise_result_free(&v.noise);
	rtr_cpuset_free(&v.cpus);
	cli_target_free(v.t);
	host_info_free(&host);
	return rc;
}

static int verify_main(void *opts)
{
	return run_verify(opts);
}
