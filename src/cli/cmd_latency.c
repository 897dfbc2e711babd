// SPDX-License-Identifier: MIT
/*
 * rtready latency: cyclictest-class wake-up latency. Parse the options
 * (cyclictest's letters where it has them) and hand them to the run
 * (src/job/latency.c: the CPUs, the session with live lines, the summary,
 * cyclictest's histogram file and the exit status).
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/opt.h"
#include "cli/cmd_latency.h"
#include "measure/histfile.h"
#include "util/parse.h"

/* Keys of the options without a short letter. */
enum {
	OPT_POLICY = 256, OPT_NO_MLOCK, OPT_BUCKET, OPT_HISTFILE, OPT_DMA, OPT_LOAD,
	OPT_OUTPUT, OPT_LAPTOP, OPT_HELP, OPT_TRACE, OPT_TRACE_FILE, OPT_HIST_MAX,
	OPT_JSON, OPT_PRETTY, OPT_RUNTIME, OPT_DEADLINE, OPT_PERIOD, OPT_TRACE_ALL,
};

static const struct cli_opt latency_opts[] = {
	/* cyclictest's spellings of -p and -b */
	{ "prio", 'p', CLI_ARG, NULL, NULL, NULL, CLI_OWN },
	{ "breaktrace", 'b', CLI_ARG, NULL, NULL, NULL, CLI_OWN },
	CLI_OPT_RT_CPUS("affinity", 'a', "LIST",
			"measure on these CPUs (default: every online CPU we may\n"
			"use, the RT CPUs of the boot line included); auto or\n"
			"auto:N: the RT CPUs rtready plan chooses (N of them)"),
	{ "threads", 't', CLI_OPTARG, "N",
	  "only the first N of those CPUs (without N: all of them)", NULL, CLI_OWN },
	{ "smp", 'S', CLI_NOARG, NULL,
	  "one thread per CPU (the default; for cyclictest habits)", NULL, CLI_OWN },
	{ "priority", 'p', CLI_ARG, "PRIO",
	  "realtime priority 1..98 (default 80; 99 is refused)", NULL, CLI_OWN },
	{ "policy", OPT_POLICY, CLI_ARG, "NAME",
	  "fifo (default), rr or deadline: SCHED_DEADLINE threads\n"
	  "(one per CPU, placed by the kernel) that end each job\n"
	  "with sched_yield; each job's start is measured against\n"
	  "its period's start", "fifo rr deadline", CLI_OWN },
	{ "runtime", OPT_RUNTIME, CLI_ARG, "US",
	  "with deadline: runtime per period (units allowed)", NULL, CLI_OWN },
	{ "deadline", OPT_DEADLINE, CLI_ARG, "US",
	  "with deadline: relative deadline (default: the period)", NULL, CLI_OWN },
	{ "period", OPT_PERIOD, CLI_ARG, "US",
	  "with deadline: period (default: the interval, -i)", NULL, CLI_OWN },
	{ "interval", 'i', CLI_ARG, "US",
	  "wake-up period in us (default 1000; units allowed: 1ms)", NULL, CLI_OWN },
	{ "duration", 'D', CLI_ARG, "TIME",
	  "how long: 10s (default), 500ms, 2m, 1h; 0 = until Ctrl-C", NULL, CLI_OWN },
	{ "loops", 'l', CLI_ARG, "N",
	  "each thread stops after N wake-ups (then no default\n"
	  "duration: -D still ends the run first if given)", NULL, CLI_OWN },
	{ "mlockall", 'm', CLI_NOARG, NULL,
	  "lock and prefault memory first (the default)", NULL, CLI_OWN },
	{ "no-mlock", OPT_NO_MLOCK, CLI_NOARG, NULL,
	  "do not lock memory (page faults may show as latency)", NULL, CLI_OWN },
	{ "hist-max", OPT_HIST_MAX, CLI_ARG, "US",
	  "histogram range in us (default 10000); later samples are\n"
	  "counted as overflows and the largest kept exactly", NULL, CLI_OWN },
	{ "histogram", 'h', CLI_ARG, "US",
	  "the same, and print the histogram at the end as\n"
	  "cyclictest does (with -q: only the histogram)", NULL, CLI_OWN },
	{ "histofall", 'H', CLI_ARG, "US",
	  "like -h, with one more column summing every thread", NULL, CLI_OWN },
	{ "bucket", OPT_BUCKET, CLI_ARG, "NS",
	  "histogram bucket width in ns (default 1000)", NULL, CLI_OWN },
	{ "histfile", OPT_HISTFILE, CLI_ARG, "FILE",
	  "also write the histogram in cyclictest's file format", "@file", CLI_OWN },
	{ "threshold", 'b', CLI_ARG, "US",
	  "stop at the first wake-up later than US; exit 1", NULL, CLI_OWN },
	{ "trace", OPT_TRACE, CLI_NOARG, NULL,
	  "with --threshold: record a kernel trace (scheduler, IRQs,\n"
	  "timers), stop it at the hit and explain what delayed the\n"
	  "thread (root; needs tracefs)", NULL, CLI_OWN },
	{ "trace-all", OPT_TRACE_ALL, CLI_NOARG, NULL,
	  "with --threshold: do not stop at a hit; trace the whole\n"
	  "run and give every wake-up later than US a cause, as\n"
	  "rtready noise names them, in a table per CPU (root)", NULL, CLI_OWN },
	{ "trace-file", OPT_TRACE_FILE, CLI_ARG, "FILE",
	  "save the trace around the hit there (implies --trace;\n"
	  "default: latency-trace.txt beside --output, or here)", "@file", CLI_OWN },
	{ "aligned", 'A', CLI_ARG, "US",
	  "every thread on one grid, US after the start: every CPU\n"
	  "wakes at the same instant, as cyclictest -A (default: each\n"
	  "thread its own grid from when it started, as cyclictest)", NULL, CLI_OWN },
	{ "dma-latency", OPT_DMA, CLI_ARG, "US",
	  "hold /dev/cpu_dma_latency at US for the run (default:\n"
	  "leave it alone and report its state)", NULL, CLI_OWN },
	{ "load", OPT_LOAD, CLI_ARG, "KIND",
	  "put the machine under load while measuring, at\n"
	  "SCHED_OTHER on every CPU: hackbench, cpu, memory or all\n"
	  "(what `rtready load` does; stopped at the end)", "hackbench cpu memory all", CLI_OWN },
	{ "quiet", 'q', CLI_NOARG, NULL,
	  "no live lines, only the summary at the end, which then\n"
	  "starts with cyclictest's T: lines", NULL, CLI_OWN },
	{ "nsecs", 'N', CLI_NOARG, NULL,
	  "text output in ns instead of us", NULL, CLI_OWN },
	{ "verbose", 'v', CLI_NOARG, NULL,
	  "print every sample as THREAD:WAKEUP:LATENCY while it runs", NULL, CLI_OWN },
	CLI_OPT_FORMAT('f'),
	CLI_OPT_OUTPUT(CLI_KEY_OUTPUT,
		       "write the summary to FILE instead of standard output"),
	{ "json", OPT_JSON, CLI_ARG, "FILE",
	  "also write the JSON to FILE (the text summary goes to\n"
	  "standard output), as cyclictest's --json=FILE", "@file", CLI_OWN },
	{ "pretty", OPT_PRETTY, CLI_NOARG, NULL,
	  "indent the JSON (default: one compact line, with\n"
	  "sparse histograms)", NULL, CLI_OWN },
	{ "laptop", OPT_LAPTOP, CLI_NOARG, NULL,
	  "accepted for cyclictest compatibility (nothing to do:\n"
	  "/dev/cpu_dma_latency is left alone anyway)", NULL, CLI_OWN },
	CLI_OPT_HELP(CLI_KEY_HELP),
	CLI_OPT_VERSION,
};

