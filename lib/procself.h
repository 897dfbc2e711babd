/* SPDX-License-Identifier: MIT */
/*
 * The few live /proc files librtready reads about its own process
 * (/proc/self/status, /proc/self/task/N/stat) and the RT throttling knob.
 * The library acts on the running system only, so it does not go through
 * the tool's root-dir layer; every read here is bounded and non-blocking,
 * and these are the only places in lib/ that name a /proc path.
 */
#ifndef RTREADY_LIB_PROCSELF_H
#define RTREADY_LIB_PROCSELF_H

#include <stddef.h>
#include <stdint.h>

#define PROCSELF_STATUS "/proc/self/status"
#define PROCSELF_TASKS "/proc/self/task"
#define PROCSELF_RT_RUNTIME "/proc/sys/kernel/sched_rt_runtime_us"
#define PROCSELF_RT_PERIOD "/proc/sys/kernel/sched_rt_period_us"

/*
 * Read at most @size - 1 bytes of @path into @buf and NUL-terminate it.
 * Return: the length read, or -errno.
 */
long rtr__procself_read(const char *path, char *buf, size_t size);

/*
 * Find "KEY:   123 kB" in a /proc/PID/status text and return the value in
 * bytes. Return: 0, -ENOENT when the key is absent, -EINVAL when malformed.
 */
int rtr__procself_status_bytes(const char *text, const char *key, uint64_t *bytes);

/* The scheduling facts of one thread, from /proc/self/task/TID/stat. */
struct rtr__procself_task {
	int tid;
	char comm[32];
	int policy;		/* kernel SCHED_* value */
	int prio;		/* effective priority (field 18): -2..-100 RT, 0..39 nice+20 */
	unsigned int rt_priority;
	int nice;
	uint64_t minor_faults;
	uint64_t major_faults;
};

/*
 * Parse one /proc/PID/stat line. The command name sits in parentheses and
 * may itself hold spaces and ')', so the fields are counted from the last
 * ')' of the line:
 *   1234 (rt app) S 1 1234 ... minflt(10) ... majflt(12) ... prio(18) nice(19) ...
 *   rt_priority(40) policy(41) ...
 * Return: 0 or -EINVAL.
 */
int rtr__procself_parse_stat(const char *line, struct rtr__procself_task *task);

/* Read and parse /proc/self/task/@tid/stat. Return: 0 or -errno. */
int rtr__procself_task(int tid, struct rtr__procself_task *task);

#endif
