// SPDX-License-Identifier: MIT
/*
 * One cause for every gap of `rtready noise`, from the kernel events of its
 * CPU (see noise.h). Pure: the caller hands over the events, the steal
 * samples and the gaps. Each gap is explained by trace_analyze(), the same
 * walk that explains a late wake-up of `latency --trace` (every nanosecond
 * of the window goes to the innermost context running then: hard IRQ or
 * system vector, softirq, else the current task), and the contributors are
 * then judged:
 *   - another task ran: it took the CPU (thread). When our thread runs at
 *     SCHED_FIFO/RR and gave way to a normal task or to the idle task, only
 *     RT throttling (or the fair server that replaced it) can have done
 *     that: rt_throttling;
 *   - else the interrupt context (or NMI) with the most time;
 *   - else nothing ran in the kernel: the vCPU did not run (hypervisor, when
 *     steal time rose around the gap), or firmware took the CPU (hardware:
 *     an SMI when the SMI count rose). When the trace lost events, a gap
 *     with nothing in it stays unknown.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure/noise.h"

const char *noise_kind_name(enum noise_kind k)
{
	switch (k) {
	case NOISE_IRQ: return "irq";
	case NOISE_SOFTIRQ: return "softirq";
	case NOISE_THREAD: return "thread";
	case NOISE_NMI: return "nmi";
	case NOISE_RT_THROTTLING: return "rt_throttling";
	case NOISE_HYPERVISOR: return "hypervisor";
	case NOISE_HARDWARE: return "hardware";
	case NOISE_UNKNOWN: return "unknown";
	}
	return "unknown";
}

static void set(struct noise_attr *a, enum noise_kind kind, int id, const char *name)
{
	a->kind = kind;
	a->id = id;
	snprintf(a->name, sizeof(a->name), "%s", name);
}

/* The first index of @ev at or after @t (events in time order). */
static size_t lower_bound(const struct trace_ev *ev, size_t n, int64_t t)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ev[mid].ts_ns < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Did steal time rise around [a, b]? One sample more on each side: steal counts in ticks. */
static bool steal_rose(const struct noise_match_input *in, int64_t a, int64_t b)
{
	size_t i, j;

	if (!in->steal || in->n_steal < 2)
		return false;
	for (i = 0; i + 1 < in->n_steal && in->steal[i + 1].t_ns <= a; i++)
		;
	for (j = i; j + 1 < in->n_steal && in->steal[j].t_ns < b; j++)
		;
	if (i > 0)
		i--;
	if (j + 1 < in->n_steal)
		j++;
	return in->steal[j].steal_ticks > in->steal[i].steal_ticks;
}

/* NMI time inside [a, b]: nmi_handler is emitted at the end, with its duration. */
static uint64_t nmi_time(const struct trace_ev *ev, size_t from, size_t to, int64_t a, int64_t b)
{
	uint64_t sum = 0;

	for (size_t i = from; i < to; i++) {
		int64_t s, e;

		if (ev[i].type != TEV_NMI)
			continue;
		e = ev[i].ts_ns < b ? ev[i].ts_ns : b;
		s = ev[i].ts_ns - (int64_t)ev[i].ptr;
		if (s < a)
			s = a;
		if (e > s)
			sum += (uint64_t)(e - s);
	}
	return sum;
}

