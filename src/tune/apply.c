// SPDX-License-Identifier: MIT
/*
 * Apply and revert; see apply.h. Writes go only to files a tunable's
 * pattern allows (/proc/sys, /proc/irq, /sys), opened inside the root
 * without following symlinks, one write() each. Tasks are identified by
 * tid and start time: a tid that was reused by a new task is never touched.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>


#include "probe/cgroupfs.h"
#include "probe/procstat.h"
#include "tune/apply.h"
#include "tune/plan.h"

bool apply_refusal_expected(const struct tune_change *c)
{
	if (c->id == TUNE_IRQS)
		return c->err == EIO || c->err == EPERM || c->err == EINVAL;
	if (c->id == TUNE_TASKS)
		return c->err == ESRCH || c->err == EINVAL;
	return false;
}

/* One write() of @value into @path; a short write is an error, not retried. */
static int write_value(const struct rootfs *fs, const struct tunable *t, const char *path,
		       const char *value)
{
	/* An empty value is written as a newline: the kernel parsers read it as empty. */
	const char *data = *value ? value : "\n";

	if (!tunable_path_allowed(t, path))
		return -EPERM;
	/* A cgroup is made or removed; nothing else is a value of it. */
	if (t->kind == TUNE_VAL_CGROUP) {
		int err;

		if (strcmp(value, "present") == 0) {
			err = rootfs_mkdir(fs, path, 0755);
			return err == -EEXIST ? 0 : err;
		}
		if (strcmp(value, "absent") != 0)
			return -EINVAL;
		err = rootfs_rmdir(fs, path);
		return err == -ENOENT ? 0 : err;
	}
	/* "+cpuset" enables, "-cpuset" disables: the kernel's own words for it. */
	if (t->kind == TUNE_VAL_CONTROLLER && strcmp(value, "+cpuset") != 0 &&
	    strcmp(value, "-cpuset") != 0)
		return -EINVAL;
	/* A configuration file: whole and byte for byte, never torn by a crash. */
	if (t->kind == TUNE_VAL_FILE)
		return rootfs_replace(fs, path, value, strlen(value));
	return rootfs_write(fs, path, data, strlen(data));
}

/* Whether @tid still names the task of @c (same start time). Return: 0, -ESRCH, -errno. */
static int task_same(const struct rootfs *fs, const struct tune_change *c)
{
	struct proc_stat ps;
	char path[64], *buf;
	size_t len;
	int err;

	if (!fs->host)
		return -EOPNOTSUPP;
	if (rootfs_path(path, sizeof(path), "/proc/%d/stat", c->tid))
		return -EINVAL;
	err = rootfs_read(fs, path, 16384, &buf, &len);
	if (err == -ENOENT)
		return -ESRCH;
	if (err)
		return err;
	err = parse_proc_stat(buf, len, &ps);
	free(buf);
	if (err)
		return err;
	return ps.pid == c->tid && ps.start_ticks == c->start_ticks ? 0 : -ESRCH;
}

static int task_get_list(int tid, char *out, size_t len)
{
	struct rtr_cpuset set = RTR_CPUSET_INIT;
	size_t size = CPU_ALLOC_SIZE(RTR_CPUSET_MAX_CPUS);
	cpu_set_t *cs = CPU_ALLOC(RTR_CPUSET_MAX_CPUS);
	int err = 0;

	if (!cs)
		return -ENOMEM;
	CPU_ZERO_S(size, cs);
	if (sched_getaffinity(tid, size, cs) < 0)
		err = -errno;
	err = err ? err : rtr_cpuset_from_sched(&set, cs, size);
	if (err == 0 && rtr_cpuset_format_list(&set, out, len) >= len)
		err = -ENOSPC;
	CPU_FREE(cs);
	rtr_cpuset_free(&set);
	return err;
}

static int task_set_list(int tid, const char *list)
{
	struct rtr_cpuset set = RTR_CPUSET_INIT;
	cpu_set_t *cs = NULL;
	size_t size;
	int err = rtr_cpuset_parse_list(&set, list);

	err = err ? err : rtr_cpuset_to_sched(&set, &cs, &size);
	if (err == 0 && sched_setaffinity(tid, size, cs) < 0)
		err = -errno;
	if (cs)
		CPU_FREE(cs);
	rtr_cpuset_free(&set);
	return err;
}

