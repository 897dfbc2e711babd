// SPDX-License-Identifier: MIT
/*
 * rtready run: start a program the way chrt, taskset and prlimit would
 * together (policy, priority, nice, affinity, RLIMIT_MEMLOCK), optionally
 * inside a CPU and memory budget cgroup of its own, optionally with the
 * runtime checker preloaded; wait for it, then report what the checker saw
 * and pass the program's exit status through.
 *
 * Exit status: the program's (its exit code, or 128 + the signal that
 * killed it); 1 when --strict and the checker found something while the
 * program itself succeeded; 2 when rtready could not start it at all
 * (bad option, program not found, scheduling or cgroup refused) - the
 * program never ran in that case, and the message says why.
 */
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/opt.h"
#include "cli/cmd_run.h"
#include "render/run.h"
#include "run/cgroup.h"
#include "run/session.h"
#include "util/parse.h"

/* Keys of the options without a short letter. */
enum {
	OPT_POLICY = 256, OPT_PRIO99, OPT_MEMLOCK, OPT_CPU_MAX, OPT_MEM_MAX, OPT_RTTIME, OPT_ISOLATE,
	OPT_RUNTIME, OPT_DEADLINE, OPT_PERIOD,
};

static const struct cli_opt run_opts[] = {
	{ "policy", OPT_POLICY, CLI_ARG, "POLICY",
	  "fifo, rr, other or deadline (default: unchanged; fifo\n"
	  "with --prio)", "fifo rr other deadline", CLI_OWN, 0 },
	{ "runtime", OPT_RUNTIME, CLI_ARG, "US",
	  "with deadline: CPU time per period (units allowed: 2ms)", NULL, CLI_OWN, 0 },
	{ "deadline", OPT_DEADLINE, CLI_ARG, "US",
	  "with deadline: relative deadline (default: the period)", NULL, CLI_OWN, 0 },
	{ "period", OPT_PERIOD, CLI_ARG, "US",
	  "with deadline: the period (required)", NULL, CLI_OWN, 0 },
	{ "prio", 'p', CLI_ARG, "N",
	  "realtime priority 1-98 (default 80 with fifo/rr)", NULL, CLI_OWN, 0 },
	CLI_OPT_SET("allow-prio99", OPT_PRIO99, struct run_opts, allow_prio99,
		    "accept --prio 99 (the kernel's own critical threads run there)"),
	{ "cpus", 'c', CLI_ARG, "LIST",
	  "CPU affinity, kernel list syntax (0-3,8)", "@cpus", CLI_OWN, 0 },
	{ "nice", 'n', CLI_ARG, "N",
	  "nice value -20..19", NULL, CLI_OWN, 0 },
	{ "memlock-limit", OPT_MEMLOCK, CLI_ARG, "SIZE",
	  "RLIMIT_MEMLOCK (like 512M, or 'unlimited')", "unlimited", CLI_OWN, 0 },
	CLI_OPT_SET("mlock", 'm', struct run_opts, mlock,
		    "lock all of the program's memory (mlockall through the\n"
		    "preloaded library); raises RLIMIT_MEMLOCK to its hard limit"),
	{ "rttime", OPT_RTTIME, CLI_ARG, "USEC",
	  "runaway guard: SIGXCPU once a realtime thread has run USEC\n"
	  "(units like 200ms accepted) without blocking, SIGKILL 1 s\n"
	  "later (RLIMIT_RTTIME); the guard to keep with throttling off", NULL, CLI_OWN, 0 },
	{ NULL, 0, CLI_NOARG, NULL, "Budget for a non-realtime program (a cgroup of its own, removed at its end):\n", NULL, CLI_OWN, 0 },
	{ "cpu-max", OPT_CPU_MAX, CLI_ARG, "PERCENT",
	  "CPU time cap in percent of one CPU (20, 150 for 1.5 CPUs)", NULL, CLI_OWN, 0 },
	{ "memory-max", OPT_MEM_MAX, CLI_ARG, "SIZE",
	  "memory cap (like 256M; at least 1M, below which no program\n"
	  "starts); an OOM kill in the cgroup is reported", NULL, CLI_OWN, 0 },
	{ NULL, 0, CLI_NOARG, NULL, "Isolation without a reboot (cgroup v2, Linux 6.8+):\n", NULL, CLI_OWN, 0 },
	CLI_OPT_SET("isolate", OPT_ISOLATE, struct run_opts, isolate,
		    "run COMMAND in an isolated cpuset partition of --cpus\n"
		    "for its lifetime: other tasks are kept off those CPUs\n"
		    "(not the tick, RCU callbacks or managed IRQs)"),
	{ NULL, 0, CLI_NOARG, NULL, "Runtime checker:\n", NULL, CLI_OWN, 0 },
	CLI_OPT_SET("check", 'C', struct run_opts, check,
		    "preload the checker and report its findings at exit"),
	{ "report", 'r', CLI_ARG, "FILE",
	  "write the report to FILE (default: standard error)", "@file", CLI_OWN, 0 },
	{ "format", 'f', CLI_ARG, "FMT",
	  "text (default) or json", "text json", CLI_OWN, 0 },
	{ "strict", 's', CLI_NOARG, NULL,
	  "exit 1 on any finding (or a checker that could not attach)\n"
	  "when the program itself exited 0", NULL, CLI_OWN, 0 },
};

