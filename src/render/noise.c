// SPDX-License-Identifier: MIT
/* Output of `rtready noise`; see noise.h. */
#include <errno.h>
#include <signal.h>
#include <string.h>

#include "render/json.h"
#include "render/noise.h"

static json_t *u64(uint64_t v)
{
	return json_integer(v > (uint64_t)INT64_MAX ? INT64_MAX : (json_int_t)v);
}

static double loops_per_s(const struct noise_cpu_result *c)
{
	return c->elapsed_ns > 0 ? (double)c->loops * 1e9 / (double)c->elapsed_ns : 0.0;
}

static const char *policy_name(enum rtr_policy p)
{
	return p == RTR_SCHED_OTHER ? "other" : p == RTR_SCHED_RR ? "rr" : "fifo";
}

static json_t *config(const struct noise_result *r)
{
	char cpus[4096];
	json_t *o = json_object();

	rtr_cpuset_format_list(&r->cfg.cpus, cpus, sizeof(cpus));
	json_object_set_new(o, "cpus", json_text(cpus));
	json_object_set_new(o, "policy", json_text(policy_name(r->cfg.policy)));
	json_object_set_new(o, "priority",
			    json_integer(r->cfg.policy == RTR_SCHED_OTHER ? 0 : r->cfg.priority));
	json_object_set_new(o, "duration_ns", u64(r->cfg.duration_ns));
	json_object_set_new(o, "threshold_ns", u64(r->cfg.threshold_ns));
	json_object_set_new(o, "mlock", json_boolean(r->cfg.mlock));
	/* What the loops read: the TSC (mapped to CLOCK_MONOTONIC) or the clock itself. */
	json_object_set_new(o, "clock", json_text(r->tsc ? "tsc" : "monotonic"));
	/* --isolate: the isolated partition the spinners (only) ran in. */
	if (r->cfg.cgroup[0])
		json_object_set_new(o, "partition", json_text(r->cfg.cgroup));
	return o;
}

static json_t *attribution(const struct noise_result *r)
{
	json_t *o = json_object();

	json_object_set_new(o, "source", json_text(noise_source_name(r->source)));
	json_object_set_new(o, "per_event", json_boolean(r->source == NOISE_SRC_TRACE));
	if (r->source_note[0])
		json_object_set_new(o, "note", json_text(r->source_note));
	json_object_set_new(o, "rt_runtime_us", json_integer(r->rt_runtime_us));
	json_object_set_new(o, "rt_period_us", json_integer(r->rt_period_us));
	json_object_set_new(o, "virtual_machine", json_boolean(r->virtual_machine));
	return o;
}

json_t *noise_cause_to_json(const struct noise_cause *c)
{
	json_t *o = json_object();

	json_object_set_new(o, "kind", json_text(noise_kind_name(c->kind)));
	json_object_set_new(o, "name", json_text(c->name));
	if (c->id >= 0)
		json_object_set_new(o, "id", json_integer(c->id));
	json_object_set_new(o, "count", u64(c->count));
	json_object_set_new(o, "total_ns", u64(c->total_ns));
	json_object_set_new(o, "max_ns", u64(c->max_ns));
	return o;
}

static json_t *histogram(const struct noise_cpu_result *c)
{
	json_t *o = json_object(), *counts = json_array();

	json_object_set_new(o, "bucket_ns", u64(NOISE_HIST_BUCKET_NS));
	json_object_set_new(o, "range_ns", u64(NOISE_HIST_BUCKET_NS * NOISE_HIST_BUCKETS));
	for (size_t b = 0; counts && b < NOISE_HIST_BUCKETS; b++)
		if (c->hist[b])
			json_array_append_new(counts, json_pack("[I, I]", (json_int_t)b,
								(json_int_t)c->hist[b]));
	json_object_set_new(o, "counts", counts);
	return o;
}

