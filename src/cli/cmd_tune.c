// SPDX-License-Identifier: MIT
/*
 * rtready tune: show (default), apply, revert or report the runtime fixes of
 * the checklist, or write the boot files that make them last. The options
 * go into struct tune_opts; the work is done by src/tune/ (plan, journal,
 * apply, boot), the output by render/tune.c; this file only chooses the
 * mode, fills the view and sets the exit code.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/opt.h"
#include "cli/cmd_tune.h"
#include "render/json.h"
#include "render/tune.h"
#include "probe/tuned.h"
#include "tune/apply.h"
#include "tune/boot.h"
#include "tune/isolate.h"
#include "tune/journal.h"
#include "tune/plan.h"
#include "tune/session.h"
#include "util/parse.h"
#include "util/strbuf.h"
#include "util/utf8.h"

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

static int tune_main(void *opts);

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
	CLI_OPT_RT_CPUS("rt-cpus", 'c', "LIST",
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
	CLI_OPT_ROOT("plan from a snapshot under DIR (dry run and --emit-boot only)"),
	CLI_OPT_FORMAT('f'),
	CLI_OPT_HELP('h'),
	CLI_OPT_VERSION,
};

const struct cli_cmd tune_cmd = {
	"tune",
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
	CLI_CMD_STRUCT(struct tune_opts), tune_opts_parse, tune_main, tune_opts_free,
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

int tune_opts_parse(int argc, char **argv, void *opts, char *err, size_t errlen)
{
	struct tune_opts *o = opts;
	const struct cli_common com = { &o->help, &o->version, &o->format, NULL, &o->root, &o->rt };
	struct cli_parse p;
	int rc;

	memset(o, 0, sizeof(*o));
	for (int id = 0; id < TUNE_COUNT; id++)
		o->enabled[id] = !tune_is_isolate((enum tune_id)id);
	o->idle_max_latency_us = TUNE_IDLE_MAX_LATENCY_US_DEFAULT;
	o->state_dir = TUNE_STATE_DIR_DEFAULT;
	o->root = "/";
	cli_parse_begin(&p, &tune_cmd, &com, o, argc, argv);
	rc = cli_parse(&p, tune_opt, err, errlen);
	if (rc == 0 && strcmp(o->root, "/") != 0 && o->mode != TUNE_MODE_PLAN &&
	    o->mode != TUNE_MODE_EMIT_BOOT) {
		snprintf(err, errlen,
			 "--root works only for a dry run and --emit-boot: "
			 "changes are made on the live system");
		rc = -EINVAL;
	}
	return rc;
}

/* The CPUs of a run: RT (given or resolved from the boot isolation), online, and the rest. */
struct cpus {
	const struct target *t;	/* the kernel release, the CPU sets, the RT CPUs */
	struct rtr_cpuset online, rt, nonrt;
	char rt_list[4096], nonrt_list[4096], online_list[4096];
};

static void cpus_free(struct cpus *c)
{
	rtr_cpuset_free(&c->online);
	rtr_cpuset_free(&c->rt);
	rtr_cpuset_free(&c->nonrt);
}

/*
 * Decide the RT CPUs (the same resolution as check: --rt-cpus, else the
 * isolated, isolcpus= or nohz_full CPUs) and check them. Return: 0, or -1
 * after printing why.
 */
