/* SPDX-License-Identifier: MIT */
/*
 * cgroup v2 cpuset partitions: isolation without a reboot. A cgroup whose
 * cpuset.cpus.partition is "isolated" (Linux 5.18+) takes its CPUs out of
 * the scheduler's load balancing, and since 6.8 the root's
 * cpuset.cpus.isolated lists every CPU so set apart (and unbound
 * workqueues keep off them). This probe says whether that can work here:
 * where cgroup2 is mounted and whether cpuset is one of its controllers
 * (a hybrid machine keeps cpuset on a v1 hierarchy), whether the kernel
 * has the files, which partitions exist (an invalid one carries the
 * kernel's reason: "isolated invalid (Cpu list in cpuset.cpus not
 * exclusive)"), and the CPUs of each NUMA node. Through rootfs, so a
 * snapshot replays it; reading only.
 */
#ifndef RTR_PROBE_PARTITION_H
#define RTR_PROBE_PARTITION_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "probe/rootfs.h"
#include "rtready/cpuset.h"

/* Bounds of the walk for partitions, and of what is kept. */
#define PARTITION_MAX_DIRS  20000
#define PARTITION_MAX_DEPTH 32
#define PARTITION_MAX	    64

enum partition_hier {
	PARTITION_HIER_UNKNOWN,	 /* the mount table could not be read (err) */
	PARTITION_HIER_NONE,	 /* no cgroup2 mount and no v1 cpuset */
	PARTITION_HIER_V1,	 /* cpuset is on a cgroup v1 hierarchy (v1 or hybrid) */
	PARTITION_HIER_NO_CPUSET,/* cgroup2 is mounted, but cpuset is not one of its controllers */
	PARTITION_HIER_V2,	 /* cgroup2 with the cpuset controller */
};

/* One cgroup whose cpuset.cpus.partition is not "member". */
struct partition_group {
	char path[256];		/* below the cgroup2 mount: "/rtready-isolated" */
	char type[16];		/* "root" or "isolated" */
	bool valid;		/* false: the kernel says "... invalid (reason)" */
	char reason[160];	/* the kernel's reason when invalid, else "" */
	struct rtr_cpuset cpus;	/* cpuset.cpus.effective (empty when unread) */
};

struct partition_facts {
	int err;			/* -errno of the mount table; 0 */
	enum partition_hier hier;
	char mount[PATH_MAX];		/* the cgroup2 mount point, "" when none */
	char v1_cpuset[PATH_MAX];	/* the v1 hierarchy holding cpuset, "" when none */
	/*
	 * cpuset on v1: the root's cpuset.sched_load_balance ("sched_load_balance"
	 * when mounted with noprefix). 0 splits the scheduler's root domains
	 * along the load-balanced (cpu_exclusive) groups below. -1 unread
	 * (@v1_balance_err), or not v1.
	 */
	int v1_balance;
	int v1_balance_err;
	bool subtree_cpuset;		/* the root's cgroup.subtree_control has cpuset */
	int subtree_err;		/* -errno reading it */
	/* The root's cpuset.cpus.isolated: -ENOENT on kernels before 6.8 (or no cpuset). */
	int isolated_err;
	struct rtr_cpuset isolated;
	struct partition_group *groups;	/* partitions found (not "member") */
	size_t n_groups, cap_groups;
	bool truncated;			/* a bound of the walk was hit */
};

/* Fill @p. Never fails as a whole: fields carry their errors. */
void probe_partition(const struct rootfs *fs, struct partition_facts *p);
void probe_partition_free(struct partition_facts *p);

/*
 * Parse the content of cpuset.cpus.partition: "member", "root",
 * "isolated", or either of the last two followed by " invalid" and an
 * optional "(reason)". Return: 0, or -EINVAL for anything else.
 */
int partition_parse_state(const char *text, char *type, size_t tlen, bool *valid, char *reason,
			  size_t rlen);

/*
 * The CPUs that isolated partitions hold: the cgroup2 root's
 * cpuset.cpus.isolated, found through the mount table, into @out (cleared
 * first). For the RT CPUs of commands that read no other partition fact.
 * Return: 0; -ENOENT when no cgroup2 is mounted, cpuset is on cgroup v1,
 * or the kernel has no such file (before 6.8); -ENOMEM; -errno of a read;
 * -EINVAL for a list the kernel would not write.
 */
int partition_read_isolated(const struct rootfs *fs, struct rtr_cpuset *out)
	__attribute__((warn_unused_result));

/* Whether the kernel has isolated partitions and lists their CPUs (6.8+). */
bool partition_supported(const struct partition_facts *p);

/*
 * What stands in the way of an isolated partition of @rt, in one line in
 * @why: cpuset on cgroup v1, no cgroup2 with cpuset, a kernel without
 * cpuset.cpus.isolated, another partition holding some of @rt (the group
 * @own, a path under the mount such as "/rtready-isolated", is not
 * counted), @rt holding every CPU of a NUMA node (its kernel threads and
 * memory need a CPU that balances), and on the live system tasks that
 * others pinned to RT CPUs only (the partition would take their CPUs
 * away; kernel threads and @skip_pid excepted), named.
 * Return: 0 (none), -EOPNOTSUPP (this machine cannot), -EBUSY (CPUs in
 * use), -EINVAL (a NUMA node's last CPUs), -ENOMEM.
 */
int partition_obstacle(const struct rootfs *fs, const struct partition_facts *p,
		       const struct rtr_cpuset *rt, const char *own, int skip_pid, char *why,
		       size_t len) __attribute__((warn_unused_result));

#endif
