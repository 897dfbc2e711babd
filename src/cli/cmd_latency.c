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
#include "cli/cmd_latency.h"
#include "measure/histfile.h"
#include "measure/trace.h"
#include "probe/host.h"
#include "probe/rootfs.h"
#include "render/json.h"
#include "render/latency.h"
#include "util/parse.h"

#define LIVE_REFRESH_NS (100 * 1000000ULL)

static const char usage_text[] =
	"Usage: rtready latency [OPTIONS]\n"
	"\n"
	"Measure how late a realtime thread wakes up: one pinned SCHED_FIFO thread per CPU\n"
	"sleeps to absolute CLOCK_MONOTONIC deadlines and records each wake-up's lateness.\n"
	"\n"
	"  -a, --affinity LIST   measure on these CPUs (default: every online CPU we may\n"
	"                        use, the RT CPUs of the boot line included); auto or\n"
	"                        auto:N: the RT CPUs rtready plan chooses (N of them)\n"
	"  -t, --threads [N]     only the first N of those CPUs (without N: all of them)\n"
	"  -S, --smp             one thread per CPU (the default; for cyclictest habits)\n"
	"  -p, --priority PRIO   realtime priority 1..98 (default 80; 99 is refused)\n"
	"      --policy NAME     fifo (default), rr or deadline: SCHED_DEADLINE threads\n"
	"                        (one per CPU, placed by the kernel) that end each job\n"
	"                        with sched_yield; each job's start is measured against\n"
	"                        its period's start\n"
	"      --runtime US      with deadline: runtime per period (units allowed)\n"
	"      --deadline US     with deadline: relative deadline (default: the period)\n"
	"      --period US       with deadline: period (default: the interval, -i)\n"
	"  -i, --interval US     wake-up period in us (default 1000; units allowed: 1ms)\n"
	"  -D, --duration TIME   how long: 10s (default), 500ms, 2m, 1h; 0 = until Ctrl-C\n"
	"  -l, --loops N         each thread stops after N wake-ups (then no default\n"
	"                        duration: -D still ends the run first if given)\n"
	"  -m, --mlockall        lock and prefault memory first (the default)\n"
	"      --no-mlock        do not lock memory (page faults may show as latency)\n"
	"      --hist-max US     histogram range in us (default 10000); later samples are\n"
	"                        counted as overflows and the largest kept exactly\n"
	"  -h, --histogram US    the same, and print the histogram at the end as\n"
	"                        cyclictest does (with -q: only the histogram)\n"
	"  -H, --histofall US    like -h, with one more column summing every thread\n"
	"      --bucket NS       histogram bucket width in ns (default 1000)\n"
	"      --histfile FILE   also write the histogram in cyclictest's file format\n"
	"  -b, --threshold US    stop at the first wake-up later than US; exit 1\n"
	"      --trace           with --threshold: record a kernel trace (scheduler, IRQs,\n"
	"                        timers), stop it at the hit and explain what delayed the\n"
	"                        thread (root; needs tracefs)\n"
	"      --trace-file FILE save the trace around the hit there (implies --trace;\n"
	"                        default: latency-trace.txt beside --output, or here)\n"
	"      --dma-latency US  hold /dev/cpu_dma_latency at US for the run (default:\n"
	"                        leave it alone and report its state)\n"
	"      --load KIND       put the machine under load while measuring, at\n"
	"                        SCHED_OTHER on every CPU: hackbench, cpu, memory or all\n"
	"                        (what `rtready load` does; stopped at the end)\n"
	"  -q, --quiet           no live lines, only the summary at the end, which then\n"
	"                        starts with cyclictest's T: lines\n"
	"  -N, --nsecs           text output in ns instead of us\n"
	"  -v, --verbose         print every sample as THREAD:WAKEUP:LATENCY while it runs\n"
	"  -f, --format FMT      text (default) or json\n"
	"      --output FILE     write the summary to FILE instead of standard output\n"
	"      --json FILE       also write the JSON to FILE (the text summary goes to\n"
	"                        standard output), as cyclictest's --json=FILE\n"
	"      --pretty          indent the JSON (default: one compact line, with\n"
	"                        sparse histograms)\n"
	"      --laptop          accepted for cyclictest compatibility (nothing to do:\n"
	"                        /dev/cpu_dma_latency is left alone anyway)\n"
	"      --help            show this help\n"
	"  -V, --version         show the version\n"
	"\n"
	"Exit status: 0 measured, 1 --threshold exceeded, 2 usage error or the\n"
	"measurement could not run (a missing privilege is named). cyclictest and rtla\n"
	"differ: see rtready-latency(1).\n";

