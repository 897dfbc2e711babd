// SPDX-License-Identifier: MIT
/* Every area's table, in the order the checklist walks them. */
#include <errno.h>
#include <stdlib.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "checks/check.h"

static const struct {
	const struct check *rows;
	const size_t *n;
} areas[] = {
	{ kernel_checks, &kernel_checks_n },
	{ sched_checks, &sched_checks_n },
	{ cpu_checks, &cpu_checks_n },
	{ irq_checks, &irq_checks_n },
	{ mem_checks, &mem_checks_n },
	{ platform_checks, &platform_checks_n },
};

size_t checks_count(void)
{
	size_t n = 0;

	for (size_t a = 0; a < sizeof(areas) / sizeof(areas[0]); a++)
		n += *areas[a].n;
	return n;
}

const struct check *checks_at(size_t i)
{
	for (size_t a = 0; a < sizeof(areas) / sizeof(areas[0]); a++) {
		if (i < *areas[a].n)
			return &areas[a].rows[i];
		i -= *areas[a].n;
	}
	return NULL;
}

void check_set(struct check_out *out, enum rtr_status status, const char *fmt, ...)
{
	va_list ap;

	out->status = status;
	strbuf_reset(&out->evidence);
	va_start(ap, fmt);
	strbuf_vprintf(&out->evidence, fmt, ap);
	va_end(ap);
}

void check_fix(struct check_out *out, const char *fmt, ...)
{
	va_list ap;

	strbuf_reset(&out->fix);
	va_start(ap, fmt);
	strbuf_vprintf(&out->fix, fmt, ap);
	va_end(ap);
}

void check_put_read_err(struct strbuf *sb, const char *path, int err)
{
	err = err < 0 ? -err : err;
	/* Parsers say EINVAL/ERANGE for content they cannot use: say that, not "cannot read". */
	if (err == EINVAL || err == ERANGE)
		strbuf_printf(sb, "%s is not in the expected format (or not a regular file)", path);
	else if (err == ENODATA)
		strbuf_printf(sb, "%s is empty", path);
	else if (err == EFBIG)
		strbuf_printf(sb, "%s is larger than rtready reads", path);
	else
		strbuf_printf(sb, "cannot read %s: %s", path, strerror(err));
}

void check_skip_read(struct check_out *out, const char *path, int err)
{
	out->status = RTR_SKIP;
	strbuf_reset(&out->evidence);
	check_put_read_err(&out->evidence, path, err);
}

bool check_tasks_unusable(const struct tasks_facts *t, struct check_out *out)
{
	if (t->err) {
		check_skip_read(out, "/proc", t->err);
		return true;
	}
	if (t->n == 0) {
		/* A running system has at least init and the reader: none read is no data. */
		if (t->unreadable)
			check_skip_read(out, t->first_unreadable, t->first_unreadable_err);
		else
			check_set(out, RTR_SKIP, "no tasks found under /proc");
		return true;
	}
	return false;
}

bool check_cpus_unknown(const struct check_ctx *ctx, struct check_out *out)
{
	const struct cpu_facts *c = &ctx->facts->cpu;

	if (!c->online_err || !c->present_err)
		return false;
	check_skip_read(out, "/sys/devices/system/cpu/online", c->online_err);
	strbuf_puts(&out->evidence, " (and present): which CPUs exist is unknown, so the RT CPUs "
				    "cannot be judged");
	return true;
}

const char check_no_rt_cpus[] =
	"no RT CPUs declared: name them with --rt-cpus LIST, or isolate them at boot "
	"(isolcpus=, nohz_full=), which rtready then takes as the RT CPUs";

void check_put_cpus(struct strbuf *sb, const struct rtr_cpuset *s)
{
	char small[256];
	size_t need = rtr_cpuset_format_list(s, small, sizeof(small));

	if (need == 0) {
		strbuf_puts(sb, "none");
	} else if (need < sizeof(small)) {
		strbuf_puts(sb, small);
	} else {
		char *big = malloc(need + 1);

		if (!big) {
			sb->err = -ENOMEM;
			return;
		}
		rtr_cpuset_format_list(s, big, need + 1);
		strbuf_puts(sb, big);
		free(big);
	}
}

void check_put_rt(struct strbuf *sb, const struct check_ctx *ctx)
{
	strbuf_puts(sb, "RT CPUs ");
	check_put_cpus(sb, ctx->rt_cpus);
	strbuf_printf(sb, " (from %s)", ctx->rt_cpus_source ? ctx->rt_cpus_source : "--rt-cpus");
}

int check_housekeeping(const struct check_ctx *ctx, struct rtr_cpuset *out)
{
	const struct cpu_facts *c = &ctx->facts->cpu;
	int err = rtr_cpuset_copy(out, c->online_err ? &c->present : &c->online);

	rtr_cpuset_andnot(out, ctx->rt_cpus);
	return err;
}

bool check_judge_cpus(struct check_out *out, const struct rtr_cpuset *bad, const char *none,
		      const char *some)
{
	if (rtr_cpuset_is_empty(bad)) {
		out->status = RTR_PASS;
		strbuf_puts(&out->evidence, none);
		return false;
	}
	out->status = RTR_WARN;
	strbuf_puts(&out->evidence, some);
	check_put_cpus(&out->evidence, bad);
	return true;
}

bool check_off_rt(const struct check_ctx *ctx, struct check_out *out,
		  const struct rtr_cpuset *set, const struct check_off_rt *t,
		  struct rtr_cpuset *hk)
{
	struct rtr_cpuset both = RTR_CPUSET_INIT;
	bool warned;

	check_put_rt(&out->evidence, ctx);
	strbuf_puts(&out->evidence, t->allows);
	check_put_cpus(&out->evidence, set);
	rtr_cpuset_copy(&both, set);
	rtr_cpuset_and(&both, ctx->rt_cpus);
	warned = check_judge_cpus(out, &both, t->none, t->some);
	rtr_cpuset_free(&both);
	if (!warned)
		return false;
	strbuf_puts(&out->evidence, t->harm);
	check_housekeeping(ctx, hk);
	if (rtr_cpuset_is_empty(hk)) {
		strbuf_puts(&out->fix, "Every online CPU is RT: leave at least one CPU for ");
		strbuf_puts(&out->fix, t->all_rt);
		return false;
	}
	return true;
}
