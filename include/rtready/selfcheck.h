/* SPDX-License-Identifier: MIT */
/*
 * A checklist an application runs on itself at start: is its memory locked,
 * are the allocator settings in force, what policy and affinity do its
 * threads have, is RT throttling on. Findings are shaped like the findings
 * of `rtready check` (id, status, title, evidence, why, fix).
 */
#ifndef RTREADY_SELFCHECK_H
#define RTREADY_SELFCHECK_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum rtr_status {
	RTR_PASS,
	RTR_WARN,
	RTR_FAIL,
	RTR_INFO,
	RTR_SKIP,
};

/** rtr_status_name() - Return: "pass", "warn", "fail", "info" or "skip". */
const char *rtr_status_name(enum rtr_status status);

struct rtr_finding {
	char id[48];
	enum rtr_status status;
	int tid;		/* the thread meant, 0 for the process */
	char title[96];
	char evidence[256];
	char why[256];
	char fix[256];
};

/**
 * rtr_selfcheck() - evaluate the calling process.
 * @out: array for the findings.
 * @cap: its size; findings past it are counted but not stored.
 * @n: receives the number of findings (may exceed @cap).
 * Return: 0 or -errno.
 */
int rtr_selfcheck(struct rtr_finding *out, size_t cap, size_t *n);

#ifdef __cplusplus
}
#endif

#endif