const struct cli_cmd latency_cmd = {
	"latency",
	"Usage: rtready latency [OPTIONS]\n"
	"\n"
	"Measure how late a realtime thread wakes up: one pinned SCHED_FIFO thread per CPU\n"
	"sleeps to absolute CLOCK_MONOTONIC deadlines and records each wake-up's lateness.\n"
	"\n",
	CLI_CMD_OPTS(latency_opts), 24,
	"\n"
	"Exit status: 0 measured, 1 --threshold exceeded, 2 usage error or the\n"
	"measurement could not run (a missing privilege is named). cyclictest and rtla\n"
	"differ: see rtready-latency(1).\n",
	CLI_NO_OPERANDS,
};

void latency_opts_free(struct latency_opts *o)
{
	latency_config_free(&o->cfg);
	rt_request_free(&o->affinity);
	memset(o, 0, sizeof(*o));
}

/* A duration option: @unit_ns for a bare number, result in [min, max] ns. */
static int opt_duration(const char *opt, const char *arg, int64_t unit_ns, uint64_t min,
			uint64_t max, uint64_t *out, char *err, size_t errlen)
{
	int64_t v;
	int rc = parse_duration_ns(arg, unit_ns, &v);

	if (rc) {
		snprintf(err, errlen, "%s: '%s' is not a duration (like %s)", opt, arg,
			 unit_ns == 1000 ? "1000 or 1ms" : unit_ns == 1 ? "500 or 1us" : "10s or 500ms");
		return -EINVAL;
	}
	if ((uint64_t)v < min || (uint64_t)v > max) {
		snprintf(err, errlen, "%s: '%s' is out of range", opt, arg);
		return -EINVAL;
	}
	*out = (uint64_t)v;
	return 0;
}

