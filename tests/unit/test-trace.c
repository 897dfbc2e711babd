// SPDX-License-Identifier: MIT
/*
 * Unit tests of --trace without a kernel: the spike analysis on hand-made
 * event lists (a higher-priority task holding the CPU, a late timer out of
 * idle, a trace that starts inside an interrupt, an empty trace, more
 * contributors than are reported), the helpers (priorities, softirq names,
 * default file), the option parsing, the renderers, and what a build
 * without libtracefs says.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "unit.h"

#include "cli/opt.h"
#include "cli/cmd_latency.h"
#include "measure/trace.h"
#include "measure/trace_config.h"
#include "render/latency.h"

#define TID 4242
#define SPIN 500

static struct trace_ev ev_switch(int64_t ts, int prev_pid, const char *prev_comm, int prev_prio,
				 int pid, const char *comm, int prio)
{
	struct trace_ev e = { .ts_ns = ts, .type = TEV_SWITCH, .pid = pid, .prio = prio,
			      .prev_pid = prev_pid, .prev_prio = prev_prio };

	snprintf(e.comm, sizeof(e.comm), "%s", comm);
	snprintf(e.prev_comm, sizeof(e.prev_comm), "%s", prev_comm);
	return e;
}

static struct trace_ev ev(int64_t ts, enum trace_ev_type type, int num, uint64_t ptr,
			  const char *name)
{
	struct trace_ev e = { .ts_ns = ts, .type = type, .num = num, .ptr = ptr };

	snprintf(e.name, sizeof(e.name), "%s", name ? name : "");
	return e;
}

static struct trace_ev ev_waking(int64_t ts, int pid, int prio)
{
	struct trace_ev e = { .ts_ns = ts, .type = TEV_WAKING, .pid = pid, .prio = prio };

	snprintf(e.comm, sizeof(e.comm), "rtr-lat/1");
	return e;
}

static uint64_t sum(const struct trace_result *r)
{
	uint64_t s = 0;

	for (size_t i = 0; i < r->n_contrib; i++)
		s += r->contrib[i].duration_ns;
	return s;
}

static const struct trace_contrib *find(const struct trace_result *r, enum trace_kind k,
					const char *name)
{
	for (size_t i = 0; i < r->n_contrib; i++)
		if (r->contrib[i].kind == k && !strcmp(r->contrib[i].name, name))
			return &r->contrib[i];
	return NULL;
}

/*
 * The spinner case: "spin" runs at a higher priority (kernel prio 9, i.e.
 * FIFO 90; it switched in as a normal task and was raised while running)
 * when the thread's timer fires in time; the thread waits until it ends.
 */
static void spinner_window(struct trace_ev *e, size_t *n, struct trace_ev *before)
{
	size_t i = 0;

	*before = ev_switch(0, 0, "swapper/1", 120, SPIN, "spin", 120);
	e[i++] = ev(1000100, TEV_VECTOR_ENTRY, 0, 0, "local_timer");
	e[i++] = ev(1000200, TEV_HRTIMER_ENTRY, 0, 0xabc, NULL);
	e[i++] = ev_waking(1000300, TID, 19);
	e[i++] = ev(1000400, TEV_HRTIMER_EXIT, 0, 0xabc, NULL);
	e[i++] = ev(1000500, TEV_VECTOR_EXIT, 0, 0, "local_timer");
	/* A device interrupt and its softirq in the middle of the spin. */
	e[i++] = ev(3000000, TEV_IRQ_ENTRY, 36, 0, "virtio1-req.0");
	e[i++] = ev(3004000, TEV_IRQ_EXIT, 36, 0, NULL);
	e[i++] = ev(3004000, TEV_SOFTIRQ_ENTRY, 4, 0, NULL);
	e[i++] = ev(3010000, TEV_SOFTIRQ_EXIT, 4, 0, NULL);
	e[i++] = ev_switch(9000000, SPIN, "spin", 9, TID, "rtr-lat/1", 19);
	*n = i;
}

