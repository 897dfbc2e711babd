/* SPDX-License-Identifier: MIT */
/*
 * SCHED_DEADLINE bandwidth: what the deadline tasks reserve against the
 * kernel's admission limit. The kernel admits a DEADLINE task only while
 * the sum of runtime/period over its root domain stays within
 * sched_rt_runtime_us/sched_rt_period_us of each CPU of that domain (after
 * 6.12 the fair servers' reservations count too). Two sources: the
 * scheduler's debug file (/sys/kernel/debug/sched/debug, or /proc/sched_debug
 * before 5.13), whose dl_rq[N] sections give each CPU's root-domain limit
 * (dl_bw->bw) and what is allocated there (dl_bw->total_bw), both in the
 * kernel's BW_UNIT (1 << 20 = one CPU); and, on the live machine, the sum
 * of sched_getattr(2) over every DEADLINE thread.
 */
#ifndef RTR_PROBE_DLBW_H
#define RTR_PROBE_DLBW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "probe/cpu.h"
#include "probe/kernel.h"
#include "probe/partition.h"
#include "probe/rootfs.h"
#include "probe/sched.h"
#include "probe/tasks.h"
#include "rtready/cpuset.h"

#define DLBW_UNIT (1u << 20)		/* the kernel's BW_UNIT: one whole CPU */
#define DLBW_DEBUG_CAP (8u << 20)	/* the largest debug file read */
#define DLBW_TASKS_MAX 4096		/* DEADLINE threads listed (all are summed) */

/*
 * SCHED_FLAG_SUGOV (kernel-internal, in sched_getattr's sched_flags): the
 * schedutil governor's "sugov:N" kernel threads run SCHED_DEADLINE (1 ms
 * every 10 ms) but the kernel keeps them out of the admission sums.
 */
#define DLBW_FLAG_SUGOV 0x10000000ULL

/*
 * Whether @t is one of schedutil's "sugov:N" kernel threads: where only
 * /proc is read (a snapshot, the task list) their name tells them.
 */
static inline bool dlbw_task_is_sugov(const struct task_info *t)
{
	return t->kthread && strncmp(t->comm, "sugov:", 6) == 0;
}

/* One DEADLINE thread, from sched_getattr(2). */
struct dlbw_task {
	int pid;
	int tid;
	char comm[64];
	uint64_t runtime_ns;
	uint64_t deadline_ns;
	uint64_t period_ns;
};

/* One CPU's dl_rq section of the debug file. */
struct dlbw_cpu {
	int cpu;
	int64_t bw;		/* the root domain's limit per CPU (BW_UNIT); -1: no limit */
	int64_t total_bw;	/* allocated in the root domain (BW_UNIT) */
};

struct dlbw_facts {
	/* The debug file. */
	int debug_err;			/* 0 when read and parsed, else -errno */
	char debug_path[48];		/* the file that was read or tried last */
	struct dlbw_cpu *cpus;		/* one per dl_rq section, in file order */
	size_t n_cpus;
	/* The tasks (live machine only). */
	int tasks_err;			/* -ENOTSUP under --root: sched_getattr needs the live tasks */
	struct dlbw_task *tasks;	/* the first DLBW_TASKS_MAX DEADLINE threads */
	size_t n_tasks;			/* every DEADLINE thread read */
	size_t unread;			/* DEADLINE threads whose sched_getattr failed */
	size_t sugov;			/* schedutil's threads left out (DLBW_FLAG_SUGOV) */
	uint64_t tasks_bw;		/* sum of runtime/period in BW_UNIT (rounded like the kernel) */
};

/*
 * dlbw_parse_sched_debug() - the dl_rq[N] sections of the scheduler's debug
 * text, which read:
 *   dl_rq[0]:
 *     .dl_nr_running                 : 0
 *     .dl_bw->bw                     : 996147
 *     .dl_bw->total_bw               : 104857
 * Pure. Return: 0 with *@out (free it) and *@n, -ENOENT when there is no
 * dl_rq section, -EINVAL for a malformed one, -ENOMEM.
 */
int dlbw_parse_sched_debug(const char *text, struct dlbw_cpu **out, size_t *n);

/* The kernel's to_ratio(): runtime/period in BW_UNIT. */
uint64_t dlbw_ratio(uint64_t period_ns, uint64_t runtime_ns);

/*
 * What a snapshot keeps of the tasks' sched_getattr, which no file shows:
 * a file of its own at the top of the snapshot, one line per DEADLINE
 * thread, "PID TID RUNTIME_NS DEADLINE_NS PERIOD_NS", after a "#" comment.
 */
#define DLBW_SNAPSHOT_FILE "/rtready-sched-deadline.txt"

/*
 * dlbw_parse_snapshot() - the lines of DLBW_SNAPSHOT_FILE into @f's tasks
 * (comm left empty) and tasks_bw. Pure. Return: 0, -EINVAL, -ENOMEM.
 */
int dlbw_parse_snapshot(const char *text, struct dlbw_facts *f);

/*
 * dlbw_drop_sugov() - take out of @f's tasks (and tasks_bw) those that
 * @t lists as schedutil's sugov:N kernel threads (a snapshot made before
 * the flag was read keeps them), counting them in @f->sugov. Pure.
 */
void dlbw_drop_sugov(struct dlbw_facts *f, const struct tasks_facts *t);

