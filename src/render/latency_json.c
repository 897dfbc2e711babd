// SPDX-License-Identifier: MIT
/*
 * JSON of `rtready latency` (docs/CONTRACTS.md): the common envelope, "config",
 * "dma_latency", one object per measuring thread with its statistics,
 * outliers and histogram, a "summary" over all threads and "stop" (why and
 * when the run ended). Histogram counts are sparse: [index, count] pairs
 * of the non-empty buckets only, in order (bucket i holds the samples in
 * [i, i + 1) * bucket_ns); "range_ns" says where the buckets end. Until
 * schema_version 1 they were dense, every bucket up to the last non-empty.
 */
#include <signal.h>
#include <stdint.h>
#include <string.h>

#include "measure/dma_latency.h"
#include "render/json.h"
#include "render/latency.h"

static json_t *u64(uint64_t v)
{
	return json_integer(v > (uint64_t)INT64_MAX ? INT64_MAX : (json_int_t)v);
}

static void add_stats(json_t *o, const struct latency_stats *s)
{
	json_object_set_new(o, "samples", u64(s->samples));
	json_object_set_new(o, "min_ns", u64(s->min_ns));
	json_object_set_new(o, "avg_ns", u64(s->avg_ns));
	json_object_set_new(o, "max_ns", u64(s->max_ns));
	json_object_set_new(o, "p50_ns", u64(s->p50_ns));
	json_object_set_new(o, "p99_ns", u64(s->p99_ns));
	json_object_set_new(o, "p999_ns", u64(s->p999_ns));
	json_object_set_new(o, "overflows", u64(s->overflows));
	json_object_set_new(o, "missed", u64(s->missed));
}

/* DEADLINE only: the jobs that overran their runtime. */
static void add_dl_stats(json_t *o, const struct latency_config *c, const struct latency_stats *s)
{
	if (c->policy == RTR_SCHED_DEADLINE)
		json_object_set_new(o, "throttled", u64(s->throttled));
}

static json_t *outliers(const struct rtr_hist *h)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < h->n_outliers; i++)
		json_array_append_new(a, u64(h->outliers[i]));
	return a;
}

static json_t *histogram(const struct rtr_hist *h)
{
	json_t *o = json_object(), *counts = json_array();

	for (size_t i = 0; counts && i < h->nbuckets; i++) {
		if (h->counts[i])
			json_array_append_new(counts, json_pack("[I, I]", (json_int_t)i,
								(json_int_t)h->counts[i]));
	}
	json_object_set_new(o, "bucket_ns", u64(h->bucket_ns));
	json_object_set_new(o, "range_ns", u64(rtr_hist_range_ns(h)));
	json_object_set_new(o, "counts", counts);
	return o;
}

static json_t *config(const struct latency_result *r)
{
	const struct latency_config *c = &r->cfg;
	json_t *o = json_object();
	char cpus[4096];

	rtr_cpuset_format_list(&c->cpus, cpus, sizeof(cpus));
	json_object_set_new(o, "cpus", json_text(cpus));
	json_object_set_new(o, "policy", json_text(rtr_policy_name(c->policy)));
	json_object_set_new(o, "priority",
			    json_integer(c->policy == RTR_SCHED_DEADLINE ? 0 : c->priority));
	json_object_set_new(o, "interval_ns", u64(c->interval_ns));
	json_object_set_new(o, "duration_ns", u64(c->duration_ns));
	json_object_set_new(o, "bucket_ns", u64(c->bucket_ns));
	json_object_set_new(o, "hist_max_ns", u64(c->range_ns));
	json_object_set_new(o, "threshold_ns", c->threshold_ns ? u64(c->threshold_ns) : json_null());
	json_object_set_new(o, "loops", c->loops ? u64(c->loops) : json_null());
	json_object_set_new(o, "mlock", json_boolean(c->mlock));
	/* Added in schema_version 2's lifetime: absent means the old aligned grid. */
	json_object_set_new(o, "aligned", json_boolean(c->aligned));
	if (c->aligned)
		json_object_set_new(o, "align_offset_ns", u64(c->align_offset_ns));
	json_object_set_new(o, "clock", json_string("CLOCK_MONOTONIC"));
	json_object_set_new(o, "load", r->load.kind ? json_text(r->load.kind) : json_null());
	if (c->policy == RTR_SCHED_DEADLINE) {
		json_object_set_new(o, "runtime_ns", u64(c->dl_runtime_ns));
		json_object_set_new(o, "deadline_ns", u64(c->dl_deadline_ns));
		json_object_set_new(o, "period_ns", u64(c->dl_period_ns));
		json_object_set_new(o, "pinned", json_false());
	}
	return o;
}