/* Analyze the spinner window, the spinner switched in as @first_comm. */
static void analyze_spinner(struct trace_result *r, const char *first_comm)
{
	struct trace_ev e[16], before;
	struct trace_window w = { .cpu = 1, .tid = TID, .expected_ns = 1000000,
				  .woken_ns = 9000020 };

	memset(r, 0, sizeof(*r));
	spinner_window(e, &w.n, &before);
	before = ev_switch(0, 0, "swapper/1", 120, SPIN, first_comm, 120);
	w.ev = e;
	w.before = &before;
	trace_analyze(&w, r);
}

static void test_spinner(void **state)
{
	struct trace_result r;
	const struct trace_contrib *c;

	(void)state;
	analyze_spinner(&r, "spin");
	assert_true(r.triggered);
	assert_int_equal(r.latency_ns, 8000020);
	assert_int_equal(r.timer_ns, 1000200);
	assert_int_equal(r.waking_ns, 1000300);
	assert_int_equal(r.switch_ns, 9000000);
	assert_int_equal(r.timer_late_ns, 200);
	assert_int_equal(r.wait_ns, 9000000 - 1000300);
	assert_int_equal(r.resume_ns, 20);
	assert_int_equal(r.phase, TRACE_PHASE_WAIT);
	assert_string_equal(r.comm, "rtr-lat/1");
	assert_int_equal(trace_rt_priority(r.kernel_prio), 80);
	assert_false(r.idle_at_deadline);

	/* Every nanosecond goes somewhere, the spinner first. */
	assert_int_equal(sum(&r), r.latency_ns);
	assert_int_equal(r.explained_ns, r.latency_ns);
	c = &r.contrib[0];
	assert_int_equal(c->kind, TRACE_KIND_TASK);
	assert_string_equal(c->name, "spin");
	assert_int_equal(c->id, SPIN);
	assert_int_equal(trace_rt_priority(c->kernel_prio), 90);
	assert_int_equal(c->duration_ns, (9000000 - 1000500) - 4000 - 6000);
	assert_int_equal(c->count, 2);

	c = find(&r, TRACE_KIND_TIMER, "timer interrupt late");
	assert_non_null(c);
	assert_int_equal(c->duration_ns, 100);
	c = find(&r, TRACE_KIND_IRQ, "local_timer");
	assert_non_null(c);
	assert_int_equal(c->duration_ns, 200);
	assert_int_equal(c->id, -1);
	c = find(&r, TRACE_KIND_TIMER, "hrtimer callbacks");
	assert_non_null(c);
	assert_int_equal(c->duration_ns, 200);
	c = find(&r, TRACE_KIND_IRQ, "virtio1-req.0");
	assert_non_null(c);
	assert_int_equal(c->id, 36);
	assert_int_equal(c->duration_ns, 4000);
	c = find(&r, TRACE_KIND_SOFTIRQ, "BLOCK");
	assert_non_null(c);
	assert_int_equal(c->duration_ns, 6000);
	c = find(&r, TRACE_KIND_TASK, "rtr-lat/1");
	assert_non_null(c);
	assert_true(c->self);
	assert_int_equal(c->duration_ns, 20);
	/* Ranked. */
	for (size_t i = 1; i < r.n_contrib; i++)
		assert_true(r.contrib[i - 1].duration_ns >= r.contrib[i].duration_ns);
}

/*
 * The spinner was switched in as the shell that forked it and exec'd while
 * it ran (no switch in between): it is named by what it was when it left.
 */
static void test_exec_renames(void **state)
{
	struct trace_result r;
	const struct trace_contrib *c;

	(void)state;
	analyze_spinner(&r, "bash");
	assert_null(find(&r, TRACE_KIND_TASK, "bash"));
	c = find(&r, TRACE_KIND_TASK, "spin");
	assert_non_null(c);
	assert_int_equal(c->id, SPIN);
	assert_int_equal(c->duration_ns, (9000000 - 1000500) - 4000 - 6000);
	assert_int_equal(c->count, 2);
	assert_int_equal(sum(&r), r.latency_ns);
}

