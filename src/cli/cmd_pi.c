// SPDX-License-Identifier: MIT
/*
 * rtready pi: prove that priority inheritance works on this kernel and C
 * library, by provoking the checklist's inversion with and without it.
 * The options; the run is src/job/pi.c.
 */
#include <errno.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/opt.h"
#include "cli/cmd_pi.h"
#include "util/parse.h"

/* Keys of the options without a short letter. */
enum { OPT_CS = 256, OPT_MEDIUM };

static const struct cli_opt pi_opts[] = {
	{ "cpu", 'c', CLI_ARG, "N",
	  "the CPU to run on (default: the last one allowed)", NULL, CLI_OWN, 0 },
	{ "prio", 'p', CLI_ARG, "N",
	  "priority of the low thread; medium N+1, high N+2\n"
	  "(default 70, at most 96)", NULL, CLI_OWN, 0 },
	{ "rounds", 'n', CLI_ARG, "N",
	  "rounds per mutex kind (default 100)", NULL, CLI_OWN, 0 },
	{ "cs", OPT_CS, CLI_ARG, "DURATION",
	  "the low thread's critical section (default 1ms)", NULL, CLI_OWN, 0 },
	{ "medium", OPT_MEDIUM, CLI_ARG, "DURATION",
	  "the medium thread's spin (default 3ms)", NULL, CLI_OWN, 0 },
	CLI_OPT_FORMAT(struct pi_opts, 'f'),
	CLI_OPT_OUTPUT(struct pi_opts, 'o',
		       "write the result to FILE"),
};

static int pi_opt(struct cli_parse *p, int key, char *err, size_t errlen)
{
	struct pi_config *cfg = &((struct pi_opts *)p->dst)->config;
	int64_t v;

	switch (key) {
	case 'c':
		if (parse_int64(p->arg, 0, RTR_CPUSET_MAX_CPUS - 1, &v) == 0) {
			cfg->cpu = (int)v;
			return 0;
		}
		snprintf(err, errlen, "--cpu: '%s' is not a CPU number", p->arg);
		return -EINVAL;
	case 'p':
		if (parse_int64(p->arg, 1, 96, &v) == 0) {
			cfg->prio = (int)v;
			return 0;
		}
		snprintf(err, errlen, "--prio: '%s' is not 1..96 (the high thread runs at +2, never 99)",
			 p->arg);
		return -EINVAL;
	case 'n':
		if (parse_int64(p->arg, 1, 100000, &v) == 0) {
			cfg->rounds = (unsigned)v;
			return 0;
		}
		snprintf(err, errlen, "--rounds: '%s' is not 1..100000", p->arg);
		return -EINVAL;
	case OPT_CS:
		return cli_time("--cs", p->arg, 1000, 10000, 100000000, &cfg->cs_ns, err, errlen);
	case OPT_MEDIUM:
		return cli_time("--medium", p->arg, 1000, 10000, 100000000, &cfg->medium_ns, err,
				errlen);
	}
	return 0;
}

static void pi_init(void *opts)
{
	pi_config_default(&((struct pi_opts *)opts)->config);
}

const struct cli_cmd pi_cmd = {
	"pi",
	"prove that priority inheritance bounds lock waits on this system",
	"Usage: rtready pi [OPTIONS]\n"
	"\n"
	"Run the priority-inversion scenario on one CPU: a low-priority thread holds a\n"
	"mutex, a high-priority thread waits for it, a medium-priority thread spins.\n"
	"Once with a PTHREAD_PRIO_INHERIT mutex, once with a plain one; compare how long\n"
	"the high thread waited. Needs SCHED_FIFO (root, CAP_SYS_NICE or RLIMIT_RTPRIO).\n"
	"\n",
	CLI_CMD_OPTS(pi_opts), 26,
	"\n"
	"Exit status: 0 priority inheritance works, 1 it does not (or no inversion could\n"
	"be shown), 2 usage error or the threads could not run.\n",
	CLI_NO_OPERANDS,
	CLI_CMD_STRUCT(struct pi_opts), .init = pi_init, .own = pi_opt, .job = pi_job_run,
};
