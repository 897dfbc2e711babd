// SPDX-License-Identifier: MIT
/*
 * The "trace" part of `rtready latency --trace` results: a short paragraph
 * that says why the worst wake-up was late, the ranked table of what took
 * the time on that CPU, and the same as a JSON object. Everything shown is
 * in struct trace_result (src/measure/trace.h); nothing is computed here
 * but units and shares.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "measure/noise.h"
#include "measure/trace.h"
#include "render/json.h"
#include "render/latency.h"
#include "render/noise.h"

static double us(int64_t ns)
{
	return (double)ns / 1000.0;
}

static json_t *ns_or_null(int64_t v)
{
	return v >= 0 ? json_integer(v) : json_null();
}

static json_t *contrib_json(const struct trace_contrib *c)
{
	json_t *o = json_object();

	json_object_set_new(o, "kind", json_text(trace_kind_name(c->kind)));
	json_object_set_new(o, "name", json_text(c->name));
	switch (c->kind) {
	case TRACE_KIND_TASK:
		json_object_set_new(o, "pid", json_integer(c->id));
		json_object_set_new(o, "prio", json_integer(trace_rt_priority(c->kernel_prio)));
		json_object_set_new(o, "kernel_prio", json_integer(c->kernel_prio));
		json_object_set_new(o, "self", json_boolean(c->self));
		break;
	case TRACE_KIND_IRQ:
		json_object_set_new(o, "irq", c->id >= 0 ? json_integer(c->id) : json_null());
		break;
	case TRACE_KIND_SOFTIRQ:
		json_object_set_new(o, "vec", json_integer(c->id));
		break;
	case TRACE_KIND_TIMER:
	case TRACE_KIND_UNKNOWN:
		break;
	}
	json_object_set_new(o, "duration_ns", json_integer((json_int_t)c->duration_ns));
	json_object_set_new(o, "count", json_integer(c->count));
	return o;
}

static json_t *missing_json(const char *list)
{
	json_t *a = json_array();
	char buf[sizeof(((struct trace_result *)0)->missing_events)];
	char *save = NULL, *tok;

	snprintf(buf, sizeof(buf), "%s", list);
	for (tok = strtok_r(buf, " ", &save); a && tok; tok = strtok_r(NULL, " ", &save))
		json_array_append_new(a, json_text(tok));
	return a;
}

json_t *latency_trace_to_json(const struct trace_result *t)
{
	json_t *o = json_object(), *c, *k, *ph;

	if (!o)
		return NULL;
	json_object_set_new(o, "triggered", json_boolean(t->triggered));
	json_object_set_new(o, "clock", json_string("mono"));
	k = json_object();
	json_object_set_new(k, "timerlat", json_boolean(t->timerlat_available));
	json_object_set_new(k, "osnoise", json_boolean(t->osnoise_available));
	json_object_set_new(o, "kernel_tracers", k);
	/*
	 * Where the explanation comes from: the sched, irq and timer events of
	 * our own instance. timerlat is not started (its FIFO 95 thread on each
	 * CPU would compete with the measuring threads); rtla timerlat is the
	 * tool for its view of the same spike.
	 */
	json_object_set_new(o, "source", json_string("events"));
	json_object_set_new(o, "missing_events", missing_json(t->missing_events));
	json_object_set_new(o, "file", t->file_saved ? json_text(t->file) : json_null());
	if (t->file_error[0])
		json_object_set_new(o, "file_error", json_text(t->file_error));
	json_object_set_new(o, "error", t->error[0] ? json_text(t->error) : json_null());
	if (!t->triggered)
		return o;
	json_object_set_new(o, "cpu", json_integer(t->cpu));
	json_object_set_new(o, "tid", json_integer(t->tid));
	json_object_set_new(o, "comm", json_text(t->comm));
	json_object_set_new(o, "prio", t->kernel_prio >= 0 ?
			    json_integer(trace_rt_priority(t->kernel_prio)) : json_null());
	json_object_set_new(o, "latency_ns", json_integer((json_int_t)t->latency_ns));
	json_object_set_new(o, "expected_ns", json_integer(t->expected_ns));
	json_object_set_new(o, "woken_ns", json_integer(t->woken_ns));
	json_object_set_new(o, "timer_ns", ns_or_null(t->timer_ns));
	json_object_set_new(o, "waking_ns", ns_or_null(t->waking_ns));
	json_object_set_new(o, "switch_ns", ns_or_null(t->switch_ns));
	ph = json_object();
	json_object_set_new(ph, "timer_late_ns", ns_or_null(t->timer_late_ns));
	json_object_set_new(ph, "wait_ns", ns_or_null(t->wait_ns));
	json_object_set_new(ph, "resume_ns", ns_or_null(t->resume_ns));
	json_object_set_new(o, "phases", ph);
	json_object_set_new(o, "phase", json_text(trace_phase_name(t->phase)));
	json_object_set_new(o, "idle_at_deadline", json_boolean(t->idle_at_deadline));
	json_object_set_new(o, "idle_state", t->idle_state >= 0 ? json_integer(t->idle_state)
							      : json_null());
	c = json_array();
	for (size_t i = 0; c && i < t->n_contrib; i++)
		json_array_append_new(c, contrib_json(&t->contrib[i]));
	json_object_set_new(o, "contributors", c);
	json_object_set_new(o, "explained_ns", json_integer((json_int_t)t->explained_ns));
	json_object_set_new(o, "events", json_integer((json_int_t)t->n_events));
	json_object_set_new(o, "lost_events", json_integer((json_int_t)t->lost_events));
	json_object_set_new(o, "stop_delay_ns", ns_or_null(t->stop_delay_ns));
	/* The cause, named as rtready noise names it, with the steal around the wake-up. */
	if (t->cause_kind[0]) {
		json_t *cause = json_object();

		json_object_set_new(cause, "kind", json_text(t->cause_kind));
		json_object_set_new(cause, "name", json_text(t->cause_name));
		if (t->cause_id >= 0)
			json_object_set_new(cause, "id", json_integer(t->cause_id));
		json_object_set_new(cause, "steal_ticks", t->steal_ticks >= 0 ?
				    json_integer(t->steal_ticks) : json_null());
		json_object_set_new(o, "cause", cause);
	}
	return o;
}