static int resolve_cpus(const struct tune_opts *o, struct cpus *c)
{
	int err = c->t->facts.cpu.online_err;
	const char *src = rtcpus_source_name(c->t->rt.source);

	if (err) {
		cli_error("tune",
			  "cannot read the online CPUs (/sys/devices/system/cpu/online): %s",
			  strerror(-err));
		return -1;
	}
	if (!src) {
		cli_error("tune", "--rt-cpus LIST is needed: no isolated CPUs are declared "
				  "(isolcpus= or nohz_full= on the kernel command line)");
		return -1;
	}
	err = rtr_cpuset_copy(&c->online, &c->t->facts.cpu.online);
	err = err ?: rtr_cpuset_copy(&c->rt, &c->t->rt.cpus);
	err = err ?: rtr_cpuset_copy(&c->nonrt, &c->online);
	if (err) {
		cli_error("tune", "out of memory");
		return -1;
	}
	rtr_cpuset_andnot(&c->nonrt, &c->rt);
	rtr_cpuset_format_list(&c->rt, c->rt_list, sizeof(c->rt_list));
	rtr_cpuset_format_list(&c->nonrt, c->nonrt_list, sizeof(c->nonrt_list));
	rtr_cpuset_format_list(&c->online, c->online_list, sizeof(c->online_list));
	if (!rtr_cpuset_is_subset(&c->rt, &c->online)) {
		cli_error("tune", "--rt-cpus %s: not all of these CPUs are online (online: %s)",
			  c->rt_list, c->online_list);
		return -1;
	}
	if (rtr_cpuset_is_empty(&c->nonrt)) {
		cli_error("tune",
			  "RT CPUs %s leave no CPU for the rest of the system (online: %s); "
			  "keep at least one CPU out of --rt-cpus",
			  c->rt_list, c->online_list);
		return -1;
	}
	return 0;
}

/* ---- rendering (render/tune.c) ---- */

/* A view of @kind with the host block; the CPU lists only where a mode resolved them. */
static struct tune_view view_of(enum tune_view_kind kind, const struct tune_opts *o,
				const struct target *hf, const struct cpus *c)
{
	struct tune_view v = { .kind = kind, .state_dir = o->state_dir };

	v.host.kernel = hf->facts.kernel.release_err ? "" : (char *)hf->facts.kernel.release;
	v.host.cpus_online = (char *)hf->online_list;
	v.host.rt_cpus = c ? (char *)c->t->rt_list : "";	/* "(planned)" for --rt-cpus auto */
	v.host.root = (char *)o->root;
	if (c) {
		v.rt_list = c->rt_list;
		v.nonrt_list = c->nonrt_list;
	}
	return v;
}

/* Render @v in the chosen format. Return: @rc, or EXIT_USAGE when it cannot be written. */
static int emit(const struct tune_opts *o, const struct tune_view *v, int rc)
{
	int err;

	if (o->format == FORMAT_JSON) {
		json_t *j = tune_to_json(v);

		err = j ? json_write(stdout, j) : -ENOMEM;
		json_decref(j);
	} else {
		err = tune_text_write(stdout, v);
	}
	if (err) {
		cli_error("tune", "cannot write the result: %s", strerror(-err));
		return EXIT_USAGE;
	}
	return rc;
}

/* ---- modes ---- */

static int run_plan(const struct tune_opts *o, const struct rootfs *fs, const struct cpus *c,
		    struct tune_plan *p)
{
	struct tune_settings s = {0};
	char path[64];
	int err;

	/* A --pid that names no process would make a plan that moves nothing. */
	for (size_t i = 0; i < o->n_pids; i++) {
		if (rootfs_path(path, sizeof(path), "/proc/%d", o->pids[i]) ||
		    !rootfs_exists(fs, path)) {
			cli_error("tune", "--pid: no process with PID %d", o->pids[i]);
			return -ESRCH;
		}
	}
	s.rt = c->rt;
	s.nonrt = c->nonrt;
	memcpy(s.enabled, o->enabled, sizeof(s.enabled));
	s.idle_max_latency_us = o->idle_max_latency_us;
	s.skip_pid = (int)getpid();
	s.only_pids = o->pids;
	s.n_only_pids = o->n_pids;
	err = plan_build(fs, &s, p);
	if (err) {
		cli_error("tune", "cannot plan: %s", strerror(-err));
		return err;
	}
	if (o->enabled[TUNE_ISO_FIRST]) {
		char why[1024];

		err = isolate_plan(fs, &s, p, why, sizeof(why));
		if (err)
			cli_error("tune", "--isolate: %s",
				  err == -ENOMEM ? strerror(ENOMEM) : why);
		if (err)
			tune_plan_free(p);
	}
	return err;
}

