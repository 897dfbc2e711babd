/* SPDX-License-Identifier: MIT */
/*
 * Facts about the running kernel: release and build string, how it
 * preempts (PREEMPT_RT, the PREEMPT_DYNAMIC mode in use), its configuration
 * (wherever it can be found), the command line, and the runtime knobs of
 * the lockup and hung-task detectors and of NO_HZ_FULL. Every item carries
 * the error that explains why it is missing.
 */
#ifndef RTR_PROBE_KERNEL_H
#define RTR_PROBE_KERNEL_H

#include <stdint.h>

#include "probe/cmdline.h"
#include "probe/kconfig.h"
#include "probe/knob.h"
#include "probe/rootfs.h"
#include "rtready/cpuset.h"

/* Largest compressed /proc/config.gz accepted. */
#define KERNEL_CONFIG_GZ_MAX (4u << 20)

struct kernel_facts {
	int release_err;
	char release[128];	/* /proc/sys/kernel/osrelease ("6.12.0-rt5") */
	int major, minor;	/* from release; -1 when it does not start with "N.M" */
	int version_err;
	char version[256];	/* /proc/sys/kernel/version, what uname -v prints */

	struct knob realtime;	/* /sys/kernel/realtime: 1 on PREEMPT_RT kernels */

	int preempt_err;	/* /sys/kernel/debug/sched/preempt (debugfs, root) */
	char preempt_modes[128];	/* as read: "(none) voluntary full lazy" */
	char preempt_active[32];	/* "none", "voluntary", "full", "lazy" */
	bool preempt_private;	/* read by mounting debugfs in a private mount namespace */

	int config_err;		/* 0 when a config was parsed, else why not (of the last tried) */
	char config_path[256];	/* where it was found */
	char config_tried[1024];	/* "path: reason; ..." of the places that failed */
	struct kconfig config;

	int cmdline_err;
	struct cmdline cmdline;	/* /proc/cmdline */

	struct knob watchdog;		/* /proc/sys/kernel/watchdog */
	struct knob nmi_watchdog;	/* .../nmi_watchdog */
	struct knob soft_watchdog;	/* .../soft_watchdog */
	struct knob watchdog_thresh;	/* .../watchdog_thresh, seconds */
	int watchdog_cpumask_err;
	struct rtr_cpuset watchdog_cpumask;	/* .../watchdog_cpumask, a cpu list */

	struct knob hung_task_timeout;	/* /proc/sys/kernel/hung_task_timeout_secs */

	int nohz_full_err;
	struct rtr_cpuset nohz_full;	/* /sys/devices/system/cpu/nohz_full: what is in effect */
};

/* Fill @out from @fs. Never fails as a whole: fields carry their own errors. */
void probe_kernel(const struct rootfs *fs, struct kernel_facts *out);
void probe_kernel_free(struct kernel_facts *out);

/*
 * Inflate a gzip buffer (/proc/config.gz) into a new NUL-terminated buffer
 * of at most @cap bytes (free() it).
 * Return: 0, -EINVAL (not gzip, corrupt), -EFBIG (larger than @cap), -ENOMEM.
 */
int kernel_gunzip(const void *in, size_t in_len, size_t cap, char **out, size_t *out_len)
	__attribute__((warn_unused_result));

/* "6.12.3-rt5" -> 6, 12. Return: 0 or -EINVAL. */
int kernel_parse_release(const char *release, int *major, int *minor);

#endif
