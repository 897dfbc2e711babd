/* SPDX-License-Identifier: MIT */
/*
 * The results that `rtready report` renders, read back from the JSON that
 * check, latency and verify write. A result file is untrusted input (it may
 * come from another machine, or be edited by hand): the loader caps its
 * size, checks every member it uses, and turns anything unexpected into a
 * one-line message naming the file and the member, never a crash.
 *
 * A check result fills the checks; a latency result fills the idle or the
 * loaded phase (by its config's load); a verify result fills all of them and
 * carries the verdict. Renderers (src/render/html.c, junit.c, prometheus.c)
 * only display this model; the verdict is decided in verdict.c.
 */
#ifndef RTR_REPORT_RESULT_H
#define RTR_REPORT_RESULT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "core/report.h"	/* struct finding, struct summary */
#include "rtready/selfcheck.h"	/* enum rtr_status */

/* Bounds on untrusted input. */
#define RESULT_MAX_FILE_BYTES (64u << 20)
#define RESULT_MAX_CHECKS 100000u
#define RESULT_MAX_THREADS 8192u
#define RESULT_MAX_NOISE_CPUS 8192u
#define RESULT_MAX_NOISE_CAUSES 4096u	/* lines of one CPU's cause table */
#define RESULT_MAX_BUCKETS (1u << 20)
#define RESULT_MAX_THRESHOLDS 100000u
/*
 * A parsed JSON document costs far more memory than its text (jansson keeps
 * a hash table per object, a node per number): a 63 MiB file of a million
 * small objects took 5 GB. The text is counted first and refused past these,
 * which bound the parse to a few hundred MiB whatever the file holds.
 */
#define RESULT_MAX_OBJECTS 400000u
#define RESULT_MAX_VALUES (8u << 20)

enum result_phase { PHASE_IDLE, PHASE_LOAD, PHASE_COUNT };

/* "idle" or "load" (the names in JSON, Prometheus labels and test names). */
const char *result_phase_name(enum result_phase p);

/* The figures of one measuring thread (or of all of them: cpu = -1). */
struct result_thread {
	int cpu;
	uint64_t samples;
	uint64_t overflows;	/* samples past the histogram's range */
	double min_ns, avg_ns, max_ns, p50_ns, p99_ns, p999_ns;
	uint64_t bucket_ns;	/* 0: no histogram */
	uint64_t range_ns;	/* where the buckets end (0: not given) */
	uint64_t *counts;
	size_t n_counts;
	/* The largest overflowing values, exactly, largest first (at most overflows). */
	uint64_t *outliers;
	size_t n_outliers;
};

struct result_latency {
	bool present;
	char *load;		/* the load that ran ("none" when idle) */
	double interval_us;	/* 0 when not given */
	double duration_s;	/* 0 when not given */
	struct result_thread *threads;
	size_t n_threads;
	struct result_thread summary;
	bool has_summary;
};

/* The thread of @l that measured CPU @cpu, or NULL. */
const struct result_thread *result_thread_of(const struct result_latency *l, int cpu);

/* A line of a noise cause table: the gaps given one cause. */
struct result_noise_cause {
	char *kind;		/* "irq", "thread", ... (shown as given: a newer rtready may add kinds) */
	char *name;
	int64_t id;		/* irq number, softirq vector, pid; -1: none */
	uint64_t count;
	uint64_t total_ns;
	uint64_t max_ns;
};

/* One CPU of a noise run (`rtready noise`, verify --max-noise). */
struct result_noise_cpu {
	int cpu;
	uint64_t events;	/* gaps over the threshold */
	uint64_t max_ns;	/* largest gap */
	uint64_t noise_ns;	/* their sum */
	double availability_pct;
	bool has_availability;	/* availability_pct was given */
	struct result_noise_cause *causes;	/* largest total first, as written */
	size_t n_causes;
};

struct result_noise {
	bool present;
	double max_noise_us;	/* the limit (verify --max-noise), 0: none */
	uint64_t threshold_ns;	/* a gap counts past it; 0: not given */
	char *source;		/* attribution: "trace" (per event), "window", "" not given */
	struct result_noise_cpu *cpus;
	size_t n_cpus;
};

/* One latency threshold, judged: the worst value of a phase on a CPU against a limit. */
struct result_threshold {
	char *name;		/* "latency.load.cpu3.max" */
	enum result_phase phase;
	int cpu;
	double limit_ns;
	double value_ns;
	enum rtr_status status;	/* pass, fail, or skip (no samples: the verdict warns) */
};

