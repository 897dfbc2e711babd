// SPDX-License-Identifier: MIT
/*
 * The task walk; see tasks.h. For each /proc/PID, each /proc/PID/task/TID
 * is read once (stat for policy, priority, flags; status for the allowed
 * CPUs). Tasks come and go during the walk: a thread that vanished
 * (ENOENT/ESRCH) is counted, not reported as an error.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe/procstat.h"
#include "probe/tasks.h"
#include "util/grow.h"

/* Caps on one file: stat lines are < 1 KiB, status < 4 KiB but for huge cpu lists. */
#define STAT_CAP (16u << 10)
#define STATUS_CAP (1u << 20)

const char *task_policy_name(int policy)
{
	static const char *const names[] = { "OTHER", "FIFO", "RR", "BATCH", "ISO", "IDLE",
					     "DEADLINE", "EXT" };

	if (policy < 0 || (size_t)policy >= sizeof(names) / sizeof(names[0]))
		return "?";
	return names[policy];
}

/* Make room for one more task. Return: 0 or -ENOMEM. */
static int reserve(struct tasks_facts *out)
{
	if (grow_array((void **)&out->tasks, &out->cap, out->n, sizeof(*out->tasks),
		       SIZE_MAX / sizeof(*out->tasks)))
		return -ENOMEM;
	return 0;
}

int tasks_append(struct tasks_facts *out, const struct task_info *t)
{
	struct task_info *slot;

	if (reserve(out))
		return -ENOMEM;
	slot = &out->tasks[out->n];
	*slot = *t;
	slot->allowed = (struct rtr_cpuset)RTR_CPUSET_INIT;
	if (rtr_cpuset_copy(&slot->allowed, &t->allowed))
		return -ENOMEM;
	out->n++;
	return 0;
}

/* Digits only, a positive int: "1234" but not "self" or "0x1". */
static int numeric(const char *s)
{
	long v = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > 100000000)
			return -1;
		v = v * 10 + (*s - '0');
	}
	return v > 0 ? (int)v : -1;
}

static bool gone(int err)
{
	return err == -ENOENT || err == -ESRCH;
}

static void note_unreadable(struct tasks_facts *out, const char *path, int err)
{
	if (out->unreadable++ == 0) {
		out->first_unreadable_err = err;
		snprintf(out->first_unreadable, sizeof(out->first_unreadable), "%s", path);
	}
}

/*
 * Read one thread into @out; *threads gets the process's thread count from
 * stat (0 when unknown). Return: 1 when listed, 0 when it vanished or was
 * unreadable (counted), -ENOMEM.
 */
/* One read buffer for a whole walk: no allocation per file. */
struct scratch {
	char *p;
	size_t size;
};

static int read_task(const struct rootfs *fs, int pid, int tid, struct tasks_facts *out,
		     int64_t *threads, struct scratch *sc)
{
	struct task_info t = { .pid = pid, .tid = tid, .last_cpu = -1 };
	struct proc_status st;
	struct proc_stat ps;
	char path[64];
	size_t len;
	int err;

	*threads = 0;
	if (rootfs_path(path, sizeof(path), "/proc/%d/task/%d/stat", pid, tid))
		return 0;
	err = rootfs_read_reuse(fs, path, STAT_CAP, ROOTFS_ONE_RECORD, &sc->p, &sc->size, &len);
	if (err == -ENOMEM)
		return err;
	if (!err)
		err = parse_proc_stat(sc->p, len, &ps);
	if (err) {
		if (gone(err))
			out->vanished++;
		else
			note_unreadable(out, path, err);
		return 0;
	}
	*threads = ps.num_threads;
	memcpy(t.comm, ps.comm, sizeof(t.comm));
	t.policy = (int)ps.policy;
	t.rt_priority = (int)ps.rt_priority;
	t.nice = ps.nice;
	t.flags = ps.flags;
	t.kthread = ps.flags & TASK_PF_KTHREAD;
	t.per_cpu = t.kthread && (ps.flags & TASK_PF_NO_SETAFFINITY);
	t.start_ticks = ps.start_ticks;
	t.last_cpu = ps.processor;
	t.minflt = ps.minflt;
	t.majflt = ps.majflt;
	t.cpu_ticks = ps.utime_ticks + ps.stime_ticks;

	rootfs_path(path, sizeof(path), "/proc/%d/task/%d/status", pid, tid);
	err = rootfs_read_reuse(fs, path, STATUS_CAP, ROOTFS_ONE_RECORD, &sc->p, &sc->size,
				&len);
	if (err == -ENOMEM)
		return err;
	if (!err) {
		err = parse_proc_status(sc->p, len, &st);
		if (err == -ENOMEM) {
			proc_status_free(&st);
			return err;
		}
		if (!err && (st.have & PROC_ST_VCSW) && (st.have & PROC_ST_NVCSW)) {
			t.have_ctxt = true;
			t.vcsw = st.voluntary_ctxt_switches;
			t.nvcsw = st.nonvoluntary_ctxt_switches;
		}
		if (!err && (st.have & PROC_ST_VMRSS)) {
			t.have_vm = true;
			t.vm_rss_kb = st.vm_rss_kb;
			t.vm_lck_kb = (st.have & PROC_ST_VMLCK) ? st.vm_lck_kb : 0;
		}
		err = err ? err : st.cpus_allowed_err;
		if (!err)
			t.allowed = st.cpus_allowed;	/* moved: not freed below */
		else
			proc_status_free(&st);
		if (!err && (st.have & PROC_ST_KTHREAD))
			t.kthread = t.kthread || st.kthread;
	}
	t.allowed_err = err;
	/* Move, not copy: the cpuset's storage now belongs to the list. */
	if (reserve(out)) {
		rtr_cpuset_free(&t.allowed);
		return -ENOMEM;
	}
	out->tasks[out->n++] = t;
	return 1;
}