static json_t *dma(const struct dma_latency_state *st)
{
	json_t *o = json_object();
	char text[160];

	dma_latency_describe(st, text, sizeof(text));
	json_object_set_new(o, "present", json_boolean(st->present));
	json_object_set_new(o, "current_us",
			    st->present && !st->read_err ? json_integer(st->current_us) : json_null());
	json_object_set_new(o, "held", json_boolean(st->held));
	json_object_set_new(o, "held_us", st->held ? json_integer(st->held_us) : json_null());
	json_object_set_new(o, "state", json_text(text));
	return o;
}

static const char *signame(int sig)
{
	switch (sig) {
	case SIGINT: return "SIGINT";
	case SIGTERM: return "SIGTERM";
	case SIGHUP: return "SIGHUP";
	}
	return "other";
}

static json_t *load(const struct latency_load_info *li)
{
	json_t *o = json_object();

	json_object_set_new(o, "kind", json_text(li->kind));
	json_object_set_new(o, "policy", json_string("OTHER"));
	json_object_set_new(o, "runs", u64(li->runs));
	json_object_set_new(o, "messages", u64(li->messages));
	json_object_set_new(o, "cpu_loops", u64(li->cpu_loops));
	json_object_set_new(o, "memory_cycles", u64(li->memory_cycles));
	json_object_set_new(o, "error", li->error[0] ? json_text(li->error) : json_null());
	return o;
}

static json_t *stop(const struct latency_result *r)
{
	json_t *o = json_object();

	json_object_set_new(o, "reason", json_text(latency_stop_name(r->stop)));
	json_object_set_new(o, "elapsed_ns", json_integer(r->elapsed_ns));
	if (r->stop == LATENCY_STOP_SIGNAL)
		json_object_set_new(o, "signal", json_text(signame(r->stop_signal)));
	if (r->stop == LATENCY_STOP_ERROR)
		json_object_set_new(o, "error", json_text(strerror(-r->error)));
	if (r->stop == LATENCY_STOP_THRESHOLD) {
		json_t *t = json_object();

		json_object_set_new(t, "cpu", json_integer(r->hit_cpu));
		json_object_set_new(t, "cycle", u64(r->hit_cycle));
		json_object_set_new(t, "value_ns", u64(r->hit_ns));
		json_object_set_new(o, "threshold", t);
	}
	return o;
}

json_t *latency_to_json(const struct latency_result *r, const struct host_info *host)
{
	json_t *root = json_envelope("latency", host), *threads, *sum;

	if (!root)
		return NULL;
	json_object_set_new(root, "schema_version", json_integer(RTR_JSON_SCHEMA_VERSION_LATENCY));
	json_object_set_new(root, "config", config(r));
	json_object_set_new(root, "dma_latency", dma(&r->dma));
	if (r->load.kind)
		json_object_set_new(root, "load", load(&r->load));
	threads = json_array();
	for (size_t i = 0; threads && i < r->n_cpus; i++) {
		const struct latency_cpu_result *c = &r->cpus[i];
		json_t *t = json_object();

		if (!t)
			break;
		json_object_set_new(t, "cpu", json_integer(c->cpu));
		json_object_set_new(t, "tid", json_integer(c->tid));
		add_stats(t, &c->stats);
		add_dl_stats(t, &r->cfg, &c->stats);
		if (r->cfg.policy == RTR_SCHED_DEADLINE) {
			char seen[4096];

			rtr_cpuset_format_list(&c->cpus_seen, seen, sizeof(seen));
			json_object_set_new(t, "cpus_seen", json_text(seen));
		}
		json_object_set_new(t, "outliers", outliers(&c->hist));
		json_object_set_new(t, "histogram", histogram(&c->hist));
		json_array_append_new(threads, t);
	}
	json_object_set_new(root, "threads", threads);
	sum = json_object();
	if (sum) {
		json_object_set_new(sum, "cpus", json_integer((json_int_t)r->n_cpus));
		add_stats(sum, &r->total_stats);
		add_dl_stats(sum, &r->cfg, &r->total_stats);
		json_object_set_new(sum, "outliers", outliers(&r->total));
	}
	json_object_set_new(root, "summary", sum);
	json_object_set_new(root, "stop", stop(r));
	if (r->trace)
		json_object_set_new(root, "trace", latency_trace_to_json(r->trace));
	if (r->trace_all && latency_trace_all_to_json(r, root, threads)) {
		json_decref(root);
		return NULL;
	}
	return root;
}
