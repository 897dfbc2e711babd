// SPDX-License-Identifier: MIT
/*
 * rtready load: generate the load under which latency is worth measuring.
 * Messaging with hackbench's options and output ("Time: S.SSS"), plus CPU
 * hogs, memory churn and OOM kills, for one run or for a duration. The
 * options go into struct load_opts (parsed without side effects); the load
 * itself is src/measure/load.c, the same code `latency --load` runs.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/opt.h"
#include "cli/cmd_load.h"
#include "util/parse.h"

/* Keys of the options without a short letter. */
enum { OPT_OOM = 256, OPT_OOM_LIMIT, OPT_FORMAT };

static const struct cli_opt load_opts[] = {
	{ "processes", 'P', CLI_NOARG, NULL, NULL, NULL, CLI_OWN, 0 },	/* hackbench's spelling */
	{ "groups", 'g', CLI_ARG, "N",
	  "groups of senders and receivers (default 10)", NULL, CLI_OWN, 0 },
	{ "fds", 'f', CLI_ARG, "N",
	  "senders, and receivers, per group (default 20)\n"
	  "(2 x groups x fds tasks: at most 400 per CPU of the load,\n"
	  "and 400, hackbench's default, on any machine)", NULL, CLI_OWN, 0 },
	{ "loops", 'l', CLI_ARG, "N",
	  "messages each sender sends to each receiver (default 100)", NULL, CLI_OWN, 0 },
	{ "datasize", 's', CLI_ARG, "BYTES",
	  "size of a message (default 100)", NULL, CLI_OWN, 0 },
	{ "pipe", 'p', CLI_NOARG, NULL,
	  "use pipes instead of AF_UNIX socket pairs", NULL, CLI_OWN, 0 },
	{ "threads", 'T', CLI_NOARG, NULL,
	  "tasks are threads", NULL, CLI_OWN, 0 },
	{ "process", 'P', CLI_NOARG, NULL,
	  "tasks are processes (default)", NULL, CLI_OWN, 0 },
	{ NULL, 0, CLI_NOARG, NULL, "Other loads:\n", NULL, CLI_OWN, 0 },
	{ "cpu", 'c', CLI_ARG, "N",
	  "N CPU hogs (at most 32 per CPU of the load)", NULL, CLI_OWN, 0 },
	{ "memory", 'm', CLI_ARG, "SIZE",
	  "allocate, touch and free SIZE (e.g. 256M) again and again", NULL, CLI_OWN, 0 },
	{ "oom", OPT_OOM, CLI_NOARG, NULL,
	  "repeatedly OOM-kill a child confined to its own memory cgroup", NULL, CLI_OWN, 0 },
	{ "oom-limit", OPT_OOM_LIMIT, CLI_ARG, "SIZE",
	  "memory limit of that cgroup (default 32M)", NULL, CLI_OWN, 0 },
	{ NULL, 0, CLI_NOARG, NULL, "Common:\n", NULL, CLI_OWN, 0 },
	{ "duration", 'D', CLI_ARG, "TIME",
	  "run for TIME (10s, 2m, ...); stop early with ^C", NULL, CLI_OWN, 0 },
	{ "nice", 'n', CLI_ARG, "N",
	  "nice value of the load (-20..19)", NULL, CLI_OWN, 0 },
	{ "cpus", 'a', CLI_ARG, "LIST",
	  "run the load on these CPUs (default: all)", "@cpus", CLI_OWN, 0 },
	CLI_OPT_FORMAT(struct load_opts, CLI_KEY_FORMAT),
	CLI_OPT_OUTPUT(struct load_opts, 'o',
		       "write the result to FILE"),
	CLI_OPT_SET("quiet", 'q', struct load_opts, quiet, "no description line before the run"),
};

void load_opts_free(void *opts)
{
	struct load_opts *o = opts;

	load_config_free(&o->cfg);
}

/* An integer option in [min, max] into *out, with a message naming the option. */
static int int_opt(const char *opt, const char *arg, int64_t min, int64_t max, int64_t *out,
		   char *err, size_t errlen)
{
	int rc = parse_int64(arg, min, max, out);

	if (rc == -ERANGE)
		snprintf(err, errlen, "%s: '%s' is outside %lld..%lld", opt, arg, (long long)min,
			 (long long)max);
	else if (rc)
		snprintf(err, errlen, "%s: '%s' is not a number", opt, arg);
	return rc ? -EINVAL : 0;
}

static int size_opt(const char *opt, const char *arg, uint64_t min, uint64_t *out, char *err,
		    size_t errlen)
{
	int rc = parse_size(arg, out);

	if (rc || *out < min) {
		snprintf(err, errlen, "%s: '%s' is not a size (like 64M, 1G)%s", opt, arg,
			 !rc ? " large enough" : "");
		return -EINVAL;
	}
	return 0;
}

