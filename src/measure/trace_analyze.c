// SPDX-License-Identifier: MIT
/*
 * The explanation of a latency spike from the events of its CPU (see
 * trace.h). Pure: no I/O, no allocation, bounded by the number of events.
 *
 * Two passes over the events. The first finds the three moments of the
 * wake-up: our hrtimer's callback starting (hrtimer_expire_entry enclosing
 * the sched_waking of our thread), the sched_waking itself, and the
 * sched_switch that gives our thread the CPU. The second walks the time
 * line from the deadline to the wake-up and gives each stretch between two
 * events to whatever the CPU was doing: the innermost interrupt context
 * open (hrtimer callback, hard IRQ or system vector, softirq), else the
 * current task. A stretch of task time before our timer fired is the timer
 * interrupt coming late (the CPU was idle and slow to leave it, interrupts
 * were off, or the hypervisor delivered it late), not that task's fault.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure/trace.h"

/* Tolerance for an event of the wake-up seen just before the deadline. */
#define EARLY_TOLERANCE_NS 20000

/* Distinct contributors followed before the rest are merged into one. */
#define ACC_MAX 128

struct ctx {
	enum trace_ev_type type;	/* the *_ENTRY type */
	int num;
	uint64_t ptr;
	int64_t since_ns;
	char name[TRACE_NAME_LEN];
};

struct task {
	bool known;
	int pid;
	int prio;
	char comm[TRACE_COMM_LEN];
};

struct acc {
	struct trace_contrib c[ACC_MAX];
	size_t n;
	uint64_t merged_ns;	/* contributors past ACC_MAX */
	unsigned int merged_count;
	uint64_t pending_ns;	/* task time before we know which task ran */
	unsigned int pending_count;
};

static void copy_str(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src ? src : "");
}

static void add(struct acc *a, enum trace_kind kind, const char *name, int id, int kprio,
		bool self, uint64_t ns)
{
	struct trace_contrib *c;

	if (!ns)
		return;
	for (size_t i = 0; i < a->n; i++) {
		c = &a->c[i];
		if (c->kind == kind && c->id == id && c->self == self && !strcmp(c->name, name)) {
			c->duration_ns += ns;
			c->count++;
			if (kprio >= 0)
				c->kernel_prio = kprio;
			return;
		}
	}
	if (a->n == ACC_MAX) {
		a->merged_ns += ns;
		a->merged_count++;
		return;
	}
	c = &a->c[a->n++];
	memset(c, 0, sizeof(*c));
	c->kind = kind;
	copy_str(c->name, sizeof(c->name), name);
	c->id = id;
	c->kernel_prio = kprio;
	c->self = self;
	c->duration_ns = ns;
	c->count = 1;
}

/* Give task @pid's entries the name @comm, merging those that then match. */
static void rename_task(struct acc *a, int pid, const char *comm)
{
	for (size_t i = 0; i < a->n; i++) {
		struct trace_contrib *c = &a->c[i];

		if (c->kind != TRACE_KIND_TASK || c->id != pid || !strcmp(c->name, comm))
			continue;
		copy_str(c->name, sizeof(c->name), comm);
		for (size_t j = 0; j < i; j++) {
			struct trace_contrib *d = &a->c[j];

			if (d->kind == c->kind && d->id == c->id && d->self == c->self &&
			    !strcmp(d->name, c->name)) {
				d->duration_ns += c->duration_ns;
				d->count += c->count;
				memmove(c, c + 1, (a->n - i - 1) * sizeof(*c));
				a->n--;
				i--;
				break;
			}
		}
	}
}

static bool is_exit(enum trace_ev_type t)
{
	return t == TEV_IRQ_EXIT || t == TEV_SOFTIRQ_EXIT || t == TEV_VECTOR_EXIT ||
	       t == TEV_HRTIMER_EXIT;
}

static bool is_entry(enum trace_ev_type t)
{
	return t == TEV_IRQ_ENTRY || t == TEV_SOFTIRQ_ENTRY || t == TEV_VECTOR_ENTRY ||
	       t == TEV_HRTIMER_ENTRY;
}

/* The entry type that an exit closes (the enum keeps each pair adjacent). */
static enum trace_ev_type entry_of(enum trace_ev_type exit)
{
	return (enum trace_ev_type)(exit - 1);
}

