// SPDX-License-Identifier: MIT
/* The causes of late wake-ups of latency --trace and --trace-all; see latency_attr.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure/latency_attr.h"
#include "measure/noise.h"
#include "measure/trace.h"
#include "probe/noisesrc.h"
#include "probe/rootfs.h"

#define ATTR_DRAIN_NS 100000000LL	/* the whole-run trace is read every 100 ms */
#define ATTR_SETTLE_NS 20000000LL	/* a wake-up is matched once 20 ms old */
#define ATTR_KEEP_NS 1000000000LL	/* events kept at least this long */
#define ATTR_LEAD_EVENTS 256		/* and this many before what a wake-up needs */
#define ATTR_TRACE_KB 4096u		/* ring buffer per CPU */
#define ATTR_MAX_EVENTS (1u << 21)	/* events of one CPU held at once */
#define ATTR_MAX_STEAL (1u << 20)	/* steal samples of one CPU held at once */

struct attr_cpu {
	int cpu;
	struct noise_cpu_log log;	/* at most ATTR_MAX_EVENTS, ATTR_MAX_STEAL */
	bool has_steal;
	uint64_t steal_first, steal_last;
	size_t done;			/* published wake-ups matched so far */
	struct noise_cause *causes;
	size_t n_causes;
};

struct latency_attr {
	bool all;
	bool rt, throttling, vm;
	struct rootfs fs;
	bool fs_open;
	char *buf;
	size_t buf_size;
	struct attr_cpu *c;
	size_t n;
	int *index;			/* CPU number -> index in c, -1 */
	int max_cpu;
	struct trace_session *ts;
	struct latency_run *run;
	int64_t next_drain;
	unsigned int drain_failures;
	bool oom;
};

static void on_event(void *ctx, int cpu, const struct trace_ev *ev, long long missed)
{
	struct latency_attr *a = ctx;
	enum trace_ev_type t = ev->type;

	if (cpu < 0 || cpu > a->max_cpu || a->index[cpu] < 0)
		return;
	noise_log_event(&a->c[a->index[cpu]].log, ev, missed,
			t == TEV_HRTIMER_ENTRY || t == TEV_HRTIMER_EXIT || t == TEV_IDLE ||
			t == TEV_WAKING || t == TEV_SWITCH || t == TEV_NMI || t == TEV_IRQ_ENTRY ||
			t == TEV_IRQ_EXIT || t == TEV_SOFTIRQ_ENTRY || t == TEV_SOFTIRQ_EXIT ||
			t == TEV_VECTOR_ENTRY || t == TEV_VECTOR_EXIT,
			ATTR_MAX_EVENTS);
}

static void sample_steal(struct latency_attr *a, int64_t t)
{
	size_t len;

	if (!a->fs_open || noisesrc_read(&a->fs, "/proc/stat", &a->buf, &a->buf_size, &len))
		return;
	for (size_t i = 0; i < a->n; i++) {
		struct attr_cpu *c = &a->c[i];
		uint64_t steal;

		if (noisesrc_parse_steal(a->buf, len, c->cpu, &steal))
			continue;
		if (!c->has_steal)
			c->steal_first = steal;
		c->has_steal = true;
		c->steal_last = steal;
		noise_log_steal(&c->log, t, steal, ATTR_MAX_STEAL);
	}
}

static struct noise_match_input input(const struct latency_attr *a, const struct attr_cpu *c,
				      pid_t tid)
{
	struct noise_match_input in = {
		.ev = c->log.ev,
		.n_ev = c->log.n_ev,
		.tid = tid,
		.rt = a->rt,
		.throttling = a->throttling,
		.steal = c->log.steal,
		.n_steal = c->log.n_steal,
		.lost = c->log.lost,
		.smi_delta = -1,
		.virtual_machine = a->vm,
	};

	return in;
}

/* Match the published wake-ups of every CPU that ended before @upto. */
static void match_ready(struct latency_attr *a, int64_t upto)
{
	for (size_t i = 0; a->run && i < a->n; i++) {
		struct attr_cpu *c = &a->c[i];
		const struct latency_hit_rec *hits;
		struct noise_match_input in;
		struct noise_gap *w;
		struct noise_attr *at;
		size_t n, k;
		pid_t tid;

		n = latency_run_hits(a->run, i, &hits, &tid);
		for (k = c->done; k < n && hits[k].woken_ns <= upto; k++)
			;
		if (k == c->done)
			continue;
		w = calloc(k - c->done, sizeof(*w));
		at = calloc(k - c->done, sizeof(*at));
		if (!w || !at) {
			a->oom = true;
			free(w);
			free(at);
			continue;
		}
		for (size_t h = c->done; h < k; h++) {
			w[h - c->done].start_ns = hits[h].expected_ns;
			w[h - c->done].end_ns = hits[h].woken_ns;
		}
		in = input(a, c, tid);
		noise_match_wakeups(&in, w, k - c->done, at);
		for (size_t h = c->done; h < k; h++)
			if (noise_causes_add(&c->causes, &c->n_causes, &at[h - c->done],
					     hits[h].late_ns))
				a->oom = true;
		c->done = k;
		free(w);
		free(at);
	}
}

