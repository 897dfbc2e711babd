// SPDX-License-Identifier: MIT
/*
 * Realtime threads. FIFO, RR and OTHER are set through explicit-scheduling
 * attributes, so the C library applies them before the thread runs any
 * code (and an RT creator's policy is never inherited by accident). What
 * attributes cannot carry (SCHED_DEADLINE, BATCH, IDLE, a nice value, the
 * CPU affinity, the name, the stack prefault) the new thread applies to
 * itself in a small start routine, before the body runs; the creator
 * waits for that result, so creation fails when any setting is refused.
 *
 * One implementation serves glibc and musl: musl's sched_setscheduler() is
 * an ENOSYS stub and it has no pthread_attr_setaffinity_np(), so only
 * per-thread calls are used (pthread_setschedparam, pthread_setaffinity_np
 * on the thread itself, and the raw sched_setattr system call).
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "rtready/error.h"
#include "rtready/mem.h"
#include "rtready/thread.h"
#include "internal.h"
#include "priv.h"
#include "procself.h"
#include "schedattr.h"

#define DEFAULT_STACK_BYTES (256u << 10)
#define MAX_STACK_BYTES (1u << 30)
/* The kernel refuses SCHED_DEADLINE runtimes below 1 us (2^10 ns). */
#define DL_MIN_RUNTIME_NS 1024u

static const struct {
	enum rtr_policy policy;
	int kernel;
	const char *name;
} policies[] = {
	{ RTR_SCHED_OTHER, SCHED_OTHER, "OTHER" },
	{ RTR_SCHED_FIFO, SCHED_FIFO, "FIFO" },
	{ RTR_SCHED_RR, SCHED_RR, "RR" },
	{ RTR_SCHED_DEADLINE, SCHED_DEADLINE, "DEADLINE" },
	{ RTR_SCHED_BATCH, SCHED_BATCH, "BATCH" },
	{ RTR_SCHED_IDLE, SCHED_IDLE, "IDLE" },
};

#define NPOLICIES (sizeof(policies) / sizeof(policies[0]))

RTR_EXPORT const char *rtr_policy_name(enum rtr_policy policy)
{
	for (size_t i = 0; i < NPOLICIES; i++)
		if (policies[i].policy == policy)
			return policies[i].name;
	return "UNKNOWN";
}

RTR_EXPORT int rtr_policy_to_kernel(enum rtr_policy policy)
{
	for (size_t i = 0; i < NPOLICIES; i++)
		if (policies[i].policy == policy)
			return policies[i].kernel;
	return -1;
}

RTR_EXPORT int rtr_policy_from_kernel(int kernel_policy, enum rtr_policy *policy)
{
	/* /proc and sched_getattr may show SCHED_RESET_ON_FORK or'ed in. */
	kernel_policy &= ~SCHED_RESET_ON_FORK;
	for (size_t i = 0; i < NPOLICIES; i++) {
		if (policies[i].kernel == kernel_policy) {
			*policy = policies[i].policy;
			return 0;
		}
	}
	return -EINVAL;
}

RTR_EXPORT int rtr_policy_from_name(const char *name, enum rtr_policy *policy)
{
	if (strncasecmp(name, "SCHED_", 6) == 0)
		name += 6;
	for (size_t i = 0; i < NPOLICIES; i++) {
		if (strcasecmp(name, policies[i].name) == 0) {
			*policy = policies[i].policy;
			return 0;
		}
	}
	return rtr__fail(-EINVAL, "unknown scheduling policy '%s'", name);
}

RTR_EXPORT int rtr_thread_attr_set_deadline(struct rtr_thread_attr *attr, uint64_t runtime_ns,
					    uint64_t deadline_ns, uint64_t period_ns)
{
	uint64_t period = period_ns ? period_ns : deadline_ns;
	uint64_t deadline = deadline_ns ? deadline_ns : period;

	rtr__clear_error();
	if (runtime_ns < DL_MIN_RUNTIME_NS || runtime_ns > deadline || deadline > period)
		return rtr__fail(-EINVAL,
				"SCHED_DEADLINE needs %u ns <= runtime <= deadline <= period "
				"(got %llu, %llu, %llu)", DL_MIN_RUNTIME_NS,
				(unsigned long long)runtime_ns, (unsigned long long)deadline_ns,
				(unsigned long long)period_ns);
	attr->policy = RTR_SCHED_DEADLINE;
	attr->priority = 0;
	attr->dl_runtime_ns = runtime_ns;
	attr->dl_deadline_ns = deadline;
	attr->dl_period_ns = period;
	return 0;
}

