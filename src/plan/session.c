// SPDX-License-Identifier: MIT
/* One `rtready plan`; see session.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "checks/check.h"
#include "checks/run.h"
#include "plan/session.h"
#include "probe/partition.h"
#include "probe/placement.h"
#include "target/target.h"
#include "tune/boot.h"
#include "util/strbuf.h"

/* The texts of a plan, in plan_session.text[]. */
enum { T_CMDLINE, T_APPLY, T_EMIT, T_ISOLATE, N_TEXTS };

/*
 * Everything plan holds while it works, on the heap: the facts, the root's
 * path and the check report are tens of KiB, and plan must run in a small
 * stack (ulimit -s 32).
 */
struct plan_session {
	struct managed_irqs m;
	struct cpuplan plan;
	struct strbuf text[N_TEXTS];	/* the boot line, the tune commands */
	char isolate_why[1024];		/* why a partition cannot be made here; "" when it can */
	struct host_info host;
	struct read_log log;
	struct rootfs_recorder rec;
	struct report after;
	struct target t;
	bool opened;			/* t holds an open root */
	struct plan_view view;
	char msg[768];
};

/* The checklist on the machine as the boot line leaves it. */
static int checks_after(struct facts *f, const struct cpuplan *p, struct report *r)
{
	struct check_filter flt = { 0 };
	struct check_ctx ctx = { f, &p->rt, "planned" };
	int err = cpuplan_simulate_boot(p, &f->cpu);

	err = err ?: checks_run(&ctx, &flt, r);
	if (!err)
		report_sort(r);
	return err;
}

static int plan_boot_line(struct plan_session *st, const char **note)
{
	struct boot_settings bs = { .rt = &st->plan.rt, .nonrt = &st->plan.housekeeping };
	char *rt = cpuplan_set_list(&st->plan.rt), *hk = cpuplan_set_list(&st->plan.housekeeping);
	int err = rt && hk ? 0 : -ENOMEM;

	if (!err) {
		boot_cmdline(&bs, &st->text[T_CMDLINE]);
		/* kthread_cpus= is a Real-time Ubuntu parameter ("-realtime" kernels). */
		if (!st->t.facts.kernel.release_err && strstr(st->t.facts.kernel.release, "-realtime")) {
			strbuf_printf(&st->text[T_CMDLINE], " kthread_cpus=%s", hk);
			*note = "kthread_cpus= keeps kernel threads on the housekeeping CPUs; "
				"Real-time Ubuntu kernels (-realtime) have it";
		} else {
			*note = "no kthread_cpus=: only Real-time Ubuntu kernels (-realtime) have "
				"it; on this kernel nohz_full= keeps unbound kernel threads on the "
				"housekeeping CPUs";
		}
		strbuf_printf(&st->text[T_APPLY], "rtready tune --rt-cpus %s --apply", rt);
		strbuf_printf(&st->text[T_EMIT], "rtready tune --rt-cpus %s --emit-boot DIR", rt);
		strbuf_printf(&st->text[T_ISOLATE], "rtready tune --rt-cpus %s --isolate --apply",
			      rt);
		for (size_t i = 0; i < N_TEXTS && !err; i++)
			err = st->text[i].err;
	}
	free(rt);
	free(hk);
	return err;
}

int plan_session_run(const struct plan_request *rq, const struct say *s,
		     struct plan_session **out, const struct plan_view **view)
{
	struct plan_session *st = calloc(1, sizeof(*st));
	const char *note = NULL;
	int err;

	*out = st;
	if (!st) {
		say(s, false, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	st->plan = (struct cpuplan)CPUPLAN_INIT;
	st->rec = (struct rootfs_recorder){ read_log_add, NULL, NULL, &st->log };
	report_init(&st->after, "check");
	err = target_root(&st->t, rq->root, st->msg, sizeof(st->msg));
	if (err) {
		s->line(s->ctx, false, st->msg);
		return err;
	}
	st->opened = true;
	st->t.fs.rec = &st->rec;
	/* An output inside /proc or /sys is refused before any work; files read, once read. */
	if (plan_output_guard(rq->output, &st->t.fs, NULL, s))
		return -EINVAL;
	err = target_read(&st->t, NULL, TARGET_FACTS, st->msg, sizeof(st->msg));
	err = err ?: target_host_info(&st->t, &st->host);
	if (err) {
		say(s, false, "%s", err == -ENOMEM ? strerror(ENOMEM) : st->msg);
		return err;
	}
	{
		struct target_plan_req req = { rq->rt_count, rq->node, rq->near, rq->window_ns };

		err = target_plan(&st->t, &req, &st->m, &st->plan, st->msg, sizeof(st->msg));
	}
	if (st->t.plan_warning[0])
		s->line(s->ctx, true, st->t.plan_warning);
	if (err) {
		s->line(s->ctx, false, st->msg);
		return err;
	}
	err = st->log.err;
	if (err) {
		say(s, false, "%s", strerror(-err));
		return err;
	}
	err = plan_output_guard(rq->output, &st->t.fs, &st->log, s);
	if (err)
		return err;
	err = plan_boot_line(st, &note);
	/* The path without a reboot: whether it can work on this machine, and why not. */
	if (!err && partition_obstacle(&st->t.fs, &st->t.facts.partition, &st->plan.rt,
				       "/rtready-isolated", (int)getpid(), st->isolate_why,
				       sizeof(st->isolate_why)) == -ENOMEM)
		err = -ENOMEM;
	err = err ?: checks_after(&st->t.facts, &st->plan, &st->after);
	if (err) {
		say(s, false, "%s", strerror(-err));
		return err;
	}
	st->view = (struct plan_view){ &st->plan, rtr_cpuset_count(&st->plan.rt) +
							  rtr_cpuset_count(&st->plan.housekeeping),
				       strbuf_str(&st->text[T_CMDLINE]), note,
				       strbuf_str(&st->text[T_APPLY]), strbuf_str(&st->text[T_EMIT]),
				       &st->after, &st->host, strbuf_str(&st->text[T_ISOLATE]),
				       st->isolate_why };
	*view = &st->view;
	return 0;
}

void plan_session_free(struct plan_session *st)
{
	if (!st)
		return;
	for (size_t i = 0; i < N_TEXTS; i++)
		strbuf_free(&st->text[i]);
	report_free(&st->after);
	host_info_free(&st->host);
	cpuplan_free(&st->plan);
	managed_irqs_free(&st->m);
	read_log_free(&st->log);
	if (st->opened)
		target_close(&st->t);
	free(st);
}
