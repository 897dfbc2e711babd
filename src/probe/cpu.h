/* SPDX-License-Identifier: MIT */
/*
 * Facts of area 'cpu': which CPUs exist, are online and are isolated
 * (sysfs and the boot parameters that set it up: isolcpus=, nohz_full=,
 * rcu_nocbs=, irqaffinity=, maxcpus=, nr_cpus=), and per online CPU its
 * SMT siblings, caches, cpufreq governor and cpuidle states; plus the
 * unbound workqueue mask and timer migration. Per-CPU directories are
 * walked by index (index0.., state0..) until the first missing one, so a
 * snapshot holding only the files read gives the same facts. probe_cpu()
 * also reads the topology the planner needs: cpu_capacity (big.LITTLE),
 * the NUMA nodes' CPUs, and the performance/efficient cores of hybrid Intel
 * parts (the cpu_core and cpu_atom PMUs list them).
 */
#ifndef RTR_PROBE_CPU_H
#define RTR_PROBE_CPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "probe/cmdline.h"
#include "probe/rootfs.h"
#include "rtready/cpuset.h"

/* Bounds on per-CPU walks (real machines have about 4 caches, 10 idle states). */
#define CPU_MAX_CACHES 16
#define CPU_MAX_IDLE_STATES 32

struct cpu_cache {
	int index;			/* N of cache/indexN */
	int level;			/* 1, 2, 3, ... */
	char type[16];			/* "Data", "Instruction", "Unified" */
	/*
	 * 0, or why neither shared_cpu_list nor shared_cpu_map gave a set:
	 * -ENOENT both missing, -ENODATA empty (or no CPU in it), -EINVAL not
	 * in the kernel's format.
	 */
	int shared_err;
	bool shared_from_mask;		/* read from shared_cpu_map (no usable list) */
	struct rtr_cpuset shared;	/* the CPUs that share this cache */
};

struct cpu_idle_state {
	char name[32];		/* "POLL", "C1", "C6", ... */
	int latency_err;
	int64_t latency_us;	/* exit latency */
	int disable;		/* 1 disabled, 0 enabled, -1 unknown */
};

struct cpu_info {
	int cpu;
	int siblings_err;		/* topology/thread_siblings_list, else thread_siblings */
	bool siblings_from_mask;	/* read from the thread_siblings mask */
	struct rtr_cpuset siblings;	/* includes the CPU itself */
	int cache_err;			/* -ENOENT: no cache directory */
	struct cpu_cache caches[CPU_MAX_CACHES];
	size_t n_caches;
	int governor_err;		/* -ENOENT: no cpufreq for this CPU */
	char governor[32];		/* cpufreq/scaling_governor */
	char freq_driver[32];		/* cpufreq/scaling_driver, "" when unread */
	int idle_err;			/* -ENOENT: no cpuidle states */
	struct cpu_idle_state idle[CPU_MAX_IDLE_STATES];
	size_t n_idle;
	int capacity_err;		/* cpu_capacity (-ENOENT: not heterogeneous-aware, x86) */
	int64_t capacity;		/* 1024 for the biggest core */
	int node;			/* NUMA node, -1 when unknown */
};

/* Bound on NUMA nodes walked (the kernel's MAX_NUMNODES is 1024). */
#define CPU_MAX_NODES 1024

/* One NUMA node with CPUs: /sys/devices/system/node/nodeN/cpulist (or cpumap). */
struct cpu_node {
	int id;
	struct rtr_cpuset cpus;
};

/* A boot parameter holding a cpu list. */
struct cpu_boot_list {
	bool given;			/* present on the command line */
	int err;			/* its list's parse error, 0 when valid */
	char text[256];			/* the value as written (truncated), for evidence */
	struct rtr_cpuset cpus;
};

/* isolcpus= flags (kernel/sched/isolation.c); no flag means "domain". */
enum {
	CPU_ISOL_DOMAIN = 1u << 0,
	CPU_ISOL_NOHZ = 1u << 1,
	CPU_ISOL_MANAGED_IRQ = 1u << 2,
};

struct cpu_facts {
	int err;			/* unused: fields carry their own errors */
	int online_err, present_err, possible_err;
	struct rtr_cpuset online, present, possible;
	int isolated_err;		/* /sys/devices/system/cpu/isolated */
	struct rtr_cpuset isolated;
	int nohz_full_err;		/* /sys/devices/system/cpu/nohz_full (-ENOENT: no NO_HZ_FULL) */
	struct rtr_cpuset nohz_full;
	/*
	 * CPUs isolated without a reboot, by cgroup v2 isolated partitions: the
	 * cgroup2 root's cpuset.cpus.isolated (-ENOENT: no cgroup2 with cpuset,
	 * or a kernel before 6.8).
	 */
	int partitioned_err;
	struct rtr_cpuset partitioned;
	int smt_active;			/* smt/active: 1, 0, or -1 unknown */
	char smt_control[32];		/* smt/control: on, off, notsupported, ... */