/* Drop the events and steal samples that no wake-up still to come can need. */
static void prune(struct latency_attr *a, int64_t now)
{
	for (size_t i = 0; a->run && i < a->n; i++) {
		struct attr_cpu *c = &a->c[i];
		const struct latency_hit_rec *hits;
		int64_t cut = now - ATTR_KEEP_NS;
		size_t n, from, s;
		pid_t tid;

		n = latency_run_hits(a->run, i, &hits, &tid);
		if (c->done < n && hits[c->done].expected_ns < cut)
			cut = hits[c->done].expected_ns;
		from = trace_ev_first(c->log.ev, c->log.n_ev, cut);
		from = from > ATTR_LEAD_EVENTS ? from - ATTR_LEAD_EVENTS : 0;
		if (from) {
			memmove(c->log.ev, c->log.ev + from,
				(c->log.n_ev - from) * sizeof(*c->log.ev));
			c->log.n_ev -= from;
		}
		for (s = 0; s + 2 < c->log.n_steal && c->log.steal[s + 2].t_ns < cut; s++)
			;
		if (s) {
			memmove(c->log.steal, c->log.steal + s,
				(c->log.n_steal - s) * sizeof(*c->log.steal));
			c->log.n_steal -= s;
		}
	}
}

void latency_attr_poll(void *ctx, int64_t now_ns)
{
	struct latency_attr *a = ctx;

	sample_steal(a, now_ns);
	if (!a->ts || now_ns < a->next_drain)
		return;
	/* A failed read is tried again at the next poll; the final one decides. */
	if (trace_session_drain(a->ts, on_event, a))
		a->drain_failures++;
	match_ready(a, now_ns - ATTR_SETTLE_NS);
	prune(a, now_ns);
	a->next_drain = now_ns + ATTR_DRAIN_NS;
}

static void read_facts(struct latency_attr *a, const struct latency_config *cfg)
{
	int64_t runtime, period;
	size_t len;

	a->rt = cfg->policy != RTR_SCHED_OTHER;
	a->throttling = a->fs_open &&
			rootfs_read_int64(&a->fs, "/proc/sys/kernel/sched_rt_runtime_us",
					  &runtime) == 0 &&
			rootfs_read_int64(&a->fs, "/proc/sys/kernel/sched_rt_period_us",
					  &period) == 0 &&
			runtime >= 0 && runtime < period;
	a->vm = a->fs_open &&
		noisesrc_read(&a->fs, "/proc/cpuinfo", &a->buf, &a->buf_size, &len) == 0 &&
		strstr(a->buf, " hypervisor") != NULL;
}

int latency_attr_start(const struct latency_config *cfg, bool all, struct latency_attr **out,
		       char *why, size_t whylen)
{
	struct latency_attr *a = calloc(1, sizeof(*a));
	int cpu, err = 0;
	size_t i = 0;

	*out = NULL;
	if (!a)
		return -ENOMEM;
	a->all = all;
	a->n = rtr_cpuset_count(&cfg->cpus);
	a->max_cpu = -1;
	for (cpu = rtr_cpuset_next(&cfg->cpus, -1); cpu >= 0; cpu = rtr_cpuset_next(&cfg->cpus, cpu))
		a->max_cpu = cpu;
	a->c = calloc(a->n ? a->n : 1, sizeof(*a->c));
	a->index = calloc((size_t)(a->max_cpu >= 0 ? a->max_cpu + 1 : 1), sizeof(*a->index));
	if (!a->c || !a->index) {
		latency_attr_free(a);
		return -ENOMEM;
	}
	for (cpu = 0; cpu <= a->max_cpu; cpu++)
		a->index[cpu] = -1;
	/* In the order of the measuring threads (and of the result): ascending CPUs. */
	for (cpu = rtr_cpuset_next(&cfg->cpus, -1); cpu >= 0 && i < a->n;
	     cpu = rtr_cpuset_next(&cfg->cpus, cpu)) {
		a->c[i].cpu = cpu;
		a->index[cpu] = (int)i++;
	}
	/* Steal and the facts are evidence, not a need: without /proc they stay unread. */
	a->fs_open = rootfs_open(&a->fs, "/") == 0;
	read_facts(a, cfg);
	sample_steal(a, 0);
	if (all) {
		err = trace_session_start_run(&cfg->cpus, ATTR_TRACE_KB, &a->ts, why, whylen);
		if (err) {
			a->ts = NULL;
			latency_attr_free(a);
			return err;
		}
	}
	*out = a;
	return 0;
}

