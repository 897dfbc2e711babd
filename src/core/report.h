/* SPDX-License-Identifier: MIT */
/*
 * The result model shared by check, inspect and run --check: a list of
 * findings (id, area, status, title, evidence, why, fix, optional tid) plus
 * the facts about the host that every report carries. Producers fill it;
 * renderers (src/render/) turn it into text or JSON without deciding
 * anything.
 */
#ifndef RTR_CORE_REPORT_H
#define RTR_CORE_REPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "rtready/selfcheck.h"	/* enum rtr_status */

struct finding {
	char *id;
	char *area;
	char *title;
	enum rtr_status status;
	long tid;		/* 0: not about one thread */
	char *evidence;
	char *why;
	char *fix;
};

struct host_info {
	char *kernel;		/* uname release */
	char *cpus_online;	/* cpu list */
	char *rt_cpus;		/* cpu list, "" when none declared */
	char *root;		/* the --root directory, "/" live */
};

struct report {
	const char *command;	/* "check", "inspect", ... */
	struct host_info host;
	struct finding *findings;
	size_t n_findings;
	size_t cap_findings;
};

struct summary {
	unsigned pass, warn, fail, info, skip;
};

void report_init(struct report *r, const char *command);
void report_free(struct report *r);

/*
 * Append a finding; strings are copied (NULL becomes ""). Return: 0 or
 * -ENOMEM.
 */
int report_add(struct report *r, const char *id, const char *area, enum rtr_status status,
	       long tid, const char *title, const char *evidence, const char *why,
	       const char *fix) __attribute__((warn_unused_result));

/* Set a host field (copied). */
int report_set_host(char **field, const char *value) __attribute__((warn_unused_result));
/* Free the fields report_set_host() filled. */
void host_info_free(struct host_info *h);

/* The one count of findings by status: of a report, or of any array of findings. */
struct summary report_summary(const struct report *r);
struct summary findings_summary(const struct finding *f, size_t n);

/* Free the strings of @f (not @f itself). */
void finding_free(struct finding *f);

/* Free the @n findings of the array @f and the array (a report's, or a loaded result's). */
void findings_free(struct finding *f, size_t n);

/* How bad a status is, for ordering: fail 0, warn 1, skip 2, info 3, pass 4. */
int report_status_rank(enum rtr_status s);

/* Stable order for output: by status severity (fail, warn, skip, info, pass), then area. */
void report_sort(struct report *r);

/*
 * The exit code docs/CONTRACTS.md promises, the one policy of every
 * command: 1 when something failed (or, with @strict, warned), else 0.
 * status_exit_code() judges a verdict, report_exit_code() the worst finding.
 */
int status_exit_code(enum rtr_status s, bool strict);
int report_exit_code(const struct report *r, int strict);

#endif