void latency_opts_free(struct latency_opts *o)
{
	latency_config_free(&o->cfg);
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
	enum {
		OPT_POLICY = 256, OPT_NO_MLOCK, OPT_BUCKET, OPT_HISTFILE, OPT_DMA, OPT_LOAD,
		OPT_OUTPUT, OPT_LAPTOP, OPT_HELP, OPT_TRACE, OPT_TRACE_FILE, OPT_HIST_MAX,
		OPT_JSON, OPT_PRETTY, OPT_RUNTIME, OPT_DEADLINE, OPT_PERIOD,
	};
	static const struct option longopts[] = {
		{ "affinity", required_argument, NULL, 'a' },
		{ "threads", optional_argument, NULL, 't' },
		{ "smp", no_argument, NULL, 'S' },
		{ "priority", required_argument, NULL, 'p' },
		{ "prio", required_argument, NULL, 'p' },
		{ "policy", required_argument, NULL, OPT_POLICY },
		{ "runtime", required_argument, NULL, OPT_RUNTIME },
		{ "deadline", required_argument, NULL, OPT_DEADLINE },
		{ "period", required_argument, NULL, OPT_PERIOD },
		{ "interval", required_argument, NULL, 'i' },
		{ "duration", required_argument, NULL, 'D' },
		{ "mlockall", no_argument, NULL, 'm' },
		{ "no-mlock", no_argument, NULL, OPT_NO_MLOCK },
		{ "loops", required_argument, NULL, 'l' },
		{ "histogram", required_argument, NULL, 'h' },
		{ "histofall", required_argument, NULL, 'H' },
		{ "hist-max", required_argument, NULL, OPT_HIST_MAX },
		{ "bucket", required_argument, NULL, OPT_BUCKET },
		{ "histfile", required_argument, NULL, OPT_HISTFILE },
		{ "threshold", required_argument, NULL, 'b' },
		{ "breaktrace", required_argument, NULL, 'b' },
		{ "dma-latency", required_argument, NULL, OPT_DMA },
		{ "trace", no_argument, NULL, OPT_TRACE },
		{ "trace-file", required_argument, NULL, OPT_TRACE_FILE },
		{ "load", required_argument, NULL, OPT_LOAD },
		{ "quiet", no_argument, NULL, 'q' },
		{ "nsecs", no_argument, NULL, 'N' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "json", required_argument, NULL, OPT_JSON },
		{ "pretty", no_argument, NULL, OPT_PRETTY },
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, OPT_OUTPUT },
		{ "laptop", no_argument, NULL, OPT_LAPTOP },
		{ "help", no_argument, NULL, OPT_HELP },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int c, rc = 0;
	int64_t v;

	memset(o, 0, sizeof(*o));
	latency_config_init(&o->cfg);
	o->dma_us = -1;
	optind = 0;
	opterr = 0;
	while (rc == 0 &&
	       (c = getopt_long(argc, argv, ":a:t::Sp:i:D:l:mh:H:b:qNvf:V", longopts, NULL)) != -1) {
		switch (c) {
		case 'a':
			rc = cli_parse_rt_cpus("--affinity", optarg, &o->cfg.cpus, &o->cpus_auto, err,
					       errlen);
			o->cpus_given = true;
			break;
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
		case 'f':
			rc = cli_parse_format(optarg, &o->format, err, errlen);
			break;
		case OPT_OUTPUT:
			o->output = optarg;
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
		case OPT_HELP:
			o->help = true;
			break;
		case 'V':
			o->version = true;
			break;
		case ':':
			snprintf(err, errlen, "option '%s' needs a value", argv[optind - 1]);
			rc = -EINVAL;
			break;
		default:
			snprintf(err, errlen, "unknown option '%s'", argv[optind - 1]);
			rc = -EINVAL;
			break;
		}
	}
	if (rc == 0 && optind < argc) {
		snprintf(err, errlen, "unexpected argument '%s'", argv[optind]);
		rc = -EINVAL;
	}
	if (rc == 0)
		rc = opts_check(o, err, errlen);
	return rc;
}