static int mode_plan(const struct tune_opts *o, const struct rootfs *fs, const struct cpus *c)
{
	struct tune_view v = view_of(TUNE_VIEW_PLAN, o, c->t, c);
	struct tune_plan p;
	int rc;

	if (run_plan(o, fs, c, &p))
		return EXIT_USAGE;
	v.plan = &p;
	rc = emit(o, &v, EXIT_OK);
	tune_plan_free(&p);
	return rc;
}

/* Print what a step of the journal's policy said. */
static void say(const struct tune_say *s)
{
	if (s->warning[0])
		cli_warn("tune", "%s", s->warning);
	if (s->error[0])
		cli_error("tune", "%s", s->error);
}

static int mode_apply(const struct tune_opts *o, const struct rootfs *fs, const struct cpus *c)
{
	struct journal j = {0}, old = {0};
	struct tune_say msg = {0};
	struct apply_result res;
	char boot[64], t[64];
	bool carry = false;
	int dirfd, err, rc = EXIT_USAGE;

	err = journal_boot_id(fs, boot, sizeof(boot));
	if (err) {
		cli_error("tune", "cannot read the boot id: %s", strerror(-err));
		return EXIT_USAGE;
	}
	dirfd = tune_state_open(o->state_dir, true, &msg);
	err = dirfd < 0 ? dirfd :
	      tune_apply_begin(dirfd, o->state_dir, boot, &old, &carry, t, sizeof(t), &msg);
	say(&msg);
	if (err || run_plan(o, fs, c, &j.plan))
		goto out;
	if (carry) {
		size_t dropped;

		if (apply_carry_persistent(fs, &old, &j.plan, &dropped)) {
			cli_error("tune", "out of memory");
			goto out;
		}
		if (dropped)
			cli_warn("tune", "%zu file(s) changed by the apply at %s were edited since: "
				 "their original text is no longer journaled", dropped, t);
	}
	snprintf(j.boot_id, sizeof(j.boot_id), "%s", boot);
	/* A list longer than the journal keeps is cut: it is only shown by --status. */
	snprintf(j.rt_cpus, sizeof(j.rt_cpus), "%.*s", (int)sizeof(j.rt_cpus) - 1, c->rt_list);
	j.created_s = (int64_t)time(NULL);
	err = apply_run(fs, dirfd, &j, &res);
	if (err) {
		cli_error("tune",
			  "cannot write the journal in %s: %s; stopped before the next change "
			  "(run --revert to put back what was done)",
			  o->state_dir, strerror(-err));
		goto out;
	}
	{
		struct tune_view v = view_of(TUNE_VIEW_APPLY, o, c->t, c);

		v.plan = &j.plan;
		v.result = &res;
		rc = emit(o, &v, res.failed ? EXIT_FINDINGS : EXIT_OK);
	}
out:
	journal_free(&j);
	journal_free(&old);
	if (dirfd >= 0)
		close(dirfd);
	return rc;
}

/* "Nothing to revert" in the chosen format. Return: the exit code. */
static int nothing_to_revert(const struct tune_opts *o, const struct target *hf,
			     const char *why)
{
	struct tune_view v = view_of(TUNE_VIEW_NOTHING, o, hf, NULL);

	v.why = why;
	return emit(o, &v, EXIT_OK);
}