/* Does @c match the exit event @e? IRQ numbers and hrtimer addresses must agree. */
static bool closes(const struct ctx *c, const struct trace_ev *e)
{
	if (c->type != entry_of(e->type))
		return false;
	if (e->type == TEV_IRQ_EXIT || e->type == TEV_SOFTIRQ_EXIT)
		return c->num == e->num;
	if (e->type == TEV_HRTIMER_EXIT)
		return c->ptr == e->ptr;
	return true;
}

static void ctx_from(struct ctx *c, const struct trace_ev *e, enum trace_ev_type entry_type)
{
	memset(c, 0, sizeof(*c));
	c->type = entry_type;
	c->num = e->num;
	c->ptr = e->ptr;
	c->since_ns = e->ts_ns;
	copy_str(c->name, sizeof(c->name), e->name);
}

/* Interrupt-context time goes to the context itself. */
static void add_ctx(struct acc *a, const struct ctx *c, uint64_t ns)
{
	char name[TRACE_NAME_LEN];

	switch (c->type) {
	case TEV_HRTIMER_ENTRY:
		add(a, TRACE_KIND_TIMER, c->name[0] ? c->name : "hrtimer callbacks", -1, -1, false,
		    ns);
		break;
	case TEV_IRQ_ENTRY:
		if (c->name[0])
			copy_str(name, sizeof(name), c->name);
		else
			snprintf(name, sizeof(name), "irq %d", c->num);
		add(a, TRACE_KIND_IRQ, name, c->num, -1, false, ns);
		break;
	case TEV_VECTOR_ENTRY:
		add(a, TRACE_KIND_IRQ, c->name[0] ? c->name : "system vector", -1, -1, false, ns);
		break;
	case TEV_SOFTIRQ_ENTRY:
		add(a, TRACE_KIND_SOFTIRQ, trace_softirq_name(c->num), c->num, -1, false, ns);
		break;
	default:
		add(a, TRACE_KIND_UNKNOWN, "not visible in the trace", -1, -1, false, ns);
		break;
	}
}

struct walk {
	const struct trace_window *w;
	int64_t fire_ns;	/* our timer fired (or our thread was woken); -1 unknown */
	struct acc acc;
	struct task cur;
	struct ctx stack[TRACE_MAX_DEPTH];
	size_t depth;
	int idle_state;
};

/* Give [a, b) (already clipped to the latency) to the task context. */
static void add_task_time(struct walk *k, int64_t a, int64_t b)
{
	if (b <= a)
		return;
	if (k->fire_ns >= 0 && a < k->fire_ns) {
		int64_t m = b < k->fire_ns ? b : k->fire_ns;

		add(&k->acc, TRACE_KIND_TIMER, TRACE_TIMER_LATE, -1, -1, false,
		    (uint64_t)(m - a));
		a = m;
		if (b <= a)
			return;
	}
	if (!k->cur.known) {
		k->acc.pending_ns += (uint64_t)(b - a);
		k->acc.pending_count++;
		return;
	}
	add(&k->acc, TRACE_KIND_TASK, k->cur.comm, k->cur.pid, k->cur.prio, k->cur.pid == k->w->tid,
	    (uint64_t)(b - a));
}

/* Give the stretch [a, b) to what ran then; @next is the event that ends it (or NULL). */
static void attribute(struct walk *k, int64_t a, int64_t b, const struct trace_ev *next)
{
	const struct trace_window *w = k->w;

	if (a < w->expected_ns)
		a = w->expected_ns;
	if (b > w->woken_ns)
		b = w->woken_ns;
	if (b <= a)
		return;
	if (k->depth) {
		add_ctx(&k->acc, &k->stack[k->depth - 1], (uint64_t)(b - a));
		return;
	}
	/* An exit with nothing open: the trace began inside that context. */
	if (next && is_exit(next->type)) {
		struct ctx c;

		ctx_from(&c, next, entry_of(next->type));
		add_ctx(&k->acc, &c, (uint64_t)(b - a));
		return;
	}
	add_task_time(k, a, b);
}