/*
 * The CPUs to measure: -a as given (each must be online), else the default
 * set (the CPUs we may run on, and the RT CPUs); then -t. @h gets the host
 * facts of the report, probed once.
 */
static int resolve_cpus(const struct latency_opts *o, struct rtr_cpuset *out,
			struct host_facts *h)
{
	struct rtr_cpuset allowed = RTR_CPUSET_INIT;
	const struct rtr_cpuset *online = &h->cpu.online;
	const char *online_list = h->online_list;
	struct rootfs fs;
	int err, cpu = -1;

	err = rootfs_open(&fs, "/");
	if (err) {
		cli_error("latency", "cannot open /: %s", strerror(-err));
		return err;
	}
	/* -a auto: the planned CPUs are the RT CPUs of the report. */
	err = probe_host_rt(&fs, o->cpus_auto ? &o->cfg.cpus : NULL, o->cpus_auto != 0, h);
	rootfs_close(&fs);
	if (err) {
		cli_error("latency", "cannot read the online CPUs: %s", strerror(-err));
		goto out;
	}
	if (o->cpus_given) {
		while ((cpu = rtr_cpuset_next(&o->cfg.cpus, cpu)) >= 0) {
			if (!rtr_cpuset_test(online, cpu)) {
				cli_error("latency", "--affinity: CPU %d is not online (online: %s)",
					  cpu, online_list);
				err = -EINVAL;
				goto out;
			}
		}
		err = rtr_cpuset_copy(out, &o->cfg.cpus);
	} else {
		err = rtr_cpuset_get_affinity(&allowed);
		if (!err)
			err = latency_default_cpus(online, &h->rt.cpus, &allowed, out);
		if (err) {
			cli_error("latency", "no CPU to measure on: %s", strerror(-err));
			goto out;
		}
	}
	if (!err && o->threads) {
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
	struct cli_output out;
	int err = cli_output_open(&out, path);

	if (err) {
		cli_error("latency", "cannot write %s: %s", path, strerror(-err));
		return err;
	}
	err = histfile_write(out.fp, r, NULL);
	err = cli_output_close(&out, err == 0) ?: err;
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
		  struct cli_output *out, const struct host_info *host)
{
	if (o->format == FORMAT_JSON)
		return render_json(out->fp, r, host, o->pretty);
	return render_text(o, r, out->fp);
}

/* The exit status and, for a failed run, the reason on stderr. */
static int outcome(const struct latency_result *r)
{
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
	return EXIT_OK;
}

/* --trace: set the kernel trace up before the run. */
static int trace_begin(const struct latency_opts *o, struct trace_session **ts)
{
	struct trace_options to = { .file = o->trace_file, .cpus = &o->cfg.cpus };
	char why[512] = "", file[4096];
	int err;

	if (!to.file) {
		err = trace_default_file(o->output, file, sizeof(file));
		if (err) {
			cli_error("latency", "--trace: the --output name is too long for a trace file");
			return err;
		}
		to.file = file;
	}
	err = trace_session_start(&to, ts, why, sizeof(why));
	if (err)
		cli_error("latency", "--trace: %s", why[0] ? why : strerror(-err));
	return err;
}

/* --trace, after the run: read back the window of a hit and explain it into @res. */
static void trace_end(struct trace_session *ts, struct latency_result *res)
{
	int err = trace_session_collect(ts, res, &res->trace);

	if (err)
		cli_error("latency", "--trace: cannot analyse the trace: %s", strerror(-err));
	else if (res->trace->file_error[0])
		cli_error("latency", "--trace: cannot write %s: %s", res->trace->file,
			  res->trace->file_error);
}

static int measure(const struct latency_opts *o, struct latency_result *res,
		   const struct cli_output *out)
{
	struct live_ctx live = { .out = stdout, .cfg = &o->cfg, .verbose = o->verbose,
				 .in_ns = o->in_ns };
	struct latency_run *run = NULL;
	struct trace_session *ts = NULL;
	char why[512] = "";
	sigset_t held;
	bool show;
	int err;

	/* Stop signals wait until the trace is put back (the run takes them meanwhile). */
	if (o->trace) {
		trace_signals_hold(&held);
		err = trace_begin(o, &ts);
		if (err)
			goto trace_out;
	}
	err = latency_run_start(&o->cfg, o->dma_us, &run, why, sizeof(why));
	if (err) {
		cli_error("latency", "%s", why[0] ? why : strerror(-err));
		goto trace_out;
	}
	if (ts)
		latency_run_on_threshold(run, trace_session_hit, ts);
	/* Live lines only on a terminal, and never into the JSON on standard output. */
	live.show = !o->quiet && !o->verbose && isatty(STDOUT_FILENO) &&
		    !(o->format == FORMAT_JSON && out->fp == stdout);
	live.run = run;
	if (o->verbose) {
		live.lost = calloc(latency_run_ncpus(run), sizeof(*live.lost));
		live.told = calloc(latency_run_ncpus(run), sizeof(*live.told));
		if (!live.lost || !live.told)
			live.verbose = false;
	}
	show = live.show || live.verbose;
	latency_run_wait(run, show ? LIVE_REFRESH_NS : 0, show ? live_tick : NULL, &live);
	err = latency_run_finish(run, res);
	latency_run_free(run);
	free(live.lost);
	free(live.told);
	if (err)
		cli_error("latency", "cannot collect the results: %s", strerror(-err));
	else if (live.out_err) {
		cli_error("latency", "cannot write to standard output: %s; the run was stopped",
			  strerror(-live.out_err));
		err = live.out_err;
	} else if (live.show)
		fputc('\n', stdout);
	if (ts && !err)
		trace_end(ts, res);
trace_out:
	if (o->trace) {
		trace_session_free(ts);
		trace_signals_release(&held);
	}
	return err;
}

static int start_load(const struct latency_opts *o, const char *online, struct load **out)
{
	struct rtr_cpuset cpus = RTR_CPUSET_INIT;
	int err;

	err = rtr_cpuset_parse_list(&cpus, online);
	err = err ?: latency_load_begin(o->load, NULL, (unsigned int)rtr_cpuset_count(&cpus), out);
	if (err)
		cli_error("latency", "--load %s: cannot start the load: %s", latency_load_name(o->load),
			  strerror(-err));
	rtr_cpuset_free(&cpus);
	return err;
}

/* Stop the load and note what it did; a load that failed is an error of the run. */
static int stop_load(const struct latency_opts *o, struct load *load, struct latency_result *res)
{
	int err = latency_load_end(o->load, load, &res->load);

	if (err)
		cli_error("latency", "--load %s failed during the measurement: %s",
			  res->load.kind, res->load.error);
	return err;
}

static void host_free(struct host_info *h)
{
	free(h->kernel);
	free(h->cpus_online);
	free(h->rt_cpus);
	free(h->root);
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
	struct cli_file outs[4] = {
		{ "--output", o->output },
		{ "--json", o->json_file },
		{ "--histfile", o->histfile },
		{ "--trace-file", o->trace_file },
	};
	char trace[4096];

	if (o->trace && !o->trace_file) {
		if (trace_default_file(o->output, trace, sizeof(trace)) == 0)
			outs[3] = (struct cli_file){ "the trace file", trace };
	}
	return cli_check_collisions("latency", outs, 4, NULL, 0);
}

static int run_latency(struct latency_opts *o)
{
	struct latency_result res;
	struct host_facts hf;
	struct host_info host;
	struct cli_output out = { 0 }, jout = { 0 };
	struct load *load = NULL;
	bool written = false, jwritten = false, load_failed;
	int rc = EXIT_USAGE, err;

	memset(&res, 0, sizeof(res));
	memset(&host, 0, sizeof(host));
	memset(&hf, 0, sizeof(hf));
	err = resolve_cpus(o, &o->cfg.cpus, &hf);
	if (err)
		goto out;
	if (cli_host_info(&hf, "/", &host)) {
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
	err = cli_output_reserve(&out, o->output);
	if (err) {
		cli_error("latency", "cannot write %s: %s", o->output, strerror(-err));
		goto out;
	}
	err = o->json_file ? cli_output_reserve(&jout, o->json_file) : 0;
	if (err) {
		cli_error("latency", "cannot write %s: %s", o->json_file, strerror(-err));
		goto out;
	}
	err = o->histfile ? cli_output_check(o->histfile) : 0;
	if (err) {
		cli_error("latency", "cannot write %s: %s", o->histfile, strerror(-err));
		goto out;
	}
	/* Its tracing would cost this measurement; --trace or not. */
	trace_remove_stale(note_stale_trace, NULL);
	/* Before the run: the load's supervisor must not inherit the blocked signals. */
	if (o->has_load && start_load(o, hf.online_list, &load))
		goto out;
	err = measure(o, &res, &out);
	load_failed = load && stop_load(o, load, &res);
	if (err)
		goto out;
	rc = load_failed ? EXIT_USAGE : outcome(&res);
	err = cli_output_ready(&out);
	if (err) {
		cli_error("latency", "cannot write %s: %s", o->output, strerror(-err));
		rc = EXIT_USAGE;
		goto out;
	}
	err = o->json_file ? cli_output_ready(&jout) : 0;
	if (err) {
		cli_error("latency", "cannot write %s: %s", o->json_file, strerror(-err));
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
	err = o->json_file ? cli_output_close(&jout, jwritten) : 0;
	if (err && jwritten) {
		cli_error("latency", "cannot write %s: %s", o->json_file, strerror(-err));
		rc = EXIT_USAGE;
	}
	err = cli_output_close(&out, written);
	if (err && written) {
		cli_error("latency", "cannot write %s: %s", o->output ? o->output : "the output",
			  strerror(-err));
		rc = EXIT_USAGE;
	}
	load_free(load);
	latency_result_free(&res);
	host_free(&host);
	probe_host_free(&hf);
	return rc;
}

int cmd_latency(int argc, char **argv)
{
	struct latency_opts o;
	char err[512] = "";
	int rc;

	rc = latency_opts_parse(argc, argv, &o, err, sizeof(err));
	rc = cli_parsed("latency", rc, err, o.help, o.version, usage_text);
	if (rc >= 0) {
		latency_opts_free(&o);
		return rc;
	}
	if (cli_resolve_rt_cpus("latency", "--affinity", "/", o.cpus_auto, &o.cfg.cpus)) {
		latency_opts_free(&o);
		return EXIT_USAGE;
	}
	rc = run_latency(&o);
	latency_opts_free(&o);
	return rc;
}