/*
 * Fill @out: the debug file under @fs, and on the live root (@fs->host) the
 * sched_getattr of each DEADLINE thread of @tasks (recorded for a snapshot
 * as DLBW_SNAPSHOT_FILE); under a snapshot root, that file. Never fails as
 * a whole.
 */
void probe_dlbw(const struct rootfs *fs, const struct tasks_facts *tasks, struct dlbw_facts *out);
void probe_dlbw_free(struct dlbw_facts *f);

/*
 * What one root domain (the CPUs @cpus) has of DEADLINE bandwidth, all in
 * BW_UNIT. @limit: sched_rt_runtime_us/sched_rt_period_us of each CPU (or
 * the debug file's dl_bw->bw) times the CPUs, or on asymmetric CPUs
 * (big.LITTLE) times the sum of their cpu_capacity over 1024, as the
 * kernel's __dl_overflow() scales it (@capacity: that sum, 0 when the
 * CPUs are counted); @used: the debug file's
 * dl_bw->total_bw (@from_debug, @debug_cpu) or else @tasks + @fair; @tasks:
 * the sched_getattr sum of the @n_tasks DEADLINE threads whose affinity
 * meets @cpus (@have_tasks); @fair: the fair servers, on kernels after 6.12
 * (their default when unreadable: @fair_assumed). @ns_only: @used is the
 * tasks' sum and /proc lists only a child PID namespace's tasks (a
 * container): the host's DEADLINE tasks are missing from it.
 */
struct dlbw_usage {
	uint64_t limit;
	uint64_t capacity;
	uint64_t used;
	uint64_t tasks;
	uint64_t fair;
	size_t n_tasks;
	bool from_debug;
	int debug_cpu;
	bool have_tasks;
	bool fair_assumed;
	bool ns_only;
};

/*
 * dlbw_usage() - fill @u for the root domain @cpus from the facts (pure;
 * @s->rt_runtime_us must be read and >= 0; @c: probe_cpu()'s, for the
 * capacities).
 * Return: 0, or -ENODATA when neither source tells the bandwidth in use
 * (@u->limit is filled all the same).
 */
int dlbw_usage(const struct dlbw_facts *d, const struct sched_facts *s,
	       const struct kernel_facts *k, const struct tasks_facts *t,
	       const struct cpu_facts *c, const struct rtr_cpuset *cpus, struct dlbw_usage *u);

/*
 * The scheduler's root domains, each with its own DEADLINE limit, as far
 * as the facts tell: "main" (the online CPUs the others leave); the
 * kernel's default root domain, holding the isolcpus= CPUs and those of
 * cgroup v2 isolated partitions (no load balancing, so in no domain of
 * their own); and each valid cgroup v2 "root" partition. @unmapped says
 * why the split is not known when it is not (cpuset v1 with the root's
 * sched_load_balance 0, a partition whose CPUs were not read, a cgroup
 * walk cut short), else "".
 */
struct dlbw_domain {
	char name[300];
	struct rtr_cpuset cpus;
};

struct dlbw_domains {
	struct dlbw_domain *d;
	size_t n;
	bool partitions;	/* cpuset partitions take CPUs out of the main domain */
	char unmapped[320];
};

/*
 * dlbw_domains() - fill @out from the CPU and partition facts (pure).
 * Return: 0 or -ENOMEM. Free with dlbw_domains_free() either way.
 */
int dlbw_domains(const struct cpu_facts *c, const struct partition_facts *p,
		 struct dlbw_domains *out) __attribute__((warn_unused_result));
void dlbw_domains_free(struct dlbw_domains *out);

/* The "dl.*" fields of /proc/PID/task/TID/sched, as the kernel prints them. */
#define DLBW_SCHED_FIELDS 8
struct dlbw_sched_fields {
	size_t n;
	char key[DLBW_SCHED_FIELDS][32];	/* "dl.runtime", "dl.deadline", ... */
	int64_t value[DLBW_SCHED_FIELDS];
};

/*
 * dlbw_parse_proc_sched() - the "dl.KEY : VALUE" lines of a /proc/PID/sched
 * text (present for a DEADLINE task: dl.runtime, the runtime left in this
 * period, negative after an overrun; dl.deadline, the absolute deadline on
 * the runqueue clock; newer kernels may add more). Pure. Return: 0 (n may
 * be 0: none present), -EINVAL for a malformed dl line.
 */
int dlbw_parse_proc_sched(const char *text, struct dlbw_sched_fields *out);

/*
 * A thread's DEADLINE view: sched_getattr on the live machine (@attr_err
 * otherwise: -ENOTSUP under --root) and the dl fields of its sched file.
 */
struct dlbw_thread {
	int attr_err;
	uint64_t runtime_ns, deadline_ns, period_ns;
	int sched_err;
	struct dlbw_sched_fields sched;
};

/* Read @tid's DEADLINE view under @fs. Never fails as a whole. */
void probe_dlbw_thread(const struct rootfs *fs, int pid, int tid, struct dlbw_thread *out);

/*
 * dlbw_getattr() - sched_getattr(2) of thread @tid (the raw system call:
 * musl and older glibc have no wrapper). @policy gets the kernel policy,
 * @flags its sched_flags (DLBW_FLAG_SUGOV among them).
 * Return: 0 or -errno.
 */
int dlbw_getattr(int tid, int *policy, uint64_t *flags, uint64_t *runtime_ns,
		 uint64_t *deadline_ns, uint64_t *period_ns);

#endif