/*
 * The main thread first: most processes (and every kernel thread) have one
 * thread, and its stat says so, which saves listing /proc/PID/task (five
 * system calls) for each of them.
 */
static int read_process(const struct rootfs *fs, int pid, struct tasks_facts *out,
			struct scratch *sc)
{
	char path[64];
	struct dirent *de;
	int64_t threads;
	size_t vanished = out->vanished;
	DIR *d;
	int err, main_read;

	if (out->n >= TASKS_MAX) {
		out->truncated = true;
		return 0;
	}
	main_read = read_task(fs, pid, pid, out, &threads, sc);
	if (main_read < 0)
		return main_read;
	if (out->vanished > vanished || (main_read == 1 && threads == 1))
		return 0;
	err = 0;
	rootfs_path(path, sizeof(path), "/proc/%d/task", pid);
	d = rootfs_opendir(fs, path);
	if (!d) {
		if (errno == ENOENT || errno == ESRCH)
			out->vanished++;
		else
			note_unreadable(out, path, -errno);
		return 0;
	}
	while (err >= 0 && (de = readdir(d))) {
		int tid = numeric(de->d_name);

		if (tid < 0 || tid == pid)	/* the main thread was read above */
			continue;
		if (out->n >= TASKS_MAX) {
			out->truncated = true;
			break;
		}
		err = read_task(fs, pid, tid, out, &threads, sc);
	}
	closedir(d);
	return err < 0 ? err : 0;
}

static int by_pid_tid(const void *a, const void *b)
{
	const struct task_info *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return (x->tid > y->tid) - (x->tid < y->tid);
}

/* Whether this process is in a child PID namespace; see tasks.h. */
static void probe_pidns(const struct rootfs *fs, struct tasks_facts *out)
{
	struct proc_status st;
	char *buf = NULL;
	size_t len;
	int err;

	out->pidns_err = rootfs_readlink(fs, "/proc/self/ns/pid", out->pidns_link,
					 sizeof(out->pidns_link));
	if (out->pidns_err)
		out->pidns_link[0] = '\0';
	err = rootfs_read(fs, "/proc/self/status", ROOTFS_CAP_DEFAULT, &buf, &len);
	if (!err) {
		if (parse_proc_status(buf, len, &st) == 0 && (st.have & PROC_ST_NSPID))
			out->pidns_levels = st.nspid_levels;
		proc_status_free(&st);
	}
	free(buf);
	out->pidns_child = out->pidns_levels > 1 ||
			   (out->pidns_link[0] && strcmp(out->pidns_link, TASKS_PIDNS_INIT) != 0);
}

void probe_tasks(const struct rootfs *fs, struct tasks_facts *out)
{
	struct scratch sc = { NULL, 0 };
	struct dirent *de;
	DIR *d;
	int err = 0;

	memset(out, 0, sizeof(*out));
	d = rootfs_opendir(fs, "/proc");
	if (!d) {
		out->err = -errno;
		return;
	}
	while (!err && !out->truncated && (de = readdir(d))) {
		int pid = numeric(de->d_name);

		if (pid > 0)
			err = read_process(fs, pid, out, &sc);
	}
	closedir(d);
	free(sc.p);
	if (out->n > 1)
		qsort(out->tasks, out->n, sizeof(out->tasks[0]), by_pid_tid);
	out->err = err;
	probe_pidns(fs, out);
}

int probe_tasks_of(const struct rootfs *fs, int pid, struct tasks_facts *out)
{
	struct scratch sc = { NULL, 0 };
	int err;

	memset(out, 0, sizeof(*out));
	err = read_process(fs, pid, out, &sc);
	free(sc.p);
	if (!err && out->n == 0)
		err = out->unreadable ? out->first_unreadable_err : -ESRCH;
	if (out->n > 1)
		qsort(out->tasks, out->n, sizeof(out->tasks[0]), by_pid_tid);
	out->err = err;
	return err;
}

void probe_tasks_free(struct tasks_facts *out)
{
	for (size_t i = 0; i < out->n; i++)
		rtr_cpuset_free(&out->tasks[i].allowed);
	free(out->tasks);
	memset(out, 0, sizeof(*out));
}
