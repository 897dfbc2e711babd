// SPDX-License-Identifier: MIT
/*
 * The plan: for each enabled tunable, find its files (one, one per IRQ, one
 * per RT CPU, one per idle state), read their values through the rootfs
 * reader, and let the table's compute function say what they should be.
 * Tasks come from the task probe. Nothing here writes.
 */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe/tasks.h"
#include "tune/plan.h"
#include "util/grow.h"
#include "util/parse.h"
#include "util/sorted.h"
#include "util/utf8.h"

/* Bounds on the walks: far above real machines, below a hostile tree's flood. */
#define MAX_IRQS	65536
#define MAX_IDLE_STATES 64

void tune_plan_free(struct tune_plan *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n; i++) {
		struct tune_change *c = &p->changes[i];

		free(c->path);
		free(c->label);
		free(c->old_value);
		free(c->new_value);
		free(c->note);
		free(c->current);
	}
	for (size_t i = 0; i < p->n_notes; i++)
		free(p->notes[i].text);
	free(p->changes);
	free(p->notes);
	memset(p, 0, sizeof(*p));
}

static char *dup_or_null(const char *s, bool *oom)
{
	char *d;

	if (!s)
		return NULL;
	d = strdup(s);
	if (!d)
		*oom = true;
	return d;
}

int tune_plan_add(struct tune_plan *p, const struct tune_change *c)
{
	struct tune_change *slot;
	bool oom = false;

	if (grow_array((void **)&p->changes, &p->cap, p->n, sizeof(*p->changes),
		       SIZE_MAX / sizeof(*p->changes)))
		return -ENOMEM;
	slot = &p->changes[p->n];
	*slot = *c;
	slot->path = dup_or_null(c->path, &oom);
	slot->label = dup_or_null(c->label, &oom);
	slot->old_value = dup_or_null(c->old_value ? c->old_value : "", &oom);
	slot->new_value = dup_or_null(c->new_value ? c->new_value : "", &oom);
	slot->note = dup_or_null(c->note, &oom);
	p->n++; /* counted even on failure, so tune_plan_free() releases the copies */
	return oom ? -ENOMEM : 0;
}

int tune_plan_add_task(struct tune_plan *p, struct tune_change *c, const struct task_info *t,
		       const char *old, const char *nw)
{
	c->tid = t->tid;
	c->start_ticks = t->start_ticks;
	c->label = (char *)t->comm;
	c->old_value = (char *)old;
	c->new_value = (char *)nw;
	return tune_plan_add(p, c);
}

int tune_plan_note(struct tune_plan *p, enum tune_id id, const char *fmt, ...)
{
	va_list ap;
	char *text;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&text, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -ENOMEM;
	if (grow_array((void **)&p->notes, &p->cap_notes, p->n_notes, sizeof(*p->notes),
		       SIZE_MAX / sizeof(*p->notes))) {
		free(text);
		return -ENOMEM;
	}
	p->notes[p->n_notes].id = id;
	p->notes[p->n_notes].text = text;
	p->n_notes++;
	return 0;
}

int tune_change_set_note(struct tune_change *c, const char *fmt, ...)
{
	va_list ap;
	char *text = NULL;
	int n = 0;

	if (fmt) {
		va_start(ap, fmt);
		n = vasprintf(&text, fmt, ap);
		va_end(ap);
	}
	if (n < 0)
		return -ENOMEM;
	free(c->note);
	c->note = text;
	return 0;
}

int plan_read_value(const struct rootfs *fs, const struct tunable *t, const char *path, char *out,
		    size_t len)
{
	int err = rootfs_read_str(fs, path, out, len);

	if (err)
		return err;
	return tunable_normalize(t->kind, out, out, len);
}

int plan_read_file(const struct rootfs *fs, const char *path, char **out)
{
	size_t len;
	int err = rootfs_read(fs, path, TUNE_FILE_MAX, out, &len);

	if (err) {
		*out = NULL;
		return err;
	}
	if (strlen(*out) != len) {
		free(*out);
		*out = NULL;
		return -EILSEQ; /* a NUL byte: not a text file */
	}
	return 0;
}

/*
 * On the live system a process always sees itself under /proc: when it
 * does not, /proc is not mounted or something empty hides it, and a
 * missing /proc file says nothing about the kernel.
 */
static bool proc_unreadable(const struct rootfs *fs)
{
	return fs->host && !rootfs_exists(fs, "/proc/self/stat");
}

