// SPDX-License-Identifier: MIT
/*
 * Collection for rtready inspect; see inspect.h. Two walks of every task a
 * window apart (the probe layer reads /proc), perf counters opened on the
 * target threads in between, and the matching of both walks by TID and
 * start time.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "inspect/inspect.h"
#include "probe/cgroupfs.h"
#include "probe/procstat.h"
#include "probe/rootfs.h"
#include "rtready/timespec.h"

/* The main thread (tid == pid) of @pid in a sorted task list, or NULL. */
static const struct task_info *find_task(const struct tasks_facts *f, int pid, int tid)
{
	size_t lo = 0, hi = f->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct task_info *t = &f->tasks[mid];

		if (t->pid < pid || (t->pid == pid && t->tid < tid))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < f->n && f->tasks[lo].pid == pid && f->tasks[lo].tid == tid)
		return &f->tasks[lo];
	return NULL;
}

/* Index of the first task of @pid in the sorted list (== n when absent). */
static size_t first_of(const struct tasks_facts *f, int pid)
{
	size_t lo = 0, hi = f->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (f->tasks[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int add_pid(int **pids, size_t *n, size_t *cap, int pid)
{
	if (*n && (*pids)[*n - 1] == pid)
		return 0;
	if (*n == *cap) {
		size_t c = *cap ? *cap * 2 : 64;
		int *p = realloc(*pids, c * sizeof(*p));

		if (!p)
			return -ENOMEM;
		*pids = p;
		*cap = c;
	}
	(*pids)[(*n)++] = pid;
	return 0;
}

/* The PIDs to inspect, from the first walk. */
static int select_pids(const struct inspect_request *req, const struct tasks_facts *f,
		       bool host, int **pids, size_t *n, int *bad_pid)
{
	size_t cap = 0;
	int err = 0;

	*pids = NULL;
	*n = 0;
	if (req->n_pids) {
		for (size_t i = 0; i < req->n_pids && !err; i++) {
			if (!find_task(f, req->pids[i], req->pids[i])) {
				*bad_pid = req->pids[i];
				return -ESRCH;
			}
			err = add_pid(pids, n, &cap, req->pids[i]);
		}
		return err;
	}
	for (size_t i = 0; i < f->n && !err; i++) {
		const struct task_info *t = &f->tasks[i];

		if (t->tid != t->pid || t->kthread)
			continue;
		if (req->name && strcmp(t->comm, req->name) != 0)
			continue;
		if (host && t->pid == getpid())
			continue;	/* not ourselves */
		err = add_pid(pids, n, &cap, t->pid);
	}
	if (!err && *n == 0 && req->name)
		return -ENOENT;
	return err;
}

static void wait_window(int64_t window_ns, const volatile sig_atomic_t *stop, bool *interrupted)
{
	struct timespec now, end;

	clock_gettime(CLOCK_MONOTONIC, &now);
	end = rtr_ts_add_ns(now, window_ns);
	while (!(stop && *stop)) {
		int64_t left;
		struct timespec step;

		clock_gettime(CLOCK_MONOTONIC, &now);
		left = rtr_ts_diff_ns(end, now);
		if (left <= 0)
			return;
		/* Short steps so that SIGINT ends the window promptly. */
		step = rtr_ts_from_ns(left < 50000000 ? left : 50000000);
		nanosleep(&step, NULL);
	}
	*interrupted = true;
}

/*
 * VmLck and VmRSS of the process: every thread's status shows the memory
 * of the whole process, so the walk has them already; the main thread's
 * are taken, or any live thread's when the main one has exited.
 */
static void take_memory(struct inspect_proc *p)
{
	const struct task_info *m = NULL;

	for (size_t i = 0; i < p->n_threads && !m; i++)
		if (!p->threads[i].vanished && p->threads[i].t->have_vm)
			m = p->threads[i].t;
	p->status_err = m ? 0 : -ENODATA;	/* a kernel thread or a zombie */
	if (m) {
		p->vm_lck_kb = m->vm_lck_kb;
		p->vm_rss_kb = m->vm_rss_kb;
	}
}

/* Read "QUOTA PERIOD" of a v2 cpu.max, or a v1 quota; 0 when unlimited. */
static int read_limit(const struct rootfs *fs, const char *dir, bool v2, double *pct)
{
	char path[PATH_MAX + 32], buf[64];
	long long quota, period;
	int err;

	if (v2) {
		if (rootfs_path(path, sizeof(path), "%s/cpu.max", dir))
			return -ENAMETOOLONG;
		err = rootfs_read_str(fs, path, buf, sizeof(buf));
		if (err)
			return err;
		if (strncmp(buf, "max", 3) == 0) {
			*pct = 0;
			return 0;
		}
		if (sscanf(buf, "%lld %lld", &quota, &period) != 2 || quota <= 0 || period <= 0)
			return -EINVAL;
	} else {
		int64_t q, per;

		if (rootfs_path(path, sizeof(path), "%s/cpu.cfs_quota_us", dir))
			return -ENAMETOOLONG;
		err = rootfs_read_int64(fs, path, &q);
		if (!err && q > 0) {
			rootfs_path(path, sizeof(path), "%s/cpu.cfs_period_us", dir);
			err = rootfs_read_int64(fs, path, &per);
			if (!err && per <= 0)
				err = -EINVAL;
		}
		if (err)
			return err;
		if (q <= 0) {
			*pct = 0;
			return 0;
		}
		quota = q;
		period = per;
	}
	*pct = 100.0 * (double)quota / (double)period;
	return 0;
}

/*
 * The tightest CPU limit on @p's cgroup and its ancestors (a parent's
 * cpu.max caps all its children).
 */
static void read_cpu_limit(const struct rootfs *fs, const struct cgroup_mounts *m,
			   struct inspect_proc *p)
{
	/* On the heap, as the mounts: a small stack (ulimit -s 32) must do. */
	struct {
		struct cgroup_self self;
		char dir[PATH_MAX];
	} *w = malloc(sizeof(*w));
	char path[64], *buf = NULL, *dir;
	const char *mnt, *mroot, *cg;
	bool v2;
	size_t len;
	int err;

	if (!w) {
		p->cpu_limit_err = -ENOMEM;
		return;
	}
	dir = w->dir;
	rootfs_path(path, sizeof(path), "/proc/%d/cgroup", p->pid);
	err = rootfs_read(fs, path, 1u << 16, &buf, &len);
	if (!err) {
		err = cgroup_parse_self(buf, &w->self);
		free(buf);
	}
	if (err) {
		p->cpu_limit_err = err;
		goto out;
	}
	/* The cpu controller lives in one hierarchy: v1 when it is mounted there. */
	v2 = w->self.v2[0] && m->v2[0] && !m->v1_cpu[0];
	mnt = v2 ? m->v2 : m->v1_cpu;
	mroot = v2 ? m->v2_root : m->v1_cpu_root;
	cg = v2 ? w->self.v2 : w->self.v1_cpu;
	if (!mnt[0] || !cg[0]) {
		p->cpu_limit_err = -ENOENT;
		goto out;
	}
	snprintf(p->cgroup, sizeof(p->cgroup), "%.255s", cg);
	if (cgroupfs_dir(dir, sizeof(w->dir), mnt, mroot, cg)) {
		p->cpu_limit_err = -ENAMETOOLONG;
		goto out;
	}
	p->cpu_limit_pct = 0;
	/* Walk up to the mount point: at most 64 levels. */
	for (int depth = 0; depth < 64; depth++) {
		double pct = 0;
		char *slash;

		if (read_limit(fs, dir, v2, &pct) == 0 && pct > 0 &&
		    (p->cpu_limit_pct == 0 || pct < p->cpu_limit_pct))
			p->cpu_limit_pct = pct;
		if (strlen(dir) <= strlen(mnt))
			break;
		slash = strrchr(dir, '/');
		if (!slash)
			break;
		*slash = '\0';
	}
	p->cpu_limit_err = 0;
out:
	free(w);
}

static const struct perf_thread *find_perf(const struct inspect_result *res, int tid)
{
	for (size_t i = 0; i < res->n_perf; i++)
		if (res->perf[i].tid == tid)
			return &res->perf[i];
	return NULL;
}

static void delta(struct inspect_thread *th, const struct task_info *a, const struct task_info *b)
{
	th->have_delta = true;
	th->minflt_d = b->minflt >= a->minflt ? b->minflt - a->minflt : 0;
	th->majflt_d = b->majflt >= a->majflt ? b->majflt - a->majflt : 0;
	th->cpu_ticks_d = b->cpu_ticks >= a->cpu_ticks ? b->cpu_ticks - a->cpu_ticks : 0;
	if (a->have_ctxt && b->have_ctxt) {
		th->have_ctxt_delta = true;
		th->vcsw_d = b->vcsw >= a->vcsw ? b->vcsw - a->vcsw : 0;
		th->nvcsw_d = b->nvcsw >= a->nvcsw ? b->nvcsw - a->nvcsw : 0;
	}
}

/* Build the thread list of one process from both walks. */
static int build_proc(struct inspect_result *res, int pid, struct inspect_proc *p)
{
	/* Without a window the one walk stands for both ends. */
	const struct tasks_facts *A = &res->before;
	const struct tasks_facts *B = res->window_ns > 0 ? &res->after : &res->before;
	const struct task_info *ma = find_task(A, pid, pid), *mb = find_task(B, pid, pid);
	size_t ia = first_of(A, pid), ib = first_of(B, pid), cap;

	memset(p, 0, sizeof(*p));
	p->pid = pid;
	p->start_ticks = ma ? ma->start_ticks : 0;
	snprintf(p->comm, sizeof(p->comm), "%s", ma ? ma->comm : (mb ? mb->comm : "?"));
	/* Gone, or the PID now belongs to another process: nothing after the window counts. */
	p->vanished = !mb || (ma && mb->start_ticks != ma->start_ticks);
	if (p->vanished)
		B = NULL;
	cap = 0;
	for (size_t i = ia; i < A->n && A->tasks[i].pid == pid; i++)
		cap++;
	for (size_t i = ib; B && i < B->n && B->tasks[i].pid == pid; i++)
		cap++;
	p->threads = calloc(cap ? cap : 1, sizeof(*p->threads));
	if (!p->threads)
		return -ENOMEM;
	/* Threads seen at the start (some may have vanished). */
	for (size_t i = ia; i < A->n && A->tasks[i].pid == pid; i++) {
		const struct task_info *a = &A->tasks[i];
		const struct task_info *b = B ? find_task(B, pid, a->tid) : NULL;
		struct inspect_thread *th = &p->threads[p->n_threads++];

		if (b && b->start_ticks != a->start_ticks)
			b = NULL;	/* TID reused by a new thread */
		th->t = b ? b : a;
		th->vanished = !b;
		if (b && res->window_ns > 0)
			delta(th, a, b);
		th->perf = find_perf(res, a->tid);
	}
	/* Threads that appeared during the window. */
	for (size_t i = ib; B && i < B->n && B->tasks[i].pid == pid; i++) {
		const struct task_info *b = &B->tasks[i];
		const struct task_info *a = find_task(A, pid, b->tid);
		struct inspect_thread *th;

		if (a && a->start_ticks == b->start_ticks)
			continue;
		th = &p->threads[p->n_threads++];
		th->t = b;
		th->appeared = true;
	}
	for (size_t i = 0; i < p->n_threads; i++)
		if (task_is_rt(p->threads[i].t) && !p->threads[i].vanished)
			p->n_rt++;
	return 0;
}

/* The DEADLINE parameters and dl fields of each DEADLINE thread still there. */
static void read_deadline(const struct rootfs *fs, struct inspect_proc *p)
{
	for (size_t i = 0; i < p->n_threads; i++) {
		struct inspect_thread *th = &p->threads[i];

		if (th->vanished || th->t->policy != 6)
			continue;
		th->is_dl = true;
		probe_dlbw_thread(fs, p->pid, th->t->tid, &th->dl);
	}
}

static int open_perf(struct inspect_result *res, const struct inspect_request *req,
		     const int *pids, size_t n)
{
	const struct tasks_facts *A = &res->before;
	size_t want = 0, opened_any = 0;
	int64_t paranoid;
	/* A root handle holds a path of PATH_MAX: on the heap, for small stacks. */
	struct rootfs *fs = malloc(sizeof(*fs));

	res->perf_paranoid = INT32_MIN;
	if (fs && rootfs_open(fs, "/") == 0) {
		if (rootfs_read_int64(fs, "/proc/sys/kernel/perf_event_paranoid", &paranoid) == 0)
			res->perf_paranoid = (int)paranoid;
		rootfs_close(fs);
	}
	free(fs);
	for (size_t k = 0; k < n; k++)
		for (size_t i = first_of(A, pids[k]); i < A->n && A->tasks[i].pid == pids[k]; i++)
			want++;
	res->perf = calloc(want < INSPECT_PERF_MAX_THREADS ? (want ? want : 1)
							   : INSPECT_PERF_MAX_THREADS,
			   sizeof(*res->perf));
	if (!res->perf)
		return -ENOMEM;
	for (size_t k = 0; k < n; k++) {
		for (size_t i = first_of(A, pids[k]); i < A->n && A->tasks[i].pid == pids[k]; i++) {
			const struct task_info *t = &A->tasks[i];
			struct perf_thread *pt;

			/* With --all, count only realtime threads: they are what matters. */
			if (req->all && !task_is_rt(t))
				continue;
			if (res->n_perf == INSPECT_PERF_MAX_THREADS) {
				res->perf_skipped++;
				continue;
			}
			pt = &res->perf[res->n_perf++];
			perf_thread_open(pt, t->tid);
			for (int c = 0; c < PERF_NCOUNTERS; c++) {
				if (pt->fd[c] >= 0)
					opened_any++;
				else if (!res->perf_err && c != PERF_CACHE_MISSES)
					res->perf_err = pt->err[c];
			}
		}
	}
	if (opened_any)
		res->perf_err = 0;
	return 0;
}

/* For processes with a busy non-RT thread, the CPU limit of their cgroup. */
static void read_budgets(const struct rootfs *fs, struct inspect_result *res)
{
	/* Some 20 KiB of paths: on the heap, so that a small stack (ulimit -s 32) does. */
	struct cgroup_mounts *m = malloc(sizeof(*m));
	int merr = m ? cgroup_read_mounts(fs, m) : -ENOMEM;

	for (size_t k = 0; k < res->n_procs; k++) {
		struct inspect_proc *p = &res->procs[k];

		for (size_t i = 0; i < p->n_threads; i++) {
			const struct inspect_thread *th = &p->threads[i];

			if (!task_is_rt(th->t) && !th->vanished &&
			    inspect_cpu_percent(res, th) >= INSPECT_BUSY_PCT)
				p->busy = true;
		}
		if (!p->busy || p->vanished)
			continue;
		if (merr)
			p->cpu_limit_err = merr;
		else
			read_cpu_limit(fs, m, p);
	}
	free(m);
}

int inspect_collect(const struct inspect_request *req, struct inspect_result *res,
		    const volatile sig_atomic_t *stop, int *bad_pid)
{
	/* On the heap: a root handle holds a path of PATH_MAX (ulimit -s 32 must do). */
	struct rootfs *fs = malloc(sizeof(*fs));
	int *pids = NULL;
	size_t n = 0;
	int err;

	memset(res, 0, sizeof(*res));
	res->window_ns = req->window_ns;
	res->clk_tck = sysconf(_SC_CLK_TCK);
	res->perf_paranoid = INT32_MIN;
	if (res->clk_tck <= 0)
		res->clk_tck = 100;
	err = fs ? rootfs_open(fs, req->root ? req->root : "/") : -ENOMEM;
	if (err) {
		free(fs);
		return err;
	}
	probe_tasks(fs, &res->before);
	err = res->before.err;
	/*
	 * Not one process, not even an unreadable one (rtready itself on this
	 * machine): this /proc is no procfs, and "no user process" would be a lie.
	 */
	if (!err && res->before.n == 0 && res->before.unreadable == 0)
		err = -ENODATA;
	if (!err)
		err = select_pids(req, &res->before, fs->host, &pids, &n, bad_pid);
	if (!err && req->perf && req->window_ns > 0 && fs->host) {
		res->perf_requested = true;
		err = open_perf(res, req, pids, n);
	}
	if (!err && req->window_ns > 0)
		wait_window(req->window_ns, stop, &res->interrupted);
	for (size_t i = 0; i < res->n_perf; i++)
		perf_thread_close(&res->perf[i]);
	if (!err) {
		if (req->window_ns > 0) {
			probe_tasks(fs, &res->after);
			err = res->after.err;
		}
	}
	if (!err)
		probe_irq_affinity(fs, &res->irq);
	if (!err) {
		res->procs = calloc(n ? n : 1, sizeof(*res->procs));
		if (!res->procs)
			err = -ENOMEM;
	}
	for (size_t k = 0; k < n && !err; k++) {
		err = build_proc(res, pids[k], &res->procs[res->n_procs]);
		if (!err) {
			if (!res->procs[res->n_procs].vanished) {
				take_memory(&res->procs[res->n_procs]);
				read_deadline(fs, &res->procs[res->n_procs]);
			}
			res->n_procs++;
		}
	}
	if (!err)
		read_budgets(fs, res);
	free(pids);
	rootfs_close(fs);
	free(fs);
	return err;
}

void inspect_result_free(struct inspect_result *res)
{
	for (size_t i = 0; i < res->n_procs; i++)
		free(res->procs[i].threads);
	free(res->procs);
	free(res->perf);
	probe_tasks_free(&res->before);
	probe_tasks_free(&res->after);
	probe_irq_free(&res->irq);
	memset(res, 0, sizeof(*res));
}

double inspect_cpu_percent(const struct inspect_result *res, const struct inspect_thread *th)
{
	if (!th->have_delta || res->window_ns <= 0)
		return 0.0;
	return 100.0 * (double)th->cpu_ticks_d / (double)res->clk_tck /
	       ((double)res->window_ns / 1e9);
}
