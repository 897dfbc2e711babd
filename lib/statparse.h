/* SPDX-License-Identifier: MIT */
/*
 * The one /proc/PID/stat parser, internal to librtready and shared with the
 * tool's probes (src/probe/procstat.c), so that the library's self-check
 * and `rtready check`/`inspect` read a thread's scheduling facts the same
 * way. Also the bounded number conversions both use.
 */
#ifndef RTR_LIB_STATPARSE_H
#define RTR_LIB_STATPARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct rtr__proc_stat {
	int pid;			/* (1) */
	const char *comm;		/* (2) inside the parsed text, not NUL-ended: raw bytes */
	size_t comm_len;
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
 * Parse one /proc/PID/stat line of @len bytes (no NUL needed). comm may
 * hold spaces and parentheses ("(a) (b)"): it runs from the first '(' to
 * the LAST ')'. Fields past policy (41) are optional and ignored.
 * Return: 0, -EINVAL (syntax, a missing field), -ERANGE (a value outside
 * its type or range).
 */
int rtr__proc_parse_stat(const char *buf, size_t len, struct rtr__proc_stat *out);

/* Longest number token converted: 20 digits of uint64 plus sign and slack. */
#define RTR_PROC_NUM_MAX 32

/* Copy @n bytes of @s into @buf as a C string; false when empty, too long or holding a NUL. */
bool rtr__proc_token(const char *s, size_t n, char *buf, size_t size);

/* Decimal tokens of @n bytes (no NUL needed). Return: 0, -EINVAL, -ERANGE. */
int rtr__proc_to_u64(const char *s, size_t n, uint64_t *v);
int rtr__proc_to_i64(const char *s, size_t n, int64_t *v);
int rtr__proc_to_int(const char *s, size_t n, int64_t min, int64_t max, int *v);

#endif