void latency_attr_attach(struct latency_attr *a, struct latency_run *run)
{
	a->run = run;
}

/* The cause of --trace's one hit, with the steal around it. */
static void judge_hit(struct latency_attr *a, struct trace_result *t)
{
	struct noise_match_input in;
	struct attr_cpu *c;
	struct noise_attr at;

	t->cause_id = -1;
	t->steal_ticks = -1;
	if (!t->triggered || t->cpu < 0 || t->cpu > a->max_cpu || a->index[t->cpu] < 0)
		return;
	c = &a->c[a->index[t->cpu]];
	in = input(a, c, t->tid);
	in.ev = NULL;
	in.n_ev = 0;
	in.lost = t->lost_events;
	noise_match_wakeup(&in, t, &at);
	snprintf(t->cause_kind, sizeof(t->cause_kind), "%s", noise_kind_name(at.kind));
	snprintf(t->cause_name, sizeof(t->cause_name), "%s", at.name);
	t->cause_id = at.id;
	if (c->log.n_steal >= 2)
		t->steal_ticks = (int64_t)noise_steal_delta(&in, t->expected_ns, t->woken_ns);
}

static bool steal_moved(const struct latency_attr *a)
{
	for (size_t i = 0; i < a->n; i++)
		if (a->c[i].has_steal && a->c[i].steal_last != a->c[i].steal_first)
			return true;
	return false;
}

int latency_attr_finish(struct latency_attr *a, struct latency_result *res)
{
	uint64_t lost = 0;
	size_t len;

	if (!a->all) {
		if (res->trace)
			judge_hit(a, res->trace);
		return 0;
	}
	if (a->ts) {
		trace_session_stop(a->ts);
		if (trace_session_drain(a->ts, on_event, a))
			snprintf(res->trace_all_note, sizeof(res->trace_all_note),
				 "the kernel trace could not be read at the end: the last wake-ups "
				 "may be unknown");
	}
	match_ready(a, INT64_MAX);
	res->trace_all = true;
	for (size_t i = 0; i < a->n && i < res->n_cpus; i++) {
		struct attr_cpu *c = &a->c[i];
		struct latency_cpu_result *r = &res->cpus[i];

		if (r->over_threshold > c->done) {
			/* Counted, not kept: one line so that the causes add up. */
			struct noise_attr u = { NOISE_UNKNOWN, -1, "not kept (store full)" };

			if (noise_causes_add(&c->causes, &c->n_causes, &u, 0))
				return -ENOMEM;
			c->causes[c->n_causes - 1].count = r->over_threshold - c->done;
		}
		noise_causes_sort(c->causes, c->n_causes);
		r->causes = c->causes;
		r->n_causes = c->n_causes;
		c->causes = NULL;
		r->steal_ticks = c->has_steal ? c->steal_last - c->steal_first : 0;
		lost += c->log.lost;
	}
	res->trace_all_lost = lost;
	len = strlen(res->trace_all_note);
	if (lost && !len)
		snprintf(res->trace_all_note, sizeof(res->trace_all_note),
			 "the trace lost %llu events: a wake-up among them may be unknown",
			 (unsigned long long)lost);
	else if (a->vm && !len && !steal_moved(a))
		/* Without steal a stalled vCPU cannot be told from a VM exit: say why. */
		snprintf(res->trace_all_note, sizeof(res->trace_all_note),
			 "a virtual machine whose steal time did not move during the run (the host "
			 "may not report it): vCPU stalls show as hardware, not hypervisor");
	return a->oom ? -ENOMEM : 0;
}

void latency_attr_free(struct latency_attr *a)
{
	if (!a)
		return;
	trace_session_free(a->ts);
	for (size_t i = 0; a->c && i < a->n; i++) {
		noise_log_free(&a->c[i].log);
		free(a->c[i].causes);
	}
	free(a->c);
	free(a->index);
	free(a->buf);
	if (a->fs_open)
		rootfs_close(&a->fs);
	free(a);
}