void run_opts_free(void *opts)
{
	struct run_opts *o = opts;

	rtr_cpuset_free(&o->cpus);
	memset(o, 0, sizeof(*o));
}

static int parse_policy(const char *arg, int *policy, char *err, size_t errlen)
{
	if (strcmp(arg, "fifo") == 0)
		*policy = SCHED_FIFO;
	else if (strcmp(arg, "rr") == 0)
		*policy = SCHED_RR;
	else if (strcmp(arg, "other") == 0)
		*policy = SCHED_OTHER;
	else if (strcmp(arg, "deadline") == 0)
		*policy = RUN_SCHED_DEADLINE;
	else {
		snprintf(err, errlen, "--policy: '%s' is not one of fifo, rr, other, deadline", arg);
		return -EINVAL;
	}
	return 0;
}

static int parse_percent(const char *arg, unsigned *out, char *err, size_t errlen)
{
	char buf[32];
	size_t len = strlen(arg);
	int64_t v;

	if (len > 0 && len < sizeof(buf) && arg[len - 1] == '%')
		len--;
	if (len == 0 || len >= sizeof(buf) ||
	    (memcpy(buf, arg, len), buf[len] = '\0', parse_int64(buf, 1, 100000, &v))) {
		snprintf(err, errlen,
			 "--cpu-max: '%s' is not a percentage of one CPU (1 to 100000, like 20)",
			 arg);
		return -EINVAL;
	}
	*out = (unsigned)v;
	return 0;
}

static int parse_bytes(const char *opt, const char *arg, bool unlimited_ok, uint64_t *out,
		       char *err, size_t errlen)
{
	if (unlimited_ok && (strcmp(arg, "unlimited") == 0 || strcmp(arg, "infinity") == 0)) {
		*out = UINT64_MAX;
		return 0;
	}
	if (parse_size(arg, out) || *out == 0) {
		snprintf(err, errlen, "%s: '%s' is not a size (like 64M, 2G%s)", opt, arg,
			 unlimited_ok ? ", or unlimited" : "");
		return -EINVAL;
	}
	return 0;
}

static int parse_int(const char *opt, const char *arg, int64_t min, int64_t max, int *out,
		     char *err, size_t errlen)
{
	int64_t v;

	if (parse_int64(arg, min, max, &v)) {
		snprintf(err, errlen, "%s: '%s' is not a number from %lld to %lld", opt, arg,
			 (long long)min, (long long)max);
		return -EINVAL;
	}
	*out = (int)v;
	return 0;
}

/* A time in us (units allowed) of --runtime/--deadline/--period: 1 us .. 10 s. */
/* --policy deadline and its reservation: 1024 ns <= runtime <= deadline <= period. */
static int validate_deadline(struct run_opts *o, char *err, size_t errlen)
{
	if (o->policy != RUN_SCHED_DEADLINE) {
		if (o->dl_runtime_ns || o->dl_deadline_ns || o->dl_period_ns) {
			snprintf(err, errlen, "--runtime, --deadline and --period need --policy "
				 "deadline");
			return -EINVAL;
		}
		return 0;
	}
	if (!o->dl_runtime_ns || !o->dl_period_ns) {
		snprintf(err, errlen, "--policy deadline needs --runtime US and --period US");
		return -EINVAL;
	}
	if (!o->dl_deadline_ns)
		o->dl_deadline_ns = o->dl_period_ns;
	if (o->dl_runtime_ns < 1024 || o->dl_runtime_ns > o->dl_deadline_ns ||
	    o->dl_deadline_ns > o->dl_period_ns) {
		snprintf(err, errlen, "--policy deadline needs 1024 ns <= --runtime <= --deadline "
			 "<= --period (got %.3f, %.3f, %.3f us)", (double)o->dl_runtime_ns / 1e3,
			 (double)o->dl_deadline_ns / 1e3, (double)o->dl_period_ns / 1e3);
		return -EINVAL;
	}
	if (o->cpus_set) {
		snprintf(err, errlen, "--cpus cannot go with --policy deadline: while admission "
			 "control is on, the kernel refuses a DEADLINE task an affinity narrower "
			 "than its root domain (use an exclusive cpuset partition instead)");
		return -EINVAL;
	}
	if (o->nice_set) {
		snprintf(err, errlen, "--nice does not apply to --policy deadline");
		return -EINVAL;
	}
	return 0;
}

