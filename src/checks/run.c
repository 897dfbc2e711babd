// SPDX-License-Identifier: MIT
/* Runs the check table; see run.h. */
#include <errno.h>
#include <string.h>

#include "checks/run.h"

static bool matches(const struct check *c, const char *sel)
{
	return strcmp(sel, c->id) == 0 || strcmp(sel, c->area) == 0;
}

bool checks_selector_valid(const char *sel)
{
	for (size_t i = 0; i < checks_count(); i++)
		if (matches(checks_at(i), sel))
			return true;
	return false;
}

bool checks_selected(const struct check *c, const struct check_filter *flt)
{
	bool in = flt->n_only == 0;

	for (size_t i = 0; i < flt->n_only; i++)
		if (matches(c, flt->only[i]))
			in = true;
	for (size_t i = 0; i < flt->n_skip; i++)
		if (matches(c, flt->skip[i]))
			in = false;
	return in;
}

int checks_run(const struct check_ctx *ctx, const struct check_filter *flt, struct report *r)
{
	int err = 0;

	for (size_t i = 0; i < checks_count() && !err; i++) {
		const struct check *c = checks_at(i);
		struct check_out out = { RTR_SKIP, STRBUF_INIT, STRBUF_INIT };

		if (!checks_selected(c, flt))
			continue;
		c->fn(ctx, &out);
		if (out.evidence.err || out.fix.err)
			err = -ENOMEM;
		else
			err = report_add(r, c->id, c->area, out.status, 0, c->title,
					 strbuf_str(&out.evidence), c->why,
					 out.fix.len ? strbuf_str(&out.fix) : c->fix);
		strbuf_free(&out.evidence);
		strbuf_free(&out.fix);
	}
	return err;
}

/*
 * What the kernel isolates is what the user meant for realtime work: the
 * sysfs files show what is in effect; the command line stands in on kernels
 * that do not export them (or a snapshot that lacks them).
 */
int checks_default_rt_cpus(const struct facts *f, struct rtr_cpuset *out, const char **source)
{
	const struct cpu_facts *c = &f->cpu;
	const struct rtr_cpuset *pick = NULL;

	rtr_cpuset_clear(out);
	*source = NULL;
	if (!c->isolated_err && !rtr_cpuset_is_empty(&c->isolated)) {
		pick = &c->isolated;
		*source = "isolated CPUs";
	} else if (c->isolated_err && c->isolcpus.given && !c->isolcpus.err &&
		   !rtr_cpuset_is_empty(&c->isolcpus.cpus)) {
		pick = &c->isolcpus.cpus;
		*source = "isolcpus=";
	} else if (!c->nohz_full_err && !rtr_cpuset_is_empty(&c->nohz_full)) {
		pick = &c->nohz_full;
		*source = "nohz_full";
	} else if (c->nohz_full_err && c->nohz_full_param.given && !c->nohz_full_param.err &&
		   !rtr_cpuset_is_empty(&c->nohz_full_param.cpus)) {
		pick = &c->nohz_full_param.cpus;
		*source = "nohz_full=";
	}
	if (!pick)
		return 0;
	return rtr_cpuset_copy(out, pick);
}
