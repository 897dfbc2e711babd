/* SPDX-License-Identifier: MIT */
/*
 * One `rtready plan`: open the root, refuse an output that would overwrite
 * what plan reads, read the facts, plan the RT CPUs (target_plan()), make
 * the boot line and the tune commands, say whether a partition without a
 * reboot can work here, and run the checklist on the machine as the boot
 * line would leave it. The result is a view for render/plan.c. Nothing
 * here prints: messages go to the caller's struct say.
 */
#ifndef RTR_PLAN_SESSION_H
#define RTR_PLAN_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/report.h"
#include "cpuplan/cpuplan.h"
#include "probe/rootfs.h"
#include "util/say.h"

struct plan_view {
	const struct cpuplan *plan;
	size_t online;			/* online CPUs */
	const char *cmdline;		/* the kernel parameters */
	const char *cmdline_note;	/* why a parameter is there or not */
	const char *tune_apply;		/* the rtready tune commands */
	const char *tune_emit_boot;
	const struct report *after;	/* checks on the planned machine */
	const struct host_info *host;
	const char *tune_isolate;	/* the no-reboot path: tune --isolate */
	const char *isolate_why;	/* why it cannot work here; "" when it can */
};

struct plan_request {
	size_t rt_count;	/* --rt N; 0: as many as can be spared */
	int node;		/* --node N; -1: not given */
	const char *near;	/* --near IFACE|IRQ; NULL: not given */
	int64_t window_ns;	/* --window: the load measured this long; 0: not measured */
	const char *root;
	const char *output;	/* --output; NULL or "-": standard output */
};

struct plan_session;

/*
 * Plan as @rq asks. *@out holds the view until plan_session_free() (in
 * every case; NULL when out of memory). Return: 0 with *@view set, or
 * -errno (said).
 */
int plan_session_run(const struct plan_request *rq, const struct say *say,
		     struct plan_session **out, const struct plan_view **view)
	__attribute__((warn_unused_result));

/* NULL is a no-op. */
void plan_session_free(struct plan_session *s);

/*
 * The files plan read outside /proc and /sys (a config under /boot, the
 * irqbalance file under /etc, ...), as on the target: an output must not
 * be one of them. /proc and /sys are refused whole (plan_output_guard()).
 */
struct read_log {
	char **paths;
	size_t n;
	int err;
};

/* A rootfs recorder callback (@ctx: the struct read_log) that logs each file read. */
void read_log_add(void *ctx, const char *path, const char *data, size_t len);
void read_log_free(struct read_log *l);

/*
 * Refuse an @output that would overwrite what plan reads: anything under
 * the root's /proc and /sys (and, in a snapshot, its /etc, /boot, /lib and
 * /dev, which are the snapshot itself), and any file of @log (NULL: none
 * yet). Compared by device and inode, so links and bind mounts do not hide
 * a match. Standard output named as a file (/dev/stdout) is always allowed.
 * Return: 0, or -EINVAL after saying why.
 */
int plan_output_guard(const char *output, const struct rootfs *fs, const struct read_log *log,
		      const struct say *say);

#endif
