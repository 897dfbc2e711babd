// SPDX-License-Identifier: MIT
/* The modes of `rtready tune`; see mode.h. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "probe/tuned.h"
#include "tune/boot.h"
#include "tune/isolate.h"
#include "tune/mode.h"
#include "tune/session.h"
#include "util/utf8.h"

/*
 * Decide the RT CPUs (the same resolution as check: --rt-cpus, else the
 * isolated, isolcpus= or nohz_full CPUs) and check them. Return: 0, or
 * -errno after saying why.
 */
static int resolve_cpus(const struct target *t, struct tune_outcome *c, const struct say *s)
{
	int err = t->facts.cpu.online_err;

	if (err) {
		say(s, false, "cannot read the online CPUs (/sys/devices/system/cpu/online): %s",
		    strerror(-err));
		return err;
	}
	if (!rtcpus_source_name(t->rt.source)) {
		say(s, false, "--rt-cpus LIST is needed: no isolated CPUs are declared "
		    "(isolcpus= or nohz_full= on the kernel command line)");
		return -EINVAL;
	}
	err = rtr_cpuset_copy(&c->online, &t->facts.cpu.online);
	err = err ?: rtr_cpuset_copy(&c->rt, &t->rt.cpus);
	err = err ?: rtr_cpuset_copy(&c->nonrt, &c->online);
	if (err) {
		say(s, false, "out of memory");
		return err;
	}
	rtr_cpuset_andnot(&c->nonrt, &c->rt);
	rtr_cpuset_format_list(&c->rt, c->rt_list, sizeof(c->rt_list));
	rtr_cpuset_format_list(&c->nonrt, c->nonrt_list, sizeof(c->nonrt_list));
	rtr_cpuset_format_list(&c->online, c->online_list, sizeof(c->online_list));
	if (!rtr_cpuset_is_subset(&c->rt, &c->online)) {
		say(s, false, "--rt-cpus %s: not all of these CPUs are online (online: %s)",
		    c->rt_list, c->online_list);
		return -EINVAL;
	}
	if (rtr_cpuset_is_empty(&c->nonrt)) {
		say(s, false, "RT CPUs %s leave no CPU for the rest of the system (online: %s); "
		    "keep at least one CPU out of --rt-cpus", c->rt_list, c->online_list);
		return -EINVAL;
	}
	return 0;
}

/* A view of @kind with the host block; the CPU lists only where a mode resolved them. */
static void view_of(enum tune_view_kind kind, const struct tune_request *rq,
		    const struct target *t, struct tune_outcome *c, bool cpus)
{
	struct tune_view *v = &c->view;

	v->kind = kind;
	v->state_dir = rq->state_dir;
	v->host.kernel = t->facts.kernel.release_err ? "" : (char *)t->facts.kernel.release;
	v->host.cpus_online = (char *)t->online_list;
	v->host.rt_cpus = cpus ? (char *)t->rt_list : "";	/* "(planned)" for --rt-cpus auto */
	v->host.root = (char *)rq->root;
	if (cpus) {
		v->rt_list = c->rt_list;
		v->nonrt_list = c->nonrt_list;
	}
}

static int run_plan(const struct tune_request *rq, const struct rootfs *fs,
		    const struct tune_outcome *c, struct tune_plan *p, const struct say *say_to)
{
	struct tune_settings s = {0};
	char path[64];
	int err;

	/* A --pid that names no process would make a plan that moves nothing. */
	for (size_t i = 0; i < rq->n_pids; i++) {
		if (rootfs_path(path, sizeof(path), "/proc/%d", rq->pids[i]) ||
		    !rootfs_exists(fs, path)) {
			say(say_to, false, "--pid: no process with PID %d", rq->pids[i]);
			return -ESRCH;
		}
	}
	s.rt = c->rt;
	s.nonrt = c->nonrt;
	memcpy(s.enabled, rq->enabled, sizeof(s.enabled));
	s.idle_max_latency_us = rq->idle_max_latency_us;
	s.skip_pid = (int)getpid();
	s.only_pids = rq->pids;
	s.n_only_pids = rq->n_pids;
	err = plan_build(fs, &s, p);
	if (err) {
		say(say_to, false, "cannot plan: %s", strerror(-err));
		return err;
	}
	if (rq->enabled[TUNE_ISO_FIRST]) {
		char why[1024];

		err = isolate_plan(fs, &s, p, why, sizeof(why));
		if (err)
			say(say_to, false, "--isolate: %s", err == -ENOMEM ? strerror(ENOMEM) : why);
		if (err)
			tune_plan_free(p);
	}
	return err;
}

/* Hand on what a step of the journal's policy said. */
static void say_step(const struct say *s, const struct tune_say *msg)
{
	if (msg->warning[0])
		s->line(s->ctx, true, msg->warning);
	if (msg->error[0])
		s->line(s->ctx, false, msg->error);
}

static int mode_apply(const struct tune_request *rq, const struct target *t,
		      struct tune_outcome *c, const struct say *s)
{
	const struct rootfs *fs = &t->fs;
	struct tune_say msg = {0};
	char boot[64];
	bool carry = false;
	int dirfd, err;