/* A cgroup's state ("present"/"absent") or a controller's ("+cpuset"/"-cpuset"). */
static int cgroup_current(const struct rootfs *fs, const struct tune_change *c, char *out,
			  size_t len)
{
	static const char *const cpuset[] = { "cpuset", NULL };
	const struct tunable *t = tunable_get(c->id);
	char dir[PATH_MAX];
	const char *slash = strrchr(c->path, '/');
	int rc;

	if (t->kind == TUNE_VAL_CGROUP) {
		snprintf(out, len, "%s", rootfs_exists(fs, c->path) ? "present" : "absent");
		return 0;
	}
	if (!slash || (size_t)(slash - c->path) >= sizeof(dir))
		return -EINVAL;
	snprintf(dir, sizeof(dir), "%.*s", (int)(slash - c->path), c->path);
	rc = cgroupfs_lists(fs, dir, slash + 1, cpuset);
	if (rc < 0)
		return rc;
	snprintf(out, len, "%s", rc ? "+cpuset" : "-cpuset");
	return 0;
}

int apply_current(const struct rootfs *fs, const struct tune_change *c, char **out)
{
	enum tune_value_kind kind;
	int err;

	*out = NULL;
	kind = c->path ? tunable_get(c->id)->kind : TUNE_VAL_AFFINITY;
	if (kind == TUNE_VAL_CGROUP || kind == TUNE_VAL_CONTROLLER) {
		*out = malloc(16);
		if (!*out)
			return -ENOMEM;
		err = cgroup_current(fs, c, *out, 16);
		if (err) {
			free(*out);
			*out = NULL;
		}
		return err;
	}
	if (c->path && tunable_get(c->id)->kind == TUNE_VAL_FILE)
		return plan_read_file(fs, c->path, out);
	*out = malloc(TUNE_VALUE_MAX);
	if (!*out)
		return -ENOMEM;
	if (!c->path) {
		err = task_same(fs, c);
		err = err ? err : task_get_list(c->tid, *out, TUNE_VALUE_MAX);
	} else {
		err = plan_read_value(fs, tunable_get(c->id), c->path, *out, TUNE_VALUE_MAX);
	}
	if (err) {
		free(*out);
		*out = NULL;
	}
	return err;
}

int apply_read_current(const struct rootfs *fs, struct tune_plan *p)
{
	for (size_t i = 0; i < p->n; i++) {
		struct tune_change *c = &p->changes[i];
		char *cur;
		int err;

		if (!journal_change_live(c))
			continue;
		err = apply_current(fs, c, &cur);
		if (err == -ENOMEM)
			return err;
		free(c->current);
		c->current = err ? strdup("gone") : cur;
		if (!c->current)
			return -ENOMEM;
	}
	return 0;
}

/*
 * After an IRQ moved, the kernel says where it really goes: some
 * controllers can target one CPU only, and some IRQs move only when they
 * next fire. Note it when an RT CPU is still in the effective affinity.
 */
static void verify_irq(const struct rootfs *fs, struct tune_change *c, const char *rt_cpus)
{
	struct rtr_cpuset eff = RTR_CPUSET_INIT, rt = RTR_CPUSET_INIT;
	char path[128], val[1024];
	size_t n = strlen(c->path);
	const char *suffix = "smp_affinity_list";

	if (n <= strlen(suffix) ||
	    (size_t)snprintf(path, sizeof(path), "%.*s%s", (int)(n - strlen(suffix)), c->path,
			     "effective_affinity_list") >= sizeof(path))
		return;
	if (rootfs_read_str(fs, path, val, sizeof(val)) != 0)
		return; /* no effective affinity on this kernel or architecture */
	if (rtr_cpuset_parse_list(&eff, val) == 0 && rtr_cpuset_parse_list(&rt, rt_cpus) == 0 &&
	    rtr_cpuset_intersects(&eff, &rt))
		(void)tune_change_set_note(
		    c,
		    "effective affinity is still %s: it moves when the IRQ next fires, "
		    "or the hardware cannot target the new CPUs",
		    val);
	rtr_cpuset_free(&eff);
	rtr_cpuset_free(&rt);
}

