/* SPDX-License-Identifier: MIT */
/*
 * The target context: the machine a command works on, opened once per
 * command. It holds the root directory (rootfs), the facts read under it
 * (the CPU sets always; every area for the commands that run checks), the
 * RT CPUs resolved once from the user's request (a list, auto:N planned by
 * src/cpuplan, or what the kernel isolates) and the housekeeping CPUs.
 * check, plan, tune, latency, verify, inspect, snapshot and the host block
 * of every report read from here, so that no file is read twice and no two
 * commands can disagree on which CPUs are meant for realtime work.
 */
#ifndef RTR_TARGET_TARGET_H
#define RTR_TARGET_TARGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/report.h"
#include "probe/facts.h"
#include "probe/rootfs.h"
#include "probe/rtcpus.h"
#include "rtready/cpuset.h"

/* What the user asked for with --rt-cpus (or latency's --affinity). */
enum rt_request_kind {
	RT_REQUEST_NONE,	/* not given: what the kernel isolates, if anything */
	RT_REQUEST_LIST,	/* a CPU list */
	RT_REQUEST_AUTO,	/* auto or auto:N: the choice of `rtready plan` */
};

struct rt_request {
	enum rt_request_kind kind;
	struct rtr_cpuset cpus;	/* RT_REQUEST_LIST */
	size_t count;		/* RT_REQUEST_AUTO: N of auto:N; 0 as many as can be spared */
	char opt[32];		/* the option that gave it, for messages ("--rt-cpus") */
};

#define RT_REQUEST_INIT { RT_REQUEST_NONE, RTR_CPUSET_INIT, 0, "" }

/*
 * A CPU list in the kernel's syntax for option @opt, never empty.
 * Return: 0, or -EINVAL with a message in @err (-ENOMEM likewise).
 */
int target_parse_cpulist(const char *opt, const char *arg, struct rtr_cpuset *out, char *err,
			 size_t errlen);

/*
 * Parse @arg of option @opt: "auto", "auto:N" or a CPU list in the kernel's
 * syntax. Return: 0, or -EINVAL with a message in @err (-ENOMEM likewise).
 */
int rt_request_parse(const char *opt, const char *arg, struct rt_request *out, char *err,
		     size_t errlen);
void rt_request_free(struct rt_request *r);

/* What target_open() reads besides the CPU sets and the host block. */
enum target_want {
	TARGET_HOST = 0,		/* the CPU sets, kernel release and host name */
	TARGET_FACTS = 1 << 0,		/* every fact of facts_gather() (check, plan) */
};

/* How `--rt-cpus auto` and `plan` ask the planner; see target_plan(). */
struct target_plan_req {
	size_t rt_count;	/* 0: as many as can be spared */
	int node;		/* -1: the planner chooses */
	const char *near;	/* an interface or IRQ whose node to take; NULL */
	int64_t window_ns;	/* on the live system, measure the load this long; 0: not */
};

/* How long plan (and --rt-cpus auto) measures the load on the live system. */
#define TARGET_PLAN_WINDOW_NS 500000000LL

struct target {
	struct rootfs fs;		/* open until target_close() */
	unsigned int want;		/* enum target_want */
	/*
	 * The facts: with TARGET_FACTS every area; else only cpu, from
	 * probe_cpu_sets() (probe_cpu() when auto needed the topology), and
	 * kernel.release.
	 */
	struct facts facts;
	char hostname[72];		/* "" when unread */
	struct rtcpus rt;		/* the RT CPUs, resolved once */
	struct rtr_cpuset housekeeping;	/* online CPUs that are not RT CPUs */
	char online_list[4096];		/* facts.cpu.online as a list, "" when unread */
	char rt_list[4096];		/* rt.cpus as a list ("2-3 (planned)"), "" for none */
	/*
	 * What the planner said that the command should pass on as a warning
	 * (the load could not be measured; --near names no node), "" for none.
	 */
	char plan_warning[256];
};

/*
 * Open the root @root (the live system "/", or a snapshot), read what
 * @want asks for and resolve @rt (NULL: not given). On the heap or static
 * storage: a target is tens of KiB (rtready runs with ulimit -s 32).
 * Return: 0; -ENOMEM; or -errno with the reason in @err ("cannot open root
 * directory DIR: ...", "--rt-cpus auto: no plan: ..."); the target is then
 * closed. The online CPUs may still be unread: see target_need_online().
 */
int target_open(struct target *t, const char *root, const struct rt_request *rt,
		unsigned int want, char *err, size_t errlen) __attribute__((warn_unused_result));
/*
 * target_open() in two steps, for a command that puts a recorder on the
 * root (t->fs.rec) before anything is read: target_root() opens the root
 * (on failure nothing is left to close), target_read() reads and resolves
 * (on failure the caller closes). Return: as target_open().
 */
int target_root(struct target *t, const char *root, char *err, size_t errlen)
	__attribute__((warn_unused_result));
int target_read(struct target *t, const struct rt_request *rt, unsigned int want, char *err,
		size_t errlen) __attribute__((warn_unused_result));
void target_close(struct target *t);

/*
 * The commands that measure or tune need the online CPUs. Return: 0, or
 * the error of reading them with "cannot read the online CPUs: ..." in @err.
 */
int target_need_online(const struct target *t, char *err, size_t errlen);

/*
 * Every CPU of @set must be online. Return: 0, or -EINVAL with
 * "OPT: CPU N is not online (online: LIST)" in @err.
 */
int target_check_online(const struct target *t, const char *opt, const struct rtr_cpuset *set,
			char *err, size_t errlen);

/*
 * Plan the RT CPUs under @t from its CPU and IRQ facts (the topology must
 * have been read: TARGET_FACTS, or an auto request): the managed IRQs, the
 * node of @req->near, and on the live system the load housekeeping carries.
 * Warnings go to @t->plan_warning. @managed is filled for the caller to
 * free. Return: as cpuplan_make(), or -EINVAL for a --near that names
 * nothing; with a message in @err either way.
 */
struct cpuplan;
struct managed_irqs;
int target_plan(struct target *t, const struct target_plan_req *req, struct managed_irqs *managed,
		struct cpuplan *plan, char *err, size_t errlen) __attribute__((warn_unused_result));

/*
 * A report's host block from @t (the root as the user gave it).
 * Return: 0 or -ENOMEM.
 */
int target_host_info(const struct target *t, struct host_info *out)
	__attribute__((warn_unused_result));

/*
 * The host block of a command that runs on this machine and reads nothing
 * else of it (pi, load, run): a target opened under "/" for it alone.
 * Unread facts are left empty. Return: 0 or -ENOMEM.
 */
int target_host_live(struct host_info *out) __attribute__((warn_unused_result));

#endif