static bool is_rt(enum rtr_policy p)
{
	return p == RTR_SCHED_FIFO || p == RTR_SCHED_RR;
}

/* The settings the thread applies itself: everything attributes cannot hold. */
static bool needs_setattr(const struct rtr_thread_attr *a)
{
	return !is_rt(a->policy) && (a->policy != RTR_SCHED_OTHER || a->nice != 0);
}

static int validate(const struct rtr_thread_attr *a)
{
	if (rtr_policy_to_kernel(a->policy) < 0)
		return rtr__fail(-EINVAL, "unknown scheduling policy %d", (int)a->policy);
	if (is_rt(a->policy)) {
		if (a->priority < 1 || a->priority > 99)
			return rtr__fail(-EINVAL, "SCHED_%s priority %d is outside 1..99",
					rtr_policy_name(a->policy), a->priority);
		if (a->priority > RTR_PRIO_MAX_SAFE && !a->allow_prio99)
			return rtr__fail(-EINVAL,
					"priority 99 refused: it belongs to the kernel threads "
					"that must preempt everything (watchdogs, migration); use "
					"%d or lower, or set allow_prio99", RTR_PRIO_MAX_SAFE);
	}
	if ((a->policy == RTR_SCHED_OTHER || a->policy == RTR_SCHED_BATCH) &&
	    (a->nice < -20 || a->nice > 19))
		return rtr__fail(-EINVAL, "nice %d is outside -20..19", a->nice);
	if (a->policy == RTR_SCHED_DEADLINE) {
		uint64_t period = a->dl_period_ns ? a->dl_period_ns : a->dl_deadline_ns;
		uint64_t deadline = a->dl_deadline_ns ? a->dl_deadline_ns : period;

		if (a->dl_runtime_ns < DL_MIN_RUNTIME_NS || a->dl_runtime_ns > deadline ||
		    deadline > period)
			return rtr__fail(-EINVAL,
					"SCHED_DEADLINE needs %u ns <= runtime <= deadline <= period "
					"(got %llu, %llu, %llu)", DL_MIN_RUNTIME_NS,
					(unsigned long long)a->dl_runtime_ns,
					(unsigned long long)a->dl_deadline_ns,
					(unsigned long long)a->dl_period_ns);
		/*
		 * @cpus may be given: the kernel checks admission per root
		 * domain, and takes an affinity that spans the thread's whole
		 * root domain (e.g. all the isolcpus CPUs); a narrower one it
		 * refuses with EPERM while admission control is on.
		 */
	}
	if (a->cpus && rtr_cpuset_is_empty(a->cpus))
		return rtr__fail(-EINVAL, "the CPU set is empty");
	if (a->stack_bytes > MAX_STACK_BYTES)
		return rtr__fail(-EINVAL, "stack of %zu bytes is larger than 1 GiB", a->stack_bytes);
	return 0;
}

/* One number from a /proc/sys file, or @fallback when it cannot be read. */
static long read_knob(const char *path, long fallback)
{
	char buf[32], *end;
	long v;

	if (rtr__procself_read(path, buf, sizeof(buf)) <= 0)
		return fallback;
	v = strtol(buf, &end, 10);
	return end == buf ? fallback : v;
}

/*
 * EBUSY from sched_setattr: the kernel's admission test (dl_overflow) found
 * that this thread's runtime/period does not fit in what its root domain has
 * left of the limit sched_rt_runtime_us/sched_rt_period_us per CPU.
 */
static int explain_admission(int err, const struct rtr_thread_attr *a, const char *call)
{
	uint64_t period = a->dl_period_ns ? a->dl_period_ns : a->dl_deadline_ns;
	long rt_runtime = read_knob(PROCSELF_RT_RUNTIME, -2);
	long rt_period = read_knob(PROCSELF_RT_PERIOD, -2);
	char limit[160];

	if (rt_runtime >= 0 && rt_period > 0)
		snprintf(limit, sizeof(limit), "sched_rt_runtime_us/sched_rt_period_us = "
			 "%ld/%ld = %.1f%% of each CPU of the root domain", rt_runtime, rt_period,
			 100.0 * (double)rt_runtime / (double)rt_period);
	else
		snprintf(limit, sizeof(limit), "sched_rt_runtime_us/sched_rt_period_us of each "
			 "CPU of the root domain");
	return rtr__fail(err, "%s: SCHED_DEADLINE admission refused: runtime/period = "
			 "%llu/%llu ns = %.1f%% of a CPU does not fit in the deadline bandwidth "
			 "left; all DEADLINE tasks of a root domain share at most %s (`rtready "
			 "check --only sched.deadline_bandwidth` shows what is in use)", call,
			 (unsigned long long)a->dl_runtime_ns, (unsigned long long)period,
			 period ? 100.0 * (double)a->dl_runtime_ns / (double)period : 0.0, limit);
}

