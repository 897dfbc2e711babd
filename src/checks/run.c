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
