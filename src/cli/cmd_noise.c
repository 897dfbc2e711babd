// SPDX-License-Identifier: MIT
/*
 * rtready noise: what disturbs a CPU that never sleeps, and the cause of
 * every event (the engine is src/measure/noise.c, the output
 * src/render/noise.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd_noise.h"
#include "cli/opt.h"
#include "measure/trace.h"
#include "render/json.h"
#include "render/noise.h"
#include "rtready/timespec.h"
#include "run/isolate.h"
#include "util/parse.h"

/* Keys of the options without a short letter. */
enum { OPT_THRESHOLD = 256, OPT_POLICY, OPT_NO_TRACE, OPT_NO_MLOCK, OPT_GAPS, OPT_CLOCK,
       OPT_ISOLATE };

static const struct cli_opt noise_opts[] = {
	CLI_OPT_RT_CPUS("affinity", 'a', "CPUS",
			"CPUs to measure: a list (1-3), or auto[:N] for the\n"
			"choice of rtready plan (default: the RT CPUs, else\n"
			"every CPU but the first)"),
	{ "duration", 'D', CLI_ARG, "TIME",
	  "how long (default 10s; units ms, s, m, h)", NULL, CLI_OWN },
	{ "threshold", OPT_THRESHOLD, CLI_ARG, "US",
	  "smallest gap counted, in us (default 5)", NULL, CLI_OWN },
	{ "prio", 'p', CLI_ARG, "N",
	  "SCHED_FIFO priority of the spinners (default 80, 1..98)", NULL, CLI_OWN },
	{ "policy", OPT_POLICY, CLI_ARG, "POLICY",
	  "fifo (default), rr, or other (SCHED_OTHER)", "fifo rr other", CLI_OWN },
	{ "clock", OPT_CLOCK, CLI_ARG, "CLOCK",
	  "what the loops read: auto (the TSC where it is\n"
	  "invariant, as oslat; else CLOCK_MONOTONIC) or monotonic", "auto monotonic", CLI_OWN },
	{ "no-trace", OPT_NO_TRACE, CLI_NOARG, NULL,
	  "attribute per window from /proc counters only", NULL, CLI_OWN },
	{ "no-mlock", OPT_NO_MLOCK, CLI_NOARG, NULL,
	  "do not lock memory", NULL, CLI_OWN },
	{ "isolate", OPT_ISOLATE, CLI_NOARG, NULL,
	  "measure in an isolated cpuset partition of the CPUs,\n"
	  "made for the run: only the spinners go in, the main\n"
	  "thread stays on the housekeeping CPUs", NULL, CLI_OWN },
	CLI_OPT_FORMAT('f'),
	CLI_OPT_OUTPUT('o', "write the result to FILE"),
	{ "gaps", OPT_GAPS, CLI_ARG, "FILE",
	  "also write every gap with its cause, one per line", "@file", CLI_OWN },
	CLI_OPT_HELP('h'),
	CLI_OPT_VERSION,
};

const struct cli_cmd noise_cmd = {
	"noise",
	"Usage: rtready noise [OPTIONS]\n"
	"\n"
	"Spin on each measured CPU reading CLOCK_MONOTONIC, count every gap between two\n"
	"reads above the threshold, and name the cause of each one (irq, softirq, thread,\n"
	"nmi, rt_throttling, hypervisor, hardware) from the kernel trace, or per 100 ms\n"
	"window from /proc counters when tracefs is not available. At least one online\n"
	"CPU is always left to housekeeping.\n"
	"\n",
	CLI_CMD_OPTS(noise_opts), 26,
	"\n"
	"Exit status: 0 measured, 2 usage error or the run could not be made.\n",
	CLI_NO_OPERANDS,
};

void noise_opts_free(struct noise_opts *o)
{
	noise_config_free(&o->cfg);
	rt_request_free(&o->affinity);
}

int noise_opts_parse(int argc, char **argv, struct noise_opts *o, char *err, size_t errlen)
{
	const struct cli_common com = { &o->help, &o->version, &o->format, &o->output, NULL,
					 &o->affinity };
	struct cli_parse p;
	bool prio_given = false;
	int c, rc = 0;
	int64_t v;

	memset(o, 0, sizeof(*o));
	noise_config_init(&o->cfg);
	cli_parse_begin(&p, &noise_cmd, &com, argc, argv);
	while (rc == 0 && (c = cli_next(&p, err, errlen)) > 0) {
		switch (c) {
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
		case OPT_GAPS:
			o->gaps = optarg;
			break;
		case OPT_ISOLATE:
			o->isolate = true;
			break;
		}
	}
	if (rc == 0 && c < 0)
		rc = c;
	if (rc == 0 && prio_given && o->cfg.policy == RTR_SCHED_OTHER) {
		snprintf(err, errlen, "--prio and --policy other exclude each other");
		rc = -EINVAL;
	}
	return rc ? -EINVAL : 0;
}

