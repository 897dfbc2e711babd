// SPDX-License-Identifier: MIT
/*
 * rtready verify: the main job in one command. It runs the system check,
 * a latency measurement on the idle machine and one under load (messaging,
 * CPU and memory pressure from the load generator), judges the whole, and
 * leaves one JSON with everything plus the HTML report, JUnit XML and
 * Prometheus text in a report directory. The options; the run is
 * src/job/verify.c.
 */
#include <errno.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/opt.h"
#include "cli/cmd_verify.h"
#include "measure/latency.h"
#include "util/parse.h"

/* Keys of the options without a short letter. */
enum { OPT_LOAD = 256, OPT_LOAD_CPUS, OPT_TRACE, OPT_NO_PI, OPT_PROMETHEUS, OPT_MAX_NOISE };

static const struct cli_opt verify_opts[] = {
	{ "duration", 'D', CLI_ARG, "TIME",
	  "length of each latency run (default 10s; 500ms, 2m)", NULL, CLI_OWN, 0 },
	CLI_OPT_RT_CPUS(struct verify_opts, rt, "rt-cpus", 'c', "LIST",
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
};

void verify_opts_free(void *opts)
{
	struct verify_opts *o = opts;

	rt_request_free(&o->rt);
	rtr_cpuset_free(&o->load_cpus);
	memset(o, 0, sizeof(*o));
}

static int verify_opt(struct cli_parse *p, int key, char *err, size_t errlen)
{
	struct verify_opts *o = p->dst;
	const char *arg = p->arg;
	int64_t v;

	switch (key) {
	case 'D':
		/* A verify needs an end: 0 ("until Ctrl-C" in latency) is refused. */
		if (cli_time("--duration", arg, 1000000000, 100000000, 24LL * 3600 * 1000000000, &v,
			     err, errlen))
			return -EINVAL;
		o->duration_ns = v;
		return 0;
	case 'm':
		if (cli_time("--max-latency", arg, 1000, 1000, 3600LL * 1000000000LL, &v, err, errlen))
			return -EINVAL;
		o->max_latency_us = (double)v / 1000.0;
		return 0;
	case OPT_MAX_NOISE:
		if (cli_time("--max-noise", arg, 1000, 1000, 3600LL * 1000000000LL, &v, err, errlen))
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
		if (cli_time("--interval", arg, 1000, (int64_t)LATENCY_MIN_INTERVAL_NS,
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

static void verify_init(void *opts)
{
	struct verify_opts *o = opts;

	o->duration_ns = VERIFY_DEFAULT_DURATION_NS;
	o->interval_ns = LATENCY_DEFAULT_INTERVAL_NS;
	o->load = LATENCY_LOAD_ALL;
	o->report_dir = VERIFY_DEFAULT_REPORT_DIR;
}

static int verify_done(void *opts, int argc, char **argv, int first, char *err, size_t errlen)
{
	const struct verify_opts *o = opts;

	if (!o->trace || o->max_latency_us > 0)
		return 0;
	snprintf(err, errlen, "--trace needs --max-latency US: the trace is stopped and explained "
		 "at the first wake-up past it");
	return -EINVAL;
}

const struct cli_cmd verify_cmd = {
	"verify",
	"the main job: check, latency idle and under load, one verdict and report",
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
	CLI_CMD_STRUCT(struct verify_opts), .init = verify_init, .own = verify_opt,
	.done = verify_done, .job = verify_job_run, .release = verify_opts_free,
};
