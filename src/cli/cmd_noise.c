// SPDX-License-Identifier: MIT
/*
 * rtready noise: what disturbs a CPU that never sleeps, and the cause of
 * every event (the engine is src/measure/noise.c, the output
 * src/render/noise.c).
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd_noise.h"
#include "probe/host.h"
#include "probe/rootfs.h"
#include "render/json.h"
#include "render/noise.h"
#include "rtready/timespec.h"
#include "util/parse.h"

static const char usage_text[] =
	"Usage: rtready noise [OPTIONS]\n"
	"\n"
	"Spin on each measured CPU reading CLOCK_MONOTONIC, count every gap between two\n"
	"reads above the threshold, and name the cause of each one (irq, softirq, thread,\n"
	"nmi, rt_throttling, hypervisor, hardware) from the kernel trace, or per 100 ms\n"
	"window from /proc counters when tracefs is not available. At least one online\n"
	"CPU is always left to housekeeping.\n"
	"\n"
	"  -a, --affinity CPUS     CPUs to measure: a list (1-3), or auto[:N] for the\n"
	"                          choice of rtready plan (default: the RT CPUs, else\n"
	"                          every CPU but the first)\n"
	"  -D, --duration TIME     how long (default 10s; units ms, s, m, h)\n"
	"      --threshold US      smallest gap counted, in us (default 5)\n"
	"  -p, --prio N            SCHED_FIFO priority of the spinners (default 80, 1..98)\n"
	"      --policy POLICY     fifo (default), rr, or other (SCHED_OTHER)\n"
	"      --clock CLOCK       what the loops read: auto (the TSC where it is\n"
	"                          invariant, as oslat; else CLOCK_MONOTONIC) or monotonic\n"
	"      --no-trace          attribute per window from /proc counters only\n"
	"      --no-mlock          do not lock memory\n"
	"  -f, --format FMT        text (default) or json\n"
	"  -o, --output FILE       write the result to FILE\n"
	"      --gaps FILE         also write every gap with its cause, one per line\n"
	"  -h, --help              show this help\n"
	"  -V, --version           show the version\n"
	"\n"
	"Exit status: 0 measured, 2 usage error or the run could not be made.\n";

int noise_opts_parse(int argc, char **argv, struct noise_opts *o, char *err, size_t errlen)
{
	enum { OPT_THRESHOLD = 256, OPT_POLICY, OPT_NO_TRACE, OPT_NO_MLOCK, OPT_GAPS,
	       OPT_CLOCK };
	static const struct option longopts[] = {
		{ "affinity", required_argument, NULL, 'a' },
		{ "duration", required_argument, NULL, 'D' },
		{ "threshold", required_argument, NULL, OPT_THRESHOLD },
		{ "prio", required_argument, NULL, 'p' },
		{ "policy", required_argument, NULL, OPT_POLICY },
		{ "no-trace", no_argument, NULL, OPT_NO_TRACE },
		{ "clock", required_argument, NULL, OPT_CLOCK },
		{ "no-mlock", no_argument, NULL, OPT_NO_MLOCK },
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "gaps", required_argument, NULL, OPT_GAPS },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	bool prio_given = false;
	int c, rc = 0;
	int64_t v;

	memset(o, 0, sizeof(*o));
	noise_config_init(&o->cfg);
	optind = 0;
	opterr = 0;
	while (rc == 0 && (c = getopt_long(argc, argv, ":a:D:p:f:o:hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'a':
			rc = cli_parse_rt_cpus("--affinity", optarg, &o->cfg.cpus, &o->cpus_auto,
					       err, errlen);
			o->cpus_given = true;
			break;
		case 'D':
			rc = parse_duration_ns(optarg, RTR_NSEC_PER_SEC, &v);
			if (rc || v <= 0 || (uint64_t)v > NOISE_MAX_DURATION_NS) {
				snprintf(err, errlen, "--duration: '%s' is not a duration from 1ms "
					 "to 24h (units: ms, s, m, h)", optarg);
				rc = -EINVAL;
			} else if (v < 1000000) {
				snprintf(err, errlen, "--duration: '%s' is shorter than 1ms", optarg);
				rc = -EINVAL;
			}
			o->cfg.duration_ns = (uint64_t)v;
			break;
		case OPT_THRESHOLD:
			rc = parse_int64(optarg, 1, 1000000, &v);
			if (rc)
				snprintf(err, errlen, "--threshold: '%s' is not 1..1000000 (us)", optarg);
			o->cfg.threshold_ns = (uint64_t)v * 1000;
			break;
		case 'p':
			rc = parse_int64(optarg, 1, RTR_PRIO_MAX_SAFE, &v);
			if (rc)
				snprintf(err, errlen, "--prio: '%s' is not 1..%d (99 is refused: the "
					 "kernel's own threads need it)", optarg, RTR_PRIO_MAX_SAFE);
			o->cfg.priority = (int)v;
			prio_given = true;
			break;
		case OPT_POLICY:
			if (!strcmp(optarg, "fifo"))
				o->cfg.policy = RTR_SCHED_FIFO;
			else if (!strcmp(optarg, "rr"))
				o->cfg.policy = RTR_SCHED_RR;
			else if (!strcmp(optarg, "other"))
				o->cfg.policy = RTR_SCHED_OTHER;
			else {
				snprintf(err, errlen, "--policy: '%s' is not fifo, rr or other", optarg);
				rc = -EINVAL;
			}
			break;
		case OPT_CLOCK:
			if (!strcmp(optarg, "auto"))
				o->cfg.clock = NOISE_CLOCK_AUTO;
			else if (!strcmp(optarg, "monotonic"))
				o->cfg.clock = NOISE_CLOCK_MONOTONIC;
			else {
				snprintf(err, errlen, "--clock: '%s' is not auto or monotonic", optarg);
				rc = -EINVAL;
			}
			break;
		case OPT_NO_TRACE:
			o->cfg.trace = false;
			break;
		case OPT_NO_MLOCK:
			o->cfg.mlock = false;
			break;
		case 'f':
			rc = cli_parse_format(optarg, &o->format, err, errlen);
			break;
		case 'o':
			o->output = optarg;
			break;
		case OPT_GAPS:
			o->gaps = optarg;
			break;
		case 'h':
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
	if (rc == 0 && prio_given && o->cfg.policy == RTR_SCHED_OTHER) {
		snprintf(err, errlen, "--prio and --policy other exclude each other");
		rc = -EINVAL;
	}
	return rc ? -EINVAL : 0;
}

/* The CPUs: -a, else the RT CPUs, else all but the first. */
static int resolve_cpus(struct noise_opts *o, struct host_facts *h)
{
	struct rtr_cpuset allowed = RTR_CPUSET_INIT;
	struct rootfs fs;
	int err;

	err = rootfs_open(&fs, "/");
	if (err) {
		cli_error("noise", "cannot open /: %s", strerror(-err));
		return err;
	}
	err = probe_host_rt(&fs, o->cpus_auto ? &o->cfg.cpus : NULL, o->cpus_auto != 0, h);
	rootfs_close(&fs);
	if (err) {
		cli_error("noise", "cannot read the online CPUs: %s", strerror(-err));
		return err;
	}
	if (o->cpus_given)
		return 0;
	err = rtr_cpuset_get_affinity(&allowed) ?:
	      noise_default_cpus(&h->cpu.online, &h->rt.cpus, &allowed, &o->cfg.cpus);
	if (err)
		cli_error("noise", "no CPU to measure: %s (one online CPU stays for housekeeping)",
			  strerror(-err));
	rtr_cpuset_free(&allowed);
	return err;
}