static void judge(const struct noise_match_input *in, const struct trace_result *tr,
		  uint64_t nmi_ns, int64_t a, int64_t b, struct noise_attr *out)
{
	const struct trace_contrib *task = NULL, *ctx = NULL;
	uint64_t gap = (uint64_t)(b - a), explained = nmi_ns;

	for (size_t i = 0; i < tr->n_contrib; i++) {
		const struct trace_contrib *c = &tr->contrib[i];

		if (c->kind == TRACE_KIND_TASK) {
			if (c->self || c->id == (int)in->tid)
				continue;
			if (!task || c->duration_ns > task->duration_ns)
				task = c;
			explained += c->duration_ns;
		} else if (c->kind == TRACE_KIND_IRQ || c->kind == TRACE_KIND_SOFTIRQ ||
			   c->kind == TRACE_KIND_TIMER) {
			if (!ctx || c->duration_ns > ctx->duration_ns)
				ctx = c;
			explained += c->duration_ns;
		}
	}
	if (task) {
		/* A normal task (kernel prio 100..139) or idle (pid 0) cannot preempt FIFO/RR. */
		if (in->rt && in->throttling && (task->id == 0 || task->kernel_prio >= 100))
			set(out, NOISE_RT_THROTTLING, -1, "RT runtime used up");
		else
			set(out, NOISE_THREAD, task->id, task->name);
		return;
	}
	/* A stall the kernel did not see, with a short interrupt after it (the pending tick). */
	if (explained * 2 < gap && steal_rose(in, a, b)) {
		set(out, NOISE_HYPERVISOR, -1, "vCPU not running (steal time)");
		return;
	}
	if (ctx && ctx->duration_ns >= nmi_ns) {
		if (ctx->kind == TRACE_KIND_SOFTIRQ)
			set(out, NOISE_SOFTIRQ, ctx->id, ctx->name);
		else
			set(out, NOISE_IRQ, ctx->id, ctx->name);
		return;
	}
	if (nmi_ns) {
		set(out, NOISE_NMI, -1, "NMI");
		return;
	}
	if (in->lost)
		set(out, NOISE_UNKNOWN, -1, "nothing in the trace, which lost events");
	else if (in->smi_delta > 0)
		set(out, NOISE_HARDWARE, -1, "SMI");
	else if (in->virtual_machine)
		/* A VM exit the host handled, or firmware below it: the guest cannot tell. */
		set(out, NOISE_HARDWARE, -1, "nothing ran in the guest kernel, no steal");
	else
		set(out, NOISE_HARDWARE, -1, "nothing ran in the kernel, no steal");
}

void noise_match(const struct noise_match_input *in, const struct noise_gap *gaps, size_t n,
		 struct noise_attr *out)
{
	struct trace_result *tr = malloc(sizeof(*tr));
	const struct trace_ev *before = NULL;
	size_t scan = 0;

	for (size_t g = 0; g < n; g++) {
		int64_t a = gaps[g].start_ns, b = gaps[g].end_ns;
		size_t from = lower_bound(in->ev, in->n_ev, a), to = from;
		struct trace_window w;

		/* The task running at the gap's start: the last switch before it. */
		for (; scan < from; scan++)
			if (in->ev[scan].type == TEV_SWITCH)
				before = &in->ev[scan];
		while (to < in->n_ev && in->ev[to].ts_ns <= b)
			to++;
		if (!tr) {
			set(&out[g], NOISE_UNKNOWN, -1, "out of memory");
			continue;
		}
		memset(&w, 0, sizeof(w));
		w.tid = in->tid;
		w.expected_ns = a;
		w.woken_ns = b;
		w.ev = in->ev + from;
		w.n = to - from;
		w.before = before;
		memset(tr, 0, sizeof(*tr));
		trace_analyze(&w, tr);
		judge(in, tr, nmi_time(in->ev, from, to, a, b), a, b, &out[g]);
	}
	free(tr);
}

int noise_causes_add(struct noise_cause **causes, size_t *n, const struct noise_attr *a,
		     uint64_t ns)
{
	struct noise_cause *c;

	for (size_t i = 0; i < *n; i++) {
		c = &(*causes)[i];
		if (c->kind == a->kind && c->id == a->id && !strcmp(c->name, a->name)) {
			c->count++;
			c->total_ns += ns;
			if (ns > c->max_ns)
				c->max_ns = ns;
			return 0;
		}
	}
	/* Room for 4, then doubled each time it is full. */
	if (*n == 0 || (*n >= 4 && (*n & (*n - 1)) == 0)) {
		size_t cap = *n ? *n * 2 : 4;
		struct noise_cause *p = realloc(*causes, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		*causes = p;
	}
	c = &(*causes)[(*n)++];
	memset(c, 0, sizeof(*c));
	c->kind = a->kind;
	c->id = a->id;
	snprintf(c->name, sizeof(c->name), "%s", a->name);
	c->count = 1;
	c->total_ns = ns;
	c->max_ns = ns;
	return 0;
}

static int cmp_cause(const void *pa, const void *pb)
{
	const struct noise_cause *a = pa, *b = pb;

	if (a->total_ns != b->total_ns)
		return a->total_ns < b->total_ns ? 1 : -1;
	if (a->kind != b->kind)
		return (int)a->kind - (int)b->kind;
	return strcmp(a->name, b->name);
}

void noise_causes_sort(struct noise_cause *causes, size_t n)
{
	if (n > 1)
		qsort(causes, n, sizeof(*causes), cmp_cause);
}