	err = journal_boot_id(fs, boot, sizeof(boot));
	if (err) {
		say(s, false, "cannot read the boot id: %s", strerror(-err));
		return err;
	}
	dirfd = tune_state_open(rq->state_dir, true, &msg);
	err = dirfd < 0 ? dirfd :
	      tune_apply_begin(dirfd, rq->state_dir, boot, &c->old, &carry, c->when,
			       sizeof(c->when), &msg);
	say_step(s, &msg);
	err = err ?: run_plan(rq, fs, c, &c->j.plan, s);
	if (err)
		goto out;
	if (carry) {
		size_t dropped;

		err = apply_carry_persistent(fs, &c->old, &c->j.plan, &dropped);
		if (err) {
			say(s, false, "out of memory");
			goto out;
		}
		if (dropped)
			say(s, true, "%zu file(s) changed by the apply at %s were edited since: "
			    "their original text is no longer journaled", dropped, c->when);
	}
	snprintf(c->j.boot_id, sizeof(c->j.boot_id), "%s", boot);
	/* A list longer than the journal keeps is cut: it is only shown by --status. */
	snprintf(c->j.rt_cpus, sizeof(c->j.rt_cpus), "%.*s", (int)sizeof(c->j.rt_cpus) - 1,
		 c->rt_list);
	c->j.created_s = (int64_t)time(NULL);
	err = apply_run(fs, dirfd, &c->j, &c->res);
	if (err) {
		say(s, false, "cannot write the journal in %s: %s; stopped before the next change "
		    "(run --revert to put back what was done)", rq->state_dir, strerror(-err));
		goto out;
	}
	view_of(TUNE_VIEW_APPLY, rq, t, c, true);
	c->view.plan = &c->j.plan;
	c->view.result = &c->res;
	c->failed = c->res.failed;
out:
	if (dirfd >= 0)
		close(dirfd);
	return err;
}

static int mode_status(const struct tune_request *rq, const struct target *t,
		       struct tune_outcome *c, const struct say *s)
{
	struct tune_say msg = {0};
	char boot[64] = "";
	int dirfd, err;

	/* Status only reads: no lock, so that it works while another tune runs. */
	dirfd = journal_dir_open(rq->state_dir, false);
	if (dirfd < 0 && dirfd != -ENOENT) {
		say(s, false, "cannot open the state directory %s: %s", rq->state_dir,
		    strerror(-dirfd));
		return dirfd;
	}
	err = dirfd < 0 ? -ENOENT : tune_journal_read(dirfd, rq->state_dir, &c->j, &msg);
	say_step(s, &msg);
	if (dirfd >= 0)
		close(dirfd);
	if (err == -ENOENT) {
		view_of(TUNE_VIEW_NO_JOURNAL, rq, t, c, false);
		return 0;
	}
	if (err)
		return err;
	if (journal_boot_id(&t->fs, boot, sizeof(boot)))
		boot[0] = '\0';
	view_of(TUNE_VIEW_STATUS, rq, t, c, false);
	c->view.this_boot = strcmp(boot, c->j.boot_id) == 0;
	tune_when(c->j.created_s, c->when, sizeof(c->when));
	/* The values in effect, read once here: the renderings only print them. */
	if (c->view.this_boot && apply_read_current(&t->fs, &c->j.plan)) {
		say(s, false, "out of memory");
		return -ENOMEM;
	}
	c->view.journal = &c->j;
	c->view.when = c->when;
	return 0;
}

static int mode_revert(const struct tune_request *rq, const struct target *t,
		       struct tune_outcome *c, const struct say *s)
{
	struct tune_say msg = {0};
	const char *nothing = "no journal (no apply was made)";
	int dirfd, err;

	dirfd = tune_state_open(rq->state_dir, false, &msg);
	err = dirfd < 0 ? dirfd : tune_journal_read(dirfd, rq->state_dir, &c->j, &msg);
	if (!err) {
		tune_when(c->j.created_s, c->when, sizeof(c->when));
		err = tune_revert_begin(&t->fs, &c->j, rq->state_dir, c->when, &nothing, &msg);
	}
	say_step(s, &msg);
	if (err == -ENOENT || err == 1) {
		view_of(TUNE_VIEW_NOTHING, rq, t, c, false);
		c->view.why = nothing;
		err = 0;
	} else if (!err) {
		err = revert_run(&t->fs, dirfd, &c->j, &c->res);
		if (err)
			say(s, false, "cannot write the journal in %s: %s; stopped (run --revert "
			    "again)", rq->state_dir, strerror(-err));
		view_of(TUNE_VIEW_REVERT, rq, t, c, false);
		c->view.journal = &c->j;
		c->view.result = &c->res;
		c->view.when = c->when;
		c->failed = c->res.failed;
	}
	if (dirfd >= 0)
		close(dirfd);
	return err;
}

