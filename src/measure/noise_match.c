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
#include "measure/trace.h"
#include "util/grow.h"

/* Events before a window replayed to know the state at its start. */
#define MATCH_LEAD_EVENTS 64

void noise_log_event(struct noise_cpu_log *log, const struct trace_ev *ev, long long missed,
		     bool keep, size_t max)
{
	if (missed)
		log->lost += missed > 0 ? (uint64_t)missed : 1;
	if (!keep)
		return;
	if (grow_array((void **)&log->ev, &log->cap_ev, log->n_ev, sizeof(*log->ev), max)) {
		log->lost++;
		return;
	}
	log->ev[log->n_ev++] = *ev;
}

void noise_log_steal(struct noise_cpu_log *log, int64_t t_ns, uint64_t ticks, size_t max)
{
	if (grow_array((void **)&log->steal, &log->cap_steal, log->n_steal, sizeof(*log->steal),
		       max))
		return;
	log->steal[log->n_steal++] = (struct noise_steal_sample){ t_ns, ticks };
}

void noise_log_free(struct noise_cpu_log *log)
{
	free(log->ev);
	free(log->steal);
	memset(log, 0, sizeof(*log));
}

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

uint64_t noise_steal_delta(const struct noise_match_input *in, int64_t a, int64_t b)
{
	size_t i, j;

	if (!in->steal || in->n_steal < 2)
		return 0;
	for (i = 0; i + 1 < in->n_steal && in->steal[i + 1].t_ns <= a; i++)
		;
	for (j = i; j + 1 < in->n_steal && in->steal[j].t_ns < b; j++)
		;
	if (i > 0)
		i--;
	if (j + 1 < in->n_steal)
		j++;
	return in->steal[j].steal_ticks > in->steal[i].steal_ticks ?
	       in->steal[j].steal_ticks - in->steal[i].steal_ticks : 0;
}

