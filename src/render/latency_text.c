// SPDX-License-Identifier: MIT
/*
 * Text output of `rtready latency`: the live lines (one per CPU, redrawn in
 * place like cyclictest's T: lines) and the final table. Times are shown in
 * microseconds with one decimal, as people read latencies.
 */
#include <errno.h>
#include <inttypes.h>

#include "measure/dma_latency.h"
#include "render/latency.h"

static double us(uint64_t ns)
{
	return (double)ns / 1000.0;
}

/* @ns in the unit asked for: microseconds with one decimal, or whole nanoseconds (-N). */
static const char *fmt(char *buf, size_t len, int width, uint64_t ns, bool in_ns)
{
	if (in_ns)
		snprintf(buf, len, "%*" PRIu64, width, ns);
	else
		snprintf(buf, len, "%*.1f", width, us(ns));
	return buf;
}

void latency_text_live(FILE *out, const struct latency_config *cfg,
		       const struct latency_live_view *v, size_t n, bool redraw, bool in_ns)
{
	char a[32], b[32], c[32], d[32];

	if (redraw && n)
		fprintf(out, "\033[%zuA", n);
	for (size_t i = 0; i < n; i++)
		fprintf(out, cfg->policy == RTR_SCHED_DEADLINE ?
			"T:%2zu DL%-4d (%7d) P:%-2d I:%-6" PRIu64 " C:%10" PRIu64
			" Min:%s Act:%s Avg:%s Max:%s\033[K\n" :
			"T:%2zu CPU%-3d (%7d) P:%-2d I:%-6" PRIu64 " C:%10" PRIu64
			" Min:%s Act:%s Avg:%s Max:%s\033[K\n",
			i, cfg->policy == RTR_SCHED_DEADLINE ? (int)i : v[i].cpu, (int)v[i].tid,
			cfg->policy == RTR_SCHED_DEADLINE ? 0 : cfg->priority, cfg->interval_ns / 1000,
			v[i].cycles, fmt(a, sizeof(a), 8, v[i].min_ns, in_ns),
			fmt(b, sizeof(b), 8, v[i].act_ns, in_ns),
			fmt(c, sizeof(c), 8, v[i].avg_ns, in_ns),
			fmt(d, sizeof(d), 9, v[i].max_ns, in_ns));
	fflush(out);
}

/*
 * cyclictest's end-of-run lines with -q, field for field (rt-tests 2.x):
 * whole microseconds, or nanoseconds with -N, which widens Act and Avg.
 */
int latency_text_tlines(FILE *out, const struct latency_result *r, bool in_ns)
{
	const uint64_t div = in_ns ? 1 : 1000;

	for (size_t i = 0; i < r->n_cpus; i++) {
		const struct latency_cpu_result *c = &r->cpus[i];
		const struct latency_stats *s = &c->stats;

		/* DEADLINE: cyclicdeadline's line, which has no P: field. */
		if (r->cfg.policy == RTR_SCHED_DEADLINE)
			fprintf(out, "T:%2zu (%5d) I:%" PRIu64 " C:%7" PRIu64 " Min:%7" PRIu64
				" Act:%*" PRIu64 " Avg:%*" PRIu64 " Max:%8" PRIu64 "\n",
				i, (int)c->tid, r->cfg.interval_ns / 1000, s->samples,
				s->min_ns / div, in_ns ? 8 : 5, c->last_ns / div, in_ns ? 8 : 5,
				s->avg_ns / div, s->max_ns / div);
		else
			fprintf(out, "T:%2zu (%5d) P:%2d I:%" PRIu64 " C:%7" PRIu64 " Min:%7" PRIu64
				" Act:%*" PRIu64 " Avg:%*" PRIu64 " Max:%8" PRIu64 "\n",
				i, (int)c->tid, r->cfg.priority, r->cfg.interval_ns / 1000,
				s->samples, s->min_ns / div, in_ns ? 8 : 5, c->last_ns / div,
				in_ns ? 8 : 5, s->avg_ns / div, s->max_ns / div);
	}
	return ferror(out) ? -EIO : 0;
}

static void row(FILE *out, const char *label, long tid, const struct latency_stats *s, bool in_ns)
{
	char v[7][32];

	if (tid > 0)
		fprintf(out, "%5s %8ld", label, tid);
	else
		fprintf(out, "%5s %8s", label, "");
	fprintf(out, " %10" PRIu64 " %s %s %s %s %s %s %9" PRIu64 " %7" PRIu64 "\n", s->samples,
		fmt(v[0], sizeof(v[0]), 8, s->min_ns, in_ns),
		fmt(v[1], sizeof(v[1]), 8, s->avg_ns, in_ns),
		fmt(v[2], sizeof(v[2]), 8, s->p50_ns, in_ns),
		fmt(v[3], sizeof(v[3]), 8, s->p99_ns, in_ns),
		fmt(v[4], sizeof(v[4]), 8, s->p999_ns, in_ns),
		fmt(v[5], sizeof(v[5]), 9, s->max_ns, in_ns), s->overflows, s->missed);
}