/*
 * irqbalance reads its environment file only when it starts: on the live
 * system under systemd, ask for a restart if it runs (try-restart, queued
 * with --no-block so that a slow unit cannot hold tune up); else say so.
 */
static void restart_irqbalance(const struct rootfs *fs, struct tune_change *c)
{
	char *const argv[] = { "systemctl", "--no-block", "try-restart", "irqbalance.service",
			       NULL };
	int status = -1;
	pid_t pid;

	if (fs->host && rootfs_exists(fs, "/run/systemd/system") &&
	    posix_spawnp(&pid, "systemctl", NULL, NULL, argv, environ) == 0 &&
	    waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		(void)tune_change_set_note(c, "irqbalance restarted to read it (if it was running)");
		return;
	}
	(void)tune_change_set_note(c, "restart irqbalance to make it read this (systemctl "
				      "restart irqbalance, or its init script)");
}

/* Apply one change; its state and err say how it went. */
static void apply_one(const struct rootfs *fs, struct tune_change *c, const char *rt_cpus)
{
	const struct tunable *t = tunable_get(c->id);
	char *back;
	int err;

	if (!c->path) {
		err = task_same(fs, c);
		err = err ? err : task_set_list(c->tid, c->new_value);
	} else {
		err = write_value(fs, t, c->path, c->new_value);
	}
	c->err = -err;
	c->state = err ? CHANGE_FAILED : CHANGE_APPLIED;
	(void)tune_change_set_note(c, NULL);
	if (err) {
		if (c->id == TUNE_ISO_PARTITION && err == -EINVAL)
			(void)tune_change_set_note(c, "the kernel refused the partition (EINVAL): "
						   "most often another group's cpuset.cpus (or "
						   "cpuset.cpus.exclusive) holds some of these CPUs");
		else if (tune_is_isolate(c->id))
			(void)tune_change_set_note(c, "the kernel refused it: %s", strerror(-err));
		if (apply_refusal_expected(c))
			(void)tune_change_set_note(
			    c, c->path
				   ? "the kernel keeps this IRQ where it is (a managed or per-CPU "
				     "IRQ, "
				     "or one the controller cannot move)"
				   : "the task exited, or its cpuset does not allow the new CPUs");
		return;
	}
	/* The kernel may normalize or quietly refuse: say what it holds now. */
	if (apply_current(fs, c, &back) == 0 && strcmp(back, c->new_value) != 0) {
		/*
		 * A partition the kernel cannot make is not refused: it reads
		 * "isolated invalid (reason)" and isolates nothing. A failure.
		 */
		if (c->id == TUNE_ISO_PARTITION) {
			c->state = CHANGE_FAILED;
			c->err = EINVAL;
			(void)tune_change_set_note(c, "the kernel did not make the partition: "
						   "it reads '%.200s'", back);
		} else {
			(void)tune_change_set_note(c, "reads back as '%.200s'", back);
		}
	}
	free(back);
	if (c->id == TUNE_IRQS)
		verify_irq(fs, c, rt_cpus);
	if (c->id == TUNE_IRQBALANCE)
		restart_irqbalance(fs, c);
}

/*
 * How many task changes share one journal update: at least
 * APPLY_TASK_BATCH, and more on a machine with many tasks so that the
 * journal is rewritten at most about APPLY_TASK_SAVES times for them (each
 * update rewrites the whole journal: one per task would be quadratic).
 */
static size_t task_batch(const struct tune_plan *p)
{
	size_t tasks = 0;

	for (size_t i = 0; i < p->n; i++)
		tasks += !p->changes[i].path;
	return tasks / APPLY_TASK_SAVES > APPLY_TASK_BATCH ? tasks / APPLY_TASK_SAVES
							   : APPLY_TASK_BATCH;
}

/* The end (exclusive) of the batch starting at @i: tasks go by @batch. */
static size_t batch_end(const struct tune_plan *p, size_t i, size_t batch)
{
	size_t e = i + 1;

	if (p->changes[i].path)
		return e;
	while (e < p->n && !p->changes[e].path && e - i < batch)
		e++;
	return e;
}