#define PROC_UNREADABLE "/proc is unreadable here (not mounted, or an empty file system over it)"

/*
 * Plan one file of @t: read, compute, and either add a change or say why
 * not in *why (a reason for a note; "" when a change was added).
 * Return: 0, or -ENOMEM (the only error that stops the plan).
 */
static int plan_file(const struct rootfs *fs, const struct tune_ctx *ctx, const struct tunable *t,
		     const char *path, const char *label, struct tune_plan *out, char *why,
		     size_t whylen)
{
	/* Off the stack: tune must run under a small stack limit (ulimit -s 32). */
	char *old = malloc(2 * TUNE_VALUE_MAX), *nw;
	struct tune_change c = {.id = t->id};
	int rc;

	why[0] = '\0';
	if (!old)
		return -ENOMEM;
	nw = old + TUNE_VALUE_MAX;
	rc = plan_read_value(fs, t, path, old, TUNE_VALUE_MAX);
	if (rc == -ENOENT && strncmp(path, "/proc/", 6) == 0 && proc_unreadable(fs)) {
		snprintf(why, whylen, "skipped: cannot read %s: " PROC_UNREADABLE, path);
		rc = 0;
		goto out;
	}
	if (rc == -ENOENT) {
		snprintf(why, whylen, "skipped: %s is not present", path);
		rc = 0;
		goto out;
	}
	if (rc) {
		snprintf(why, whylen, "skipped: cannot read %s: %s", path, strerror(-rc));
		rc = 0;
		goto out;
	}
	rc = t->compute(ctx, old, nw, TUNE_VALUE_MAX);
	if (rc == -ENOMEM)
		goto out;
	if (rc < 0) {
		snprintf(why, whylen, "skipped: %s holds '%.64s', which rtready does not know",
			 path, old);
		rc = 0;
		goto out;
	}
	if (rc == 0) {
		snprintf(why, whylen, "already right: %s is '%.64s'", path, old);
		goto out;
	}
	c.path = (char *)path;
	c.label = (char *)label;
	c.old_value = old;
	c.new_value = nw;
	c.state = CHANGE_PENDING;
	rc = tune_plan_add(out, &c);
out:
	free(old);
	return rc;
}

/* A tunable with exactly one file: its note, if any, goes into the plan. */
static int plan_single(const struct rootfs *fs, const struct tune_ctx *ctx, const struct tunable *t,
		       struct tune_plan *out)
{
	char why[512];
	int err = plan_file(fs, ctx, t, t->pattern, NULL, out, why, sizeof(why));

	if (err == 0 && why[0])
		err = tune_plan_note(out, t->id, "%s", why);
	return err;
}

/* The first action name of an IRQ: /proc/irq/N/<name>/ directories. */
static void irq_label(const struct rootfs *fs, int irq, char *buf, size_t len)
{
	char path[64];
	struct dirent *de;
	DIR *d;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "/proc/irq/%d", irq);
	d = rootfs_opendir(fs, path);
	if (!d)
		return;
	for (int guard = 0; (de = readdir(d)) && guard < 256; guard++) {
		if (de->d_type == DT_DIR && de->d_name[0] != '.') {
			snprintf(buf, len, "%s", de->d_name);
			break;
		}
	}
	closedir(d);
}

/* Every numbered directory of /proc/irq, in order. */
static int list_irqs(const struct rootfs *fs, int **irqs, size_t *n)
{
	size_t cap = 0;
	struct dirent *de;
	DIR *d = rootfs_opendir(fs, "/proc/irq");

	*irqs = NULL;
	*n = 0;
	if (!d)
		return -errno;
	while ((de = readdir(d)) && *n < MAX_IRQS) {
		int64_t v;

		if (parse_int64(de->d_name, 0, 1000000000, &v))
			continue;
		if (*n == cap) {
			int *g;

			cap = cap ? cap * 2 : 64;
			g = realloc(*irqs, cap * sizeof(**irqs));
			if (!g) {
				closedir(d);
				return -ENOMEM;
			}
			*irqs = g;
		}
		(*irqs)[(*n)++] = (int)v;
	}
	closedir(d);
	if (*n)
		qsort(*irqs, *n, sizeof(**irqs), sorted_cmp_int);
	return 0;
}

static int plan_irqs(const struct rootfs *fs, const struct tune_ctx *ctx, const struct tunable *t,
		     struct tune_plan *out)
{
	size_t n = 0, fine = 0, skipped = 0, idle = 0;
	char why[512], first_skip[512] = "";
	int *irqs, err;

