// SPDX-License-Identifier: MIT
/*
 * rtready latency: cyclictest-class wake-up latency. Parse the options
 * (cyclictest's letters where it has them), pick the CPUs, run the engine
 * of src/measure/latency.c with live lines on a terminal, then write the
 * summary (text or JSON) and, on request, cyclictest's histogram file.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/opt.h"
#include "cli/cmd_latency.h"
#include "measure/histfile.h"
#include "measure/session.h"
#include "measure/trace.h"
#include "probe/rootfs.h"
#include "render/json.h"
#include "render/latency.h"
#include "util/parse.h"

#define LIVE_REFRESH_NS (100 * 1000000ULL)

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

/*
 * The CPUs to measure: -a as given (each must be online), -a auto the
 * planned RT CPUs, else the default set (the CPUs we may run on, and the RT
 * CPUs); then -t. Return: 0, or -errno after printing why.
 */
static int resolve_cpus(const struct latency_opts *o, const struct target *t,
			struct rtr_cpuset *out)
{
	struct rtr_cpuset allowed = RTR_CPUSET_INIT;
	char msg[4200];
	int err, cpu = -1;

	err = target_need_online(t, msg, sizeof(msg));
	if (!err && o->affinity.kind == RT_REQUEST_LIST) {
		err = target_check_online(t, "--affinity", &o->affinity.cpus, msg, sizeof(msg));
		err = err ?: rtr_cpuset_copy(out, &o->affinity.cpus);
	} else if (!err && o->affinity.kind == RT_REQUEST_AUTO) {
		err = rtr_cpuset_copy(out, &t->rt.cpus);
	} else if (!err) {
		err = rtr_cpuset_get_affinity(&allowed);
		err = err ?: latency_default_cpus(&t->facts.cpu.online, &t->rt.cpus, &allowed, out);
		if (err)
			snprintf(msg, sizeof(msg), "no CPU to measure on: %s", strerror(-err));
	}
	if (err) {
		cli_error("latency", "%s", msg);
		goto out;
	}
	if (o->threads) {
		size_t have = rtr_cpuset_count(out);

		if (o->threads > have) {
			cli_error("latency", "--threads %u: only %zu CPU%s to measure on", o->threads,
				  have, have == 1 ? "" : "s");
			err = -EINVAL;
			goto out;
		}
		/* Keep the first N. */
		cpu = -1;
		for (size_t i = 0; (cpu = rtr_cpuset_next(out, cpu)) >= 0; i++)
			if (i >= o->threads)
				rtr_cpuset_unset(out, cpu);
	}
out:
	rtr_cpuset_free(&allowed);
	return err;
}

/* What the main thread shows while the run goes on: live lines or -v samples. */
struct live_ctx {
	FILE *out;
	const struct latency_config *cfg;
	struct latency_run *run;
	bool show;		/* the refreshed lines */
	bool verbose;		/* -v */
	bool in_ns;
	bool drawn;
	uint64_t *lost;		/* -v: samples the ring dropped, per thread */
	uint64_t *told;		/* and how many of them were already said */
	int out_err;		/* a write to @out failed (-errno): the run was stopped */
};

/*
 * The live output could not be written (a closed pipe: `latency -v | head`).
 * Every signal is blocked during the run, so the write returned EPIPE and
 * left SIGPIPE pending on this thread: take it, or it would kill rtready
 * when the mask is restored, before the reason is told. Then stop the run.
 */
static void live_broken(struct live_ctx *l)
{
	const struct timespec zero = { 0, 0 };
	sigset_t sigpipe;

	l->out_err = errno ? -errno : -EIO;
	/* Said once, here: what is left in the buffer has nowhere to go. */
	__fpurge(l->out);
	clearerr(l->out);
	sigemptyset(&sigpipe);
	sigaddset(&sigpipe, SIGPIPE);
	while (sigtimedwait(&sigpipe, NULL, &zero) == SIGPIPE)
		;
	latency_run_stop(l->run);
}

/* -v: cyclictest's "%8d:%8lu:%8ld" sample lines (thread, wake-up, latency). */
static void print_sample(void *ctx, size_t thread, uint64_t cycle, uint64_t ns)
{
	struct live_ctx *l = ctx;

	fprintf(l->out, "%8zu:%8" PRIu64 ":%8" PRIu64 "\n", thread, cycle,
		l->in_ns ? ns : ns / 1000);
}

static void live_tick(void *ctx, const struct latency_live_view *v, size_t n)
{
	struct live_ctx *l = ctx;

	if (l->out_err)
		return;
	errno = 0;
	if (l->verbose) {
		latency_run_drain(l->run, print_sample, l, l->lost);
		for (size_t i = 0; i < n; i++) {
			if (l->lost[i] == l->told[i])
				continue;
			fprintf(l->out, "# T:%zu: %" PRIu64 " samples not shown: the output did not "
				"keep up\n", i, l->lost[i] - l->told[i]);
			l->told[i] = l->lost[i];
		}
	}
	if (l->show) {
		latency_text_live(l->out, l->cfg, v, n, l->drawn, l->in_ns);
		l->drawn = true;
	}
	if (fflush(l->out) == EOF || ferror(l->out))
		live_broken(l);
}