/* The CPUs: -a, else the RT CPUs, else all but the first. Return: 0 or -errno (printed). */
static int resolve_cpus(struct noise_opts *o, const struct target *t)
{
	struct rtr_cpuset allowed = RTR_CPUSET_INIT;
	char msg[4200];
	int err = target_need_online(t, msg, sizeof(msg));

	if (err) {
		cli_error("noise", "%s", msg);
		return err;
	}
	if (o->affinity.kind == RT_REQUEST_LIST)
		return rtr_cpuset_copy(&o->cfg.cpus, &o->affinity.cpus);
	if (o->affinity.kind == RT_REQUEST_AUTO)
		return rtr_cpuset_copy(&o->cfg.cpus, &t->rt.cpus);
	err = rtr_cpuset_get_affinity(&allowed) ?:
	      noise_default_cpus(&t->facts.cpu.online, &t->rt.cpus, &allowed, &o->cfg.cpus);
	if (err)
		cli_error("noise", "no CPU to measure: %s (one online CPU stays for housekeeping)",
			  strerror(-err));
	rtr_cpuset_free(&allowed);
	return err;
}

static int render(const struct noise_opts *o, const struct noise_result *r,
		  struct output *out, const struct host_info *host)
{
	if (o->format == FORMAT_JSON) {
		json_t *j = noise_to_json(r, host);
		int err = j ? json_write(out->fp, j) : -ENOMEM;

		json_decref(j);
		return err;
	}
	return noise_text_write(out->fp, r);
}

static void note_stale(void *ctx, const char *dir, long pid, int err)
{
	(void)ctx;
	if (err)
		cli_warn("noise", "cannot remove the partition %s, left by rtready pid %ld, which "
			 "has ended: %s", dir, pid, strerror(-err));
}

static int run_noise(struct noise_opts *o)
{
	struct noise_result res;
	struct host_info host;
	struct output out = { 0 }, gout = { 0 };
	const struct output_file outs[] = { { "--output", o->output }, { "--gaps", o->gaps } };
	const volatile sig_atomic_t *stop;
	struct cli_stop saved;
	struct run_cgroup cg;
	char why[512] = "";
	bool written = false, gwritten = false, left = false;
	int rc = EXIT_USAGE, err;
	/* -a auto: the planned CPUs are the RT CPUs of the report; a list is not. */
	struct target *t = cli_target("noise", "/", o->affinity.kind == RT_REQUEST_AUTO ?
					      &o->affinity : NULL, TARGET_HOST);

	if (!t)
		return EXIT_USAGE;
	memset(&res, 0, sizeof(res));
	memset(&host, 0, sizeof(host));
	memset(&cg, 0, sizeof(cg));
	if (resolve_cpus(o, t))
		goto out;
	if (target_host_info(t, &host)) {
		cli_error("noise", "out of memory");
		goto out;
	}
	if (cli_check_collisions("noise", outs, 2, NULL, 0))
		goto out;
	if (cli_out_reserve("noise", &out, o->output) ||
	    (o->gaps && cli_out_reserve("noise", &gout, o->gaps)))
		goto out;
	/* A --trace instance left by a killed rtready would cost this measurement. */
	trace_remove_stale(NULL, NULL);
	if (o->isolate) {
		/* A partition a killed rtready left would hold these CPUs. */
		run_isolate_clean_stale(note_stale, NULL);
		if (run_isolate_create(&cg, &o->cfg.cpus, true, why, sizeof(why))) {
			cli_error("noise", "--isolate: %s", why);
			goto out;
		}
		snprintf(o->cfg.cgroup, sizeof(o->cfg.cgroup), "%s", cg.dirs[0]);
	}
	stop = cli_stop_catch(&saved);
	err = noise_run(&o->cfg, stop, &res, why, sizeof(why));
	cli_stop_release(&saved);
	if (cg.n_dirs) {
		char rmerr[512];

		/* Said, and exit 2, but the measurement is still written. */
		left = run_isolate_remove(&cg, rmerr, sizeof(rmerr)) != 0;
		if (left)
			cli_error("noise", "--isolate: %s", rmerr);
	}
	if (err) {
		cli_error("noise", "%s", why[0] ? why : strerror(-err));
		goto out;
	}
	if (res.stop == NOISE_STOP_RUNAWAY)
		cli_error("noise", "RLIMIT_RTTIME stopped a spinner (SIGXCPU); the result is partial");
	err = output_ready(&out) ?: render(o, &res, &out, &host);
	if (err) {
		cli_error("noise", "cannot write the result: %s", strerror(-err));
		goto out;
	}
	written = true;
	if (o->gaps) {
		err = output_ready(&gout) ?: noise_gaps_write(gout.fp, &res);
		if (err) {
			cli_error("noise", "cannot write %s: %s", o->gaps, strerror(-err));
			goto out;
		}
		gwritten = true;
	}
	rc = res.stop == NOISE_STOP_RUNAWAY || left ? EXIT_USAGE : EXIT_OK;
out:
	if (o->gaps)
		cli_out_close("noise", &gout, o->gaps, gwritten, &rc);
	cli_out_close("noise", &out, o->output, written, &rc);
	noise_result_free(&res);
	host_info_free(&host);
	cli_target_free(t);
	return rc;
}

int cmd_noise(int argc, char **argv)
{
	struct noise_opts o;
	char err[512] = "";
	int rc;

	rc = noise_opts_parse(argc, argv, &o, err, sizeof(err));
	rc = cli_parsed(&noise_cmd, rc, err, o.help, o.version);
	if (rc < 0)
		rc = run_noise(&o);
	noise_opts_free(&o);
	return rc;
}
