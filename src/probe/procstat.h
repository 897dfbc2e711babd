/* SPDX-License-Identifier: MIT */
/*
 * Parsers of /proc/PID/stat and /proc/PID/status (also /proc/PID/task/TID/...).
 * Pure functions of a buffer: no file access, so `check`, `inspect` and the
 * fuzz targets share exactly one implementation. Input is untrusted (a
 * snapshot may hold anything): buffers are taken with their length and may
 * contain NUL bytes, numbers are range-checked, and a missing field is an
 * error rather than a zero.
 */
#ifndef RTR_PROBE_PROCSTAT_H
#define RTR_PROBE_PROCSTAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rtready/cpuset.h"

/* Room for comm: the kernel limits it to 15 bytes, a hostile file may not. */
#define PROC_COMM_MAX 64

/* The fields of /proc/PID/stat that rtready uses (proc(5) numbering). */
struct proc_stat {
	int pid;			/* (1) */
	char comm[PROC_COMM_MAX];	/* (2) without the parentheses; control bytes and non-UTF-8 become ? */
	char state;			/* (3) R, S, D, ... */
	int ppid;			/* (4) */
	unsigned int flags;		/* (9) PF_* */
	uint64_t minflt;		/* (10) minor faults */
	uint64_t majflt;		/* (12) major faults */
	uint64_t utime_ticks;		/* (14) */
	uint64_t stime_ticks;		/* (15) */
	int64_t priority;		/* (18) kernel view: -100..-2 for RT, 100+nice+... */
	int nice;			/* (19) -20..19 */
	int64_t num_threads;		/* (20) */
	uint64_t start_ticks;		/* (22) after boot, in clock ticks */
	uint64_t vsize_bytes;		/* (23) */
	int64_t rss_pages;		/* (24) */
	int processor;			/* (39) last CPU */
	unsigned int rt_priority;	/* (40) 0..99 */
	unsigned int policy;		/* (41) SCHED_* */
};

/*
 * Parse one /proc/PID/stat line of @len bytes. comm may hold spaces and
 * parentheses ("(a) (b)"): it runs from the first '(' to the LAST ')'.
 * Fields past policy (41) are optional and ignored.
 * Return: 0, -EINVAL (syntax, a missing field), -ERANGE (a value outside
 * what the kernel can produce: pid <= 0, nice outside -20..19,
 * rt_priority > 99).
 */
int parse_proc_stat(const char *buf, size_t len, struct proc_stat *out)
	__attribute__((warn_unused_result));

/* Bits of proc_status.have: which lines were present. */
enum {
	PROC_ST_NAME = 1u << 0,
	PROC_ST_TGID = 1u << 1,
	PROC_ST_PID = 1u << 2,
	PROC_ST_PPID = 1u << 3,
	PROC_ST_THREADS = 1u << 4,
	PROC_ST_VMLCK = 1u << 5,
	PROC_ST_VMPIN = 1u << 6,
	PROC_ST_VMRSS = 1u << 7,
	PROC_ST_VMSWAP = 1u << 8,
	PROC_ST_CPUS = 1u << 9,
	PROC_ST_VCSW = 1u << 10,
	PROC_ST_NVCSW = 1u << 11,
	PROC_ST_CAPEFF = 1u << 12,
	PROC_ST_KTHREAD = 1u << 13,
	PROC_ST_VMSIZE = 1u << 14,
	PROC_ST_NSPID = 1u << 15,
};

/* The lines of /proc/PID/status that rtready uses. */
struct proc_status {
	unsigned int have;		/* PROC_ST_* of the lines found and parsed */
	char name[PROC_COMM_MAX];	/* Name: (unescaped as the kernel writes it) */
	int tgid, pid, ppid;
	int64_t threads;
	uint64_t vm_size_kb;		/* VmSize */
	uint64_t vm_lck_kb;		/* VmLck: mlock()ed memory */
	uint64_t vm_pin_kb;		/* VmPin */
	uint64_t vm_rss_kb;		/* VmRSS */
	uint64_t vm_swap_kb;		/* VmSwap */
	uint64_t cap_eff;		/* CapEff, the effective capability mask */
	bool kthread;			/* Kthread: 1 (kernels 6.8+) */
	int nspid_levels;		/* NSpid: its ids, one per PID namespace it is seen from (4.1+) */
	uint64_t voluntary_ctxt_switches;
	uint64_t nonvoluntary_ctxt_switches;
	int cpus_allowed_err;		/* 0, -ENOENT (no line), or the list's parse error */
	struct rtr_cpuset cpus_allowed;	/* Cpus_allowed_list */
};

/*
 * Parse /proc/PID/status (@len bytes, "Key:\tvalue" lines). Unknown lines
 * are ignored; a known line whose value is garbage is left out of ->have.
 * Free with proc_status_free() whatever the result.
 * Return: 0, -EINVAL when not one known line was found, -ENOMEM.
 */
int parse_proc_status(const char *buf, size_t len, struct proc_status *out)
	__attribute__((warn_unused_result));
void proc_status_free(struct proc_status *st);

/* A soft/hard pair of /proc/PID/limits; PROC_LIMIT_INFINITY is "unlimited". */
#define PROC_LIMIT_INFINITY UINT64_MAX

struct proc_limit {
	bool found;
	uint64_t soft, hard;
};

/* The limits of /proc/PID/limits that matter to realtime work. */
struct proc_limits {
	struct proc_limit rtprio;	/* "Max realtime priority": RLIMIT_RTPRIO */
	struct proc_limit rttime;	/* "Max realtime timeout" (us): RLIMIT_RTTIME */
	struct proc_limit memlock;	/* "Max locked memory" (bytes): RLIMIT_MEMLOCK */
	struct proc_limit nice;		/* "Max nice priority": RLIMIT_NICE */
};

/*
 * Parse /proc/PID/limits (@len bytes; a header line, then
 * "Max locked memory         8388608              8388608              bytes").
 * A row whose values are garbage is left not found.
 * Return: 0, -EINVAL when none of the rows above was found.
 */
int parse_proc_limits(const char *buf, size_t len, struct proc_limits *out)
	__attribute__((warn_unused_result));

#endif