static void apply(struct walk *k, const struct trace_ev *e)
{
	switch (e->type) {
	case TEV_SWITCH:
		/*
		 * A task's priority can change while it runs (sched_setscheduler
		 * makes no switch event); the leaving side shows the one it had.
		 */
		for (size_t i = 0; i < k->acc.n; i++) {
			struct trace_contrib *c = &k->acc.c[i];

			if (c->kind == TRACE_KIND_TASK && c->id == e->prev_pid)
				c->kernel_prio = e->prev_prio;
		}
		/*
		 * So can its name: a task that called exec() while it ran was
		 * switched in under its old name (a shell's fork running a
		 * program); the leaving side shows the one it has now.
		 */
		rename_task(&k->acc, e->prev_pid, e->prev_comm);
		/* The first switch names the task that ran before it, if we did not know. */
		if (!k->cur.known && k->acc.pending_ns) {
			add(&k->acc, TRACE_KIND_TASK, e->prev_comm, e->prev_pid, e->prev_prio,
			    e->prev_pid == k->w->tid, k->acc.pending_ns);
			k->acc.pending_ns = 0;
			k->acc.pending_count = 0;
		}
		k->cur.known = true;
		k->cur.pid = e->pid;
		k->cur.prio = e->prio;
		copy_str(k->cur.comm, sizeof(k->cur.comm), e->comm);
		break;
	case TEV_IDLE:
		k->idle_state = e->num;
		break;
	default:
		if (is_entry(e->type)) {
			if (k->depth < TRACE_MAX_DEPTH)
				ctx_from(&k->stack[k->depth++], e, e->type);
		} else if (is_exit(e->type)) {
			/* Pop to the matching entry; an exit with no entry open is ignored. */
			for (size_t d = k->depth; d > 0; d--) {
				if (closes(&k->stack[d - 1], e)) {
					k->depth = d - 1;
					break;
				}
			}
		}
		break;
	}
}

/* Pass one: the timer, the wake-up and the switch of our thread. */
static void find_moments(const struct trace_window *w, struct trace_result *r)
{
	struct ctx stack[TRACE_MAX_DEPTH];
	size_t depth = 0;
	int64_t from = w->expected_ns - EARLY_TOLERANCE_NS;

	for (size_t i = 0; i < w->n; i++) {
		const struct trace_ev *e = &w->ev[i];

		if (e->ts_ns > w->woken_ns)
			break;
		if (e->type == TEV_HRTIMER_ENTRY && depth < TRACE_MAX_DEPTH) {
			ctx_from(&stack[depth++], e, e->type);
		} else if (e->type == TEV_HRTIMER_EXIT) {
			for (size_t d = depth; d > 0; d--) {
				if (stack[d - 1].ptr == e->ptr) {
					depth = d - 1;
					break;
				}
			}
		} else if (e->type == TEV_WAKING && e->pid == w->tid && e->ts_ns >= from &&
			   r->waking_ns < 0) {
			r->waking_ns = e->ts_ns;
			r->kernel_prio = e->prio;
			copy_str(r->comm, sizeof(r->comm), e->comm);
			if (depth)
				r->timer_ns = stack[depth - 1].since_ns;
		} else if (e->type == TEV_SWITCH && e->pid == w->tid && e->ts_ns >= from &&
			   r->switch_ns < 0 && (r->waking_ns >= 0 || e->ts_ns >= w->expected_ns)) {
			r->switch_ns = e->ts_ns;
			r->kernel_prio = e->prio;
			copy_str(r->comm, sizeof(r->comm), e->comm);
		}
	}
}

static int cmp_contrib(const void *pa, const void *pb)
{
	const struct trace_contrib *a = pa, *b = pb;

	if (a->duration_ns != b->duration_ns)
		return a->duration_ns < b->duration_ns ? 1 : -1;
	return (int)a->kind - (int)b->kind;
}

static void set_phases(struct trace_result *r)
{
	int64_t fire = r->timer_ns >= 0 ? r->timer_ns : r->waking_ns;
	int64_t woke = r->waking_ns >= 0 ? r->waking_ns : fire;
	int64_t best = -1;

	r->timer_late_ns = fire >= 0 ? fire - r->expected_ns : -1;
	r->wait_ns = woke >= 0 && r->switch_ns >= 0 ? r->switch_ns - woke : -1;
	r->resume_ns = r->switch_ns >= 0 ? r->woken_ns - r->switch_ns : -1;
	if (r->timer_late_ns < 0 && fire >= 0)
		r->timer_late_ns = 0;
	r->phase = TRACE_PHASE_UNKNOWN;
	if (r->timer_late_ns > best) {
		best = r->timer_late_ns;
		r->phase = TRACE_PHASE_TIMER;
	}
	if (r->wait_ns > best) {
		best = r->wait_ns;
		r->phase = TRACE_PHASE_WAIT;
	}
	if (r->resume_ns > best)
		r->phase = TRACE_PHASE_RESUME;
}