/* The CPU idles in state 2; the timer interrupt comes 500 us late. */
static void test_late_timer_from_idle(void **state)
{
	struct trace_ev e[8], before = ev_switch(0, 7, "x", 120, 0, "swapper/1", 120);
	struct trace_window w = { .cpu = 1, .tid = TID, .expected_ns = 2000000,
				  .woken_ns = 2000560 };
	struct trace_result r;
	size_t n = 0;
	const struct trace_contrib *c;

	(void)state;
	memset(&r, 0, sizeof(r));
	e[n++] = ev(1500000, TEV_IDLE, 2, 0, NULL);
	e[n++] = ev(2000490, TEV_IDLE, -1, 0, NULL);
	e[n++] = ev(2000500, TEV_HRTIMER_ENTRY, 0, 0x1, NULL);
	e[n++] = ev_waking(2000510, TID, 19);
	e[n++] = ev(2000520, TEV_HRTIMER_EXIT, 0, 0x1, NULL);
	e[n++] = ev_switch(2000540, 0, "swapper/1", 120, TID, "rtr-lat/1", 19);
	w.ev = e;
	w.n = n;
	w.before = &before;
	trace_analyze(&w, &r);
	assert_int_equal(r.phase, TRACE_PHASE_TIMER);
	assert_int_equal(r.timer_late_ns, 500);
	assert_true(r.idle_at_deadline);
	assert_int_equal(r.idle_state, 2);
	assert_int_equal(r.n_events, 5);	/* the first idle event is before the deadline */
	c = &r.contrib[0];
	assert_int_equal(c->kind, TRACE_KIND_TIMER);
	assert_string_equal(c->name, "timer interrupt late");
	assert_int_equal(c->duration_ns, 500);
	/* After the wake-up, before the switch: the idle task still had the CPU. */
	c = find(&r, TRACE_KIND_TASK, "swapper/1");
	assert_non_null(c);
	assert_int_equal(c->id, 0);
	assert_int_equal(c->duration_ns, 20);
	assert_int_equal(sum(&r), r.latency_ns);
}

/* No switch before the window, and the window begins inside an interrupt. */
static void test_starts_inside_irq(void **state)
{
	struct trace_ev e[8];
	struct trace_window w = { .cpu = 0, .tid = TID, .expected_ns = 1000, .woken_ns = 11000 };
	struct trace_result r;
	size_t n = 0;
	const struct trace_contrib *c;

	(void)state;
	memset(&r, 0, sizeof(r));
	e[n++] = ev(3000, TEV_IRQ_EXIT, 24, 0, NULL);
	e[n++] = ev_waking(4000, TID, 19);
	e[n++] = ev_switch(9000, 77, "kworker/0:1", 120, TID, "rtr-lat/0", 19);
	w.ev = e;
	w.n = n;
	trace_analyze(&w, &r);
	c = find(&r, TRACE_KIND_IRQ, "irq 24");
	assert_non_null(c);
	assert_int_equal(c->id, 24);
	assert_int_equal(c->duration_ns, 2000);
	/* Not known while it ran: named by the switch that ended it. */
	c = find(&r, TRACE_KIND_TASK, "kworker/0:1");
	assert_non_null(c);
	assert_int_equal(c->id, 77);
	assert_int_equal(c->duration_ns, 5000);
	/* The timer (no hrtimer event: the wake-up stands for it) fired 3 us late. */
	assert_int_equal(r.timer_ns, -1);
	assert_int_equal(r.timer_late_ns, 3000);
	assert_int_equal(sum(&r), r.latency_ns);
	assert_int_equal(r.explained_ns, r.latency_ns);
}

static void test_empty(void **state)
{
	struct trace_window w = { .cpu = 0, .tid = TID, .expected_ns = 1000, .woken_ns = 5000 };
	struct trace_result r;

	(void)state;
	memset(&r, 0, sizeof(r));
	trace_analyze(&w, &r);
	assert_int_equal(r.latency_ns, 4000);
	assert_int_equal(r.phase, TRACE_PHASE_UNKNOWN);
	assert_int_equal(r.timer_late_ns, -1);
	assert_int_equal(r.wait_ns, -1);
	assert_int_equal(r.n_contrib, 1);
	assert_int_equal(r.contrib[0].kind, TRACE_KIND_UNKNOWN);
	assert_int_equal(r.contrib[0].duration_ns, 4000);
	assert_int_equal(r.explained_ns, 0);
}