/* The CPU of @r with the largest gap, and the cause of that gap. */
static const struct noise_cpu_result *worst_cpu(const struct noise_result *r)
{
	const struct noise_cpu_result *w = NULL;

	for (size_t i = 0; i < r->n_cpus; i++)
		if (!w || r->cpus[i].max_ns > w->max_ns)
			w = &r->cpus[i];
	return w;
}

int noise_verify_phase(struct report *r, const struct rtr_cpuset *cpus,
		       const struct rtr_cpuset *online, uint64_t duration_ns, double max_noise_us,
		       struct noise_result *out, bool *interrupted, char *why, size_t whylen)
{
	static const char title[] = "Spinning RT CPUs are not disturbed past --max-noise";
	static const char whytext[] =
		"A realtime loop that polls instead of sleeping (packet processing, a control "
		"loop that spins) loses the CPU to every interrupt, softirq, kernel thread, "
		"RT throttling period and hypervisor stall on its CPU; the largest gap is the "
		"longest it was blind.";
	static const char fix[] =
		"see the cause of the largest gaps (rtready noise -a CPUS --gaps FILE): move "
		"IRQs off the RT CPUs (rtready tune), isolate them (isolcpus, nohz_full, "
		"rcu_nocbs: rtready plan), turn RT throttling off for a loop that must never "
		"yield, and pin the vCPUs of a virtual machine";
	struct noise_config cfg;
	const struct noise_cpu_result *w;
	const volatile sig_atomic_t *stop;
	struct cli_stop saved;
	char ev[512];
	enum rtr_status st;
	int err;