/* "RT 90" for realtime tasks, "nice 0" for the others. */
static void prio_text(int kernel_prio, char *buf, size_t len)
{
	if (kernel_prio < 0)
		snprintf(buf, len, "-");
	else if (trace_rt_priority(kernel_prio))
		snprintf(buf, len, "RT %d", trace_rt_priority(kernel_prio));
	else
		snprintf(buf, len, "nice %d", kernel_prio - 120);
}

/* The largest contributor other than the timer and the thread itself, if any. */
static const struct trace_contrib *blocker(const struct trace_result *t)
{
	for (size_t i = 0; i < t->n_contrib; i++) {
		const struct trace_contrib *c = &t->contrib[i];

		if (!c->self && c->kind != TRACE_KIND_TIMER && c->kind != TRACE_KIND_UNKNOWN)
			return c;
	}
	return NULL;
}

static void who(FILE *out, const struct trace_contrib *c)
{
	char prio[24];

	switch (c->kind) {
	case TRACE_KIND_TASK:
		prio_text(c->kernel_prio, prio, sizeof(prio));
		if (c->id == 0)
			fprintf(out, "the idle task (%s)", c->name);
		else
			fprintf(out, "task %s (pid %d, %s)", c->name, c->id, prio);
		break;
	case TRACE_KIND_IRQ:
		if (c->id >= 0)
			fprintf(out, "IRQ %d (%s)", c->id, c->name);
		else
			fprintf(out, "the %s interrupt", c->name);
		break;
	case TRACE_KIND_SOFTIRQ:
		fprintf(out, "softirq %s", c->name);
		break;
	case TRACE_KIND_TIMER:
	case TRACE_KIND_UNKNOWN:
		fprintf(out, "%s", c->name);
		break;
	}
}

