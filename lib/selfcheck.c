// SPDX-License-Identifier: MIT
/*
 * The self-check an application runs at start: the checklist items that
 * are properties of the process itself (locked memory, malloc tunables,
 * each thread's policy, priority and affinity, priority 99) plus the one
 * system knob every RT process depends on (RT throttling). Findings use
 * the ids and statuses of `rtready check`, so tools can merge them.
 */
#include <dirent.h>
#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rtready/cpuset.h"
#include "rtready/mem.h"
#include "rtready/selfcheck.h"
#include "rtready/thread.h"
#include "internal.h"
#include "procself.h"

/* A process with more threads than this is reported as truncated. */
#define MAX_THREADS 4096

struct sc_out {
	struct rtr_finding *out;
	size_t cap;
	size_t n;
	struct rtr_finding scratch;	/* findings past @cap are written here */
};

static struct rtr_finding *sc_add(struct sc_out *sc, const char *id, enum rtr_status status,
				  int tid, const char *title)
{
	struct rtr_finding *f = sc->n < sc->cap ? &sc->out[sc->n] : &sc->scratch;

	sc->n++;
	memset(f, 0, sizeof(*f));
	snprintf(f->id, sizeof(f->id), "%s", id);
	snprintf(f->title, sizeof(f->title), "%s", title);
	f->status = status;
	f->tid = tid;
	return f;
}

static void __attribute__((format(printf, 3, 4)))
sc_set(char *field, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(field, len, fmt, ap);
	va_end(ap);
}

#define SET(f, field, ...) sc_set((f)->field, sizeof((f)->field), __VA_ARGS__)

static void check_memory(struct sc_out *sc, const struct rtr_mem_status *st, int st_err)
{
	struct rtr_finding *f;
	const char *title = "Process memory is locked (mlockall)";

	if (st_err) {
		f = sc_add(sc, "self.memory_locked", RTR_SKIP, 0, title);
		SET(f, evidence, "cannot read " PROCSELF_STATUS ": %s", strerror(-st_err));
	} else if (st->locked_bytes == 0) {
		f = sc_add(sc, "self.memory_locked", RTR_FAIL, 0, title);
		SET(f, evidence, "VmLck 0 kB, VmRSS %llu kB",
		    (unsigned long long)(st->resident_bytes / 1024));
	} else if (!st->lock_future) {
		f = sc_add(sc, "self.memory_locked", RTR_WARN, 0, title);
		SET(f, evidence, "VmLck %llu kB, VmRSS %llu kB; not locked through rtr_mem_lock(), "
		    "so MCL_FUTURE is unknown", (unsigned long long)(st->locked_bytes / 1024),
		    (unsigned long long)(st->resident_bytes / 1024));
	} else {
		f = sc_add(sc, "self.memory_locked", RTR_PASS, 0, title);
		SET(f, evidence, "VmLck %llu kB, VmRSS %llu kB; mlockall(MCL_CURRENT | MCL_FUTURE) "
		    "in force", (unsigned long long)(st->locked_bytes / 1024),
		    (unsigned long long)(st->resident_bytes / 1024));
	}
	SET(f, why, "unlocked pages can be reclaimed under memory pressure (even program text), "
	    "and reading them back stalls a realtime thread for milliseconds");
	SET(f, fix, "call rtr_mem_lock() (mlockall(MCL_CURRENT | MCL_FUTURE)) before the "
	    "realtime threads start; raise RLIMIT_MEMLOCK or grant CAP_IPC_LOCK if refused");
}

static void check_mallopt(struct sc_out *sc, const struct rtr_mem_status *st)
{
	const char *title = "malloc keeps memory in the heap (mallopt)";
	struct rtr_finding *f;

	if (!rtr_mem_mallopt_supported()) {
		f = sc_add(sc, "self.mallopt", RTR_INFO, 0, title);
		SET(f, evidence, "this C library has no M_MMAP_MAX / M_TRIM_THRESHOLD (musl)");
		SET(f, fix, "allocate what the realtime path needs before it starts and never free it");
	} else if (st->mallopt_done) {
		f = sc_add(sc, "self.mallopt", RTR_PASS, 0, title);
		SET(f, evidence, "rtr_mem_mallopt() set M_MMAP_MAX=0 and M_TRIM_THRESHOLD=-1");
		SET(f, fix, "nothing to do");
	} else {
		f = sc_add(sc, "self.mallopt", RTR_WARN, 0, title);
		SET(f, evidence, "rtr_mem_mallopt() was not called in this process");
		SET(f, fix, "call rtr_mem_mallopt() first thing in main(), before prefaulting");
	}
	SET(f, why, "memory that malloc maps separately or trims goes back to the kernel on "
	    "free(), and faults again when it is allocated next time");
}