static int mode_revert(const struct tune_opts *o, const struct rootfs *fs,
		       const struct target *hf)
{
	struct apply_result res = {0};
	struct tune_say msg = {0};
	struct journal j = {0};
	const char *nothing = "no journal (no apply was made)";
	char t[64];
	int dirfd, err, rc = EXIT_USAGE;

	dirfd = tune_state_open(o->state_dir, false, &msg);
	err = dirfd < 0 ? dirfd : tune_journal_read(dirfd, o->state_dir, &j, &msg);
	if (!err) {
		tune_when(j.created_s, t, sizeof(t));
		err = tune_revert_begin(fs, &j, o->state_dir, t, &nothing, &msg);
	}
	say(&msg);
	if (err == -ENOENT || err == 1)
		rc = nothing_to_revert(o, hf, nothing);
	if (err)
		goto out;
	err = revert_run(fs, dirfd, &j, &res);
	if (err) {
		cli_error("tune",
			  "cannot write the journal in %s: %s; stopped (run --revert again)",
			  o->state_dir, strerror(-err));
		goto out;
	}
	{
		struct tune_view v = view_of(TUNE_VIEW_REVERT, o, hf, NULL);

		v.journal = &j;
		v.result = &res;
		v.when = t;
		rc = emit(o, &v, res.failed ? EXIT_FINDINGS : EXIT_OK);
	}
out:
	journal_free(&j);
	if (dirfd >= 0)
		close(dirfd);
	return rc;
}

static int mode_status(const struct tune_opts *o, const struct rootfs *fs,
		       const struct target *hf)
{
	struct tune_say msg = {0};
	struct journal j = {0};
	char boot[64] = "", t[64];
	int dirfd, err, rc = EXIT_USAGE;
	bool same;

	/* Status only reads: no lock, so that it works while another tune runs. */
	dirfd = journal_dir_open(o->state_dir, false);
	if (dirfd < 0 && dirfd != -ENOENT) {
		cli_error("tune", "cannot open the state directory %s: %s", o->state_dir,
			  strerror(-dirfd));
		return EXIT_USAGE;
	}
	err = dirfd < 0 ? -ENOENT : tune_journal_read(dirfd, o->state_dir, &j, &msg);
	say(&msg);
	if (err == -ENOENT) {
		struct tune_view v = view_of(TUNE_VIEW_NO_JOURNAL, o, hf, NULL);

		rc = emit(o, &v, EXIT_OK);
	}
	if (err)
		goto out;
	if (journal_boot_id(fs, boot, sizeof(boot)))
		boot[0] = '\0';
	same = strcmp(boot, j.boot_id) == 0;
	tune_when(j.created_s, t, sizeof(t));
	/* The values in effect, read once here: the renderings below only print them. */
	if (same && apply_read_current(fs, &j.plan)) {
		cli_error("tune", "out of memory");
		rc = EXIT_USAGE;
		goto out;
	}
	{
		struct tune_view v = view_of(TUNE_VIEW_STATUS, o, hf, NULL);

		v.journal = &j;
		v.when = t;
		v.this_boot = same;
		rc = emit(o, &v, EXIT_OK);
	}
out:
	journal_free(&j);
	if (dirfd >= 0)
		close(dirfd);
	return rc;
}

/* Say why the boot unit cannot name @path (@what: "--state-dir" or "binary"). */
static void unit_refused(const char *what, const char *path)
{
	char shown[512];

	/* Control characters as '?': the message must not carry them either. */
	utf8_scrub(shown, sizeof(shown), path, strlen(path), UTF8_SCRUB_CONTROLS);
	cli_error("tune",
		  "--emit-boot: %s '%s' holds a newline, another control character or bytes "
		  "that are not UTF-8, which a systemd unit line cannot carry; %s",
		  strcmp(what, "binary") == 0 ? "the path of this rtready binary" : "--state-dir",
		  shown,
		  strcmp(what, "binary") == 0 ? "install rtready under another directory"
					      : "choose another state directory");
}