static int explain_sched(int err, const struct rtr_thread_attr *a, const char *call)
{
	char why[512];

	if (err == -EPERM && is_rt(a->policy)) {
		rtr__priv_explain_rtprio(why, sizeof(why), a->priority);
		return rtr__fail(err, "%s: SCHED_%s priority %d refused: %s (%s)", call,
				rtr_policy_name(a->policy), a->priority, strerror(-err), why);
	}
	if (err == -EPERM && a->policy == RTR_SCHED_DEADLINE)
		return rtr__fail(err, "%s: SCHED_DEADLINE refused: %s (%s)", call, strerror(-err),
				rtr__priv_has_cap(PRIV_CAP_SYS_NICE) ?
				"the thread's CPU affinity must span its whole root domain "
				"while admission control is on: pin it to all the CPUs of "
				"its domain (all the isolcpus CPUs, or all the others), or "
				"make the domain with an exclusive cpuset partition" :
				"CAP_SYS_NICE is missing; RLIMIT_RTPRIO does not allow DEADLINE");
	if (err == -EBUSY && a->policy == RTR_SCHED_DEADLINE)
		return explain_admission(err, a, call);
	if ((err == -EPERM || err == -EACCES) && a->nice < 0)
		return rtr__fail(err, "%s: nice %d refused: %s (CAP_SYS_NICE is missing and "
				"RLIMIT_NICE is too low)", call, a->nice, strerror(-err));
	return rtr__fail(err, "%s: SCHED_%s: %s", call, rtr_policy_name(a->policy),
			strerror(-err));
}

static int apply_setattr(const struct rtr_thread_attr *a)
{
	struct rtr__sched_attr sa;

	memset(&sa, 0, sizeof(sa));
	sa.sched_policy = (uint32_t)rtr_policy_to_kernel(a->policy);
	if (a->policy == RTR_SCHED_DEADLINE) {
		sa.sched_runtime = a->dl_runtime_ns;
		sa.sched_deadline = a->dl_deadline_ns ? a->dl_deadline_ns : a->dl_period_ns;
		sa.sched_period = a->dl_period_ns ? a->dl_period_ns : sa.sched_deadline;
	} else if (a->policy != RTR_SCHED_IDLE) {
		sa.sched_nice = a->nice;
	}
	if (rtr__sched_setattr(0, &sa) != 0)
		return explain_sched(-errno, a, "sched_setattr");
	return 0;
}

static int apply_affinity(const struct rtr_cpuset *cpus, const cpu_set_t *cs, size_t size)
{
	char list[128];
	int err = pthread_setaffinity_np(pthread_self(), size, cs);

	if (!err)
		return 0;
	rtr_cpuset_format_list(cpus, list, sizeof(list));
	if (err == EINVAL)
		return rtr__fail(-err, "pthread_setaffinity_np: none of CPUs %s is online and "
				"allowed for this process (cpuset cgroup?)", list);
	return rtr__fail(-err, "pthread_setaffinity_np(%s): %s", list, strerror(err));
}

static void apply_name(const char *name)
{
	char comm[16];

	/* The kernel keeps 15 characters; longer names make the call fail. */
	snprintf(comm, sizeof(comm), "%s", name);
	pthread_setname_np(pthread_self(), comm);
}

/* What the thread does to itself; @sched_done: attributes already did it. */
static int apply_in_thread(const struct rtr_thread_attr *a, const cpu_set_t *cs, size_t cs_size,
			   bool sched_done)
{
	int err;

	if (a->cpus) {
		err = apply_affinity(a->cpus, cs, cs_size);
		if (err)
			return err;
	}
	if (!sched_done || needs_setattr(a)) {
		if (is_rt(a->policy)) {
			struct sched_param sp = { .sched_priority = a->priority };

			err = pthread_setschedparam(pthread_self(),
						    rtr_policy_to_kernel(a->policy), &sp);
			if (err)
				return explain_sched(-err, a, "pthread_setschedparam");
		} else {
			err = apply_setattr(a);
			if (err)
				return err;
		}
	}
	if (a->name)
		apply_name(a->name);
	if (a->prefault_stack) {
		err = rtr_mem_prefault_stack_all();
		if (err)
			return err;
	}
	return 0;
}