static int opt_priority(const char *arg, int *out, char *err, size_t errlen)
{
	int64_t v;

	if (parse_int64(arg, 0, 1000, &v) || v < 1) {
		snprintf(err, errlen, "--priority: '%s' is not a priority 1..%d", arg,
			 RTR_PRIO_MAX_SAFE);
		return -EINVAL;
	}
	if (v == 99) {
		snprintf(err, errlen,
			 "--priority 99 is refused: the kernel's own threads that must win "
			 "(watchdogs, migration) run there; use 1..%d", RTR_PRIO_MAX_SAFE);
		return -EINVAL;
	}
	if (v > RTR_PRIO_MAX_SAFE) {
		snprintf(err, errlen, "--priority: %s is above the realtime maximum; use 1..%d",
			 arg, RTR_PRIO_MAX_SAFE);
		return -EINVAL;
	}
	*out = (int)v;
	return 0;
}

static int opt_threads(int argc, char **argv, const char *arg, unsigned int *out, char *err,
		       size_t errlen)
{
	int64_t v;

	/* Like cyclictest, "-t 4" works as well as "-t4": take a number that follows. */
	if (!arg && optind < argc && argv[optind][0] >= '0' && argv[optind][0] <= '9')
		arg = argv[optind++];
	if (!arg) {
		*out = 0;
		return 0;
	}
	if (parse_int64(arg, 1, RTR_CPUSET_MAX_CPUS, &v)) {
		snprintf(err, errlen, "--threads: '%s' is not a number of CPUs", arg);
		return -EINVAL;
	}
	*out = (unsigned int)v;
	return 0;
}

/* --policy deadline and its reservation: runtime <= deadline <= period. */
static int opts_check_deadline(struct latency_opts *o, char *err, size_t errlen)
{
	struct latency_config *c = &o->cfg;

	if (c->policy != RTR_SCHED_DEADLINE) {
		if (c->dl_runtime_ns || c->dl_deadline_ns || c->dl_period_ns) {
			snprintf(err, errlen, "--runtime, --deadline and --period need --policy "
				 "deadline");
			return -EINVAL;
		}
		return 0;
	}
	if (c->aligned) {
		snprintf(err, errlen, "--aligned does not apply to --policy deadline: the kernel "
			 "starts each DEADLINE thread's periods");
		return -EINVAL;
	}
	if (o->prio_given) {
		snprintf(err, errlen, "--priority does not apply to --policy deadline: a "
			 "SCHED_DEADLINE thread has a runtime, a deadline and a period instead");
		return -EINVAL;
	}
	if (!c->dl_runtime_ns) {
		snprintf(err, errlen, "--policy deadline needs --runtime US (and --period US, "
			 "or -i US for the period)");
		return -EINVAL;
	}
	if (!c->dl_period_ns)
		c->dl_period_ns = c->interval_ns;
	else if (o->interval_given && c->interval_ns != c->dl_period_ns) {
		snprintf(err, errlen, "--interval and --period differ: with --policy deadline "
			 "the period is the interval; give one of them");
		return -EINVAL;
	}
	if (!c->dl_deadline_ns)
		c->dl_deadline_ns = c->dl_period_ns;
	if (c->dl_runtime_ns < 1024 || c->dl_runtime_ns > c->dl_deadline_ns ||
	    c->dl_deadline_ns > c->dl_period_ns) {
		snprintf(err, errlen, "--policy deadline needs 1024 ns <= --runtime <= --deadline "
			 "<= --period (got %.3f, %.3f, %.3f us)", (double)c->dl_runtime_ns / 1e3,
			 (double)c->dl_deadline_ns / 1e3, (double)c->dl_period_ns / 1e3);
		return -EINVAL;
	}
	c->interval_ns = c->dl_period_ns;
	return 0;
}

