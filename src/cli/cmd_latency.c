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
	{ "prio", 'p', CLI_ARG, NULL, NULL, NULL, CLI_OWN, 0 },
	{ "breaktrace", 'b', CLI_ARG, NULL, NULL, NULL, CLI_OWN, 0 },
	CLI_OPT_RT_CPUS(struct latency_opts, affinity, "affinity", 'a', "LIST",
			"measure on these CPUs (default: every online CPU we may\n"
			"use, the RT CPUs of the boot line included); auto or\n"
			"auto:N: the RT CPUs rtready plan chooses (N of them)"),
	{ "threads", 't', CLI_OPTARG, "N",
	  "only the first N of those CPUs (without N: all of them)", NULL, CLI_OWN, 0 },
	{ "smp", 'S', CLI_NOARG, NULL,
	  "one thread per CPU (the default; for cyclictest habits)", NULL, CLI_OWN, 0 },
	{ "priority", 'p', CLI_ARG, "PRIO",
	  "realtime priority 1..98 (default 80; 99 is refused)", NULL, CLI_OWN, 0 },
	{ "policy", OPT_POLICY, CLI_ARG, "NAME",
	  "fifo (default), rr or deadline: SCHED_DEADLINE threads\n"
	  "(one per CPU, placed by the kernel) that end each job\n"
	  "with sched_yield; each job's start is measured against\n"
	  "its period's start", "fifo rr deadline", CLI_OWN, 0 },
	{ "runtime", OPT_RUNTIME, CLI_ARG, "US",
	  "with deadline: runtime per period (units allowed)", NULL, CLI_OWN, 0 },
	{ "deadline", OPT_DEADLINE, CLI_ARG, "US",
	  "with deadline: relative deadline (default: the period)", NULL, CLI_OWN, 0 },
	{ "period", OPT_PERIOD, CLI_ARG, "US",
	  "with deadline: period (default: the interval, -i)", NULL, CLI_OWN, 0 },
	{ "interval", 'i', CLI_ARG, "US",
	  "wake-up period in us (default 1000; units allowed: 1ms)", NULL, CLI_OWN, 0 },
	{ "duration", 'D', CLI_ARG, "TIME",
	  "how long: 10s (default), 500ms, 2m, 1h; 0 = until Ctrl-C", NULL, CLI_OWN, 0 },
	{ "loops", 'l', CLI_ARG, "N",
	  "each thread stops after N wake-ups (then no default\n"
	  "duration: -D still ends the run first if given)", NULL, CLI_OWN, 0 },
	{ "mlockall", 'm', CLI_NOARG, NULL,
	  "lock and prefault memory first (the default)", NULL, CLI_OWN, 0 },
	{ "no-mlock", OPT_NO_MLOCK, CLI_NOARG, NULL,
	  "do not lock memory (page faults may show as latency)", NULL, CLI_OWN, 0 },
	{ "hist-max", OPT_HIST_MAX, CLI_ARG, "US",
	  "histogram range in us (default 10000); later samples are\n"
	  "counted as overflows and the largest kept exactly", NULL, CLI_OWN, 0 },
	{ "histogram", 'h', CLI_ARG, "US",
	  "the same, and print the histogram at the end as\n"
	  "cyclictest does (with -q: only the histogram)", NULL, CLI_OWN, 0 },
	{ "histofall", 'H', CLI_ARG, "US",
	  "like -h, with one more column summing every thread", NULL, CLI_OWN, 0 },
	{ "bucket", OPT_BUCKET, CLI_ARG, "NS",
	  "histogram bucket width in ns (default 1000)", NULL, CLI_OWN, 0 },
	CLI_OPT_STR("histfile", OPT_HISTFILE, "FILE", struct latency_opts, histfile, "@file",
		    "also write the histogram in cyclictest's file format"),
	{ "threshold", 'b', CLI_ARG, "US",
	  "stop at the first wake-up later than US; exit 1", NULL, CLI_OWN, 0 },
	CLI_OPT_SET("trace", OPT_TRACE, struct latency_opts, trace,
		    "with --threshold: record a kernel trace (scheduler, IRQs,\n"
		    "timers), stop it at the hit and explain what delayed the\n"
		    "thread (root; needs tracefs)"),
	{ "trace-all", OPT_TRACE_ALL, CLI_NOARG, NULL,
	  "with --threshold: do not stop at a hit; trace the whole\n"
	  "run and give every wake-up later than US a cause, as\n"
	  "rtready noise names them, in a table per CPU (root)", NULL, CLI_OWN, 0 },
	{ "trace-file", OPT_TRACE_FILE, CLI_ARG, "FILE",
	  "save the trace around the hit there (implies --trace;\n"
	  "default: latency-trace.txt beside --output, or here)", "@file", CLI_OWN, 0 },
	{ "aligned", 'A', CLI_ARG, "US",
	  "every thread on one grid, US after the start: every CPU\n"
	  "wakes at the same instant, as cyclictest -A (default: each\n"
	  "thread its own grid from when it started, as cyclictest)", NULL, CLI_OWN, 0 },
	{ "dma-latency", OPT_DMA, CLI_ARG, "US",
	  "hold /dev/cpu_dma_latency at US for the run (default:\n"
	  "leave it alone and report its state)", NULL, CLI_OWN, 0 },
	{ "load", OPT_LOAD, CLI_ARG, "KIND",
	  "put the machine under load while measuring, at\n"
	  "SCHED_OTHER on every CPU: hackbench, cpu, memory or all\n"
	  "(what `rtready load` does; stopped at the end)", "hackbench cpu memory all", CLI_OWN, 0 },
	CLI_OPT_SET("quiet", 'q', struct latency_opts, quiet,
		    "no live lines, only the summary at the end, which then\n"
		    "starts with cyclictest's T: lines"),
	CLI_OPT_SET("nsecs", 'N', struct latency_opts, in_ns, "text output in ns instead of us"),
	{ "verbose", 'v', CLI_NOARG, NULL,
	  "print every sample as THREAD:WAKEUP:LATENCY while it runs", NULL, CLI_OWN, 0 },
	CLI_OPT_FORMAT(struct latency_opts, 'f'),
	CLI_OPT_OUTPUT(struct latency_opts, CLI_KEY_OUTPUT,
		       "write the summary to FILE instead of standard output"),
	{ "json", OPT_JSON, CLI_ARG, "FILE",
	  "also write the JSON to FILE (the text summary goes to\n"
	  "standard output), as cyclictest's --json=FILE", "@file", CLI_OWN, 0 },
	CLI_OPT_SET("pretty", OPT_PRETTY, struct latency_opts, pretty,
		    "indent the JSON (default: one compact line, with\n"
		    "sparse histograms)"),
	{ "laptop", OPT_LAPTOP, CLI_NOARG, NULL,
	  "accepted for cyclictest compatibility (nothing to do:\n"
	  "/dev/cpu_dma_latency is left alone anyway)", NULL, CLI_OWN, 0 },
};