RTR_EXPORT int rtr_thread_apply(const struct rtr_thread_attr *attr)
{
	cpu_set_t *cs = NULL;
	size_t cs_size = 0;
	int err;

	rtr__clear_error();
	err = validate(attr);
	if (err)
		return err;
	if (attr->cpus) {
		err = rtr_cpuset_to_sched(attr->cpus, &cs, &cs_size);
		if (err)
			return rtr__fail(err, "cannot build the affinity mask: %s", strerror(-err));
	}
	err = apply_in_thread(attr, cs, cs_size, false);
	if (cs)
		CPU_FREE(cs);
	return err;
}

struct thread_start {
	const struct rtr_thread_attr *attr;
	const cpu_set_t *cs;
	size_t cs_size;
	void *(*fn)(void *);
	void *arg;
	sem_t ready;
	int err;
	char msg[512];
};

static void *thread_trampoline(void *p)
{
	struct thread_start *st = p;
	void *(*fn)(void *) = st->fn;
	void *arg = st->arg;
	int err;

	err = apply_in_thread(st->attr, st->cs, st->cs_size, true);
	st->err = err;
	if (err)
		snprintf(st->msg, sizeof(st->msg), "%s", rtr_last_error());
	/* After this post the creator returns and *st is gone. */
	sem_post(&st->ready);
	if (err)
		return NULL;
	return fn(arg);
}

static int init_attr(pthread_attr_t *pa, const struct rtr_thread_attr *a)
{
	struct sched_param sp = { .sched_priority = is_rt(a->policy) ? a->priority : 0 };
	size_t ps = (size_t)sysconf(_SC_PAGESIZE);
	size_t stack = a->stack_bytes ? a->stack_bytes : DEFAULT_STACK_BYTES;
	int err;

	stack = (stack + ps - 1) / ps * ps;
	err = pthread_attr_init(pa);
	if (err)
		return rtr__fail(-err, "pthread_attr_init: %s", strerror(err));
	err = pthread_attr_setstacksize(pa, stack);
	if (err) {
		err = rtr__fail(-err, "pthread_attr_setstacksize(%zu): %s", stack, strerror(err));
		goto fail;
	}
	/*
	 * Explicit scheduling for FIFO/RR/OTHER; the other policies start as
	 * OTHER and switch themselves in the start routine.
	 */
	err = pthread_attr_setinheritsched(pa, PTHREAD_EXPLICIT_SCHED);
	if (!err)
		err = pthread_attr_setschedpolicy(pa, is_rt(a->policy) ?
						  rtr_policy_to_kernel(a->policy) : SCHED_OTHER);
	if (!err)
		err = pthread_attr_setschedparam(pa, &sp);
	if (err) {
		err = rtr__fail(-err, "pthread_attr_setsched*: %s", strerror(err));
		goto fail;
	}
	return 0;
fail:
	pthread_attr_destroy(pa);
	return err;
}

RTR_EXPORT int rtr_thread_create(pthread_t *thread, const struct rtr_thread_attr *attr,
				 void *(*fn)(void *), void *arg)
{
	struct thread_start st;
	pthread_attr_t pa;
	cpu_set_t *cs = NULL;
	int err;

	rtr__clear_error();
	err = validate(attr);
	if (err)
		return err;
	memset(&st, 0, sizeof(st));
	st.attr = attr;
	st.fn = fn;
	st.arg = arg;
	if (attr->cpus) {
		err = rtr_cpuset_to_sched(attr->cpus, &cs, &st.cs_size);
		if (err)
			return rtr__fail(err, "cannot build the affinity mask: %s", strerror(-err));
		st.cs = cs;
	}
	if (sem_init(&st.ready, 0, 0) != 0) {
		err = rtr__fail(-errno, "sem_init: %s", strerror(errno));
		goto out_cs;
	}
	err = init_attr(&pa, attr);
	if (err)
		goto out_sem;
	err = pthread_create(thread, &pa, thread_trampoline, &st);
	pthread_attr_destroy(&pa);
	if (err) {
		/* EPERM here: the C library could not apply the explicit policy. */
		err = err == EPERM ? explain_sched(-err, attr, "pthread_create") :
			rtr__fail(-err, "pthread_create: %s", strerror(err));
		goto out_sem;
	}
	/* Bounded by the start routine, which posts exactly once. */
	while (sem_wait(&st.ready) != 0 && errno == EINTR)
		;
	if (st.err) {
		pthread_join(*thread, NULL);
		err = rtr__fail(st.err, "%s", st.msg);
	}
out_sem:
	sem_destroy(&st.ready);
out_cs:
	if (cs)
		CPU_FREE(cs);
	return err;
}