static void finish(struct walk *k, struct trace_result *r)
{
	struct acc *a = &k->acc;
	size_t keep;

	if (a->pending_ns)
		add(a, TRACE_KIND_UNKNOWN, "task not visible in the trace", -1, -1, false,
		    a->pending_ns);
	if (a->merged_ns)
		add(a, TRACE_KIND_UNKNOWN, "other contributors", -1, -1, false, a->merged_ns);
	qsort(a->c, a->n, sizeof(a->c[0]), cmp_contrib);
	keep = a->n < TRACE_MAX_CONTRIB ? a->n : TRACE_MAX_CONTRIB;
	memcpy(r->contrib, a->c, keep * sizeof(a->c[0]));
	if (a->n > TRACE_MAX_CONTRIB) {
		/* The last slot sums up the smallest ones. */
		struct trace_contrib *last = &r->contrib[TRACE_MAX_CONTRIB - 1];

		memset(last, 0, sizeof(*last));
		last->kind = TRACE_KIND_UNKNOWN;
		copy_str(last->name, sizeof(last->name), "smaller contributors");
		last->id = -1;
		last->kernel_prio = -1;
		for (size_t i = TRACE_MAX_CONTRIB - 1; i < a->n; i++) {
			last->duration_ns += a->c[i].duration_ns;
			last->count += a->c[i].count;
		}
	}
	r->n_contrib = keep;
	r->explained_ns = 0;
	for (size_t i = 0; i < a->n; i++)
		if (a->c[i].kind != TRACE_KIND_UNKNOWN)
			r->explained_ns += a->c[i].duration_ns;
}


void trace_analyze(const struct trace_window *w, struct trace_result *r)
{
	struct walk k;	/* about 9 KiB, on the stack of the (non-realtime) caller */
	int64_t t;
	bool at_deadline = false;

	memset(&k, 0, sizeof(k));
	k.w = w;
	k.idle_state = -1;
	r->triggered = true;
	r->cpu = w->cpu;
	r->tid = w->tid;
	r->comm[0] = '\0';
	r->kernel_prio = -1;
	r->expected_ns = w->expected_ns;
	r->woken_ns = w->woken_ns;
	r->latency_ns = w->woken_ns > w->expected_ns ? (uint64_t)(w->woken_ns - w->expected_ns) : 0;
	r->timer_ns = r->waking_ns = r->switch_ns = -1;
	r->idle_at_deadline = false;
	r->idle_state = -1;
	r->lost_events = w->lost_events;
	r->n_events = 0;

	find_moments(w, r);
	set_phases(r);
	k.fire_ns = r->timer_ns >= 0 ? r->timer_ns : r->waking_ns;
	if (w->before && w->before->type == TEV_SWITCH) {
		k.cur.known = true;
		k.cur.pid = w->before->pid;
		k.cur.prio = w->before->prio;
		copy_str(k.cur.comm, sizeof(k.cur.comm), w->before->comm);
	}

	t = w->expected_ns;
	for (size_t i = 0; i < w->n; i++) {
		const struct trace_ev *e = &w->ev[i];

		if (e->ts_ns >= w->expected_ns && !at_deadline) {
			at_deadline = true;
			r->idle_at_deadline = k.cur.known && k.cur.pid == 0;
			r->idle_state = r->idle_at_deadline ? k.idle_state : -1;
		}
		if (e->ts_ns > w->woken_ns)
			break;
		if (e->ts_ns >= w->expected_ns) {
			r->n_events++;
			attribute(&k, t, e->ts_ns, e);
			t = e->ts_ns;
		}
		apply(&k, e);
	}
	if (!at_deadline) {
		r->idle_at_deadline = k.cur.known && k.cur.pid == 0;
		r->idle_state = r->idle_at_deadline ? k.idle_state : -1;
	}
	attribute(&k, t, w->woken_ns, NULL);
	finish(&k, r);
}