static void outliers(FILE *out, const struct latency_result *r)
{
	bool any = false;

	for (size_t i = 0; i < r->n_cpus; i++) {
		const struct rtr_hist *h = &r->cpus[i].hist;
		size_t shown = h->n_outliers < 8 ? h->n_outliers : 8;

		if (!h->overflows)
			continue;
		if (!any)
			fprintf(out, "\nPast the histogram's %.0f us range (largest, exact):\n",
				us(rtr_hist_range_ns(h)));
		any = true;
		fprintf(out, "  CPU %d:", r->cpus[i].cpu);
		for (size_t k = 0; k < shown; k++)
			fprintf(out, " %.1f", us(h->outliers[k]));
		if (h->overflows > shown)
			fprintf(out, " (+%" PRIu64 " more)", h->overflows - shown);
		fprintf(out, " us\n");
	}
}

/* DEADLINE: where each thread's jobs ran, and the jobs that overran their runtime. */
static void deadline_lines(FILE *out, const struct latency_result *r)
{
	fprintf(out, "\n%5s %8s %9s  %s\n", "T", "tid", "throttled", "ran on CPUs");
	for (size_t i = 0; i < r->n_cpus; i++) {
		char seen[256];

		rtr_cpuset_format_list(&r->cpus[i].cpus_seen, seen, sizeof(seen));
		fprintf(out, "%5zu %8d %9" PRIu64 "  %s\n", i, (int)r->cpus[i].tid,
			r->cpus[i].throttled, seen[0] ? seen : "-");
	}
	fprintf(out, "(throttled: jobs that took longer than the runtime from their start to "
		"their sched_yield)\n");
}

int latency_text_write(FILE *out, const struct latency_result *r, bool color, bool in_ns)
{
	const char *bold = color ? "\033[1m" : "", *red = color ? "\033[1;31m" : "";
	const char *reset = color ? "\033[0m" : "";
	bool dl = r->cfg.policy == RTR_SCHED_DEADLINE;
	char cpus[256], dma[160];

	rtr_cpuset_format_list(&r->cfg.cpus, cpus, sizeof(cpus));
	dma_latency_describe(&r->dma, dma, sizeof(dma));
	if (dl)
		fprintf(out, "%sjob start latency%s of %zu SCHED_DEADLINE thread%s (runtime %.1f us, "
			"deadline %.1f us, period %.1f us; placed by the kernel on CPU %s), %.2f s "
			"measured (%s)\n", bold, reset, r->n_cpus, r->n_cpus == 1 ? "" : "s",
			us(r->cfg.dl_runtime_ns), us(r->cfg.dl_deadline_ns), us(r->cfg.dl_period_ns),
			cpus, (double)r->elapsed_ns / 1e9, latency_stop_name(r->stop));
	else
		fprintf(out, "%swake-up latency%s on CPU %s: SCHED_%s %d, interval %" PRIu64
			" us, %.2f s measured (%s)\n",
			bold, reset, cpus, rtr_policy_name(r->cfg.policy), r->cfg.priority,
			r->cfg.interval_ns / 1000, (double)r->elapsed_ns / 1e9,
			latency_stop_name(r->stop));
	fprintf(out, "memory %s; /dev/cpu_dma_latency: %s\n",
		r->cfg.mlock ? "locked and prefaulted" : "NOT locked (--no-mlock)", dma);
	if (!dl && r->cfg.aligned)
		fprintf(out, "grid: aligned (-A %.0f us): every CPU wakes at the same instant\n",
			us(r->cfg.align_offset_ns));
	else if (!dl)
		fprintf(out, "grid: each thread its own, from when it started (cyclictest's "
			"default; -A aligns them)\n");
	else if (r->cfg.aligned)
		fprintf(out, "grid: aligned (-A %.0f us): every thread's periods begin at the same "
			"instant, as cyclicdeadline's\n", us(r->cfg.align_offset_ns));
	if (r->load.kind)
		fprintf(out, "load: %s at SCHED_OTHER on every CPU: %" PRIu64 " messaging runs (%" PRIu64
			" messages), %" PRIu64 " CPU work units, %" PRIu64 " memory cycles%s%s\n",
			r->load.kind, r->load.runs, r->load.messages, r->load.cpu_loops,
			r->load.memory_cycles, r->load.error[0] ? "; FAILED: " : "", r->load.error);
	fputc('\n', out);
	fprintf(out, "%5s %8s %10s %8s %8s %8s %8s %8s %9s %9s %7s\n", dl ? "T" : "CPU", "tid",
		dl ? "jobs" : "samples", "min", "avg", "p50", "p99", "p99.9", "max", "overflows",
		"missed");
	for (size_t i = 0; i < r->n_cpus; i++) {
		char label[16];

		snprintf(label, sizeof(label), "%d", dl ? (int)i : r->cpus[i].cpu);
		row(out, label, r->cpus[i].tid, &r->cpus[i].stats, in_ns);
	}
	if (r->n_cpus > 1)
		row(out, "all", 0, &r->total_stats, in_ns);
	fprintf(out, "(latencies in %s)\n", in_ns ? "ns" : "us");
	if (dl)
		deadline_lines(out, r);
	outliers(out, r);
	if (r->stop == LATENCY_STOP_THRESHOLD)
		fprintf(out, "\n%sthreshold %.1f us exceeded%s on CPU %d at wake-up %" PRIu64
			": %.1f us late\n",
			red, us(r->cfg.threshold_ns), reset, r->hit_cpu, r->hit_cycle,
			us(r->hit_ns));
	if (r->trace)
		latency_trace_text_write(out, r->trace, color);
	if (r->trace_all)
		latency_trace_all_text_write(out, r, color);
	return ferror(out) ? -EIO : 0;
}