static json_t *cpu_json(const struct noise_cpu_result *c)
{
	json_t *o = json_object(), *causes = json_array(), *top = json_array();

	json_object_set_new(o, "cpu", json_integer(c->cpu));
	json_object_set_new(o, "tid", json_integer(c->tid));
	json_object_set_new(o, "loops", u64(c->loops));
	json_object_set_new(o, "loops_per_s", json_real(loops_per_s(c)));
	json_object_set_new(o, "elapsed_ns", json_integer(c->elapsed_ns));
	json_object_set_new(o, "noise_ns", u64(c->noise_ns));
	json_object_set_new(o, "availability_pct", json_real(noise_availability(c)));
	json_object_set_new(o, "events", u64(c->events));
	json_object_set_new(o, "max_ns", u64(c->max_ns));
	json_object_set_new(o, "histogram", histogram(c));
	for (size_t i = 0; causes && i < c->n_causes; i++)
		json_array_append_new(causes, noise_cause_to_json(&c->causes[i]));
	json_object_set_new(o, "causes", causes);
	for (size_t i = 0; top && i < c->n_top; i++)
		json_array_append_new(top, json_pack("{s:I, s:I, s:s, s:s}", "start_ns",
						     (json_int_t)c->top[i].start_ns, "duration_ns",
						     (json_int_t)c->top[i].duration_ns, "kind",
						     noise_kind_name(c->top[i].cause.kind), "name",
						     c->top[i].cause.name));
	json_object_set_new(o, "largest", top);
	json_object_set_new(o, "trace_events", u64(c->trace_events));
	json_object_set_new(o, "trace_lost", u64(c->trace_lost));
	json_object_set_new(o, "steal_ticks", u64(c->steal_ticks));
	if (c->smi_count >= 0)
		json_object_set_new(o, "smi_count", json_integer(c->smi_count));
	return o;
}

json_t *noise_to_json(const struct noise_result *r, const struct host_info *host)
{
	json_t *root = json_envelope("noise", host), *cpus, *stop;

	if (!root)
		return NULL;
	json_object_set_new(root, "config", config(r));
	json_object_set_new(root, "attribution", attribution(r));
	stop = json_object();
	json_object_set_new(stop, "reason", json_text(noise_stop_name(r->stop)));
	json_object_set_new(stop, "elapsed_ns", json_integer(r->elapsed_ns));
	if (r->stop == NOISE_STOP_SIGNAL)
		json_object_set_new(stop, "signal", json_text(r->stop_signal == SIGTERM ? "SIGTERM" :
							      r->stop_signal == SIGINT ? "SIGINT" :
							      "signal"));
	json_object_set_new(root, "stop", stop);
	cpus = json_array();
	for (size_t i = 0; cpus && i < r->n_cpus; i++)
		json_array_append_new(cpus, cpu_json(&r->cpus[i]));
	json_object_set_new(root, "cpus", cpus);
	return root;
}

void noise_causes_text_write(FILE *out, const struct noise_cause *causes, size_t n)
{
	if (!n)
		return;
	fprintf(out, "  %-14s %-44s %8s %12s %10s\n", "kind", "name", "count", "total us",
		"max us");
	for (size_t k = 0; k < n; k++) {
		const struct noise_cause *c = &causes[k];
		char name[64];

		if (c->kind == NOISE_THREAD && c->id >= 0)
			snprintf(name, sizeof(name), "%s/%d", c->name, c->id);
		else if (c->kind == NOISE_IRQ && c->id >= 0)
			snprintf(name, sizeof(name), "%d %s", c->id, c->name);
		else
			snprintf(name, sizeof(name), "%s", c->name);
		fprintf(out, "  %-14s %-44s %8llu %12.1f %10.1f\n", noise_kind_name(c->kind), name,
			(unsigned long long)c->count, (double)c->total_ns / 1e3,
			(double)c->max_ns / 1e3);
	}
}