/* Affinity of another thread of this process, with masks grown to fit. */
static int task_affinity(int tid, struct rtr_cpuset *set)
{
	for (size_t ncpus = 1024; ncpus <= RTR_CPUSET_MAX_CPUS; ncpus *= 2) {
		cpu_set_t *cs = CPU_ALLOC(ncpus);
		size_t sz = CPU_ALLOC_SIZE(ncpus);
		int err;

		if (!cs)
			return -ENOMEM;
		CPU_ZERO_S(sz, cs);
		if (sched_getaffinity(tid, sz, cs) == 0) {
			err = rtr_cpuset_from_sched(set, cs, sz);
			CPU_FREE(cs);
			return err;
		}
		err = -errno;
		CPU_FREE(cs);
		if (err != -EINVAL)
			return err;
	}
	return -EINVAL;
}

static bool policy_is_rt(int kpolicy)
{
	return kpolicy == SCHED_FIFO || kpolicy == SCHED_RR || kpolicy == SCHED_DEADLINE;
}

static void check_thread(struct sc_out *sc, const struct rtr__procself_task *t, long online,
			 int *prio99_tids, size_t *n99)
{
	struct rtr_cpuset cpus = RTR_CPUSET_INIT;
	enum rtr_policy pol = RTR_SCHED_OTHER;
	char list[128] = "?", prio[32] = "";
	const char *pname;
	enum rtr_status status;
	size_t ncpus = 0;
	bool rt = policy_is_rt(t->policy), pinned;
	struct rtr_finding *f;

	pname = rtr_policy_from_kernel(t->policy, &pol) == 0 ? rtr_policy_name(pol) : "UNKNOWN";
	if (task_affinity(t->tid, &cpus) == 0) {
		rtr_cpuset_format_list(&cpus, list, sizeof(list));
		ncpus = rtr_cpuset_count(&cpus);
	}
	rtr_cpuset_free(&cpus);
	pinned = ncpus > 0 && online > 0 && ncpus < (size_t)online;
	if (t->policy == SCHED_FIFO || t->policy == SCHED_RR)
		snprintf(prio, sizeof(prio), " priority %u", t->rt_priority);
	else if (!rt)
		snprintf(prio, sizeof(prio), " nice %d", t->nice);
	if ((t->policy == SCHED_FIFO || t->policy == SCHED_RR) && t->rt_priority >= 99 &&
	    *n99 < 8)
		prio99_tids[(*n99)++] = t->tid;

	/* DEADLINE threads cannot be pinned below their root domain. */
	if (!rt)
		status = RTR_INFO;
	else if (pinned || t->policy == SCHED_DEADLINE)
		status = RTR_PASS;
	else
		status = RTR_WARN;
	f = sc_add(sc, "self.thread_policy", status, t->tid, "Thread policy, priority and affinity");
	SET(f, evidence, "tid %d (%s): SCHED_%s%s, CPUs %s (%ld online)", t->tid, t->comm, pname,
	    prio, list, online);
	if (rt) {
		SET(f, why, "a realtime thread free to run on every CPU shares them with all other "
		    "work and migrates between caches; pinned to its own CPUs it does not");
		SET(f, fix, status == RTR_PASS ? "nothing to do" :
		    "set rtr_thread_attr.cpus to the isolated realtime CPUs");
	} else {
		SET(f, why, "non-realtime threads are fine for work without deadlines; keep them off "
		    "the realtime CPUs");
		SET(f, fix, "nothing to do, unless this thread has deadlines: then give it SCHED_FIFO");
	}
}