static void count(struct apply_result *res, const struct tune_change *c)
{
	if (c->state == CHANGE_APPLIED || c->state == CHANGE_REVERTED)
		res->done++;
	else if (apply_refusal_expected(c))
		res->refused++;
	else
		res->failed++;
}

static int revert_one(const struct rootfs *fs, struct tune_change *c);

/*
 * A step of the partition failed: undo the steps made (backwards, each
 * journalled), so that no half-made partition stays behind. Return: 0 or
 * the -errno of the journal.
 */
static int undo_isolate(const struct rootfs *fs, int dirfd, struct journal *j)
{
	struct tune_plan *p = &j->plan;

	for (size_t i = p->n; i-- > 0;) {
		struct tune_change *c = &p->changes[i];
		char *saved;
		int rc, err;

		if (!tune_is_isolate(c->id))
			continue;
		if (c->state == CHANGE_PENDING) {
			(void)tune_change_set_note(c, "not tried: an earlier step of the partition "
						   "failed");
			continue;
		}
		if (!journal_change_live(c) && c->state != CHANGE_FAILED)
			continue;
		/* The failed step keeps what the kernel said (revert_one() clears notes). */
		saved = c->state == CHANGE_FAILED ? c->note : NULL;
		if (saved)
			c->note = NULL;
		rc = revert_one(fs, c);
		if (saved) {
			free(c->note);
			c->note = saved;
		}
		if (rc < 0) {
			c->state = CHANGE_REVERT_FAILED;
			c->err = -rc;
			(void)tune_change_set_note(c, "cannot undo ('%.200s'): %s", c->old_value,
						   strerror(-rc));
		} else if (c->state != CHANGE_FAILED) {
			c->state = CHANGE_REVERTED;
			(void)tune_change_set_note(c, "undone: the partition could not be made");
		}
		err = journal_save(dirfd, j);
		if (err)
			return err;
	}
	return 0;
}

int apply_run(const struct rootfs *fs, int dirfd, struct journal *j, struct apply_result *res)
{
	struct tune_plan *p = &j->plan;
	size_t batch = task_batch(p);
	bool iso_failed = false;
	int err;

	memset(res, 0, sizeof(*res));
	j->state = JOURNAL_APPLYING;
	for (size_t i = 0; i < p->n; i++)
		p->changes[i].state = CHANGE_PENDING;
	for (size_t i = 0; i < p->n;) {
		size_t e = batch_end(p, i, batch);

		/* Durable before the write: a crash now leaves "attempting", which revert handles.
		 */
		for (size_t k = i; k < e; k++)
			p->changes[k].state = CHANGE_ATTEMPTING;
		err = journal_save(dirfd, j);
		if (err) {
			for (size_t k = i; k < e; k++)
				p->changes[k].state = CHANGE_PENDING;
			return err;
		}
		for (size_t k = i; k < e; k++) {
			struct tune_change *c = &p->changes[k];

			if (iso_failed && tune_is_isolate(c->id)) {
				c->state = CHANGE_PENDING;
				continue;
			}
			apply_one(fs, c, j->rt_cpus);
			count(res, c);
			iso_failed |= tune_is_isolate(c->id) && c->state == CHANGE_FAILED;
		}
		i = e;
	}
	if (iso_failed) {
		err = undo_isolate(fs, dirfd, j);
		if (err)
			return err;
	}
	j->state = JOURNAL_APPLIED;
	return journal_save(dirfd, j);
}

/* Put back one change. Return: 1 reverted, 0 nothing to do, <0 -errno of the write. */
static int revert_one(const struct rootfs *fs, struct tune_change *c)
{
	const struct tunable *t = tunable_get(c->id);
	char *cur;
	int err = apply_current(fs, c, &cur);
	bool same = err == 0 && strcmp(cur, c->old_value) == 0;

	free(cur);
	if (err == -ENOMEM)
		return err;
	(void)tune_change_set_note(c, NULL); /* what apply saw is stale now */
	if (err == -ESRCH || err == -ENOENT) {
		(void)tune_change_set_note(
		    c, c->path ? "gone: nothing to put back"
			       : "the task exited (or its tid now names another task): left alone");
		return 0;
	}
	if (err && !c->path)
		return err; /* a task we cannot identify is never touched */
	if (same)
		return 0;
	err = c->path ? write_value(fs, t, c->path, c->old_value)
		      : task_set_list(c->tid, c->old_value);
	if (err == -ESRCH && !c->path)
		return 0;
	if (!err && c->id == TUNE_IRQBALANCE)
		restart_irqbalance(fs, c);
	return err ? err : 1;
}

