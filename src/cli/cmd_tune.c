// SPDX-License-Identifier: MIT
/*
 * rtready tune: show (default), apply, revert or report the runtime fixes of
 * the checklist, or write the boot files that make them last. The options
 * go into struct tune_opts; the mode runs in src/tune/mode.c (plan, journal,
 * apply, boot), the output is render/tune.c's; this file only hands the
 * options over and sets the exit code.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/opt.h"
#include "cli/cmd_tune.h"
#include "job/job.h"
#include "render/tune.h"
#include "tune/boot.h"
#include "tune/mode.h"
#include "tune/plan.h"
#include "util/parse.h"

/* Keys of the options without a short letter. */
enum {
	OPT_APPLY = 256,
	OPT_REVERT,
	OPT_STATUS,
	OPT_EMIT_BOOT,
	OPT_STATE_DIR,
	OPT_IDLE_MAX,
	OPT_SWITCH,
	OPT_PID,
	OPT_ISOLATE,
};

static const struct cli_opt tune_opts[] = {
	{ "apply", OPT_APPLY, CLI_NOARG, NULL,
	  "make the changes, journalling every old value first", NULL, CLI_OWN, 0 },
	{ "revert", OPT_REVERT, CLI_NOARG, NULL,
	  "put back exactly what the last --apply changed", NULL, CLI_OWN, 0 },
	{ "status", OPT_STATUS, CLI_NOARG, NULL,
	  "show the journal: what is applied, and the values now", NULL, CLI_OWN, 0 },
	{ "emit-boot", OPT_EMIT_BOOT, CLI_ARG, "DIR",
	  "print the kernel command-line parameters and write\n"
	  "DIR/" BOOT_SYSCTL_NAME " and DIR/" BOOT_UNIT_NAME, "@dir", CLI_OWN, 0 },
	{ NULL, 0, CLI_NOARG, NULL, "Options:\n", NULL, CLI_OWN, 0 },
	CLI_OPT_RT_CPUS(struct tune_opts, rt, "rt-cpus", 'c', "LIST",
			"CPUs reserved for realtime work (default: those the boot\n"
			"isolates: isolated, isolcpus= or nohz_full, as check);\n"
			"at least one online CPU must stay non-RT; auto or\n"
			"auto:N: the choice of rtready plan (N CPUs)"),
	{ "keep-throttling", OPT_SWITCH, CLI_NOARG, NULL,
	  "leave kernel.sched_rt_runtime_us alone", NULL, CLI_OWN, 0 },
	{ "no-irqs", OPT_SWITCH, CLI_NOARG, NULL,
	  "leave IRQ affinities (default and per IRQ) alone", NULL, CLI_OWN, 0 },
	{ "no-workqueue", OPT_SWITCH, CLI_NOARG, NULL,
	  "leave the unbound workqueue cpumask alone", NULL, CLI_OWN, 0 },
	{ "no-tasks", OPT_SWITCH, CLI_NOARG, NULL,
	  "leave task and kernel-thread affinities alone", NULL, CLI_OWN, 0 },
	{ "pid", OPT_PID, CLI_ARG, "PID[,PID...]",
	  "move only the threads of these processes\n"
	  "(default: every user task and movable kernel thread)", "@pid", CLI_OWN, 0 },
	{ "no-governor", OPT_SWITCH, CLI_NOARG, NULL,
	  "leave the cpufreq governor of the RT CPUs alone", NULL, CLI_OWN, 0 },
	{ "no-idle", OPT_SWITCH, CLI_NOARG, NULL,
	  "leave the idle states of the RT CPUs alone", NULL, CLI_OWN, 0 },
	{ "idle-max-latency", OPT_IDLE_MAX, CLI_ARG, "US",
	  "disable idle states whose exit latency is above US\n"
	  "microseconds (default 10)", NULL, CLI_OWN, 0 },
	{ "no-thp", OPT_SWITCH, CLI_NOARG, NULL,
	  "leave transparent huge pages alone", NULL, CLI_OWN, 0 },
	{ "no-timer-migration", OPT_SWITCH, CLI_NOARG, NULL,
	  "leave kernel.timer_migration alone", NULL, CLI_OWN, 0 },
	{ "no-watchdog", OPT_SWITCH, CLI_NOARG, NULL,
	  "leave kernel.watchdog_cpumask alone", NULL, CLI_OWN, 0 },
	{ "no-hung-task", OPT_SWITCH, CLI_NOARG, NULL,
	  "leave kernel.hung_task_timeout_secs alone", NULL, CLI_OWN, 0 },
	{ "no-ksm", OPT_SWITCH, CLI_NOARG, NULL,
	  "leave KSM (/sys/kernel/mm/ksm/run) alone", NULL, CLI_OWN, 0 },
	{ "no-numa-balancing", OPT_SWITCH, CLI_NOARG, NULL,
	  "leave kernel.numa_balancing alone", NULL, CLI_OWN, 0 },
	{ "no-fair-server", OPT_SWITCH, CLI_NOARG, NULL,
	  "leave the 6.12+ fair server of the RT CPUs alone", NULL, CLI_OWN, 0 },
	{ "no-irqbalance", OPT_SWITCH, CLI_NOARG, NULL,
	  "leave irqbalance's environment file alone", NULL, CLI_OWN, 0 },
	{ "isolate", OPT_ISOLATE, CLI_NOARG, NULL,
	  "also make the RT CPUs a cgroup v2 isolated partition\n"
	  "(" TUNE_ISO_GROUP_PATH "): no reboot, no tick,\n"
	  "RCU or managed-IRQ isolation (Linux 6.8+, cgroup v2)", NULL, CLI_OWN, 0 },
	{ "state-dir", OPT_STATE_DIR, CLI_ARG, "DIR",
	  "where the journal lives (default " TUNE_STATE_DIR_DEFAULT ")", "@dir", CLI_OWN, 0 },
	CLI_OPT_ROOT(struct tune_opts, "plan from a snapshot under DIR (dry run and --emit-boot only)"),
	CLI_OPT_FORMAT(struct tune_opts, 'f'),
};

