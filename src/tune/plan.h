/* SPDX-License-Identifier: MIT */
/*
 * The plan of `rtready tune`: read the current value of every file a
 * tunable covers (through the root-confined reader, the only reader of
 * /proc and /sys) and list the changes that would fix it. Reading only: the
 * plan is what a dry run prints and what apply journals before writing.
 */
#ifndef RTR_TUNE_PLAN_H
#define RTR_TUNE_PLAN_H

#include <stdbool.h>
#include <stdint.h>

#include "probe/rootfs.h"
#include "rtready/cpuset.h"
#include "tune/tune.h"

/* Values are CPU masks and lists at most; 8192 CPUs as a mask is ~2.3 KiB. */
#define TUNE_VALUE_MAX 8192

/*
 * A configuration file tune rewrites (irqbalance's) is read whole up to
 * this: such a file is a few KiB; more is refused with a note, never cut.
 */
#define TUNE_FILE_MAX (64u << 10)

/* Idle states that take longer than this to leave are disabled on RT CPUs. */
#define TUNE_IDLE_MAX_LATENCY_US_DEFAULT 10

struct tune_settings {
	struct rtr_cpuset rt;	     /* the RT CPUs */
	struct rtr_cpuset nonrt;     /* online CPUs that are not RT; must not be empty */
	bool enabled[TUNE_COUNT];    /* which tunables to plan */
	int64_t idle_max_latency_us; /* bound on an idle state's exit latency */
	int skip_pid;		     /* a process left alone (rtready itself); 0: none */
	const int *only_pids;	     /* move only these processes' threads; NULL: all */
	size_t n_only_pids;
};


/*
 * Read a file a tunable covers and give the value stored in the journal
 * (normalized, see tunable_normalize()).
 * Return: 0 or -errno (-ENOENT when the file is absent).
 */
int plan_read_value(const struct rootfs *fs, const struct tunable *t, const char *path, char *out,
		    size_t len) __attribute__((warn_unused_result));

/*
 * Read a configuration file (TUNE_VAL_FILE) byte for byte: line endings,
 * trailing blanks and the final newline or its absence are kept, so that
 * revert writes back exactly what was there.
 * Return: 0 with *@out (free it), -EFBIG above TUNE_FILE_MAX, -EILSEQ for
 * a NUL byte, or the -errno of the read (-ENOENT when absent).
 */
int plan_read_file(const struct rootfs *fs, const char *path, char **out)
	__attribute__((warn_unused_result));

/*
 * Fill @out with every change @s asks for, and a note for each tunable
 * that needs none or cannot be done here (a file that is missing: no
 * cpufreq in a VM). Tasks are planned only on the live system.
 * Return: 0 or -ENOMEM; unreadable files become notes, not errors.
 */
int plan_build(const struct rootfs *fs, const struct tune_settings *s, struct tune_plan *out)
    __attribute__((warn_unused_result));

#endif