/* Forty tasks take turns: sixteen rows are reported, the last sums the rest. */
static void test_many_contributors(void **state)
{
	struct trace_ev e[64], before = ev_switch(0, 1, "a", 120, 100, "t100", 120);
	struct trace_window w = { .cpu = 0, .tid = TID, .expected_ns = 1000 };
	struct trace_result r;
	size_t n = 0;
	int64_t t = 1000;

	(void)state;
	memset(&r, 0, sizeof(r));
	e[n++] = ev_waking(1000, TID, 19);
	for (int i = 0; i < 40; i++) {
		char comm[16];

		t += 1000 + i;	/* distinct durations */
		snprintf(comm, sizeof(comm), "t%d", 101 + i);
		e[n++] = ev_switch(t, 100 + i, "prev", 120, 101 + i, comm, 120);
	}
	t += 500;
	e[n++] = ev_switch(t, 140, "t140", 120, TID, "rtr-lat/0", 19);
	w.ev = e;
	w.n = n;
	w.before = &before;
	w.woken_ns = t + 10;
	trace_analyze(&w, &r);
	assert_int_equal(r.n_contrib, TRACE_MAX_CONTRIB);
	assert_int_equal(r.contrib[TRACE_MAX_CONTRIB - 1].kind, TRACE_KIND_UNKNOWN);
	assert_string_equal(r.contrib[TRACE_MAX_CONTRIB - 1].name, "smaller contributors");
	assert_int_equal(sum(&r), r.latency_ns);
	assert_int_equal(r.explained_ns, r.latency_ns);
}

