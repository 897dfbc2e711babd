// SPDX-License-Identifier: MIT
/* Output of `rtready load`; see load.h. */
#include <errno.h>

#include "render/json.h"
#include "render/load.h"
#include "util/parse.h"

void load_describe_text(FILE *out, const struct load_config *c)
{
	char size[32];

	if (c->groups)
		fprintf(out,
			"Messaging: %u groups of %u senders and %u receivers (%u %s), over %s; "
			"%llu messages of %u bytes from each sender to each receiver\n",
			c->groups, c->fds, c->fds, c->groups * c->fds * 2,
			c->threads ? "threads" : "processes", c->pipes ? "pipes" : "socket pairs",
			(unsigned long long)c->loops, c->datasize);
	if (c->cpu_hogs)
		fprintf(out, "CPU: %u hog%s\n", c->cpu_hogs, c->cpu_hogs == 1 ? "" : "s");
	if (c->memory_bytes) {
		format_size(c->memory_bytes, size, sizeof(size));
		fprintf(out, "Memory: allocate, touch and free %s per cycle\n", size);
	}
	if (c->oom) {
		format_size(c->oom_limit_bytes, size, sizeof(size));
		fprintf(out, "OOM: a child confined to %s is killed again and again\n", size);
	}
}

static double per_second(uint64_t n, int64_t ns)
{
	return ns > 0 ? (double)n * 1e9 / (double)ns : 0.0;
}

int load_text_write(FILE *out, const struct load_config *c, const struct load_stats *st,
		    bool interrupted)
{
	char size[32];

	if (c->groups) {
		/* hackbench's line, for the scripts that parse it: summed run time. */
		fprintf(out, "Time: %.3f\n", (double)st->run_ns / 1e9);
		fprintf(out, "Messages: %llu in %llu run%s (%.0f per second)\n",
			(unsigned long long)st->messages, (unsigned long long)st->runs,
			st->runs == 1 ? "" : "s", per_second(st->messages, st->run_ns));
	}
	if (c->cpu_hogs)
		fprintf(out, "CPU: %llu work units by %u hog%s\n", (unsigned long long)st->cpu_loops,
			c->cpu_hogs, c->cpu_hogs == 1 ? "" : "s");
	if (c->memory_bytes) {
		format_size(c->memory_bytes, size, sizeof(size));
		fprintf(out, "Memory: %llu cycles of %s, %llu pages touched\n",
			(unsigned long long)st->memory_cycles, size,
			(unsigned long long)st->memory_pages);
	}
	if (c->oom)
		fprintf(out, "OOM: %llu kills of %llu children\n", (unsigned long long)st->oom_kills,
			(unsigned long long)st->oom_children);
	fprintf(out, "Elapsed: %.3f s%s\n", (double)st->elapsed_ns / 1e9,
		interrupted ? " (stopped by a signal)" : "");
	return ferror(out) ? -EIO : 0;
}

static json_t *config_json(const struct load_config *c)
{
	char cpus[4096];

	rtr_cpuset_format_list(&c->cpus, cpus, sizeof(cpus));
	return json_pack("{s:I, s:I, s:I, s:I, s:s, s:s, s:I, s:I, s:I, s:b, s:I, s:I, s:i, s:s}",
			 "groups", (json_int_t)c->groups, "fds", (json_int_t)c->fds, "loops",
			 (json_int_t)c->loops, "datasize", (json_int_t)c->datasize, "ipc",
			 c->pipes ? "pipe" : "socket", "mode", c->threads ? "thread" : "process",
			 "runs", (json_int_t)c->runs, "cpu_hogs", (json_int_t)c->cpu_hogs,
			 "memory_bytes", (json_int_t)c->memory_bytes, "oom", c->oom,
			 "oom_limit_bytes", (json_int_t)c->oom_limit_bytes, "duration_ns",
			 (json_int_t)c->duration_ns, "nice", c->nice, "cpus", cpus);
}

static json_t *figures_json(const struct load_config *c, const struct load_stats *st,
			    bool interrupted)
{
	return json_pack("{s:I, s:I, s:I, s:I, s:I, s:f, s:I, s:I, s:I, s:I, s:I, s:I, s:b, s:s}",
			 "runs", (json_int_t)st->runs, "messages", (json_int_t)st->messages,
			 "messages_per_run", (json_int_t)load_messages_per_run(c), "time_ns",
			 (json_int_t)st->run_ns, "last_run_ns", (json_int_t)st->last_run_ns,
			 "messages_per_sec", per_second(st->messages, st->run_ns), "elapsed_ns",
			 (json_int_t)st->elapsed_ns, "cpu_loops", (json_int_t)st->cpu_loops,
			 "memory_cycles", (json_int_t)st->memory_cycles, "memory_pages",
			 (json_int_t)st->memory_pages, "oom_children", (json_int_t)st->oom_children,
			 "oom_kills", (json_int_t)st->oom_kills, "interrupted", interrupted,
			 "error", st->error_text);
}

json_t *load_to_json(const struct load_config *c, const struct load_stats *st, bool interrupted,
		     const struct host_info *host)
{
	json_t *j = json_envelope("load", host);

	if (!j)
		return NULL;
	json_object_set_new(j, "config", config_json(c));
	json_object_set_new(j, "figures", figures_json(c, st, interrupted));
	return j;
}

int load_write(FILE *out, const struct load_config *c, const struct load_stats *st,
	       bool interrupted, const struct host_info *host)
{
	if (host)
		return json_write_free(out, load_to_json(c, st, interrupted, host));
	return load_text_write(out, c, st, interrupted);
}