	err = list_irqs(fs, &irqs, &n);
	if (err == -ENOMEM)
		return err;
	if (err)
		return tune_plan_note(out, t->id, "skipped: cannot list /proc/irq: %s",
				      proc_unreadable(fs) ? PROC_UNREADABLE : strerror(-err));
	for (size_t i = 0; i < n && err == 0; i++) {
		char path[64], label[256];

		if (tunable_path(path, sizeof(path), t->pattern, irqs[i], -1))
			continue;
		irq_label(fs, irqs[i], label, sizeof(label));
		/* No action directory: no handler, the IRQ cannot fire (and moving it gets EIO). */
		if (!label[0]) {
			idle++;
			continue;
		}
		err = plan_file(fs, ctx, t, path, label[0] ? label : NULL, out, why, sizeof(why));
		if (err == 0 && strncmp(why, "already", 7) == 0)
			fine++;
		else if (err == 0 && why[0] && skipped++ == 0)
			snprintf(first_skip, sizeof(first_skip), "%s", why);
	}
	free(irqs);
	if (err == 0 && fine)
		err = tune_plan_note(out, t->id,
				     "already right: %zu IRQ(s) already off the RT CPUs", fine);
	if (err == 0 && skipped)
		err = tune_plan_note(out, t->id, "%zu IRQ(s) skipped, the first: %s", skipped,
				     first_skip);
	if (err == 0 && idle)
		err = tune_plan_note(out, t->id, "left alone: %zu IRQ(s) without a handler (they "
				     "cannot fire)", idle);
	if (err == 0 && n == 0)
		err = tune_plan_note(out, t->id, "skipped: no IRQ under /proc/irq");
	return err;
}

/* Note the CPUs where a per-CPU directory was missing, as one line. */
static int note_missing(struct tune_plan *out, enum tune_id id, const struct rtr_cpuset *cpus,
			const char *what)
{
	char list[256];

	if (rtr_cpuset_is_empty(cpus))
		return 0;
	rtr_cpuset_format_list(cpus, list, sizeof(list));
	return tune_plan_note(out, id, "skipped on CPU(s) %s: %s", list, what);
}

static int plan_governor(const struct rootfs *fs, const struct tune_ctx *ctx,
			 const struct tunable *t, struct tune_plan *out)
{
	struct rtr_cpuset missing = RTR_CPUSET_INIT, noperf = RTR_CPUSET_INIT;
	int err = 0;

	for (int cpu = rtr_cpuset_next(ctx->rt, -1); cpu >= 0 && err == 0;
	     cpu = rtr_cpuset_next(ctx->rt, cpu)) {
		char path[128], avail[1024], why[512];

		if (tunable_path(path, sizeof(path), t->pattern, cpu, -1))
			continue;
		if (rootfs_path(avail, sizeof(avail),
				"/sys/devices/system/cpu/cpu%d/cpufreq/scaling_available_governors",
				cpu))
			continue;
		if (!rootfs_exists(fs, path)) {
			err = rtr_cpuset_set(&missing, cpu);
			continue;
		}
		/* A driver without "performance" (rare) cannot be asked for it. */
		{
			char list[1024];

			if (rootfs_read_str(fs, avail, list, sizeof(list)) == 0 &&
			    !strstr(list, "performance")) {
				err = rtr_cpuset_set(&noperf, cpu);
				continue;
			}
		}
		err = plan_file(fs, ctx, t, path, NULL, out, why, sizeof(why));
		if (err == 0 && why[0])
			err = tune_plan_note(out, t->id, "CPU %d: %s", cpu, why);
	}
	err = err ? err
		  : note_missing(out, t->id, &missing,
				 "no cpufreq (usual in a VM, or no driver loaded)");
	err = err ? err
		  : note_missing(out, t->id, &noperf,
				 "the cpufreq driver offers no 'performance' governor");
	rtr_cpuset_free(&missing);
	rtr_cpuset_free(&noperf);
	return err;
}

