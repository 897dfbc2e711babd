// SPDX-License-Identifier: MIT
/*
 * rtready pi: prove that priority inheritance works on this kernel and C
 * library, by provoking the checklist's inversion with and without it.
 * The options; the run is src/job/pi.c.
 */
#include <errno.h>
#include <getopt.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/opt.h"
#include "cli/cmd_pi.h"
#include "util/parse.h"

/* Keys of the options without a short letter. */
enum { OPT_CS = 256, OPT_MEDIUM };

static const struct cli_opt pi_opts[] = {
	{ "cpu", 'c', CLI_ARG, "N",
	  "the CPU to run on (default: the last one allowed)", NULL, CLI_OWN },
	{ "prio", 'p', CLI_ARG, "N",
	  "priority of the low thread; medium N+1, high N+2\n"
	  "(default 70, at most 96)", NULL, CLI_OWN },
	{ "rounds", 'n', CLI_ARG, "N",
	  "rounds per mutex kind (default 100)", NULL, CLI_OWN },
	{ "cs", OPT_CS, CLI_ARG, "DURATION",
	  "the low thread's critical section (default 1ms)", NULL, CLI_OWN },
	{ "medium", OPT_MEDIUM, CLI_ARG, "DURATION",
	  "the medium thread's spin (default 3ms)", NULL, CLI_OWN },
	CLI_OPT_FORMAT('f'),
	CLI_OPT_OUTPUT('o',
		       "write the result to FILE"),
	CLI_OPT_HELP('h'),
	CLI_OPT_VERSION,
};

const struct cli_cmd pi_cmd = {
	"pi",
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
};

static int parse_dur(const char *opt, const char *arg, int64_t *out, char *err, size_t errlen)
{
	int64_t v;

	if (parse_duration_ns(arg, 1000, &v) || v < 10000 || v > 100 * 1000000LL) {
		snprintf(err, errlen, "%s: '%s' is not a duration from 10us to 100ms", opt, arg);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

int pi_opts_parse(int argc, char **argv, struct pi_opts *o, char *err, size_t errlen)
{
	struct cli_parse p;
	const struct cli_common com = { &o->help, &o->version, &o->format, &o->output, NULL, NULL };
	int c, rc = 0;
	int64_t v;

	memset(o, 0, sizeof(*o));
	pi_config_default(&o->config);
	cli_parse_begin(&p, &pi_cmd, &com, argc, argv);
	while (rc == 0 && (c = cli_next(&p, err, errlen)) > 0) {
		switch (c) {
		case 'c':
			rc = parse_int64(optarg, 0, RTR_CPUSET_MAX_CPUS - 1, &v);
			if (rc)
				snprintf(err, errlen, "--cpu: '%s' is not a CPU number", optarg);
			o->config.cpu = (int)v;
			break;
		case 'p':
			rc = parse_int64(optarg, 1, 96, &v);
			if (rc)
				snprintf(err, errlen, "--prio: '%s' is not 1..96 (the high thread "
					 "runs at +2, never 99)", optarg);
			o->config.prio = (int)v;
			break;
		case 'n':
			rc = parse_int64(optarg, 1, 100000, &v);
			if (rc)
				snprintf(err, errlen, "--rounds: '%s' is not 1..100000", optarg);
			o->config.rounds = (unsigned)v;
			break;
		case OPT_CS:
			rc = parse_dur("--cs", optarg, &o->config.cs_ns, err, errlen);
			break;
		case OPT_MEDIUM:
			rc = parse_dur("--medium", optarg, &o->config.medium_ns, err, errlen);
			break;
		}
	}
	if (rc == 0 && c < 0)
		rc = c;
	return rc ? -EINVAL : 0;
}

int cmd_pi(int argc, char **argv)
{
	struct pi_opts o;
	char err[512] = "";
	int rc;

	rc = pi_opts_parse(argc, argv, &o, err, sizeof(err));
	rc = cli_parsed(&pi_cmd, rc, err, o.help, o.version);
	if (rc >= 0) {
		return rc;
	}
	return pi_job_run(&o, &(const struct job_ui)CLI_JOB_UI(NULL));
}