	*interrupted = false;
	memset(out, 0, sizeof(*out));
	noise_config_init(&cfg);
	cfg.duration_ns = duration_ns;
	err = rtr_cpuset_copy(&cfg.cpus, cpus);
	if (err)
		goto out;
	rtr_cpuset_and(&cfg.cpus, online);
	/* The loops never sleep: one online CPU stays to housekeeping. */
	if (rtr_cpuset_equal(&cfg.cpus, online))
		rtr_cpuset_unset(&cfg.cpus, rtr_cpuset_next(&cfg.cpus, -1));
	stop = cli_stop_catch(&saved);
	err = noise_run(&cfg, stop, out, why, whylen);
	cli_stop_release(&saved);
	if (err == -ENOMEM)
		goto out;
	if (err) {
		snprintf(ev, sizeof(ev), "could not run: %s", why);
		err = report_add(r, "noise.max_gap", "noise", RTR_SKIP, 0, title, ev, whytext, fix);
		goto out;
	}
	*interrupted = out->stop == NOISE_STOP_SIGNAL;
	w = worst_cpu(out);
	if (!w) {
		err = report_add(r, "noise.max_gap", "noise", RTR_SKIP, 0, title, "no CPU measured",
				 whytext, fix);
		goto out;
	}
	st = *interrupted ? RTR_SKIP :
	     (double)w->max_ns / 1000.0 > max_noise_us ? RTR_FAIL : RTR_PASS;
	snprintf(ev, sizeof(ev), "largest gap %.1f us on CPU %d (limit %.1f us); %llu events "
		 "over %.0f us, availability %.5f %%, attributed %s", (double)w->max_ns / 1000.0,
		 w->cpu, max_noise_us, (unsigned long long)w->events,
		 (double)out->cfg.threshold_ns / 1000.0, noise_availability(w),
		 out->source == NOISE_SRC_TRACE ? "per event" : "per window");
	if (w->n_top) {
		size_t len = strlen(ev);

		snprintf(ev + len, sizeof(ev) - len, "; the largest: %s %s",
			 noise_kind_name(w->top[0].cause.kind), w->top[0].cause.name);
	}
	err = report_add(r, "noise.max_gap", "noise", st, 0, title, ev, whytext, fix);
out:
	noise_config_free(&cfg);
	if (!err)
		report_sort(r);
	return err;
}