static int plan_idle(const struct rootfs *fs, const struct tune_ctx *ctx, const struct tunable *t,
		     int64_t bound_us, struct tune_plan *out)
{
	struct rtr_cpuset missing = RTR_CPUSET_INIT;
	size_t shallow = 0, already = 0;
	int err = 0;

	for (int cpu = rtr_cpuset_next(ctx->rt, -1); cpu >= 0 && err == 0;
	     cpu = rtr_cpuset_next(ctx->rt, cpu)) {
		char dir[128];

		if (rootfs_path(dir, sizeof(dir), "/sys/devices/system/cpu/cpu%d/cpuidle", cpu))
			continue;
		if (!rootfs_exists(fs, dir)) {
			err = rtr_cpuset_set(&missing, cpu);
			continue;
		}
		for (int s = 0; s < MAX_IDLE_STATES && err == 0; s++) {
			char lat_path[160], name_path[160], name[64], path[160], why[512];
			int64_t lat_us;

			if (rootfs_path(lat_path, sizeof(lat_path), "%s/state%d/latency", dir, s) ||
			    rootfs_path(name_path, sizeof(name_path), "%s/state%d/name", dir, s) ||
			    tunable_path(path, sizeof(path), t->pattern, cpu, s))
				break;
			if (rootfs_read_int64(fs, lat_path, &lat_us))
				break; /* no more states */
			/* The exit latency (µs) is what an interrupt waits for when the CPU is in
			 * it. */
			if (lat_us <= bound_us) {
				shallow++;
				continue;
			}
			if (rootfs_read_str(fs, name_path, name, sizeof(name)))
				name[0] = '\0';
			err = plan_file(fs, ctx, t, path, name[0] ? name : NULL, out, why,
					sizeof(why));
			if (err == 0 && strncmp(why, "already", 7) == 0)
				already++;
			else if (err == 0 && why[0])
				err = tune_plan_note(out, t->id, "CPU %d: %s", cpu, why);
		}
	}
	err = err ? err
		  : note_missing(out, t->id, &missing,
				 "no cpuidle (usual in a VM: the host decides)");
	if (err == 0 && already)
		err = tune_plan_note(out, t->id, "already right: %zu deep idle state(s) disabled",
				     already);
	if (err == 0 && shallow && rtr_cpuset_is_empty(&missing))
		err = tune_plan_note(out, t->id,
				     "left enabled: %zu idle state(s) with exit latency <= %lld us",
				     shallow, (long long)bound_us);
	rtr_cpuset_free(&missing);
	return err;
}

/*
 * Tasks: move what may run on an RT CPU to the non-RT CPUs, keeping any
 * non-RT part of its mask. Left alone: per-CPU kernel threads (the kernel
 * fixes their affinity), tasks that may run only on RT CPUs (placed there
 * on purpose), and user tasks with a realtime policy (the application
 * itself; pin it with taskset or rtready run).
 */
static bool selected(const struct tune_settings *s, int pid)
{
	if (pid == s->skip_pid)
		return false;
	if (!s->only_pids)
		return true;
	for (size_t i = 0; i < s->n_only_pids; i++)
		if (s->only_pids[i] == pid)
			return true;
	return false;
}

static int plan_tasks(const struct rootfs *fs, const struct tune_ctx *ctx, const struct tunable *t,
		      const struct tune_settings *s, struct tune_plan *out)
{
	size_t per_cpu = 0, pinned = 0, rt_user = 0, fine = 0;
	struct tasks_facts tf = {0};
	char *old, *nw;
	int err = 0;

	if (!fs->host)
		return tune_plan_note(out, t->id,
				      "skipped: tasks are moved only on the live system");
	probe_tasks(fs, &tf);
	if (tf.err == -ENOMEM) {
		probe_tasks_free(&tf);
		return -ENOMEM;
	}
	if (tf.err) {
		err =
		    tune_plan_note(out, t->id, "skipped: cannot list tasks: %s", strerror(-tf.err));
		probe_tasks_free(&tf);
		return err;
	}
	/* Off the stack: tune must run under a small stack limit (ulimit -s 32). */
	old = malloc(2 * TUNE_VALUE_MAX);
	if (!old) {
		probe_tasks_free(&tf);
		return -ENOMEM;
	}
	nw = old + TUNE_VALUE_MAX;
	for (size_t i = 0; i < tf.n && err == 0; i++) {
		const struct task_info *ti = &tf.tasks[i];
		struct tune_change c = {.id = t->id};
		int rc;

		if (!selected(s, ti->pid) || ti->allowed_err)
			continue;
		if (ti->per_cpu) {
			per_cpu++;
			continue;
		}
		if (!rtr_cpuset_intersects(&ti->allowed, ctx->rt)) {
			fine++;
			continue;
		}
		if (rtr_cpuset_is_subset(&ti->allowed, ctx->rt)) {
			pinned++;
			continue;
		}
		if (!ti->kthread && task_is_rt(ti)) {
			rt_user++;
			continue;
		}
		rtr_cpuset_format_list(&ti->allowed, old, TUNE_VALUE_MAX);
		rc = t->compute(ctx, old, nw, TUNE_VALUE_MAX);
		if (rc == -ENOMEM)
			err = rc;
		if (rc != 1)
			continue;
		err = tune_plan_add_task(out, &c, ti, old, nw);
	}
	if (err == 0 && fine)
		err = tune_plan_note(out, t->id,
				     "already right: %zu task(s) already off the RT CPUs", fine);
	if (err == 0 && per_cpu)
		err = tune_plan_note(
		    out, t->id,
		    "left alone: %zu per-CPU kernel thread(s) (the kernel fixes their CPU)",
		    per_cpu);
	if (err == 0 && pinned)
		err = tune_plan_note(
		    out, t->id,
		    "left alone: %zu task(s) allowed only on RT CPUs (placed there on purpose)",
		    pinned);
	if (err == 0 && rt_user)
		err = tune_plan_note(out, t->id,
				     "left alone: %zu realtime user task(s) allowed on all CPUs; "
				     "pin them to the RT CPUs yourself",
				     rt_user);
	/* rtready itself is a task: none at all means /proc could not be read. */
	if (err == 0 && tf.n == 0)
		err = tune_plan_note(out, t->id, "skipped: no task found under /proc: "
				     PROC_UNREADABLE);
	free(old);
	probe_tasks_free(&tf);
	return err;
}