static void paragraph(FILE *out, const struct trace_result *t)
{
	const struct trace_contrib *b = blocker(t);
	char prio[24];

	prio_text(t->kernel_prio, prio, sizeof(prio));
	fprintf(out, "  The thread %s (tid %d, %s) woke up %.1f us after its deadline.", t->comm[0] ?
		t->comm : "?", (int)t->tid, prio, us((int64_t)t->latency_ns));
	if (t->timer_late_ns >= 0) {
		fprintf(out, " Its timer fired %.1f us after the deadline", us(t->timer_late_ns));
		if (t->idle_at_deadline && t->idle_state >= 0)
			fprintf(out, " (the CPU was idle, in idle state %d)", t->idle_state);
		else if (t->idle_at_deadline)
			fprintf(out, " (the CPU was idle)");
		fputc('.', out);
	} else {
		fprintf(out, " The trace does not show its timer firing or its wake-up.");
	}
	if (t->wait_ns >= 0)
		fprintf(out, " Once woken it waited %.1f us for the CPU,", us(t->wait_ns));
	if (t->resume_ns >= 0)
		fprintf(out, " then needed %.1f us to get back to user space.", us(t->resume_ns));
	fputc('\n', out);
	switch (t->phase) {
	case TRACE_PHASE_TIMER:
		fprintf(out, "  Most of the latency came before the wake-up: the timer interrupt was late "
			"(%s).\n", t->idle_at_deadline ?
			"leaving an idle state, or a virtual CPU that the host did not run" :
			"interrupts disabled, or the host delivered the interrupt late");
		break;
	case TRACE_PHASE_WAIT:
		if (!strcmp(t->cause_kind, "hypervisor")) {
			fprintf(out, "  Most of the latency was spent runnable but not running while the "
				"CPU's idle task was current: the host was not running this virtual "
				"CPU (its steal time rose).\n");
		} else if (b) {
			fprintf(out, "  Most of the latency was spent runnable but not running: ");
			who(out, b);
			fprintf(out, " held the CPU for %.1f us of it.\n", us((int64_t)b->duration_ns));
		} else {
			fprintf(out, "  Most of the latency was spent runnable but not running.\n");
		}
		break;
	case TRACE_PHASE_RESUME:
		fprintf(out, "  Most of the latency came after the switch to the thread, on its way "
			"back to user space (kernel work on its behalf, such as a page fault).\n");
		break;
	case TRACE_PHASE_UNKNOWN:
		break;
	}
}

/* Print @text word by word in lines of at most @width columns, indented by two spaces. */
static void wrap(FILE *out, const char *text, size_t width)
{
	size_t col = 0;

	while (*text) {
		size_t n = strcspn(text, " \n");

		if (n) {
			if (col && col + 1 + n > width) {
				fputc('\n', out);
				col = 0;
			}
			fprintf(out, "%s%.*s", col ? " " : "  ", (int)n, text);
			col += n + (col ? 1 : 2);
		}
		text += n;
		if (*text == '\n' && col) {
			fputc('\n', out);
			col = 0;
		}
		if (*text)
			text++;
	}
	if (col)
		fputc('\n', out);
}

int latency_trace_text_write(FILE *out, const struct trace_result *t, bool color)
{
	const char *bold = color ? "\033[1m" : "", *reset = color ? "\033[0m" : "";

	fprintf(out, "\n%strace%s", bold, reset);
	if (!t->triggered) {
		fprintf(out, ": %s\n", t->error[0] ? t->error : "nothing recorded");
		goto tail;
	}
	fprintf(out, " of the late wake-up on CPU %d", t->cpu);
	if (t->stop_delay_ns >= 0)
		fprintf(out, " (kernel trace stopped %.1f us after it)", us(t->stop_delay_ns));
	fputc('\n', out);
	{
		char *text = NULL;
		size_t len = 0;
		FILE *mem = open_memstream(&text, &len);

		if (mem) {
			paragraph(mem, t);
			if (fclose(mem) == 0 && text)
				wrap(out, text, 88);
		} else {
			paragraph(out, t);
		}
		free(text);
	}
	fprintf(out, "\n  %-8s %-24s %8s %8s %10s %6s\n", "kind", "name", "pid/irq", "prio", "time_us",
		"share");
	for (size_t i = 0; i < t->n_contrib; i++) {
		const struct trace_contrib *c = &t->contrib[i];
		char id[16] = "-", prio[24] = "-";

		if (c->kind == TRACE_KIND_TASK || (c->kind != TRACE_KIND_TIMER &&
						   c->kind != TRACE_KIND_UNKNOWN && c->id >= 0))
			snprintf(id, sizeof(id), "%d", c->id);
		if (c->kind == TRACE_KIND_TASK)
			prio_text(c->kernel_prio, prio, sizeof(prio));
		fprintf(out, "  %-8s %-24s %8s %8s %10.1f %5.1f%%%s\n", trace_kind_name(c->kind),
			c->name, id, prio, us((int64_t)c->duration_ns),
			t->latency_ns ? 100.0 * (double)c->duration_ns / (double)t->latency_ns : 0.0,
			c->self ? "  (the measuring thread)" : "");
	}
	fprintf(out, "  %.1f of %.1f us explained by %zu event%s on CPU %d", us((int64_t)t->explained_ns),
		us((int64_t)t->latency_ns), t->n_events, t->n_events == 1 ? "" : "s", t->cpu);
	if (t->lost_events)
		fprintf(out, "; the trace lost %" PRIu64 " events", t->lost_events);
	fputc('\n', out);
	if (t->cause_kind[0]) {
		fprintf(out, "  cause: %s: %s", t->cause_kind, t->cause_name);
		if (t->cause_id >= 0)
			fprintf(out, " (%s %d)", !strcmp(t->cause_kind, "thread") ? "pid" :
				!strcmp(t->cause_kind, "softirq") ? "vector" : "irq", t->cause_id);
		if (t->steal_ticks >= 0)
			fprintf(out, "; steal time of CPU %d around it: +%lld tick%s", t->cpu,
				(long long)t->steal_ticks, t->steal_ticks == 1 ? "" : "s");
		fputc('\n', out);
	}
	if (t->error[0])
		fprintf(out, "  note: %s\n", t->error);
tail:
	if (t->file_saved)
		fprintf(out, "  trace window saved to %s\n", t->file);
	else if (t->file_error[0])
		fprintf(out, "  trace window not saved to %s: %s\n", t->file, t->file_error);
	fprintf(out, "  explained from: the scheduler, IRQ and timer events of rtready's own trace "
		"instance\n");
	fprintf(out, "  kernel timerlat/osnoise tracers: %s\n",
		t->timerlat_available || t->osnoise_available ?
		"present, not started by rtready (timerlat's FIFO 95 thread on each CPU would "
		"compete with the measuring threads; their events are recorded when another "
		"tool runs one; `rtla timerlat` gives timerlat's view)" :
		"not in this kernel");
	if (t->missing_events[0])
		fprintf(out, "  events this kernel lacks: %s\n", t->missing_events);
	return ferror(out) ? -EIO : 0;
}