static void test_helpers(void **state)
{
	char buf[64];

	(void)state;
	assert_int_equal(trace_rt_priority(19), 80);
	assert_int_equal(trace_rt_priority(0), 99);
	assert_int_equal(trace_rt_priority(98), 1);
	assert_int_equal(trace_rt_priority(120), 0);
	assert_int_equal(trace_rt_priority(-1), 0);
	assert_string_equal(trace_softirq_name(0), "HI");
	assert_string_equal(trace_softirq_name(9), "RCU");
	assert_string_equal(trace_softirq_name(10), "softirq");
	assert_string_equal(trace_kind_name(TRACE_KIND_SOFTIRQ), "softirq");
	assert_string_equal(trace_phase_name(TRACE_PHASE_WAIT), "wait");
	assert_int_equal(trace_default_file(NULL, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "latency-trace.txt");
	assert_int_equal(trace_default_file("out.json", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "latency-trace.txt");
	assert_int_equal(trace_default_file("/tmp/r/out.json", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/tmp/r/latency-trace.txt");
	assert_int_equal(trace_default_file("/a/very/long/directory/name/x", buf, 20), -ENAMETOOLONG);
}

static int parse(struct latency_opts *o, char *err, size_t len, int argc, char **argv)
{
	return cli_parse_cmd(&latency_cmd, argc, argv, o, err, len);
}

static void test_options(void **state)
{
	struct latency_opts o;
	char err[512];
	char *a1[] = { "latency", "--trace" };
	char *a2[] = { "latency", "--threshold", "100", "--trace" };
	char *a3[] = { "latency", "-b", "100", "--trace-file", "/tmp/x.txt" };
	char *a4[] = { "latency", "-b", "100", "--trace-file", "" };

	(void)state;
	assert_int_equal(parse(&o, err, sizeof(err), 2, a1), -EINVAL);
	assert_non_null(strstr(err, "--threshold"));
	latency_opts_free(&o);
	assert_int_equal(parse(&o, err, sizeof(err), 4, a2), 0);
	assert_true(o.trace);
	assert_null(o.trace_file);
	latency_opts_free(&o);
	assert_int_equal(parse(&o, err, sizeof(err), 5, a3), 0);
	assert_true(o.trace);
	assert_string_equal(o.trace_file, "/tmp/x.txt");
	latency_opts_free(&o);
	assert_int_equal(parse(&o, err, sizeof(err), 5, a4), -EINVAL);
	latency_opts_free(&o);
}

static void test_render(void **state)
{
	struct trace_ev e[16], before;
	struct trace_window w = { .cpu = 1, .tid = TID, .expected_ns = 1000000,
				  .woken_ns = 9000020 };
	struct trace_result r;
	json_t *j, *c0;
	char *text = NULL;
	size_t len = 0;
	FILE *fp;

	(void)state;
	memset(&r, 0, sizeof(r));
	spinner_window(e, &w.n, &before);
	w.ev = e;
	w.before = &before;
	trace_analyze(&w, &r);
	snprintf(r.file, sizeof(r.file), "/tmp/t.txt");
	r.file_saved = true;

	j = latency_trace_to_json(&r);
	assert_non_null(j);
	assert_true(json_is_true(json_object_get(j, "triggered")));
	assert_int_equal(json_integer_value(json_object_get(j, "cpu")), 1);
	assert_int_equal(json_integer_value(json_object_get(j, "latency_ns")), 8000020);
	assert_int_equal(json_integer_value(json_object_get(j, "expected_ns")), 1000000);
	assert_int_equal(json_integer_value(json_object_get(j, "woken_ns")), 9000020);
	assert_string_equal(json_string_value(json_object_get(j, "file")), "/tmp/t.txt");
	assert_string_equal(json_string_value(json_object_get(j, "phase")), "wait");
	c0 = json_array_get(json_object_get(j, "contributors"), 0);
	assert_string_equal(json_string_value(json_object_get(c0, "kind")), "task");
	assert_string_equal(json_string_value(json_object_get(c0, "name")), "spin");
	assert_int_equal(json_integer_value(json_object_get(c0, "pid")), SPIN);
	assert_int_equal(json_integer_value(json_object_get(c0, "prio")), 90);
	assert_true(json_integer_value(json_object_get(c0, "duration_ns")) > 7000000);
	json_decref(j);

	fp = open_memstream(&text, &len);
	assert_non_null(fp);
	assert_int_equal(latency_trace_text_write(fp, &r, false), 0);
	fclose(fp);
	/* The paragraph is wrapped: read it as one line. */
	for (char *p = text, *q = text;; p++) {
		if (*p == '\n' && p[1] == ' ' && p[2] == ' ' && p[3] != ' ') {
			*q++ = ' ';
			p += 2;
			continue;
		}
		*q++ = *p;
		if (!*p)
			break;
	}
	assert_non_null(strstr(text, "task spin (pid 500, RT 90) held the CPU"));
	assert_non_null(strstr(text, "/tmp/t.txt"));
	assert_non_null(strstr(text, "RT 80"));
	free(text);

	/* No hit: a short note, valid JSON. */
	memset(&r, 0, sizeof(r));
	snprintf(r.error, sizeof(r.error), "no wake-up passed the threshold");
	j = latency_trace_to_json(&r);
	assert_true(json_is_false(json_object_get(j, "triggered")));
	assert_true(json_is_null(json_object_get(j, "file")));
	assert_null(json_object_get(j, "contributors"));
	json_decref(j);
}

/* A build without libtracefs says what is missing; with it, it says nothing of the kind. */
static void test_build_support(void **state)
{
	struct trace_session *s = (void *)1;
	struct trace_options opt = { .file = "/nonexistent-dir/x.txt" };
	char why[512] = "";
	int err;

	(void)state;
	assert_int_equal(trace_supported(), RTR_HAVE_TRACEFS);
	err = trace_session_start(&opt, &s, why, sizeof(why));
	assert_true(err < 0);
	assert_null(s);
	if (!RTR_HAVE_TRACEFS) {
		assert_int_equal(err, -ENOTSUP);
		assert_non_null(strstr(why, "libtracefs"));
	} else {
		/* The file's directory is checked before anything is touched. */
		assert_non_null(strstr(why, "/nonexistent-dir"));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spinner),
		cmocka_unit_test(test_exec_renames),
		cmocka_unit_test(test_late_timer_from_idle),
		cmocka_unit_test(test_starts_inside_irq),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_many_contributors),
		cmocka_unit_test(test_helpers),
		cmocka_unit_test(test_options),
		cmocka_unit_test(test_render),
		cmocka_unit_test(test_build_support),
	};

	return unit_run(tests, NULL, NULL);
}