/*
 * The fair deadline server of 6.12+ kernels runs normal tasks for up to its
 * runtime in every period even when RT tasks want the CPU: RT throttling
 * by another name. Zeroed on the RT CPUs only, so the other CPUs keep it.
 */
static int plan_fair_server(const struct rootfs *fs, const struct tune_ctx *ctx,
			    const struct tunable *t, struct tune_plan *out)
{
	DIR *d = rootfs_opendir(fs, "/sys/kernel/debug/sched/fair_server");
	struct rtr_cpuset missing = RTR_CPUSET_INIT;
	int err = 0;

	if (!d) {
		int e = errno;

		if (e == ENOENT && rootfs_exists(fs, "/sys/kernel/debug/sched"))
			return tune_plan_note(out, t->id, "skipped: this kernel has no fair server "
					      "(it came with 6.12)");
		if (e == ENOENT)
			return tune_plan_note(out, t->id,
					      "skipped: debugfs is not mounted (mount -t debugfs "
					      "none /sys/kernel/debug), so the 6.12+ fair server "
					      "cannot be seen");
		return tune_plan_note(out, t->id, "skipped: cannot read the fair server in "
				      "debugfs: %s%s", strerror(e),
				      e == EPERM || e == EACCES ? " (kernel lockdown, or not root)"
								  : "");
	}
	closedir(d);
	for (int cpu = rtr_cpuset_next(ctx->rt, -1); cpu >= 0 && err == 0;
	     cpu = rtr_cpuset_next(ctx->rt, cpu)) {
		char path[128], why[512], label[32];

		if (tunable_path(path, sizeof(path), t->pattern, cpu, -1))
			continue;
		if (!rootfs_exists(fs, path)) {
			err = rtr_cpuset_set(&missing, cpu);
			continue;
		}
		snprintf(label, sizeof(label), "CPU %d", cpu);
		err = plan_file(fs, ctx, t, path, label, out, why, sizeof(why));
		if (err == 0 && why[0])
			err = tune_plan_note(out, t->id, "CPU %d: %s", cpu, why);
	}
	err = err ? err : note_missing(out, t->id, &missing, "no fair server file");
	rtr_cpuset_free(&missing);
	return err;
}

/*
 * irqbalance reads IRQBALANCE_BANNED_CPULIST from its environment file when
 * it starts: the file is rewritten (the RT CPUs added to what it bans) and
 * apply restarts the daemon. Where no list is set, irqbalance 1.8+ bans the
 * isolated and nohz_full CPUs by itself; an explicit list says it anyway.
 */