int revert_run(const struct rootfs *fs, int dirfd, struct journal *j, struct apply_result *res)
{
	struct tune_plan *p = &j->plan;
	size_t unsaved = 0, batch = task_batch(p);
	int err;

	memset(res, 0, sizeof(*res));
	j->state = JOURNAL_REVERTING;
	err = journal_save(dirfd, j);
	if (err)
		return err;
	for (size_t i = p->n; i-- > 0;) {
		struct tune_change *c = &p->changes[i];
		int rc;

		if (!journal_change_live(c))
			continue;
		rc = revert_one(fs, c);
		if (rc < 0) {
			c->state = CHANGE_REVERT_FAILED;
			c->err = -rc;
			if (c->id == TUNE_ISO_GROUP && rc == -EBUSY)
				(void)tune_change_set_note(c, "the group still holds processes: move "
							   "them out (echo PID > /sys/fs/cgroup/"
							   "cgroup.procs), then --revert again");
			else
				(void)tune_change_set_note(c, "cannot put back '%.200s': %s",
							   c->old_value, strerror(-rc));
			res->failed++;
		} else {
			c->state = CHANGE_REVERTED;
			c->err = 0;
			if (rc == 1)
				res->done++;
			else
				res->unchanged++;
		}
		/* Tasks in batches, files one by one: a crash redoes at most a batch. */
		if (c->path || ++unsaved >= batch || i == 0 || p->changes[i - 1].path) {
			unsaved = 0;
			err = journal_save(dirfd, j);
			if (err)
				return err;
		}
	}
	j->state = res->failed ? JOURNAL_REVERTING : JOURNAL_REVERTED;
	return journal_save(dirfd, j);
}

static bool persistent(const struct tune_change *c)
{
	return c->path && tunable_get(c->id)->kind == TUNE_VAL_FILE;
}

size_t apply_live_persistent(const struct journal *j)
{
	size_t n = 0;

	for (size_t i = 0; i < j->plan.n; i++)
		n += persistent(&j->plan.changes[i]) && journal_change_live(&j->plan.changes[i]);
	return n;
}

void apply_forget_runtime(struct journal *j)
{
	for (size_t i = 0; i < j->plan.n; i++) {
		struct tune_change *c = &j->plan.changes[i];

		if (persistent(c) || !journal_change_live(c))
			continue;
		c->state = CHANGE_REVERTED;
		(void)tune_change_set_note(c, "reset by the reboot");
	}
}

int apply_carry_persistent(const struct rootfs *fs, const struct journal *old,
			   struct tune_plan *plan, size_t *dropped)
{
	*dropped = 0;
	for (size_t i = 0; i < old->plan.n; i++) {
		const struct tune_change *c = &old->plan.changes[i];
		struct tune_change *now = NULL;
		char *cur;
		int err;
		bool ours;

		if (!persistent(c) || !journal_change_live(c))
			continue;
		err = apply_current(fs, c, &cur);
		if (err == -ENOMEM)
			return err;
		ours = err == 0 && strcmp(cur, c->new_value) == 0;
		free(cur);
		if (!ours) {
			(*dropped)++;	/* changed by someone since: theirs now */
			continue;
		}
		for (size_t k = 0; k < plan->n && !now; k++)
			if (plan->changes[k].path && strcmp(plan->changes[k].path, c->path) == 0)
				now = &plan->changes[k];
		if (now) {
			/* The plan starts from rtready's text: the original is older. */
			char *o = strdup(c->old_value);

			if (!o)
				return -ENOMEM;
			free(now->old_value);
			now->old_value = o;
		} else {
			struct tune_change copy = *c;

			copy.state = CHANGE_PENDING;
			copy.err = 0;
			copy.note = NULL;
			copy.current = NULL;
			err = tune_plan_add(plan, &copy);
			if (err)
				return err;
		}
	}
	return 0;
}

