/* SPDX-License-Identifier: MIT */
/*
 * Shared by the test-checks-*.c programs: blank facts in which every item
 * is "not readable" (so each test states what it sets), and running one
 * check by id on hand-made facts.
 */
#ifndef RTR_TEST_CHECKS_HELPER_H
#define RTR_TEST_CHECKS_HELPER_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checks/check.h"

struct result {
	enum rtr_status status;
	char evidence[4096];
	char fix[4096];	/* "" when the row's default fix applies */
};

/* Facts where every file was missing (-ENOENT). */
static inline struct facts *facts_blank(void)
{
	struct facts *f = calloc(1, sizeof(*f));
	struct kernel_facts *k = &f->kernel;
	struct sched_facts *s = &f->sched;
	struct memory_facts *m = &f->memory;
	struct platform_facts *p = &f->platform;

	k->release_err = k->version_err = k->preempt_err = k->config_err = -ENOENT;
	k->cmdline_err = k->watchdog_cpumask_err = k->nohz_full_err = -ENOENT;
	k->realtime.err = k->watchdog.err = k->nmi_watchdog.err = -ENOENT;
	k->soft_watchdog.err = k->watchdog_thresh.err = k->hung_task_timeout.err = -ENOENT;
	k->major = k->minor = -1;
	s->rt_runtime_err = s->rt_period_err = s->fair_server_err = s->rtg.err = -ENOENT;
	s->rtg.self_err = -ENOENT;
	snprintf(s->rtg.self_err_path, sizeof(s->rtg.self_err_path), "/proc/self/cgroup");
	f->tasks.err = -ENOENT;
	f->dlbw.debug_err = f->dlbw.tasks_err = -ENOENT;
	m->swaps_err = m->thp_enabled_err = m->thp_defrag_err = m->limits_err = -ENOENT;
	m->cap_err = m->swappiness.err = m->ksm_run.err = m->numa_balancing.err = -ENOENT;
	p->clocksource_err = p->clocksources_err = p->hypervisor_type_err = -ENOENT;
	p->cpuinfo_err = p->sys_vendor_err = p->product_name_err = p->dt_err = -ENOENT;
	f->tuned.profile_err = f->tuned.mode_err = -ENOENT;
	return f;
}

static inline void facts_blank_free(struct facts *f)
{
	facts_free(f);
	free(f);
}

static inline void set_config(struct facts *f, const char *text)
{
	kconfig_free(&f->kernel.config);
	f->kernel.config_err = kconfig_parse(text, strlen(text), &f->kernel.config);
	snprintf(f->kernel.config_path, sizeof(f->kernel.config_path), "/proc/config.gz");
}

static inline void set_cmdline(struct facts *f, const char *text)
{
	cmdline_free(&f->kernel.cmdline);
	f->kernel.cmdline_err = cmdline_parse(text, strlen(text), &f->kernel.cmdline);
}

/* Run check @id with RT CPUs @rt ("" for none). */
static inline enum rtr_status run_check(const struct facts *f, const char *rt, const char *id,
					struct result *res)
{
	struct rtr_cpuset set = RTR_CPUSET_INIT;
	const struct check *c = NULL;

	for (size_t i = 0; i < checks_count(); i++)
		if (strcmp(checks_at(i)->id, id) == 0)
			c = checks_at(i);
	if (!c || rtr_cpuset_parse_list(&set, rt)) {
		fprintf(stderr, "no check %s or bad cpu list '%s'\n", id, rt);
		abort();
	}
	{
		struct check_ctx ctx = { f, &set, *rt ? "--rt-cpus" : NULL };
		struct check_out out = { RTR_SKIP, STRBUF_INIT, STRBUF_INIT };

		c->fn(&ctx, &out);
		snprintf(res->evidence, sizeof(res->evidence), "%s", strbuf_str(&out.evidence));
		snprintf(res->fix, sizeof(res->fix), "%s", strbuf_str(&out.fix));
		res->status = out.status;
		strbuf_free(&out.evidence);
		strbuf_free(&out.fix);
	}
	rtr_cpuset_free(&set);
	if (!res->evidence[0]) {
		fprintf(stderr, "%s gave no evidence\n", id);
		abort();
	}
	return res->status;
}

/* Assert that @hay contains @needle, printing both when it does not. */
#define assert_has(hay, needle)                                                              \
	do {                                                                                 \
		if (!strstr((hay), (needle))) {                                              \
			fprintf(stderr, "'%s' not in '%s'\n", (needle), (hay));               \
			fail();                                                              \
		}                                                                            \
	} while (0)

#endif