void latency_opts_free(void *opts)
{
	struct latency_opts *o = opts;

	latency_config_free(&o->cfg);
	rt_request_free(&o->affinity);
	memset(o, 0, sizeof(*o));
}

/* A time option into a uint64_t field of the config: see cli_time(). */
static int opt_duration(const char *opt, const char *arg, int64_t unit_ns, int64_t min,
			int64_t max, uint64_t *out, char *err, size_t errlen)
{
	int64_t v;

	if (cli_time(opt, arg, unit_ns, min, max, &v, err, errlen))
		return -EINVAL;
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

static int opt_threads(const struct cli_parse *p, unsigned int *out, char *err, size_t errlen)
{
	const char *arg = p->arg;
	int64_t v;

	/* Like cyclictest, "-t 4" works as well as "-t4": take a number that follows. */
	if (!arg && optind < p->argc && p->argv[optind][0] >= '0' && p->argv[optind][0] <= '9')
		arg = p->argv[optind++];
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
static int latency_done(void *opts, int argc, char **argv, int first, char *err, size_t errlen)
{
	struct latency_opts *o = opts;
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

static int latency_opt(struct cli_parse *p, int key, char *err, size_t errlen)
{
	struct latency_opts *o = p->dst;
	struct latency_config *c = &o->cfg;
	const char *arg = p->arg;
	int64_t v;

	switch (key) {
	case 't':
		return opt_threads(p, &o->threads, err, errlen);
	case 'm':
		/* -S and -m are what rtready does anyway; --laptop too (no dma write). */
		c->mlock = true;
		return 0;
	case 'p':
		o->prio_given = true;
		return opt_priority(arg, &c->priority, err, errlen);
	case OPT_POLICY:
		return cli_parse_policy(arg, 1u << RTR_SCHED_FIFO | 1u << RTR_SCHED_RR |
					1u << RTR_SCHED_DEADLINE, "fifo, rr or deadline", &c->policy,
					err, errlen);
	case OPT_RUNTIME:
		return opt_duration("--runtime", arg, 1000, 1, LATENCY_MAX_INTERVAL_NS,
				    &c->dl_runtime_ns, err, errlen);
	case OPT_DEADLINE:
		return opt_duration("--deadline", arg, 1000, 1, LATENCY_MAX_INTERVAL_NS,
				    &c->dl_deadline_ns, err, errlen);
	case OPT_PERIOD:
		return opt_duration("--period", arg, 1000, LATENCY_MIN_INTERVAL_NS,
				    LATENCY_MAX_INTERVAL_NS, &c->dl_period_ns, err, errlen);
	case 'i':
		o->interval_given = true;
		return opt_duration("--interval", arg, 1000, LATENCY_MIN_INTERVAL_NS,
				    LATENCY_MAX_INTERVAL_NS, &c->interval_ns, err, errlen);
	case 'D':
		o->duration_given = true;
		return opt_duration("--duration", arg, 1000000000, 0, INT64_MAX, &c->duration_ns,
				    err, errlen);
	case 'l':
		if (parse_int64(arg, 1, INT64_MAX, &v)) {
			snprintf(err, errlen, "--loops: '%s' is not a number of wake-ups (1 or more)",
				 arg);
			return -EINVAL;
		}
		c->loops = (uint64_t)v;
		return 0;
	case OPT_NO_MLOCK:
		c->mlock = false;
		return 0;
	case 'H':
		o->histofall = true;
		/* fall through */
	case 'h':
		o->hist_print = true;
		/* fall through */
	case OPT_HIST_MAX:
		return opt_duration(key == 'H' ? "--histofall" : key == 'h' ? "--histogram" : "--hist-max",
				    arg, 1000, 1000, INT64_MAX, &c->range_ns, err, errlen);
	case OPT_BUCKET:
		return opt_duration("--bucket", arg, 1, 1, 1000000000, &c->bucket_ns, err, errlen);
	case 'b':
		return opt_duration("--threshold", arg, 1000, 1, INT64_MAX, &c->threshold_ns,
				    err, errlen);
	case 'A':
		c->aligned = true;
		return opt_duration("--aligned", arg, 1000, 0, LATENCY_MAX_INTERVAL_NS,
				    &c->align_offset_ns, err, errlen);
	case OPT_DMA:
		if (parse_int64(arg, 0, 2000000000, &v)) {
			snprintf(err, errlen, "--dma-latency: '%s' is not a number of us (0..2000000000)",
				 arg);
			return -EINVAL;
		}
		o->dma_us = (int32_t)v;
		return 0;
	case OPT_LOAD:
		o->has_load = true;
		if (latency_load_parse(arg, &o->load) == 0)
			return 0;
		snprintf(err, errlen, "--load: '%s' is not one of hackbench, cpu, memory, all", arg);
		return -EINVAL;
	case 'v':
		o->verbose = true;
		c->sample_log = true;
		return 0;
	case OPT_JSON:
		o->json_file = arg;
		return cli_nonempty("--json", arg, err, errlen);
	case OPT_TRACE_ALL:
		o->trace_all = true;
		c->threshold_all = true;
		return 0;
	case OPT_TRACE_FILE:
		o->trace_file = arg;
		o->trace = true;
		return cli_nonempty("--trace-file", arg, err, errlen);
	}
	return 0;
}

static void latency_init(void *opts)
{
	struct latency_opts *o = opts;

	latency_config_init(&o->cfg);
	o->dma_us = -1;
}

const struct cli_cmd latency_cmd = {
	"latency",
	"measure wake-up latency per CPU (cyclictest-class, with percentiles)",
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
	CLI_CMD_STRUCT(struct latency_opts), .init = latency_init, .own = latency_opt,
	.done = latency_done, .job = latency_job_run, .release = latency_opts_free,
};