static int render(const struct noise_opts *o, const struct noise_result *r,
		  struct cli_output *out, const struct host_info *host)
{
	if (o->format == FORMAT_JSON) {
		json_t *j = noise_to_json(r, host);
		int err = j ? json_write(out->fp, j) : -ENOMEM;

		json_decref(j);
		return err;
	}
	return noise_text_write(out->fp, r);
}

static int run_noise(struct noise_opts *o)
{
	struct noise_result res;
	struct host_facts hf;
	struct host_info host;
	struct cli_output out = { 0 }, gout = { 0 };
	const struct cli_file outs[] = { { "--output", o->output }, { "--gaps", o->gaps } };
	const volatile sig_atomic_t *stop;
	struct cli_stop saved;
	char why[512] = "";
	bool written = false, gwritten = false;
	int rc = EXIT_USAGE, err;

	memset(&res, 0, sizeof(res));
	memset(&host, 0, sizeof(host));
	memset(&hf, 0, sizeof(hf));
	if (resolve_cpus(o, &hf) ||
	    cli_resolve_rt_cpus("noise", "--affinity", "/", o->cpus_auto, &o->cfg.cpus))
		goto out;
	if (cli_host_info(&hf, "/", &host)) {
		cli_error("noise", "out of memory");
		goto out;
	}
	if (cli_check_collisions("noise", outs, 2, NULL, 0))
		goto out;
	err = cli_output_reserve(&out, o->output);
	if (err) {
		cli_error("noise", "cannot write %s: %s", o->output, strerror(-err));
		goto out;
	}
	err = o->gaps ? cli_output_reserve(&gout, o->gaps) : 0;
	if (err) {
		cli_error("noise", "cannot write %s: %s", o->gaps, strerror(-err));
		goto out;
	}
	/* A --trace instance left by a killed rtready would cost this measurement. */
	trace_remove_stale(NULL, NULL);
	stop = cli_stop_catch(&saved);
	err = noise_run(&o->cfg, stop, &res, why, sizeof(why));
	cli_stop_release(&saved);
	if (err) {
		cli_error("noise", "%s", why[0] ? why : strerror(-err));
		goto out;
	}
	if (res.stop == NOISE_STOP_RUNAWAY)
		cli_error("noise", "RLIMIT_RTTIME stopped a spinner (SIGXCPU); the result is partial");
	err = cli_output_ready(&out) ?: render(o, &res, &out, &host);
	if (err) {
		cli_error("noise", "cannot write the result: %s", strerror(-err));
		goto out;
	}
	written = true;
	if (o->gaps) {
		err = cli_output_ready(&gout) ?: noise_gaps_write(gout.fp, &res);
		if (err) {
			cli_error("noise", "cannot write %s: %s", o->gaps, strerror(-err));
			goto out;
		}
		gwritten = true;
	}
	rc = res.stop == NOISE_STOP_RUNAWAY ? EXIT_USAGE : EXIT_OK;
out:
	err = o->gaps ? cli_output_close(&gout, gwritten) : 0;
	if (err && gwritten) {
		cli_error("noise", "cannot write %s: %s", o->gaps, strerror(-err));
		rc = EXIT_USAGE;
	}
	err = cli_output_close(&out, written);
	if (err && written) {
		cli_error("noise", "cannot write %s: %s", o->output ? o->output : "the output",
			  strerror(-err));
		rc = EXIT_USAGE;
	}
	noise_result_free(&res);
	host_info_free(&host);
	probe_host_free(&hf);
	return rc;
}

int cmd_noise(int argc, char **argv)
{
	struct noise_opts o;
	char err[512] = "";
	int rc;

	rc = noise_opts_parse(argc, argv, &o, err, sizeof(err));
	rc = cli_parsed("noise", rc, err, o.help, o.version, usage_text);
	if (rc < 0)
		rc = run_noise(&o);
	noise_config_free(&o.cfg);
	return rc;
}