void tune_opts_free(void *opts)
{
	struct tune_opts *o = opts;

	rt_request_free(&o->rt);
	free(o->pids);
	memset(o, 0, sizeof(*o));
}

/* Switch off every row that this option names (--no-irqs names two). */
static void switch_off(struct tune_opts *o, const char *opt)
{
	for (int id = 0; id < TUNE_COUNT; id++)
		if (strcmp(tunable_get((enum tune_id)id)->switch_opt, opt) == 0)
			o->enabled[id] = false;
}

static int set_mode(struct tune_opts *o, enum tune_mode m, char *err, size_t errlen)
{
	if (o->mode_given && o->mode != m) {
		snprintf(err, errlen,
			 "--apply, --revert, --status and --emit-boot exclude each other");
		return -EINVAL;
	}
	o->mode_given = true;
	o->mode = m;
	return 0;
}

/* "12,345": append each to o->pids. */
static int add_pids(struct tune_opts *o, const char *arg, char *err, size_t errlen)
{
	char *copy = strdup(arg), *save = NULL;
	int rc = copy ? 0 : -ENOMEM;

	for (char *t = copy ? strtok_r(copy, ",", &save) : NULL; t && rc == 0;
	     t = strtok_r(NULL, ",", &save)) {
		int64_t v;
		int *n;

		if (parse_int64(t, 1, INT32_MAX, &v)) {
			snprintf(err, errlen, "--pid: '%s' is not a process id", t);
			rc = -EINVAL;
			break;
		}
		n = realloc(o->pids, (o->n_pids + 1) * sizeof(*n));
		if (!n) {
			rc = -ENOMEM;
			break;
		}
		o->pids = n;
		o->pids[o->n_pids++] = (int)v;
	}
	if (rc == 0 && o->n_pids == 0) {
		snprintf(err, errlen, "--pid: no process id given");
		rc = -EINVAL;
	}
	if (rc == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	free(copy);
	return rc;
}

static int tune_opt(struct cli_parse *p, int key, char *err, size_t errlen)
{
	struct tune_opts *o = p->dst;
	char opt[64];

	switch (key) {
	case OPT_APPLY:
		return set_mode(o, TUNE_MODE_APPLY, err, errlen);
	case OPT_REVERT:
		return set_mode(o, TUNE_MODE_REVERT, err, errlen);
	case OPT_STATUS:
		return set_mode(o, TUNE_MODE_STATUS, err, errlen);
	case OPT_EMIT_BOOT:
		o->boot_dir = p->arg;
		if (set_mode(o, TUNE_MODE_EMIT_BOOT, err, errlen))
			return -EINVAL;
		if (*p->arg)
			return 0;
		snprintf(err, errlen, "--emit-boot: empty directory name");
		return -EINVAL;
	case OPT_STATE_DIR:
		o->state_dir = p->arg;
		if (p->arg[0] == '/')
			return 0;
		snprintf(err, errlen, "--state-dir: '%s' is not an absolute path", p->arg);
		return -EINVAL;
	case OPT_IDLE_MAX:
		if (parse_int64(p->arg, 0, 10000000, &o->idle_max_latency_us) == 0)
			return 0;
		snprintf(err, errlen, "--idle-max-latency: '%s' is not a number of microseconds "
			 "(0-10000000)", p->arg);
		return -EINVAL;
	case OPT_SWITCH:
		snprintf(opt, sizeof(opt), "--%s", p->name);
		switch_off(o, opt);
		return 0;
	case OPT_PID:
		return add_pids(o, p->arg, err, errlen);
	case OPT_ISOLATE:
		for (int id = TUNE_ISO_FIRST; id < TUNE_COUNT; id++)
			o->enabled[id] = true;
		return 0;
	}
	return 0;
}

static void tune_init(void *opts)
{
	struct tune_opts *o = opts;

	for (int id = 0; id < TUNE_COUNT; id++)
		o->enabled[id] = !tune_is_isolate((enum tune_id)id);
	o->idle_max_latency_us = TUNE_IDLE_MAX_LATENCY_US_DEFAULT;
	o->state_dir = TUNE_STATE_DIR_DEFAULT;
	o->root = "/";
}

static int tune_done(void *opts, int argc, char **argv, int first, char *err, size_t errlen)
{
	const struct tune_opts *o = opts;

	if (strcmp(o->root, "/") == 0 || o->mode == TUNE_MODE_PLAN || o->mode == TUNE_MODE_EMIT_BOOT)
		return 0;
	snprintf(err, errlen, "--root works only for a dry run and --emit-boot: changes are made "
		 "on the live system");
	return -EINVAL;
}

/* The mode (src/tune/mode.c), then its view (render/tune.c). Return: the exit code. */
static int tune_execute(const struct tune_opts *o, const struct target *t)
{
	const struct tune_request rq = { o->mode, o->enabled, o->idle_max_latency_us, o->pids,
					 o->n_pids, o->state_dir, o->boot_dir, o->root };
	const struct say say = CLI_SAY("tune");
	struct tune_outcome *out;
	int rc = tune_mode_run(&rq, t, &say, &out);

	if (!rc && (rc = tune_render(stdout, &out->view, o->format == FORMAT_JSON)) != 0)
		cli_error("tune", "cannot write the result: %s", strerror(-rc));
	rc = rc ? EXIT_USAGE : out->failed ? EXIT_FINDINGS : EXIT_OK;
	tune_outcome_free(out);
	return rc;
}

static int tune_main(void *opts)
{
	const struct tune_opts *o = opts;
	struct target *t = job_target(&(const struct job_ui)CLI_JOB_UI("tune", NULL), o->root, &o->rt,
				      TARGET_HOST);
	int rc = t ? tune_execute(o, t) : EXIT_USAGE;

	job_target_free(t);
	return rc;
}

const struct cli_cmd tune_cmd = {
	"tune",
	"apply the runtime fixes with a crash-safe revert; write boot files",
	"Usage: rtready tune [--rt-cpus LIST] [--apply | --revert | --status | --emit-boot DIR]\n"
	"\n"
	"Apply the runtime fixes of the realtime checklist, with an exact, crash-safe revert.\n"
	"Without a mode it is a dry run: it prints each change (file or task, old value,\n"
	"new value, the check it fixes) and changes nothing.\n"
	"\n"
	"Modes:\n",
	CLI_CMD_OPTS(tune_opts), 26,
	"\n"
	"Exit status: 0 done (or nothing to do), 1 a change could not be made or put back,\n"
	"2 usage error, or the tool could not do its job (journal, refusal).\n",
	CLI_NO_OPERANDS,
	CLI_CMD_STRUCT(struct tune_opts), .init = tune_init, .own = tune_opt, .done = tune_done,
	.run = tune_main, .release = tune_opts_free,
};