static void check_threads(struct sc_out *sc)
{
	int prio99[8];
	size_t n99 = 0, seen = 0;
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	struct rtr_finding *f;
	struct dirent *de;
	DIR *dir;

	dir = opendir(PROCSELF_TASKS);
	if (!dir) {
		f = sc_add(sc, "self.thread_policy", RTR_SKIP, 0,
			   "Thread policy, priority and affinity");
		SET(f, evidence, "cannot list " PROCSELF_TASKS ": %s", strerror(errno));
		f = sc_add(sc, "self.prio99", RTR_SKIP, 0, "No thread at priority 99");
		SET(f, evidence, "cannot list " PROCSELF_TASKS ": %s", strerror(errno));
		return;
	}
	while ((de = readdir(dir)) != NULL && seen < MAX_THREADS) {
		struct rtr__procself_task t;
		char *end;
		long tid = strtol(de->d_name, &end, 10);

		if (de->d_name[0] < '0' || de->d_name[0] > '9' || *end || tid <= 0 || tid > INT32_MAX)
			continue;
		seen++;
		/* A thread may exit while we look: skip it. */
		if (rtr__procself_task((int)tid, &t) != 0)
			continue;
		check_thread(sc, &t, online, prio99, &n99);
	}
	closedir(dir);

	f = sc_add(sc, "self.prio99", n99 ? RTR_FAIL : RTR_PASS, n99 ? prio99[0] : 0,
		   "No thread at priority 99");
	if (n99) {
		char tids[96] = "";
		size_t pos = 0;

		for (size_t i = 0; i < n99 && pos < sizeof(tids); i++)
			pos += (size_t)snprintf(tids + pos, sizeof(tids) - pos, "%s%d",
						i ? "," : "", prio99[i]);
		SET(f, evidence, "threads at SCHED_FIFO/RR priority 99: %s", tids);
	} else {
		SET(f, evidence, "no thread of this process runs at priority 99");
	}
	SET(f, why, "priority 99 is where the kernel's own critical threads run (watchdogs, "
	    "migration); an application thread there can starve them");
	SET(f, fix, "use priority %d or lower for application threads", RTR_PRIO_MAX_SAFE);
}

static void check_throttling(struct sc_out *sc)
{
	const char *title = "RT throttling is off";
	struct rtr_finding *f;
	char buf[32];
	long len = rtr__procself_read(PROCSELF_RT_RUNTIME, buf, sizeof(buf));
	char *end;
	long v;

	if (len < 0) {
		f = sc_add(sc, "self.rt_throttling", RTR_SKIP, 0, title);
		SET(f, evidence, "cannot read " PROCSELF_RT_RUNTIME ": %s", strerror((int)-len));
	} else {
		v = strtol(buf, &end, 10);
		if (end == buf) {
			f = sc_add(sc, "self.rt_throttling", RTR_SKIP, 0, title);
			SET(f, evidence, PROCSELF_RT_RUNTIME " holds no number");
		} else {
			f = sc_add(sc, "self.rt_throttling", v < 0 ? RTR_PASS : RTR_WARN, 0, title);
			SET(f, evidence, "sched_rt_runtime_us = %ld%s", v,
			    v < 0 ? " (throttling off)" : "");
		}
	}
	SET(f, why, "with throttling on, all realtime threads are stopped for the rest of each "
	    "period once they used their share; a deadline is then missed by design");
	SET(f, fix, "echo -1 > /proc/sys/kernel/sched_rt_runtime_us (and in a boot script, e.g. "
	    "kernel.sched_rt_runtime_us = -1 in /etc/sysctl.d)");
}

RTR_EXPORT int rtr_selfcheck(struct rtr_finding *out, size_t cap, size_t *n)
{
	struct sc_out sc = { .out = out, .cap = out ? cap : 0, .n = 0 };
	struct rtr_mem_status st;
	int st_err;

	rtr__clear_error();
	if (!n)
		return rtr__fail(-EINVAL, "rtr_selfcheck: n is NULL");
	st_err = rtr_mem_status(&st);
	check_memory(&sc, &st, st_err);
	check_mallopt(&sc, &st);
	check_threads(&sc);
	check_throttling(&sc);
	*n = sc.n;
	return 0;
}