int noise_text_write(FILE *out, const struct noise_result *r)
{
	char cpus[4096];

	rtr_cpuset_format_list(&r->cfg.cpus, cpus, sizeof(cpus));
	fprintf(out, "noise on CPU %s: SCHED_%s", cpus,
		r->cfg.policy == RTR_SCHED_OTHER ? "OTHER" : r->cfg.policy == RTR_SCHED_RR ? "RR" :
		"FIFO");
	if (r->cfg.policy != RTR_SCHED_OTHER)
		fprintf(out, " %d", r->cfg.priority);
	fprintf(out, ", threshold %.1f us, %.2f s (%s), loops read %s\n",
		(double)r->cfg.threshold_ns / 1e3, (double)r->elapsed_ns / 1e9,
		noise_stop_name(r->stop), r->tsc ? "the TSC" : "CLOCK_MONOTONIC");
	if (r->source == NOISE_SRC_TRACE)
		fprintf(out, "attribution: per event, from the kernel trace\n");
	else
		fprintf(out, "attribution: per 100 ms window, from /proc counters (%s)\n",
			r->source_note[0] ? r->source_note : "no trace");
	if (r->cfg.cgroup[0])
		fprintf(out, "spinners in the isolated partition %s (the main thread outside)\n",
			r->cfg.cgroup);
	if (r->cfg.policy != RTR_SCHED_OTHER && r->rt_runtime_us >= 0 && r->rt_period_us > 0 &&
	    r->rt_runtime_us < r->rt_period_us)
		fprintf(out, "RT throttling is on (%lld of %lld us): a spinning FIFO/RR thread gives "
			"up the CPU for %lld us each period (rt_throttling)\n",
			(long long)r->rt_runtime_us, (long long)r->rt_period_us,
			(long long)(r->rt_period_us - r->rt_runtime_us));
	for (size_t i = 0; i < r->n_cpus; i++) {
		const struct noise_cpu_result *c = &r->cpus[i];

		fprintf(out, "\nCPU %d: %.0f loops/s, noise %.3f ms, availability %.5f %%, "
			"%llu events, max %.1f us\n", c->cpu, loops_per_s(c),
			(double)c->noise_ns / 1e6, noise_availability(c),
			(unsigned long long)c->events, (double)c->max_ns / 1e3);
		noise_causes_text_write(out, c->causes, c->n_causes);
		/*
		 * oslat's -z layout: one line per non-empty 1 us bucket, labelled by
		 * its upper edge ("001 (us)" holds gaps under 1 us); the last one
		 * holds everything from its lower edge up.
		 */
		fprintf(out, "  histogram of the gaps between two reads:\n");
		for (size_t b = 0; b < NOISE_HIST_BUCKETS; b++) {
			if (!c->hist[b])
				continue;
			if (b == NOISE_HIST_BUCKETS - 1)
				fprintf(out, "   >%03zu (us):\t%llu\n", b, (unsigned long long)c->hist[b]);
			else
				fprintf(out, "    %03zu (us):\t%llu\n", b + 1,
					(unsigned long long)c->hist[b]);
		}
		if (c->trace_lost)
			fprintf(out, "  the trace lost %llu events on this CPU\n",
				(unsigned long long)c->trace_lost);
	}
	return ferror(out) ? -EIO : 0;
}

int noise_gaps_write(FILE *out, const struct noise_result *r)
{
	fprintf(out, "# cpu\tstart_ns\tend_ns\tduration_ns\tkind\tid\tname\n");
	for (size_t i = 0; i < r->n_cpus; i++) {
		const struct noise_cpu_result *c = &r->cpus[i];

		for (size_t g = 0; g < c->n_gaps; g++)
			fprintf(out, "%d\t%lld\t%lld\t%lld\t%s\t%d\t%s\n", c->cpu,
				(long long)c->gaps[g].start_ns, (long long)c->gaps[g].end_ns,
				(long long)(c->gaps[g].end_ns - c->gaps[g].start_ns),
				noise_kind_name(c->attr[g].kind), c->attr[g].id, c->attr[g].name);
	}
	return ferror(out) ? -EIO : 0;
}
