// SPDX-License-Identifier: MIT
/* The findings list; see report.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/report.h"

static char *dup_or_empty(const char *s)
{
	return strdup(s ? s : "");
}

void report_init(struct report *r, const char *command)
{
	memset(r, 0, sizeof(*r));
	r->command = command;
}

void finding_free(struct finding *f)
{
	free(f->id);
	free(f->area);
	free(f->title);
	free(f->evidence);
	free(f->why);
	free(f->fix);
}

void findings_free(struct finding *f, size_t n)
{
	for (size_t i = 0; i < n; i++)
		finding_free(&f[i]);
	free(f);
}

void report_free(struct report *r)
{
	if (!r)
		return;
	findings_free(r->findings, r->n_findings);
	host_info_free(&r->host);
	memset(r, 0, sizeof(*r));
}

void host_info_free(struct host_info *h)
{
	free(h->kernel);
	free(h->cpus_online);
	free(h->rt_cpus);
	free(h->root);
	memset(h, 0, sizeof(*h));
}

int report_set_host(char **field, const char *value)
{
	char *s = dup_or_empty(value);

	if (!s)
		return -ENOMEM;
	free(*field);
	*field = s;
	return 0;
}

int report_add(struct report *r, const char *id, const char *area, enum rtr_status status,
	       long tid, const char *title, const char *evidence, const char *why,
	       const char *fix)
{
	struct finding *f;

	if (r->n_findings == r->cap_findings) {
		size_t cap = r->cap_findings ? r->cap_findings * 2 : 32;

		f = realloc(r->findings, cap * sizeof(*f));
		if (!f)
			return -ENOMEM;
		r->findings = f;
		r->cap_findings = cap;
	}
	f = &r->findings[r->n_findings];
	f->id = dup_or_empty(id);
	f->area = dup_or_empty(area);
	f->title = dup_or_empty(title);
	f->evidence = dup_or_empty(evidence);
	f->why = dup_or_empty(why);
	f->fix = dup_or_empty(fix);
	f->status = status;
	f->tid = tid;
	if (!f->id || !f->area || !f->title || !f->evidence || !f->why || !f->fix) {
		finding_free(f);
		return -ENOMEM;
	}
	r->n_findings++;
	return 0;
}

struct summary report_summary(const struct report *r)
{
	return findings_summary(r->findings, r->n_findings);
}

struct summary findings_summary(const struct finding *f, size_t n)
{
	struct summary s = { 0, 0, 0, 0, 0 };

	for (size_t i = 0; i < n; i++) {
		switch (f[i].status) {
		case RTR_PASS: s.pass++; break;
		case RTR_WARN: s.warn++; break;
		case RTR_FAIL: s.fail++; break;
		case RTR_INFO: s.info++; break;
		case RTR_SKIP: s.skip++; break;
		}
	}
	return s;
}

int report_status_rank(enum rtr_status s)
{
	switch (s) {
	case RTR_FAIL: return 0;
	case RTR_WARN: return 1;
	case RTR_SKIP: return 2;
	case RTR_INFO: return 3;
	case RTR_PASS: return 4;
	}
	return 5;
}

static int cmp_finding(const void *a, const void *b)
{
	const struct finding *x = a, *y = b;
	int d = report_status_rank(x->status) - report_status_rank(y->status);

	if (d)
		return d;
	d = strcmp(x->area, y->area);
	if (d)
		return d;
	d = strcmp(x->id, y->id);
	if (d)
		return d;
	return (x->tid > y->tid) - (x->tid < y->tid);
}

void report_sort(struct report *r)
{
	if (r->n_findings > 1)
		qsort(r->findings, r->n_findings, sizeof(*r->findings), cmp_finding);
}

int status_exit_code(enum rtr_status s, bool strict)
{
	return s == RTR_FAIL || (strict && s == RTR_WARN) ? 1 : 0;
}

int report_exit_code(const struct report *r, int strict)
{
	struct summary s = report_summary(r);

	return status_exit_code(s.fail ? RTR_FAIL : s.warn ? RTR_WARN : RTR_PASS, strict);
}