/* Rules between options, once all are read. */
static int validate(struct run_opts *o, bool prio_set, bool out_opts, char *err, size_t errlen)
{
	bool rt;

	if (o->policy == RUN_SCHED_DEADLINE && prio_set) {
		snprintf(err, errlen, "--prio does not apply to --policy deadline: a SCHED_DEADLINE "
			 "task has a runtime, a deadline and a period instead");
		return -EINVAL;
	}
	if (validate_deadline(o, err, errlen))
		return -EINVAL;

	if (prio_set && o->policy < 0)
		o->policy = SCHED_FIFO;
	rt = o->policy == SCHED_FIFO || o->policy == SCHED_RR;
	if (rt && !prio_set)
		o->prio = 80;
	if (!rt && prio_set) {
		snprintf(err, errlen, "--prio applies to the fifo and rr policies only");
		return -EINVAL;
	}
	if (rt && o->prio == 99 && !o->allow_prio99) {
		snprintf(err, errlen, "--prio 99 is refused: the kernel's own critical threads run "
				      "there (use 98 or below, or --allow-prio99)");
		return -EINVAL;
	}
	/* cpu.max throttles the fair class only: DEADLINE's cap is its own runtime/period. */
	if ((rt || o->policy == RUN_SCHED_DEADLINE) && o->cpu_max_pct) {
		snprintf(err, errlen, "--cpu-max caps non-realtime programs only; a realtime "
				      "policy is not limited by it%s", o->policy == RUN_SCHED_DEADLINE ?
				      " (a SCHED_DEADLINE task is capped by its --runtime per "
				      "--period)" : "");
		return -EINVAL;
	}
	if (o->isolate && !o->cpus_set) {
		snprintf(err, errlen, "--isolate needs --cpus LIST: the CPUs of the partition");
		return -EINVAL;
	}
	if (o->isolate && (o->cpu_max_pct || o->memory_max_bytes)) {
		snprintf(err, errlen, "--isolate and --cpu-max/--memory-max exclude each other (one "
				      "cgroup per program)");
		return -EINVAL;
	}
	if (out_opts && !o->check) {
		snprintf(err, errlen, "--report, --format and --strict need --check");
		return -EINVAL;
	}
	if (!o->help && !o->version && o->n_cmd == 0) {
		snprintf(err, errlen, "no command given (rtready run [OPTIONS] -- COMMAND ...)");
		return -EINVAL;
	}
	return 0;
}

static int run_opt(struct cli_parse *p, int key, char *err, size_t errlen)
{
	struct run_opts *o = p->dst;
	const char *arg = p->arg;
	int64_t ns;

	switch (key) {
	case OPT_POLICY:
		return parse_policy(arg, &o->policy, err, errlen);
	case OPT_RUNTIME:
		if (cli_time("--runtime", arg, 1000, 1000, 10LL * 1000000000, &ns, err, errlen))
			return -EINVAL;
		o->dl_runtime_ns = (uint64_t)ns;
		return 0;
	case OPT_DEADLINE:
		if (cli_time("--deadline", arg, 1000, 1000, 10LL * 1000000000, &ns, err, errlen))
			return -EINVAL;
		o->dl_deadline_ns = (uint64_t)ns;
		return 0;
	case OPT_PERIOD:
		if (cli_time("--period", arg, 1000, 1000, 10LL * 1000000000, &ns, err, errlen))
			return -EINVAL;
		o->dl_period_ns = (uint64_t)ns;
		return 0;
	case 'p':
		o->prio_set = true;
		return parse_int("--prio", arg, 1, 99, &o->prio, err, errlen);
	case 'c':
		rtr_cpuset_free(&o->cpus);
		o->cpus_set = true;
		return target_parse_cpulist("--cpus", arg, &o->cpus, err, errlen);
	case 'n':
		o->nice_set = true;
		return parse_int("--nice", arg, -20, 19, &o->nice, err, errlen);
	case OPT_MEMLOCK:
		o->memlock_set = true;
		return parse_bytes("--memlock-limit", arg, true, &o->memlock_bytes, err, errlen);
	case OPT_CPU_MAX:
		return parse_percent(arg, &o->cpu_max_pct, err, errlen);
	case OPT_RTTIME:
		/* From 1 ms (a period or two) to an hour, in us like the kernel's limit. */
		if (cli_time("--rttime", arg, 1000, 1000000, 3600LL * 1000000000, &ns, err, errlen))
			return -EINVAL;
		o->rttime_us = (uint64_t)(ns / 1000);
		return 0;
	case OPT_MEM_MAX:
		if (parse_bytes("--memory-max", arg, false, &o->memory_max_bytes, err, errlen))
			return -EINVAL;
		if (o->memory_max_bytes >= RUN_MEMORY_MAX_MIN)
			return 0;
		snprintf(err, errlen, "--memory-max: '%s' is below 1M: exec alone charges the new "
			 "stack and page tables to the cgroup, and the OOM killer would end the "
			 "program before it starts", arg);
		return -EINVAL;
	case 'r':
		o->report = arg;
		o->out_opts = true;
		return 0;
	case 'f':
		o->out_opts = true;
		return cli_parse_format(arg, &o->format, err, errlen);
	case 's':
		o->strict = true;
		o->out_opts = true;
		return 0;
	}
	return 0;
}

