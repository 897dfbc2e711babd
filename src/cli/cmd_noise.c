// SPDX-License-Identifier: MIT
/*
 * rtready noise: what disturbs a CPU that never sleeps, and the cause of
 * every event. The options; the run is src/job/noise.c (the engine
 * src/measure/noise.c, the output src/render/noise.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd_noise.h"
#include "cli/opt.h"
#include "rtready/timespec.h"
#include "util/parse.h"

/* Keys of the options without a short letter. */
enum { OPT_THRESHOLD = 256, OPT_POLICY, OPT_NO_TRACE, OPT_NO_MLOCK, OPT_GAPS, OPT_CLOCK,
       OPT_ISOLATE };

static const struct cli_opt noise_opts[] = {
	CLI_OPT_RT_CPUS(struct noise_opts, affinity, "affinity", 'a', "CPUS",
			"CPUs to measure: a list (1-3), or auto[:N] for the\n"
			"choice of rtready plan (default: the RT CPUs, else\n"
			"every CPU but the first)"),
	{ "duration", 'D', CLI_ARG, "TIME",
	  "how long (default 10s; units ms, s, m, h)", NULL, CLI_OWN, 0 },
	{ "threshold", OPT_THRESHOLD, CLI_ARG, "US",
	  "smallest gap counted, in us or with a unit (default 5)", NULL, CLI_OWN, 0 },
	{ "prio", 'p', CLI_ARG, "N",
	  "SCHED_FIFO priority of the spinners (default 80, 1..98)", NULL, CLI_OWN, 0 },
	{ "policy", OPT_POLICY, CLI_ARG, "POLICY",
	  "fifo (default), rr, or other (SCHED_OTHER)", "fifo rr other", CLI_OWN, 0 },
	{ "clock", OPT_CLOCK, CLI_ARG, "CLOCK",
	  "what the loops read: auto (the TSC where it is\n"
	  "invariant, as oslat; else CLOCK_MONOTONIC) or monotonic", "auto monotonic", CLI_OWN, 0 },
	{ "no-trace", OPT_NO_TRACE, CLI_NOARG, NULL,
	  "attribute per window from /proc counters only", NULL, CLI_OWN, 0 },
	{ "no-mlock", OPT_NO_MLOCK, CLI_NOARG, NULL,
	  "do not lock memory", NULL, CLI_OWN, 0 },
	CLI_OPT_SET("isolate", OPT_ISOLATE, struct noise_opts, isolate,
		    "measure in an isolated cpuset partition of the CPUs,\n"
		    "made for the run: only the spinners go in, the main\n"
		    "thread stays on the housekeeping CPUs"),
	CLI_OPT_FORMAT(struct noise_opts, 'f'),
	CLI_OPT_OUTPUT(struct noise_opts, 'o', "write the result to FILE"),
	CLI_OPT_STR("gaps", OPT_GAPS, "FILE", struct noise_opts, gaps, "@file",
		    "also write every gap with its cause, one per line"),
};

void noise_opts_free(void *opts)
{
	struct noise_opts *o = opts;

	noise_config_free(&o->cfg);
	rt_request_free(&o->affinity);
}

static int noise_opt(struct cli_parse *p, int key, char *err, size_t errlen)
{
	struct noise_opts *o = p->dst;
	int64_t v;

	switch (key) {
	case 'D':
		if (cli_time("--duration", p->arg, RTR_NSEC_PER_SEC, 1000000,
			     (int64_t)NOISE_MAX_DURATION_NS, &v, err, errlen))
			return -EINVAL;
		o->cfg.duration_ns = (uint64_t)v;
		return 0;
	case OPT_THRESHOLD:
		if (cli_time("--threshold", p->arg, 1000, 1000, 1000000000, &v, err, errlen))
			return -EINVAL;
		o->cfg.threshold_ns = (uint64_t)v;
		return 0;
	case 'p':
		if (parse_int64(p->arg, 1, RTR_PRIO_MAX_SAFE, &v)) {
			snprintf(err, errlen, "--prio: '%s' is not 1..%d (99 is refused: the kernel's "
				 "own threads need it)", p->arg, RTR_PRIO_MAX_SAFE);
			return -EINVAL;
		}
		o->cfg.priority = (int)v;
		o->prio_given = true;
		return 0;
	case OPT_POLICY:
		return cli_parse_policy(p->arg, 1u << RTR_SCHED_FIFO | 1u << RTR_SCHED_RR |
					1u << RTR_SCHED_OTHER, "fifo, rr or other", &o->cfg.policy,
					err, errlen);
	case OPT_CLOCK:
		if (!strcmp(p->arg, "auto"))
			o->cfg.clock = NOISE_CLOCK_AUTO;
		else if (!strcmp(p->arg, "monotonic"))
			o->cfg.clock = NOISE_CLOCK_MONOTONIC;
		else {
			snprintf(err, errlen, "--clock: '%s' is not auto or monotonic", p->arg);
			return -EINVAL;
		}
		return 0;
	case OPT_NO_TRACE:
		o->cfg.trace = false;
		return 0;
	case OPT_NO_MLOCK:
		o->cfg.mlock = false;
		return 0;
	}
	return 0;
}

static void noise_init(void *opts)
{
	noise_config_init(&((struct noise_opts *)opts)->cfg);
}

static int noise_done(void *opts, int argc, char **argv, int first, char *err, size_t errlen)
{
	const struct noise_opts *o = opts;

	if (!o->prio_given || o->cfg.policy != RTR_SCHED_OTHER)
		return 0;
	snprintf(err, errlen, "--prio and --policy other exclude each other");
	return -EINVAL;
}

const struct cli_cmd noise_cmd = {
	"noise",
	"name the cause of every gap on CPUs that spin (oslat-class)",
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
	CLI_CMD_STRUCT(struct noise_opts), .init = noise_init, .own = noise_opt,
	.done = noise_done, .job = noise_job_run, .release = noise_opts_free,
};