static int write_histfile(const char *path, const struct latency_result *r)
{
	struct output out;
	int err = output_open(&out, path);

	if (err) {
		cli_error("latency", "cannot write %s: %s", path, strerror(-err));
		return err;
	}
	err = histfile_write(out.fp, r, NULL);
	err = output_close(&out, err == 0) ?: err;
	if (err)
		cli_error("latency", "cannot write %s: %s", path, strerror(-err));
	return err;
}

/* One compact line unless --pretty: a run's JSON may have to cross a serial console. */
static int render_json(FILE *fp, const struct latency_result *r, const struct host_info *host,
		       bool pretty)
{
	json_t *j = latency_to_json(r, host);
	int err = !j ? -ENOMEM : pretty ? json_write(fp, j) : json_write_compact(fp, j);

	json_decref(j);
	return err;
}

/*
 * The text summary, shaped by cyclictest's options: -q -h (or -H) is the
 * histogram alone, as cyclictest prints it (plot scripts read every line
 * that is not a comment as a row); -q starts with its T: lines; -h without
 * -q adds the histogram after the table. With --histfile the histogram goes
 * there instead, as in cyclictest.
 */
static int render_text(const struct latency_opts *o, const struct latency_result *r, FILE *fp)
{
	struct histfile_opts ho = { .sum_column = o->histofall, .in_ns = o->in_ns };
	bool hist = o->hist_print && !o->histfile;
	int err = 0;

	if (o->quiet && hist)
		return histfile_write(fp, r, &ho);
	if (o->quiet) {
		err = latency_text_tlines(fp, r, o->in_ns);
		fputc('\n', fp);
	}
	err = err ?: latency_text_write(fp, r, cli_use_color(fp), o->in_ns);
	if (!err && hist) {
		fputc('\n', fp);
		err = histfile_write(fp, r, &ho);
	}
	return err;
}

static int render(const struct latency_opts *o, const struct latency_result *r,
		  struct output *out, const struct host_info *host)
{
	if (o->format == FORMAT_JSON)
		return render_json(out->fp, r, host, o->pretty);
	return render_text(o, r, out->fp);
}

/* The exit status and, for a failed run, the reason on stderr. */
static int outcome(const struct latency_result *r)
{
	uint64_t over = 0;

	for (size_t i = 0; r->cfg.threshold_all && i < r->n_cpus; i++)
		over += r->cpus[i].over_threshold;
	switch (r->stop) {
	case LATENCY_STOP_THRESHOLD:
		cli_error("latency", "threshold %.1f us exceeded on CPU %d at wake-up %llu: %.1f us",
			  (double)r->cfg.threshold_ns / 1000.0, r->hit_cpu,
			  (unsigned long long)r->hit_cycle, (double)r->hit_ns / 1000.0);
		return EXIT_FINDINGS;
	case LATENCY_STOP_RUNAWAY:
		cli_error("latency", "a measuring thread ran without sleeping for %s (SIGXCPU from "
			  "RLIMIT_RTTIME); the run was stopped", "2 s");
		return EXIT_USAGE;
	case LATENCY_STOP_ERROR:
		cli_error("latency", "a measuring thread failed: %s", strerror(-r->error));
		return EXIT_USAGE;
	case LATENCY_STOP_DURATION:
	case LATENCY_STOP_SIGNAL:
	case LATENCY_STOP_LOOPS:
		break;
	}
	/* --trace-all went on past the threshold: passing it still fails the run. */
	if (over) {
		cli_error("latency", "threshold %.1f us exceeded by %llu wake-up%s",
			  (double)r->cfg.threshold_ns / 1000.0, (unsigned long long)over,
			  over == 1 ? "" : "s");
		return EXIT_FINDINGS;
	}
	return EXIT_OK;
}

/* -v: the run's samples are drained from the live tick. */
static void live_started(void *ctx, struct latency_run *run)
{
	struct live_ctx *live = ctx;

	live->run = run;
	if (live->verbose) {
		live->lost = calloc(latency_run_ncpus(run), sizeof(*live->lost));
		live->told = calloc(latency_run_ncpus(run), sizeof(*live->told));
		if (!live->lost || !live->told)
			live->verbose = false;
	}
}

/*
 * The session: the load, the trace, the run. Return: 0 with @res measured
 * (*@load_failed set when the load failed during it), or -errno after
 * printing why.
 */
static int measure(const struct latency_opts *o, const struct target *t,
		   struct latency_result *res, const struct output *out, bool *load_failed)
{
	struct live_ctx live = { .out = stdout, .cfg = &o->cfg, .verbose = o->verbose,
				 .in_ns = o->in_ns };
	struct latency_session s = { &o->cfg, o->dma_us, o->has_load, o->load, NULL,
				     (unsigned int)rtr_cpuset_count(&t->facts.cpu.online),
				     o->trace && !o->trace_all, o->trace_file, LIVE_REFRESH_NS, NULL,
				     live_started, &live, o->trace_all };
	struct session_outcome so;
	char file[4096];
	int err;