/* Say why the boot unit cannot name @path (@what: "--state-dir" or "binary"). */
static void unit_refused(const struct say *s, const char *what, const char *path)
{
	char shown[512];

	/* Control characters as '?': the message must not carry them either. */
	utf8_scrub(shown, sizeof(shown), path, strlen(path), UTF8_SCRUB_CONTROLS);
	say(s, false, "--emit-boot: %s '%s' holds a newline, another control character or bytes "
	    "that are not UTF-8, which a systemd unit line cannot carry; %s",
	    strcmp(what, "binary") == 0 ? "the path of this rtready binary" : "--state-dir",
	    shown,
	    strcmp(what, "binary") == 0 ? "install rtready under another directory"
					: "choose another state directory");
}

static int mode_emit_boot(const struct tune_request *rq, const struct target *t,
			  struct tune_outcome *c, const struct say *s)
{
	char *self = malloc(PATH_MAX);
	struct boot_settings bs = { &c->rt, &c->nonrt, rq->enabled, rq->idle_max_latency_us,
				    rq->state_dir, self };
	struct strbuf conf = STRBUF_INIT, unit = STRBUF_INIT;
	const char *bad = NULL;
	int err = self ? 0 : -ENOMEM;

	/* The unit runs this very binary: a relocated tarball names its own place. */
	err = err ? err : boot_self_binary(self, PATH_MAX);
	if (err) {
		say(s, false, "--emit-boot: cannot tell where this rtready binary is "
		    "(/proc/self/exe: %s), and the boot unit must name it",
		    err == -ENOENT ? "the binary was deleted or replaced since it started"
				   : strerror(-err));
		goto out;
	}
	boot_cmdline(&bs, &c->cmdline);
	boot_sysctl_conf(&bs, &conf);
	err = boot_unit(&bs, &unit, &bad);
	if (err == -EINVAL) {
		unit_refused(s, bad, strcmp(bad, "binary") == 0 ? self : rq->state_dir);
		goto out;
	}
	if (err || c->cmdline.err || conf.err) {
		say(s, false, "out of memory");
		err = -ENOMEM;
		goto out;
	}
	if (mkdir(rq->boot_dir, 0755) < 0 && errno != EEXIST) {
		err = -errno;
		say(s, false, "--emit-boot: cannot create %s: %s", rq->boot_dir, strerror(-err));
		goto out;
	}
	err = boot_write_file(rq->boot_dir, BOOT_SYSCTL_NAME, strbuf_str(&conf));
	err = err ? err : boot_write_file(rq->boot_dir, BOOT_UNIT_NAME, strbuf_str(&unit));
	if (err) {
		say(s, false, "--emit-boot: cannot write into %s: %s", rq->boot_dir,
		    strerror(-err));
		goto out;
	}
	view_of(TUNE_VIEW_EMIT_BOOT, rq, t, c, true);
	c->view.cmdline = strbuf_str(&c->cmdline);
	c->view.boot_dir = rq->boot_dir;
	c->view.boot_files[0] = BOOT_SYSCTL_NAME;
	c->view.boot_files[1] = BOOT_UNIT_NAME;
out:
	strbuf_free(&conf);
	strbuf_free(&unit);
	free(self);
	return err;
}

/* A warning when tuned has a profile: it writes the same knobs (see sys.tuned). */
static void warn_tuned(const struct rootfs *fs, const struct say *s)
{
	struct tuned_facts t;

	probe_tuned(fs, &t);
	if (!t.profile_err && t.profile[0])
		say(s, true, "tuned profile '%s' is active (/etc/tuned/active_profile): tuned "
		    "sets governors, THP and sysctls too and rewrites them when it restarts; "
		    "give them one owner (tuned-adm off first, see rtready check --only "
		    "sys.tuned)", t.profile);
}

int tune_mode_run(const struct tune_request *rq, const struct target *t, const struct say *s,
		  struct tune_outcome **out)
{
	/* On the heap: ~30 KiB of CPU lists and paths would not fit under ulimit -s 32. */
	struct tune_outcome *c = calloc(1, sizeof(*c));
	int err;

	*out = c;
	if (!c) {
		say(s, false, "out of memory");
		return -ENOMEM;
	}
	if (rq->mode == TUNE_MODE_REVERT)
		return mode_revert(rq, t, c, s);
	if (rq->mode == TUNE_MODE_STATUS)
		return mode_status(rq, t, c, s);
	err = resolve_cpus(t, c, s);
	if (err)
		return err;
	if (rq->mode != TUNE_MODE_EMIT_BOOT)
		warn_tuned(&t->fs, s);
	if (rq->mode == TUNE_MODE_APPLY)
		return mode_apply(rq, t, c, s);
	if (rq->mode == TUNE_MODE_EMIT_BOOT)
		return mode_emit_boot(rq, t, c, s);
	err = run_plan(rq, &t->fs, c, &c->plan, s);
	if (!err) {
		view_of(TUNE_VIEW_PLAN, rq, t, c, true);
		c->view.plan = &c->plan;
	}
	return err;
}

void tune_outcome_free(struct tune_outcome *o)
{
	if (!o)
		return;
	rtr_cpuset_free(&o->online);
	rtr_cpuset_free(&o->rt);
	rtr_cpuset_free(&o->nonrt);
	tune_plan_free(&o->plan);
	journal_free(&o->j);
	journal_free(&o->old);
	strbuf_free(&o->cmdline);
	free(o);
}