	int cmdline_err;		/* /proc/cmdline */
	struct cpu_boot_list isolcpus;	/* cpus of isolcpus= (after its flags) */
	unsigned int isolcpus_flags;	/* CPU_ISOL_* */
	struct cpu_boot_list nohz_full_param, rcu_nocbs, irqaffinity;
	bool maxcpus_given, nr_cpus_given, nosmt;
	int64_t maxcpus, nr_cpus;	/* -1 when not a number */

	int workqueue_err;		/* /sys/devices/virtual/workqueue/cpumask */
	struct rtr_cpuset workqueue;
	int timer_migration_err;	/* /proc/sys/kernel/timer_migration */
	int64_t timer_migration;
	int idle_driver_err;		/* cpuidle/current_driver */
	char idle_driver[32];		/* "intel_idle", "acpi_idle", "none", ... */

	struct cpu_info *cpus;		/* one per online CPU, ascending */
	size_t n_cpus;
	/*
	 * Every CPU of @cpus has a cpu_capacity and they are not all equal
	 * (big.LITTLE): the scheduler then weighs CPUs by capacity, DEADLINE
	 * admission included (the kernel's sched_asym_cpucap_active()).
	 */
	bool capacity_asym;

	/* Topology beyond one CPU (probe_cpu() only, not probe_cpu_sets()). */
	int nodes_err;			/* -ENOENT: no /sys/devices/system/node (no NUMA) */
	struct cpu_node *nodes;		/* ascending id; nodes without CPUs left out */
	size_t n_nodes;
	int hybrid_err;			/* -ENOENT: no cpu_core/cpu_atom PMUs (not hybrid Intel) */
	struct rtr_cpuset hybrid_core;	/* /sys/devices/cpu_core/cpus: performance cores */
	struct rtr_cpuset hybrid_atom;	/* /sys/devices/cpu_atom/cpus: efficient cores */
};

/* Room for a cpu list of 8192 CPUs written the long way. */
#define CPU_READ_CAP 65536

/*
 * The CPUs named by @list_path, a cpu list ("0-3,8"), or where that is
 * missing, empty or not a list, by @mask_path, the same set as a hex mask
 * ("000000f0" or "00000000,0000000f"): POWER7 and some older kernels export
 * only the mask (util-linux lscpu reads only masks). A set without any CPU
 * counts as unread: the kernel always lists at least the CPU itself. NUL
 * padding after the text is ignored (rootfs_read_str()); anything else that
 * is not the format makes that file unusable, never partly read.
 * @buf: scratch of CPU_READ_CAP bytes. *@from_mask: set when the mask
 * gave the set.
 * Return: 0, or the list's error when the list was there but unusable, else
 * the mask's (-ENOENT both missing, -ENODATA empty, -EINVAL garbage).
 */
int cpu_read_set(const struct rootfs *fs, const char *list_path, const char *mask_path,
		 char *buf, struct rtr_cpuset *out, bool *from_mask);

/* Fill @out from @fs. Never fails as a whole: fields carry their own errors. */
void probe_cpu(const struct rootfs *fs, struct cpu_facts *out);
/*
 * As probe_cpu(), with the kernel command line already read and parsed
 * (@cl, or its error @cl_err) by probe_kernel(), and the partitions by
 * probe_partition() (@part): facts_gather() reads /proc/cmdline and
 * cpuset.cpus.isolated once for both.
 */
struct partition_facts;
void probe_cpu_cmdline(const struct rootfs *fs, const struct cmdline *cl, int cl_err,
		       const struct partition_facts *part, struct cpu_facts *out);
/*
 * As probe_cpu() without the per-CPU details (n_cpus is 0): the CPU sets,
 * boot parameters and global knobs only, for commands that need to know
 * which CPUs are online and meant for realtime work (a 512-CPU machine has
 * thousands of cache and idle-state files they do not need).
 */
void probe_cpu_sets(const struct rootfs *fs, struct cpu_facts *out);
/* Only the NUMA nodes (nodes, n_nodes, nodes_err) of probe_cpu(), into @out. */
void probe_cpu_nodes(const struct rootfs *fs, struct cpu_facts *out);
void probe_cpu_free(struct cpu_facts *out);

/*
 * cpu_capacity_sum() - what the kernel's DEADLINE admission counts for the
 * CPUs @cpus (dl_bw_capacity()): on asymmetric CPUs (@f->capacity_asym)
 * the sum of their cpu_capacity, in SCHED_CAPACITY_SCALE units (1024 is
 * the biggest core); otherwise the kernel counts the CPUs. Pure.
 * Return: 0 with *@sum, or -ENOENT when the CPUs count as 1024 each
 * (symmetric, or a CPU of @cpus not among the probed ones).
 */
#define CPU_CAPACITY_SCALE 1024
int cpu_capacity_sum(const struct cpu_facts *f, const struct rtr_cpuset *cpus, uint64_t *sum);

/* The entry of online CPU @cpu, or NULL. */
const struct cpu_info *cpu_facts_find(const struct cpu_facts *f, int cpu);

/*
 * Fill the boot parameters of @out from a parsed command line; @last_cpu
 * stands for "N" in cpu lists (the last possible CPU). Pure, for tests.
 * Return: 0 or -ENOMEM.
 */
int cpu_parse_boot_params(const struct cmdline *cl, int last_cpu, struct cpu_facts *out);

#endif