/* The option letters and values that change the load, for load_opt(). */
static int apply_opt(struct load_opts *o, int c, const char *arg, struct load_seen *seen, char *err,
		     size_t errlen)
{
	bool *messaging = &seen->messaging;

	struct load_config *cfg = &o->cfg;
	int64_t v = 0;
	int rc = 0;

	switch (c) {
	case 'g':
		rc = int_opt("--groups", arg, 1, LOAD_MAX_GROUPS, &v, err, errlen);
		cfg->groups = (unsigned int)v;
		*messaging = true;
		break;
	case 'f':
		rc = int_opt("--fds", arg, 1, LOAD_MAX_FDS, &v, err, errlen);
		cfg->fds = (unsigned int)v;
		*messaging = true;
		break;
	case 'l':
		rc = int_opt("--loops", arg, 1, 1000000000, &v, err, errlen);
		cfg->loops = (uint64_t)v;
		*messaging = true;
		break;
	case 's':
		rc = int_opt("--datasize", arg, 1, LOAD_MAX_DATASIZE, &v, err, errlen);
		cfg->datasize = (uint32_t)v;
		*messaging = true;
		break;
	case 'p':
		cfg->pipes = *messaging = true;
		break;
	case 'T':
		cfg->threads = *messaging = true;
		break;
	case 'P':
		cfg->threads = false;
		*messaging = true;
		break;
	case 'c':
		rc = int_opt("--cpu", arg, 0, LOAD_MAX_CPU_HOGS, &v, err, errlen);
		cfg->cpu_hogs = (unsigned int)v;
		seen->other = true;
		break;
	case 'm':
		rc = size_opt("--memory", arg, 4096, &cfg->memory_bytes, err, errlen);
		seen->other = true;
		break;
	case 'D':
		rc = cli_time("--duration", arg, 1000000000, 1, INT64_MAX, &cfg->duration_ns, err,
			      errlen);
		seen->duration = true;
		break;
	case 'n':
		rc = int_opt("--nice", arg, -20, 19, &v, err, errlen);
		cfg->nice = (int)v;
		break;
	case 'a':
		rc = target_parse_cpulist("--cpus", arg, &cfg->cpus, err, errlen);
		break;
	}
	return rc;
}

static int load_opt(struct cli_parse *p, int key, char *err, size_t errlen)
{
	struct load_opts *o = p->dst;

	if (key == OPT_OOM) {
		o->cfg.oom = o->seen.other = true;
		return 0;
	}
	if (key == OPT_OOM_LIMIT)
		return size_opt("--oom-limit", p->arg, 1u << 20, &o->cfg.oom_limit_bytes, err, errlen);
	return apply_opt(o, key, p->arg, &o->seen, err, errlen);
}

static void load_init(void *opts)
{
	load_config_init(&((struct load_opts *)opts)->cfg);
}

static int load_done(void *opts, int argc, char **argv, int first, char *err, size_t errlen)
{
	struct load_opts *o = opts;

	/* Messaging is the default load, and runs alongside the others when asked for. */
	if (!o->seen.messaging && o->seen.other)
		o->cfg.groups = 0;
	if (o->seen.duration)
		o->cfg.runs = 0;
	return load_config_check(&o->cfg, err, errlen);
}

/* ---- running ---------------------------------------------------------------- */

const struct cli_cmd load_cmd = {
	"load",
	"generate messaging, CPU, memory and OOM load (hackbench-class)",
	"Usage: rtready load [OPTIONS]\n"
	"\n"
	"Put the machine under load: hackbench-style messaging between groups of\n"
	"tasks, CPU hogs, memory churn and out-of-memory kills, all at SCHED_OTHER.\n"
	"Without -D, one messaging run is made (like hackbench); with -D, every load\n"
	"runs for that long and messaging runs restart until the end.\n"
	"\n"
	"Messaging (on by default, or when one of these is given):\n",
	CLI_CMD_OPTS(load_opts), 24,
	"\n"
	"The bounds per CPU keep start-up and stopping short: every task must get a CPU\n"
	"once to start and once to die, and more tasks add no load a realtime thread\n"
	"would feel. Every task stops by itself at the end of -D, and when rtready dies.\n"
	"\n"
	"Exit status: 0 the load ran (also when stopped by SIGINT or SIGTERM),\n"
	"2 usage error or the load could not run.\n",
	CLI_NO_OPERANDS,
	CLI_CMD_STRUCT(struct load_opts), .init = load_init, .own = load_opt, .done = load_done,
	.job = load_job_run, .release = load_opts_free,
};