/* Checks that need several options together. */
static int opts_check(struct latency_opts *o, char *err, size_t errlen)
{
	const struct latency_config *c = &o->cfg;

	if (c->range_ns < c->bucket_ns) {
		snprintf(err, errlen, "--hist-max must be at least one --bucket wide");
		return -EINVAL;
	}
	if (c->range_ns / c->bucket_ns > LATENCY_MAX_BUCKETS) {
		snprintf(err, errlen, "--hist-max / --bucket gives more than %u buckets",
			 LATENCY_MAX_BUCKETS);
		return -EINVAL;
	}
	if (o->trace_all && !c->threshold_ns) {
		snprintf(err, errlen, "--trace-all needs --threshold US: every wake-up later than "
			 "that is explained");
		return -EINVAL;
	}
	if (o->trace_all && o->trace_file) {
		snprintf(err, errlen, "--trace-all keeps no trace file (--trace-file saves the window "
			 "around the one hit of --trace)");
		return -EINVAL;
	}
	if (o->trace && !c->threshold_ns) {
		snprintf(err, errlen,
			 "--trace needs --threshold US: the trace is stopped and explained at the "
			 "first wake-up later than that");
		return -EINVAL;
	}
	if ((o->histfile || o->hist_print) && !histfile_bucket_ok(c->bucket_ns)) {
		snprintf(err, errlen,
			 "%s needs microsecond rows: --bucket must divide 1000 ns or be a "
			 "multiple of it", o->histfile ? "--histfile" : "-h/-H");
		return -EINVAL;
	}
	if (o->verbose && o->format == FORMAT_JSON && !o->output) {
		snprintf(err, errlen,
			 "-v prints the samples on standard output: with --format json, give "
			 "--output FILE (or use --json FILE)");
		return -EINVAL;
	}
	if (opts_check_deadline(o, err, errlen))
		return -EINVAL;
	/* cyclictest's -l: the loops end the run, unless -D is given too. */
	if (c->loops && !o->duration_given)
		o->cfg.duration_ns = 0;
	return 0;
}