static void run_init(void *opts)
{
	((struct run_opts *)opts)->policy = -1;
}

/* CLI_COMMAND: the parse stopped at the command, so its own options are not taken for ours. */
static int run_done(void *opts, int argc, char **argv, int first, char *err, size_t errlen)
{
	struct run_opts *o = opts;

	o->cmd = argv + first;
	o->n_cmd = argc - first;
	return validate(o, o->prio_set, o->out_opts, err, errlen);
}

/* ---- running (src/run/session.c) ---- */

static int run_main(void *opts)
{
	const struct run_opts *o = opts;
	bool rt = o->policy == SCHED_FIFO || o->policy == SCHED_RR;
	const struct run_request rq = {
		{ .argv = o->cmd, .policy = o->policy, .prio = rt ? o->prio : 0,
		  .dl_runtime_ns = o->dl_runtime_ns, .dl_deadline_ns = o->dl_deadline_ns,
		  .dl_period_ns = o->dl_period_ns, .nice_set = o->nice_set, .nice = o->nice,
		  .cpus = o->cpus_set ? &o->cpus : NULL, .memlock_set = o->memlock_set,
		  .memlock_bytes = o->memlock_bytes, .memlock_raise = o->mlock,
		  .rttime_us = o->rttime_us },
		o->n_cmd, o->cpu_max_pct, o->memory_max_bytes, o->isolate, o->check, o->mlock,
		o->report,
	};
	const struct say say = CLI_SAY("run");
	struct run_session *s;
	char err[PATH_MAX + 64];
	int code = run_session_exec(&rq, &say, &s);

	if (code >= 0 && o->check) {
		if (run_render_report(s, &rq, o->format == FORMAT_JSON, cli_use_color, err,
				      sizeof(err))) {
			cli_error("run", "%s", err);
			code = EXIT_USAGE;
		} else if (o->strict && s->findings && code == 0) {
			code = EXIT_FINDINGS;
		}
	}
	run_session_free(s);
	return code < 0 ? EXIT_USAGE : code;
}

const struct cli_cmd run_cmd = {
	"run",
	"start a program with RT settings, a budget, and the runtime checker",
	"Usage: rtready run [OPTIONS] [--] COMMAND [ARGS...]\n"
	"\n"
	"Start COMMAND with realtime settings, a CPU and memory budget, and optionally the\n"
	"runtime checker, which reports checklist violations inside the program at its exit.\n"
	"\n"
	"Scheduling and limits:\n",
	CLI_CMD_OPTS(run_opts), 26,
	"\n"
	"If rtready is killed, the program gets SIGTERM. The next run removes the empty\n"
	"budget cgroups and partitions that killed rtready processes left, and names the\n"
	"ones that still hold processes (those are left alone).\n"
	"\n"
	"Exit status: the program's (its exit code, or 128 + signal); 1 with --strict and\n"
	"findings; 2 when rtready could not start the program (bad option, command not\n"
	"found or not executable, settings refused), with a message saying why.\n",
	CLI_COMMAND,
	CLI_CMD_STRUCT(struct run_opts), .init = run_init, .own = run_opt, .done = run_done,
	.run = run_main, .release = run_opts_free,
};