/* Did steal time rise around [a, b]? */
static bool steal_rose(const struct noise_match_input *in, int64_t a, int64_t b)
{
	return noise_steal_delta(in, a, b) > 0;
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

/*
 * Explain each window [start, end] of @gaps with trace_analyze() over the
 * events of @in inside it (and the task running at its start), then give
 * it a cause with @judge_one.
 */
static void match_each(const struct noise_match_input *in, const struct noise_gap *gaps, size_t n,
		       struct noise_attr *out,
		       void (*judge_one)(const struct noise_match_input *in,
					 const struct trace_result *tr, size_t from, size_t to,
					 int64_t a, int64_t b, struct noise_attr *out))
{
	struct trace_result *tr = malloc(sizeof(*tr));
	const struct trace_ev *before = NULL;
	size_t scan = 0, last_sw = 0;

	for (size_t g = 0; g < n; g++) {
		int64_t a = gaps[g].start_ns, b = gaps[g].end_ns;
		size_t from = trace_ev_first(in->ev, in->n_ev, a), to = from, start;
		struct trace_window w;

		/* The task running at the window's start: the last switch before it. */
		if (from < scan) {
			/* Windows out of order (never from the callers): look again from the start. */
			scan = 0;
			last_sw = 0;
			before = NULL;
		}
		for (; scan < from; scan++) {
			if (in->ev[scan].type == TEV_SWITCH) {
				before = &in->ev[scan];
				last_sw = scan;
			}
		}
		/*
		 * The analysis also gets the events since that switch (at most
		 * MATCH_LEAD_EVENTS): it replays them to know the interrupt context
		 * open at the window's start (an IRQ's exit carries no name) and the
		 * idle state the CPU entered.
		 */
		start = from > MATCH_LEAD_EVENTS ? from - MATCH_LEAD_EVENTS : 0;
		if (before && last_sw > start)
			start = last_sw;
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
		w.ev = in->ev + start;
		w.n = to - start;
		w.before = before;
		memset(tr, 0, sizeof(*tr));
		trace_analyze(&w, tr);
		judge_one(in, tr, from, to, a, b, &out[g]);
	}
	free(tr);
}

static void judge_gap(const struct noise_match_input *in, const struct trace_result *tr,
		      size_t from, size_t to, int64_t a, int64_t b, struct noise_attr *out)
{
	judge(in, tr, nmi_time(in->ev, from, to, a, b), a, b, out);
}

void noise_match(const struct noise_match_input *in, const struct noise_gap *gaps, size_t n,
		 struct noise_attr *out)
{
	match_each(in, gaps, n, out, judge_gap);
}

void noise_match_wakeup(const struct noise_match_input *in, const struct trace_result *tr,
			struct noise_attr *out)
{
	const struct trace_contrib *task = NULL, *ctx = NULL;
	uint64_t idle_ns = 0, late_ns = 0, ctx_ns = 0, task_ns = 0, stall_ns;
	int64_t a = tr->expected_ns, b = tr->woken_ns;

	for (size_t i = 0; i < tr->n_contrib; i++) {
		const struct trace_contrib *c = &tr->contrib[i];

		if (c->kind == TRACE_KIND_TASK) {
			if (c->self || c->id == (int)in->tid)
				continue;
			if (c->id == 0)
				idle_ns += c->duration_ns;
			else if (!task || c->duration_ns > task->duration_ns)
				task = c;
		} else if (c->kind == TRACE_KIND_TIMER && !strcmp(c->name, TRACE_TIMER_LATE)) {
			late_ns += c->duration_ns;
		} else if (c->kind == TRACE_KIND_IRQ || c->kind == TRACE_KIND_SOFTIRQ ||
			   c->kind == TRACE_KIND_TIMER) {
			if (!ctx || c->duration_ns > ctx->duration_ns)
				ctx = c;
		}
	}
	task_ns = task ? task->duration_ns : 0;
	/*
	 * The timer came late while the CPU sat in its idle task: the CPU was
	 * idle (or, in a guest, the vCPU was not running). Late while a task
	 * ran, the task kept interrupts off: the timer's own line.
	 */
	if (tr->idle_at_deadline)
		stall_ns = idle_ns + late_ns;
	else
		stall_ns = idle_ns;
	if (!tr->idle_at_deadline && late_ns && (!ctx || late_ns > ctx->duration_ns)) {
		ctx_ns = late_ns;
		ctx = NULL;
	} else if (ctx) {
		ctx_ns = ctx->duration_ns;
	}
	/*
	 * Another task kept the woken thread waiting: a higher priority, or a
	 * normal task in a section the kernel does not preempt (not
	 * PREEMPT_RT). Not throttling: a thread that sleeps between wake-ups
	 * does not use up the RT runtime.
	 */
	if (task && task_ns >= stall_ns && task_ns >= ctx_ns && task_ns >= late_ns) {
		set(out, NOISE_THREAD, task->id, task->name);
		return;
	}
	/* The timer late while the host did not run the vCPU, idle or not: steal says so. */
	if ((stall_ns || late_ns) && stall_ns + late_ns >= ctx_ns && steal_rose(in, a, b)) {
		set(out, NOISE_HYPERVISOR, -1, "vCPU not running (steal time)");
		return;
	}
	if (stall_ns && stall_ns >= ctx_ns) {
		/*
		 * The idle task "ran" while our thread waited for its timer or,
		 * woken, for the CPU: in a guest whose steal time rose then, the
		 * host had taken the vCPU away (its clock went on, its trace shows
		 * idle). That is the hypervisor, not swapper.
		 */
		if (in->virtual_machine)
			set(out, NOISE_HARDWARE, -1, "vCPU idle, no steal (host or VM exit)");
		else if (tr->idle_state >= 0) {
			char name[NOISE_NAME_LEN];

			snprintf(name, sizeof(name), "leaving idle state %d", tr->idle_state);
			set(out, NOISE_HARDWARE, -1, name);
		} else {
			set(out, NOISE_HARDWARE, -1, "CPU idle, slow to wake");
		}
		return;
	}
	if (ctx) {
		set(out, ctx->kind == TRACE_KIND_SOFTIRQ ? NOISE_SOFTIRQ : NOISE_IRQ, ctx->id,
		    ctx->name);
		return;
	}
	if (ctx_ns) {
		set(out, NOISE_IRQ, -1, TRACE_TIMER_LATE);
		return;
	}
	if (steal_rose(in, a, b))
		set(out, NOISE_HYPERVISOR, -1, "vCPU not running (steal time)");
	else if (in->lost)
		set(out, NOISE_UNKNOWN, -1, "nothing in the trace, which lost events");
	else
		set(out, NOISE_UNKNOWN, -1, "nothing in the trace");
}

static void judge_wakeup(const struct noise_match_input *in, const struct trace_result *tr,
			 size_t from, size_t to, int64_t a, int64_t b, struct noise_attr *out)
{
	(void)from;
	(void)to;
	(void)a;
	(void)b;
	noise_match_wakeup(in, tr, out);
}

void noise_match_wakeups(const struct noise_match_input *in, const struct noise_gap *wakeups,
			 size_t n, struct noise_attr *out)
{
	match_each(in, wakeups, n, out, judge_wakeup);
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