struct result_verdict {
	bool present;
	enum rtr_status status;	/* pass, warn or fail */
	char *reason;
	double max_latency_us;	/* the limit judged against, 0: none */
	struct result_threshold *thresholds;
	size_t n_thresholds;
};

/*
 * The host facts that tell machines apart, in the order a refusal names
 * them. rt_cpus is not one: it is the CPUs a run was told to treat as
 * realtime (check --rt-cpus, latency -a), which differ between runs of one
 * host.
 */
enum result_host_fact { HOST_HOSTNAME, HOST_KERNEL, HOST_CPUS_ONLINE, HOST_ROOT, HOST_FACTS };

struct result {
	char *label;		/* what the page calls it: the file name */
	char *command;		/* "check", "latency", "verify", "inspect", "run" */
	char *version;
	char *hostname, *kernel, *cpus_online, *rt_cpus, *root;
	/* Of a merged result: the file each host fact came from (NULL: @label). */
	char *host_from[HOST_FACTS];
	bool has_checks;
	struct finding *checks;	/* the same model as a live report's findings */
	size_t n_checks;
	struct result_latency lat[PHASE_COUNT];
	struct result_verdict verdict;
	bool interrupted;	/* verify was stopped early: partial results */
	struct result_noise noise;
};

/*
 * Fill @r from the parsed result @j; @label names it in messages and
 * output. Return: 0, -EINVAL with "member: what is wrong" in @err, -ENOMEM.
 */
int result_from_json(const json_t *j, const char *label, struct result *r, char *err,
		     size_t errlen) __attribute__((warn_unused_result));

/*
 * Read and parse @path ("-" for standard input), at most
 * RESULT_MAX_FILE_BYTES, regular files or pipes only. The label is the
 * path. Return: 0, or -errno with "PATH: what is wrong" in @err.
 */
/*
 * As result_load_file(), on @len bytes of JSON text already in memory;
 * @label names the source in messages.
 */
int result_load_buffer(const char *buf, size_t len, const char *label, struct result *r,
		       char *err, size_t errlen) __attribute__((warn_unused_result));
int result_load_file(const char *path, struct result *r, char *err, size_t errlen)
	__attribute__((warn_unused_result));

void result_free(struct result *r);

/*
 * Merge the parts of @src into @dst when they complement each other: the
 * check, the idle and the loaded latency results of one host (say
 * `report check.json idle.json load.json`) make one result. Nothing is
 * merged into or from a verify result, nor a part @dst already has. Parts
 * that would complement each other but whose host facts (hostname, kernel,
 * online CPUs, root; each where both files carry it) differ are results of
 * two machines, or of a snapshot and a live system: that is refused, with
 * "A and B are results of different hosts (kernel "x" and "y")" in @err.
 * On success @src is emptied (free it as usual).
 * Return: 0, -EEXIST when they are not parts of one result, -EXDEV when
 * they would be but their hosts differ, -ENOMEM.
 */
int result_merge(struct result *dst, struct result *src, char *err, size_t errlen)
	__attribute__((warn_unused_result));

/*
 * Decide the verdict of @r into @v (replacing what was there): a failed
 * check fails; with @max_latency_us > 0, every measured CPU of every phase
 * is a threshold and one above the limit fails; a warning, a latency run
 * with a CPU that took no sample (its threshold is skipped), or a result in
 * which nothing could be judged (no checks, no limit), gives "warn". The
 * reason is one sentence.
 * Return: 0 or -ENOMEM.
 */
int result_judge(const struct result *r, double max_latency_us, struct result_verdict *v)
	__attribute__((warn_unused_result));

void result_verdict_free(struct result_verdict *v);

/*
 * What `rtready report FILE...` reads: load each of the @n files into @res
 * (room for @n), merging complementary files in a row into one result
 * (result_merge()), then judge the results that carry no verdict, and all
 * of them against @max_latency_us when it is > 0 (result_judge()).
 * Return: how many results, or -errno with why in @err (nothing is left
 * to free then).
 */
int result_load_all(const char *const *paths, size_t n, double max_latency_us, struct result *res,
		    char *err, size_t errlen) __attribute__((warn_unused_result));

/* Whether @r's verdict has a failed threshold for @cpu in phase @p. */
bool result_over_limit(const struct result *r, enum result_phase p, int cpu);

/* The exit code of results' verdicts, by status_exit_code() (1 or 0). */
int result_exit_code(const struct result *const *rs, size_t n, bool strict);

/* The verdict as JSON, the "verdict" member of verify's result. NULL on ENOMEM. */
json_t *result_verdict_to_json(const struct result_verdict *v);

#endif