int latency_trace_all_to_json(const struct latency_result *r, json_t *root, json_t *threads)
{
	json_t *o = json_object();

	if (!o)
		return -ENOMEM;
	json_object_set_new(o, "source", json_string("events"));
	json_object_set_new(o, "threshold_ns", json_integer((json_int_t)r->cfg.threshold_ns));
	json_object_set_new(o, "lost_events", json_integer((json_int_t)r->trace_all_lost));
	json_object_set_new(o, "note", r->trace_all_note[0] ? json_text(r->trace_all_note) :
			    json_null());
	json_object_set_new(root, "trace_all", o);
	for (size_t i = 0; threads && i < r->n_cpus && i < json_array_size(threads); i++) {
		const struct latency_cpu_result *c = &r->cpus[i];
		json_t *t = json_array_get(threads, i), *causes = json_array();

		if (!causes)
			return -ENOMEM;
		for (size_t k = 0; k < c->n_causes; k++)
			json_array_append_new(causes, noise_cause_to_json(&c->causes[k]));
		json_object_set_new(t, "over_threshold", json_integer((json_int_t)c->over_threshold));
		json_object_set_new(t, "steal_ticks", json_integer((json_int_t)c->steal_ticks));
		json_object_set_new(t, "causes", causes);
	}
	return 0;
}

int latency_trace_all_text_write(FILE *out, const struct latency_result *r, bool color)
{
	const char *bold = color ? "\033[1m" : "", *reset = color ? "\033[0m" : "";
	uint64_t total = 0;

	for (size_t i = 0; i < r->n_cpus; i++)
		total += r->cpus[i].over_threshold;
	fprintf(out, "\n%swake-ups over %.1f us, by cause%s (each one explained from the kernel "
		"trace): %" PRIu64 "\n", bold, us((int64_t)r->cfg.threshold_ns), reset, total);
	for (size_t i = 0; i < r->n_cpus; i++) {
		const struct latency_cpu_result *c = &r->cpus[i];

		if (!c->over_threshold)
			continue;
		fprintf(out, "\nCPU %d: %" PRIu64 " wake-up%s over the threshold", c->cpu,
			c->over_threshold, c->over_threshold == 1 ? "" : "s");
		if (c->steal_ticks)
			fprintf(out, ", steal time +%" PRIu64 " ticks during the run", c->steal_ticks);
		fputc('\n', out);
		noise_causes_text_write(out, c->causes, c->n_causes);
	}
	if (r->trace_all_note[0])
		fprintf(out, "  note: %s\n", r->trace_all_note);
	return ferror(out) ? -EIO : 0;
}
