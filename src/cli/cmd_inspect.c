// SPDX-License-Identifier: MIT
/*
 * rtready inspect: is a running realtime application following the
 * checklist? Collect two snapshots of its threads a window apart (with perf
 * counters in between), judge them, render.
 */
#include <errno.h>
#include <string.h>

#include "cli/opt.h"
#include "cli/cmd_inspect.h"
#include "util/parse.h"

/* Keys of the options without a short letter. */
enum { OPT_NO_PERF = 256 };

static const struct cli_opt inspect_opts[] = {
	CLI_OPT_SET("all", 'a', struct inspect_opts, all,
		    "every user process (those with RT threads are judged)"),
	{ "name", 'n', CLI_ARG, "COMM",
	  "the processes whose name is COMM", "@comm", CLI_OWN, 0 },
	{ "window", 'w', CLI_ARG, "DURATION",
	  "measure deltas over this time (default 1s; 0: one look)", NULL, CLI_OWN, 0 },
	CLI_OPT_RT_CPUS(struct inspect_opts, rt, "rt-cpus", 'c', "LIST",
			"CPUs meant for realtime work (default: the isolated CPUs);\n"
			"auto or auto:N: the choice of rtready plan (N CPUs)"),
	CLI_OPT_ROOT(struct inspect_opts, "read DIR/proc and DIR/sys instead of the live system"),
	{ "no-perf", OPT_NO_PERF, CLI_NOARG, NULL,
	  "do not open perf counters", NULL, CLI_OWN, 0 },
	CLI_OPT_FORMAT(struct inspect_opts, 'f'),
	CLI_OPT_OUTPUT(struct inspect_opts, 'o',
		       "write the result to FILE"),
	CLI_OPT_SET("strict", 's', struct inspect_opts, strict, "exit 1 on warnings too"),
	CLI_OPT_SET("verbose", 'v', struct inspect_opts, verbose,
		    "show passing findings and processes without RT threads"),
};

void inspect_opts_free(void *opts)
{
	struct inspect_opts *o = opts;

	rt_request_free(&o->rt);
}

static int add_pid(struct inspect_opts *o, const char *arg, char *err, size_t errlen)
{
	int64_t v;

	if (parse_int64(arg, 1, 0x3fffffff, &v)) {
		snprintf(err, errlen, "'%s' is not a process id", arg);
		return -EINVAL;
	}
	if (o->n_pids == INSPECT_MAX_PIDS) {
		snprintf(err, errlen, "at most %d PIDs", INSPECT_MAX_PIDS);
		return -EINVAL;
	}
	o->pids[o->n_pids++] = (int)v;
	return 0;
}

static int inspect_opt(struct cli_parse *p, int key, char *err, size_t errlen)
{
	struct inspect_opts *o = p->dst;

	switch (key) {
	case 'n':
		o->name = p->arg;
		if (*p->arg)
			return 0;
		snprintf(err, errlen, "--name: empty name");
		return -EINVAL;
	case 'w':
		o->window_given = true;
		return cli_time("--window", p->arg, 1000000000, 0, 3600LL * 1000000000, &o->window_ns,
				err, errlen);
	case OPT_NO_PERF:
		o->perf = false;
		return 0;
	}
	return 0;
}

static void inspect_init(void *opts)
{
	struct inspect_opts *o = opts;

	o->window_ns = 1000000000;
	o->perf = true;
	o->root = "/";
}

static int inspect_done(void *opts, int argc, char **argv, int first, char *err, size_t errlen)
{
	struct inspect_opts *o = opts;

	for (int i = first; i < argc; i++)
		if (add_pid(o, argv[i], err, errlen))
			return -EINVAL;
	if ((o->n_pids > 0) + o->all + (o->name != NULL) != 1) {
		snprintf(err, errlen, "name the processes: PID..., --all or --name COMM (one of them)");
		return -EINVAL;
	}
	if (strcmp(o->root, "/") != 0) {
		/* A tree is one moment: deltas over a window of it would all be zero. */
		if (o->window_given && o->window_ns > 0) {
			snprintf(err, errlen, "--window needs the live system: a tree under --root "
				 "does not change (use --window 0, the default with --root)");
			return -EINVAL;
		}
		o->window_ns = 0;
		o->perf = false;
	}
	return 0;
}

const struct cli_cmd inspect_cmd = {
	"inspect",
	"apply the checklist to running processes, thread by thread",
	"Usage: rtready inspect [OPTIONS] PID...\n"
	"       rtready inspect [OPTIONS] --all | --name COMM\n"
	"\n"
	"Apply the realtime checklist to running processes, thread by thread: policy and\n"
	"priority, affinity, locked memory, page faults, context switches and perf counters\n"
	"measured over a window. Works without root for your own processes.\n"
	"With --root, judge the processes of a snapshot tree in one look (no window,\n"
	"no perf counters: a tree does not run).\n"
	"\n",
	CLI_CMD_OPTS(inspect_opts), 25,
	"\n"
	"Exit status: 0 nothing failed, 1 a finding failed (or warned with --strict),\n"
	"2 usage error, no such process, or /proc could not be read.\n",
	CLI_OPERANDS,
	CLI_CMD_STRUCT(struct inspect_opts), .init = inspect_init, .own = inspect_opt,
	.done = inspect_done, .job = inspect_job_run, .release = inspect_opts_free,
};