int latency_opts_parse(int argc, char **argv, struct latency_opts *o, char *err, size_t errlen)
{
	struct cli_parse p;
	const struct cli_common com = { &o->help, &o->version, &o->format, &o->output, NULL, &o->affinity };
	int c, rc = 0;
	int64_t v;

	memset(o, 0, sizeof(*o));
	latency_config_init(&o->cfg);
	o->dma_us = -1;
	cli_parse_begin(&p, &latency_cmd, &com, argc, argv);
	while (rc == 0 && (c = cli_next(&p, err, errlen)) > 0) {
		switch (c) {
		case 't':
			rc = opt_threads(argc, argv, optarg, &o->threads, err, errlen);
			break;
		case 'S':
		case 'm':
		case OPT_LAPTOP:
			/* -S and -m are what rtready does anyway; --laptop too (no dma write). */
			if (c == 'm')
				o->cfg.mlock = true;
			break;
		case 'p':
			rc = opt_priority(optarg, &o->cfg.priority, err, errlen);
			o->prio_given = true;
			break;
		case OPT_POLICY:
			if (rtr_policy_from_name(optarg, &o->cfg.policy) ||
			    (o->cfg.policy != RTR_SCHED_FIFO && o->cfg.policy != RTR_SCHED_RR &&
			     o->cfg.policy != RTR_SCHED_DEADLINE)) {
				snprintf(err, errlen, "--policy: '%s' is not fifo, rr or deadline",
					 optarg);
				rc = -EINVAL;
			}
			break;
		case OPT_RUNTIME:
			rc = opt_duration("--runtime", optarg, 1000, 1, LATENCY_MAX_INTERVAL_NS,
					  &o->cfg.dl_runtime_ns, err, errlen);
			break;
		case OPT_DEADLINE:
			rc = opt_duration("--deadline", optarg, 1000, 1, LATENCY_MAX_INTERVAL_NS,
					  &o->cfg.dl_deadline_ns, err, errlen);
			break;
		case OPT_PERIOD:
			rc = opt_duration("--period", optarg, 1000, LATENCY_MIN_INTERVAL_NS,
					  LATENCY_MAX_INTERVAL_NS, &o->cfg.dl_period_ns, err, errlen);
			break;
		case 'i':
			rc = opt_duration("--interval", optarg, 1000, LATENCY_MIN_INTERVAL_NS,
					  LATENCY_MAX_INTERVAL_NS, &o->cfg.interval_ns, err, errlen);
			o->interval_given = true;
			break;
		case 'D':
			rc = opt_duration("--duration", optarg, 1000000000, 0, UINT64_MAX / 2,
					  &o->cfg.duration_ns, err, errlen);
			o->duration_given = true;
			break;
		case 'l':
			if (parse_int64(optarg, 1, INT64_MAX, &v)) {
				snprintf(err, errlen, "--loops: '%s' is not a number of wake-ups (1 or "
					 "more)", optarg);
				rc = -EINVAL;
			}
			o->cfg.loops = (uint64_t)v;
			break;
		case OPT_NO_MLOCK:
			o->cfg.mlock = false;
			break;
		case 'H':
			o->histofall = true;
			/* fall through */
		case 'h':
			o->hist_print = true;
			/* fall through */
		case OPT_HIST_MAX:
			rc = opt_duration(c == 'H' ? "--histofall" : c == 'h' ? "--histogram"
						   : "--hist-max", optarg, 1000, 1000, UINT64_MAX / 2,
					  &o->cfg.range_ns, err, errlen);
			break;
		case OPT_BUCKET:
			rc = opt_duration("--bucket", optarg, 1, 1, 1000000000, &o->cfg.bucket_ns,
					  err, errlen);
			break;
		case OPT_HISTFILE:
			o->histfile = optarg;
			break;
		case 'b':
			rc = opt_duration("--threshold", optarg, 1000, 1, UINT64_MAX / 2,
					  &o->cfg.threshold_ns, err, errlen);
			break;
		case 'A':
			rc = opt_duration("--aligned", optarg, 1000, 0, LATENCY_MAX_INTERVAL_NS,
					  &o->cfg.align_offset_ns, err, errlen);
			o->cfg.aligned = true;
			break;
		case OPT_DMA:
			if (parse_int64(optarg, 0, 2000000000, &v)) {
				snprintf(err, errlen,
					 "--dma-latency: '%s' is not a number of us (0..2000000000)",
					 optarg);
				rc = -EINVAL;
			} else {
				o->dma_us = (int32_t)v;
			}
			break;
		case OPT_LOAD:
			if (latency_load_parse(optarg, &o->load)) {
				snprintf(err, errlen,
					 "--load: '%s' is not one of hackbench, cpu, memory, all",
					 optarg);
				rc = -EINVAL;
			}
			o->has_load = true;
			break;
		case 'q':
			o->quiet = true;
			break;
		case 'N':
			o->in_ns = true;
			break;
		case 'v':
			o->verbose = true;
			o->cfg.sample_log = true;
			break;
		case OPT_JSON:
			if (!optarg[0]) {
				snprintf(err, errlen, "--json: the name is empty");
				rc = -EINVAL;
			}
			o->json_file = optarg;
			break;
		case OPT_PRETTY:
			o->pretty = true;
			break;
		case OPT_TRACE_ALL:
			o->trace_all = true;
			o->cfg.threshold_all = true;
			break;
		case OPT_TRACE_FILE:
			if (!optarg[0]) {
				snprintf(err, errlen, "--trace-file: the name is empty");
				rc = -EINVAL;
			}
			o->trace_file = optarg;
			/* fall through */
		case OPT_TRACE:
			o->trace = true;
			break;
		}
	}
	if (rc == 0 && c < 0)
		rc = c;
	if (rc == 0)
		rc = opts_check(o, err, errlen);
	return rc;
}

/* The run: src/job/latency.c. */
static int run_latency(struct latency_opts *o)
{
	struct cli_stop saved;

	return latency_job_run(o, &(const struct job_ui)CLI_JOB_UI(&saved));
}

int cmd_latency(int argc, char **argv)
{
	struct latency_opts o;
	char err[512] = "";
	int rc;

	rc = latency_opts_parse(argc, argv, &o, err, sizeof(err));
	rc = cli_parsed(&latency_cmd, rc, err, o.help, o.version);
	if (rc >= 0) {
		latency_opts_free(&o);
		return rc;
	}
	rc = run_latency(&o);
	latency_opts_free(&o);
	return rc;
}