	if (s.trace && !o->trace_file) {
		if (trace_default_file(o->output, file, sizeof(file))) {
			cli_error("latency", "--trace: the --output name is too long for a trace file");
			return -ENAMETOOLONG;
		}
		s.trace_file = file;
	}
	/* Live lines only on a terminal, and never into the JSON on standard output. */
	live.show = !o->quiet && !o->verbose && isatty(STDOUT_FILENO) &&
		    !(o->format == FORMAT_JSON && out->fp == stdout);
	if (live.show || live.verbose)
		s.tick = live_tick;
	err = latency_session_run(&s, res, &so);
	free(live.lost);
	free(live.told);
	*load_failed = so.failed == SESSION_LOAD_FAILED;
	if (so.failed != SESSION_OK && so.failed != SESSION_STOPPED)
		cli_error("latency", "%s", so.why);
	if (!so.measured)
		return err;
	if (live.out_err) {
		cli_error("latency", "cannot write to standard output: %s; the run was stopped",
			  strerror(-live.out_err));
		return live.out_err;
	}
	if (live.show)
		fputc('\n', stdout);
	if (so.trace_note[0])
		cli_error("latency", "%s", so.trace_note);
	return 0;
}

/* A tracing instance left by an rtready killed during --trace: say it is gone. */
static void note_stale_trace(void *ctx, const char *name, int err)
{
	(void)ctx;
	if (err)
		cli_warn("latency", "tracing instance %s, left by a killed rtready, is stopped but "
				    "cannot be removed: %s", name, strerror(-err));
	else
		cli_warn("latency", "removed tracing instance %s, left tracing by a killed rtready",
			 name);
}

/* Two outputs on one file would keep only the last one written: refuse them. */
static int check_collisions(const struct latency_opts *o)
{
	struct output_file outs[4] = {
		{ "--output", o->output },
		{ "--json", o->json_file },
		{ "--histfile", o->histfile },
		{ "--trace-file", o->trace_file },
	};
	char trace[4096];

	if (o->trace && !o->trace_all && !o->trace_file) {
		if (trace_default_file(o->output, trace, sizeof(trace)) == 0)
			outs[3] = (struct output_file){ "the trace file", trace };
	}
	return cli_check_collisions("latency", outs, 4, NULL, 0);
}

static int run_latency(struct latency_opts *o)
{
	struct latency_result res;
	struct host_info host;
	struct output out = { 0 }, jout = { 0 };
	bool written = false, jwritten = false, load_failed = false;
	int rc = EXIT_USAGE, err;
	/* -a auto: the planned CPUs are the RT CPUs of the report; a list is not. */
	struct target *t = cli_target("latency", "/", o->affinity.kind == RT_REQUEST_AUTO ?
					      &o->affinity : NULL, TARGET_HOST);

	if (!t)
		return EXIT_USAGE;
	memset(&res, 0, sizeof(res));
	memset(&host, 0, sizeof(host));
	err = resolve_cpus(o, t, &o->cfg.cpus);
	if (err)
		goto out;
	if (target_host_info(t, &host)) {
		cli_error("latency", "out of memory");
		goto out;
	}
	if (check_collisions(o))
		goto out;
	/*
	 * Check the outputs first: a bad path must not cost a measurement. A
	 * file's temporary twin is made only when the result is ready, so a
	 * kill -9 during the run leaves nothing beside it.
	 */
	if (cli_out_reserve("latency", &out, o->output) ||
	    (o->json_file && cli_out_reserve("latency", &jout, o->json_file)))
		goto out;
	err = o->histfile ? output_check(o->histfile) : 0;
	if (err) {
		cli_error("latency", "cannot write %s: %s", o->histfile, strerror(-err));
		goto out;
	}
	/* Its tracing would cost this measurement; --trace or not. */
	trace_remove_stale(note_stale_trace, NULL);
	err = measure(o, t, &res, &out, &load_failed);
	if (err)
		goto out;
	rc = load_failed ? EXIT_USAGE : outcome(&res);
	if (cli_out_ready("latency", &out, o->output) ||
	    (o->json_file && cli_out_ready("latency", &jout, o->json_file))) {
		rc = EXIT_USAGE;
		goto out;
	}
	err = render(o, &res, &out, &host);
	if (err) {
		cli_error("latency", "cannot write the result: %s", strerror(-err));
		rc = EXIT_USAGE;
	}
	written = err == 0;
	if (o->json_file) {
		err = render_json(jout.fp, &res, &host, o->pretty);
		if (err) {
			cli_error("latency", "cannot write %s: %s", o->json_file, strerror(-err));
			rc = EXIT_USAGE;
		}
		jwritten = err == 0;
	}
	if (o->histfile && write_histfile(o->histfile, &res))
		rc = EXIT_USAGE;
out:
	if (o->json_file)
		cli_out_close("latency", &jout, o->json_file, jwritten, &rc);
	cli_out_close("latency", &out, o->output, written, &rc);
	latency_result_free(&res);
	host_info_free(&host);
	cli_target_free(t);
	return rc;
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