static int mode_emit_boot(const struct tune_opts *o, const struct cpus *c)
{
	char *self = malloc(PATH_MAX);
	struct boot_settings s = {&c->rt,	&c->nonrt,  o->enabled, o->idle_max_latency_us,
				  o->state_dir, self};
	struct strbuf cmd = STRBUF_INIT, conf = STRBUF_INIT, unit = STRBUF_INIT;
	const char *bad = NULL;
	int err = self ? 0 : -ENOMEM, rc = EXIT_USAGE;

	/* The unit runs this very binary: a relocated tarball names its own place. */
	err = err ? err : boot_self_binary(self, PATH_MAX);
	if (err) {
		cli_error("tune",
			  "--emit-boot: cannot tell where this rtready binary is "
			  "(/proc/self/exe: %s), and the boot unit must name it",
			  err == -ENOENT ? "the binary was deleted or replaced since it started"
					 : strerror(-err));
		goto out;
	}
	boot_cmdline(&s, &cmd);
	boot_sysctl_conf(&s, &conf);
	err = boot_unit(&s, &unit, &bad);
	if (err == -EINVAL) {
		unit_refused(bad, strcmp(bad, "binary") == 0 ? self : o->state_dir);
		goto out;
	}
	if (err || cmd.err || conf.err) {
		cli_error("tune", "out of memory");
		goto out;
	}
	if (mkdir(o->boot_dir, 0755) < 0 && errno != EEXIST) {
		cli_error("tune", "--emit-boot: cannot create %s: %s", o->boot_dir,
			  strerror(errno));
		goto out;
	}
	err = boot_write_file(o->boot_dir, BOOT_SYSCTL_NAME, strbuf_str(&conf));
	err = err ? err : boot_write_file(o->boot_dir, BOOT_UNIT_NAME, strbuf_str(&unit));
	if (err) {
		cli_error("tune", "--emit-boot: cannot write into %s: %s", o->boot_dir,
			  strerror(-err));
		goto out;
	}
	{
		struct tune_view v = view_of(TUNE_VIEW_EMIT_BOOT, o, c->t, c);

		v.cmdline = strbuf_str(&cmd);
		v.boot_dir = o->boot_dir;
		v.boot_files[0] = BOOT_SYSCTL_NAME;
		v.boot_files[1] = BOOT_UNIT_NAME;
		rc = emit(o, &v, EXIT_OK);
	}
out:
	strbuf_free(&cmd);
	strbuf_free(&conf);
	strbuf_free(&unit);
	free(self);
	return rc;
}

/* One line on stderr when tuned has a profile: it writes the same knobs (see sys.tuned). */
static void warn_tuned(const struct rootfs *fs)
{
	struct tuned_facts t;

	probe_tuned(fs, &t);
	if (!t.profile_err && t.profile[0])
		cli_warn("tune", "tuned profile '%s' is active (/etc/tuned/active_profile): tuned "
			 "sets governors, THP and sysctls too and rewrites them when it restarts; "
			 "give them one owner (tuned-adm off first, see rtready check --only "
			 "sys.tuned)", t.profile);
}

static int tune_main(void *opts)
{
	const struct tune_opts *o = opts;
	/* On the heap: ~30 KiB of CPU lists and paths would not fit under ulimit -s 32. */
	struct cpus *c = calloc(1, sizeof(*c));
	struct target *t = c ? cli_target("tune", o->root, &o->rt, TARGET_HOST) : NULL;
	const struct rootfs *fs;
	int rc;

	if (!t) {
		if (!c)
			cli_error("tune", "out of memory");
		free(c);
		return EXIT_USAGE;
	}
	fs = &t->fs;
	c->t = t;
	rc = EXIT_USAGE; /* unless a mode runs */
	if (o->mode == TUNE_MODE_REVERT) {
		rc = mode_revert(o, fs, t);
	} else if (o->mode == TUNE_MODE_STATUS) {
		rc = mode_status(o, fs, t);
	} else if (resolve_cpus(o, c) == 0) {
		if (o->mode != TUNE_MODE_EMIT_BOOT)
			warn_tuned(fs);
		if (o->mode == TUNE_MODE_APPLY)
			rc = mode_apply(o, fs, c);
		else if (o->mode == TUNE_MODE_EMIT_BOOT)
			rc = mode_emit_boot(o, c);
		else
			rc = mode_plan(o, fs, c);
	}
	cpus_free(c);
	free(c);
	cli_target_free(t);
	return rc;
}