static int plan_irqbalance(const struct rootfs *fs, const struct tune_ctx *ctx,
			   const struct tunable *t, struct tune_plan *out)
{
	static const char *const files[] = { "/etc/default/irqbalance",
					     "/etc/sysconfig/irqbalance" };
	char summary[600], target[256];
	char *old = NULL, *nw = NULL;
	struct tune_change c = {.id = t->id};
	const char *path = NULL;
	int rc;

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]) && !path; i++)
		if (rootfs_exists(fs, files[i]) || rootfs_readlink(fs, files[i], target,
								   sizeof(target)) == 0)
			path = files[i];
	if (!path)
		return tune_plan_note(out, t->id, "skipped: irqbalance is not installed here "
				      "(no /etc/default/irqbalance or /etc/sysconfig/irqbalance)");
	/*
	 * The file is replaced whole (a new file renamed over it): that would
	 * turn a link into a file and leave its target as it was, so a link is
	 * left alone, and the dry run says so as apply would.
	 */
	if (rootfs_readlink(fs, path, target, sizeof(target)) == 0)
		return tune_plan_note(out, t->id, "left alone: %s is a symbolic link (to %s); "
				      "rtready replaces the file whole and does not replace a "
				      "link: set IRQBALANCE_BANNED_CPULIST in the file it names, "
				      "or make %s a regular file", path, target, path);
	rc = plan_read_file(fs, path, &old);
	if (rc == -EFBIG)
		return tune_plan_note(out, t->id, "skipped: %s is larger than %u KiB, more than "
				      "an environment file holds; rtready does not rewrite it",
				      path, TUNE_FILE_MAX >> 10);
	if (rc == -EILSEQ)
		return tune_plan_note(out, t->id, "skipped: %s holds NUL bytes: not a text file",
				      path);
	if (rc)
		return tune_plan_note(out, t->id, "skipped: cannot read %s: %s", path,
				      strerror(-rc));
	/* The journal keeps the text exact, which JSON can only do for UTF-8. */
	{
		size_t n = strlen(old);
		char *scrubbed = malloc(n + 1);
		bool clean;

		if (!scrubbed) {
			free(old);
			return -ENOMEM;
		}
		utf8_scrub(scrubbed, n + 1, old, n, 0);
		clean = strcmp(scrubbed, old) == 0;
		free(scrubbed);
		if (!clean) {
			free(old);
			return tune_plan_note(out, t->id, "skipped: %s is not UTF-8 text", path);
		}
	}
	rc = tune_irqbalance_compute(ctx->rt, old, &nw, summary, sizeof(summary));
	if (rc == -EEXIST)
		rc = tune_plan_note(out, t->id,
				    "left alone: %s bans CPUs with the IRQBALANCE_BANNED_CPUS "
				    "mask; replace it with IRQBALANCE_BANNED_CPULIST= listing "
				    "those CPUs and the RT CPUs, then restart irqbalance",
				    path);
	else if (rc < 0 && rc != -ENOMEM)
		rc = tune_plan_note(out, t->id, "skipped: %s, %s; set the RT CPUs there yourself",
				    path, summary);
	else if (rc == 0)
		rc = tune_plan_note(out, t->id, "already right: %s bans the RT CPUs "
				    "(IRQBALANCE_BANNED_CPULIST)", path);
	else if (rc == 1) {
		c.path = (char *)path;
		c.label = summary;
		c.old_value = old;
		c.new_value = nw;
		c.state = CHANGE_PENDING;
		rc = tune_plan_add(out, &c);
	}
	free(old);
	free(nw);
	return rc;
}

int plan_build(const struct rootfs *fs, const struct tune_settings *s, struct tune_plan *out)
{
	struct tune_ctx ctx = {&s->rt, &s->nonrt};
	int err = 0;

	memset(out, 0, sizeof(*out));
	for (int id = 0; id < TUNE_COUNT && err == 0; id++) {
		const struct tunable *t = tunable_get((enum tune_id)id);

		if (!s->enabled[id] || tune_is_isolate(t->id))
			continue; /* the partition is planned by isolate_plan() */
		switch (t->id) {
		case TUNE_IRQS:
			err = plan_irqs(fs, &ctx, t, out);
			break;
		case TUNE_TASKS:
			err = plan_tasks(fs, &ctx, t, s, out);
			break;
		case TUNE_GOVERNOR:
			err = plan_governor(fs, &ctx, t, out);
			break;
		case TUNE_IDLE:
			err = plan_idle(fs, &ctx, t, s->idle_max_latency_us, out);
			break;
		case TUNE_FAIR_SERVER:
			err = plan_fair_server(fs, &ctx, t, out);
			break;
		case TUNE_IRQBALANCE:
			err = plan_irqbalance(fs, &ctx, t, out);
			break;
		default:
			err = plan_single(fs, &ctx, t, out);
			break;
		}
	}
	if (err)
		tune_plan_free(out);
	return err;
}
