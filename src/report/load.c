// SPDX-License-Identifier: MIT
/*
 * Reading result JSON back into struct result; see result.h. Every member
 * is looked up by name and checked for its type and range; members we do
 * not use are ignored (the contract only ever adds fields), but a member
 * we use with the wrong type is an error naming its path, so a damaged or
 * foreign file is refused with a clear message instead of rendering
 * nonsense.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "measure/latency.h"
#include "report/result.h"
#include "util/fileio.h"

_Static_assert(LATENCY_MAX_BUCKETS <= RESULT_MAX_BUCKETS,
	       "report must read every histogram latency can write");

const char *result_phase_name(enum result_phase p)
{
	return p == PHASE_LOAD ? "load" : "idle";
}

const struct result_thread *result_thread_of(const struct result_latency *l, int cpu)
{
	for (size_t i = 0; i < l->n_threads; i++)
		if (l->threads[i].cpu == cpu)
			return &l->threads[i];
	return NULL;
}

static int status_parse(const char *s, enum rtr_status *out)
{
	static const enum rtr_status all[] = { RTR_PASS, RTR_WARN, RTR_FAIL, RTR_INFO, RTR_SKIP };

	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		if (strcmp(s, rtr_status_name(all[i])) == 0) {
			*out = all[i];
			return 0;
		}
	}
	return -EINVAL;
}

/*
 * Loader state: where messages go, and the histogram buckets expanded so
 * far. A sparse histogram (schema_version 2) names a bucket index in a few
 * bytes, so the dense arrays it expands to are bounded for the whole file
 * (RESULT_MAX_VALUES buckets), as a dense file's are by its size.
 */
struct ld {
	char *err;
	size_t errlen;
	size_t buckets;
};

__attribute__((format(printf, 2, 3)))
static int bad(struct ld *ld, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ld->err, ld->errlen, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* A string member: copied into *out ("" when absent and not @required). */
static int get_str(struct ld *ld, const json_t *o, const char *where, const char *key,
		   bool required, char **out)
{
	const json_t *v = json_object_get(o, key);
	const char *s = "";

	if (!v || json_is_null(v)) {
		if (required)
			return bad(ld, "%s: member \"%s\" is missing", where, key);
	} else if (!json_is_string(v)) {
		return bad(ld, "%s.%s: not a string", where, key);
	} else {
		s = json_string_value(v);
	}
	*out = strdup(s);
	return *out ? 0 : -ENOMEM;
}

/* A non-negative number member (integer or real) as a double. */
static int get_num(struct ld *ld, const json_t *o, const char *where, const char *key,
		   bool required, double *out)
{
	const json_t *v = json_object_get(o, key);
	double d;

	*out = 0;
	if (!v || json_is_null(v))
		return required ? bad(ld, "%s: member \"%s\" is missing", where, key) : 0;
	if (!json_is_number(v))
		return bad(ld, "%s.%s: not a number", where, key);
	d = json_number_value(v);
	if (!isfinite(d) || d < 0 || d > 1e18)
		return bad(ld, "%s.%s: %g is out of range", where, key, d);
	*out = d;
	return 0;
}

/* A non-negative integer member. */
static int get_count(struct ld *ld, const json_t *o, const char *where, const char *key,
		     bool required, uint64_t *out)
{
	const json_t *v = json_object_get(o, key);

	*out = 0;
	if (!v || json_is_null(v))
		return required ? bad(ld, "%s: member \"%s\" is missing", where, key) : 0;
	if (!json_is_integer(v) || json_integer_value(v) < 0)
		return bad(ld, "%s.%s: not a non-negative integer", where, key);
	*out = (uint64_t)json_integer_value(v);
	return 0;
}

static int load_check(struct ld *ld, const json_t *o, const char *where, struct finding *c)
{
	char *status = NULL;
	const json_t *tid;
	int err;

	if (!json_is_object(o))
		return bad(ld, "%s: not an object", where);
	err = get_str(ld, o, where, "id", true, &c->id);
	err = err ?: get_str(ld, o, where, "area", false, &c->area);
	err = err ?: get_str(ld, o, where, "title", false, &c->title);
	err = err ?: get_str(ld, o, where, "evidence", false, &c->evidence);
	err = err ?: get_str(ld, o, where, "why", false, &c->why);
	err = err ?: get_str(ld, o, where, "fix", false, &c->fix);
	err = err ?: get_str(ld, o, where, "status", true, &status);
	if (err)
		goto out;
	if (!c->id[0]) {
		err = bad(ld, "%s.id: empty", where);
		goto out;
	}
	if (status_parse(status, &c->status)) {
		err = bad(ld, "%s.status: \"%.40s\" is not one of pass, warn, fail, info, skip",
			  where, status);
		goto out;
	}
	/* No area: take the id's prefix ("sched" of "sched.rt_throttling"). */
	if (!c->area[0]) {
		size_t n = strcspn(c->id, ".");
		char *a = strndup(c->id, n);

		if (!a) {
			err = -ENOMEM;
			goto out;
		}
		free(c->area);
		c->area = a;
	}
	tid = json_object_get(o, "tid");
	if (tid && !json_is_null(tid)) {
		if (!json_is_integer(tid) || json_integer_value(tid) < 0 ||
		    json_integer_value(tid) > 0x7fffffff) {
			err = bad(ld, "%s.tid: not a thread id", where);
			goto out;
		}
		c->tid = (long)json_integer_value(tid);
	}
out:
	free(status);
	return err;
}

static int cmp_check_key(const void *a, const void *b)
{
	const struct finding *x = *(const struct finding *const *)a;
	const struct finding *y = *(const struct finding *const *)b;
	int c = strcmp(x->id, y->id);

	return c ? c : (x->tid > y->tid) - (x->tid < y->tid);
}

/*
 * Each (id, thread) once: the outputs key series and test cases by it
 * (Prometheus refuses duplicate series). Sorting pointers keeps this
 * O(n log n) on a hostile file.
 */
static int unique_checks(struct ld *ld, const struct result *r, const char *key)
{
	const struct finding **p;
	int err = 0;

	if (r->n_checks < 2)
		return 0;
	p = calloc(r->n_checks, sizeof(*p));
	if (!p)
		return -ENOMEM;
	for (size_t i = 0; i < r->n_checks; i++)
		p[i] = &r->checks[i];
	qsort(p, r->n_checks, sizeof(*p), cmp_check_key);
	for (size_t i = 1; i < r->n_checks && !err; i++)
		if (cmp_check_key(&p[i - 1], &p[i]) == 0)
			err = bad(ld, "%s: \"%.60s\" appears twice", key, p[i]->id);
	free(p);
	return err;
}

static int load_checks(struct ld *ld, const json_t *arr, const char *key, struct result *r)
{
	char where[64];
	size_t n;
	int err;

	if (!json_is_array(arr))
		return bad(ld, "%s: not an array", key);
	n = json_array_size(arr);
	if (n > RESULT_MAX_CHECKS)
		return bad(ld, "%s: %zu entries, more than %u", key, n, RESULT_MAX_CHECKS);
	r->checks = calloc(n ? n : 1, sizeof(*r->checks));
	if (!r->checks)
		return -ENOMEM;
	r->has_checks = true;
	for (size_t i = 0; i < n; i++) {
		snprintf(where, sizeof(where), "%s[%zu]", key, i);
		r->n_checks = i + 1;
		err = load_check(ld, json_array_get(arr, i), where, &r->checks[i]);
		if (err)
			return err;
	}
	return unique_checks(ld, r, key);
}

/* Make room for @n dense buckets in @t, within the file's budget. */
static int alloc_counts(struct ld *ld, const char *where, size_t n, struct result_thread *t)
{
	if (n > RESULT_MAX_BUCKETS)
		return bad(ld, "%s.histogram.counts: %zu buckets, more than %u", where, n,
			   RESULT_MAX_BUCKETS);
	if (n > RESULT_MAX_VALUES - ld->buckets)
		return bad(ld, "%s.histogram.counts: the file's histograms span more than %u "
			   "buckets in all", where, RESULT_MAX_VALUES);
	ld->buckets += n;
	t->counts = calloc(n ? n : 1, sizeof(*t->counts));
	if (!t->counts)
		return -ENOMEM;
	t->n_counts = n;
	return 0;
}

/* schema_version 1: "counts" holds every bucket up to the last non-empty one. */
static int load_dense(struct ld *ld, const json_t *counts, const char *where,
		      struct result_thread *t)
{
	size_t n = json_array_size(counts);
	int err = alloc_counts(ld, where, n, t);

	for (size_t i = 0; !err && i < n; i++) {
		const json_t *c = json_array_get(counts, i);

		if (!json_is_integer(c) || json_integer_value(c) < 0)
			return bad(ld, "%s.histogram.counts[%zu]: not a non-negative integer",
				   where, i);
		t->counts[i] = (uint64_t)json_integer_value(c);
	}
	return err;
}

/*
 * schema_version 2: "counts" holds [index, count] pairs of the non-empty
 * buckets, indexes rising: [[18, 420], [19, 1377], [250, 1]].
 */
static int load_sparse(struct ld *ld, const json_t *counts, const char *where,
		       struct result_thread *t)
{
	size_t n = json_array_size(counts);
	json_int_t last = -1;
	int err;

	/* Check every pair first: the dense size comes from the last index. */
	for (size_t i = 0; i < n; i++) {
		const json_t *p = json_array_get(counts, i), *idx, *cnt;

		idx = json_array_get(p, 0);
		cnt = json_array_get(p, 1);
		if (!json_is_array(p) || json_array_size(p) != 2 || !json_is_integer(idx) ||
		    json_integer_value(idx) < 0 || !json_is_integer(cnt) ||
		    json_integer_value(cnt) < 0)
			return bad(ld, "%s.histogram.counts[%zu]: not a pair [bucket index, count]",
				   where, i);
		if (json_integer_value(idx) <= last)
			return bad(ld, "%s.histogram.counts[%zu]: bucket indexes must rise", where,
				   i);
		last = json_integer_value(idx);
		if (last >= (json_int_t)RESULT_MAX_BUCKETS)
			return bad(ld, "%s.histogram.counts[%zu]: bucket %lld, past %u", where, i,
				   (long long)last, RESULT_MAX_BUCKETS);
	}
	err = alloc_counts(ld, where, (size_t)(last + 1), t);
	for (size_t i = 0; !err && i < n; i++) {
		const json_t *p = json_array_get(counts, i);

		t->counts[json_integer_value(json_array_get(p, 0))] =
			(uint64_t)json_integer_value(json_array_get(p, 1));
	}
	return err;
}

static int load_histogram(struct ld *ld, const json_t *h, const char *where, int version,
			  struct result_thread *t)
{
	const json_t *counts;
	int err;

	if (!h || json_is_null(h))
		return 0;
	if (!json_is_object(h))
		return bad(ld, "%s.histogram: not an object", where);
	err = get_count(ld, h, where, "bucket_ns", true, &t->bucket_ns);
	err = err ?: get_count(ld, h, where, "range_ns", false, &t->range_ns);
	if (err)
		return err;
	if (t->bucket_ns == 0 || t->bucket_ns > 1000000000ull)
		return bad(ld, "%s.histogram.bucket_ns: must be 1 ns to 1 s", where);
	counts = json_object_get(h, "counts");
	if (!json_is_array(counts))
		return bad(ld, "%s.histogram.counts: not an array", where);
	return version >= 2 ? load_sparse(ld, counts, where, t) : load_dense(ld, counts, where, t);
}

static int cmp_desc(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x < y) - (x > y);
}

/*
 * "outliers": the exact values of the largest samples past the histogram
 * (latency keeps a few), in any order. There cannot be more than the
 * overflows; they count against the file's bucket budget.
 */
static int load_outliers(struct ld *ld, const json_t *a, const char *where,
			 struct result_thread *t)
{
	size_t n;

	if (!a || json_is_null(a))
		return 0;
	if (!json_is_array(a))
		return bad(ld, "%s.outliers: not an array", where);
	n = json_array_size(a);
	if (n > t->overflows)
		return bad(ld, "%s.outliers: %zu values, but only %llu samples overflowed", where,
			   n, (unsigned long long)t->overflows);
	if (n > RESULT_MAX_VALUES - ld->buckets)
		return bad(ld, "%s.outliers: the file holds more than %u values in all", where,
			   RESULT_MAX_VALUES);
	ld->buckets += n;
	t->outliers = calloc(n ? n : 1, sizeof(*t->outliers));
	if (!t->outliers)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const json_t *v = json_array_get(a, i);

		if (!json_is_integer(v) || json_integer_value(v) < 0)
			return bad(ld, "%s.outliers[%zu]: not a non-negative integer", where, i);
		t->outliers[i] = (uint64_t)json_integer_value(v);
	}
	t->n_outliers = n;
	qsort(t->outliers, n, sizeof(*t->outliers), cmp_desc);
	return 0;
}

static int load_thread(struct ld *ld, const json_t *o, const char *where, bool need_cpu,
		       int version, struct result_thread *t)
{
	const json_t *cpu;
	int err;

	if (!json_is_object(o))
		return bad(ld, "%s: not an object", where);
	t->cpu = -1;
	cpu = json_object_get(o, "cpu");
	if (need_cpu || (cpu && !json_is_null(cpu))) {
		if (!json_is_integer(cpu) || json_integer_value(cpu) < 0 ||
		    json_integer_value(cpu) > 65535)
			return bad(ld, "%s.cpu: not a CPU number", where);
		t->cpu = (int)json_integer_value(cpu);
	}
	err = get_count(ld, o, where, "samples", true, &t->samples);
	err = err ?: get_count(ld, o, where, "overflows", false, &t->overflows);
	err = err ?: get_num(ld, o, where, "min_ns", true, &t->min_ns);
	err = err ?: get_num(ld, o, where, "avg_ns", true, &t->avg_ns);
	err = err ?: get_num(ld, o, where, "max_ns", true, &t->max_ns);
	err = err ?: get_num(ld, o, where, "p50_ns", false, &t->p50_ns);
	err = err ?: get_num(ld, o, where, "p99_ns", false, &t->p99_ns);
	err = err ?: get_num(ld, o, where, "p999_ns", false, &t->p999_ns);
	err = err ?: load_histogram(ld, json_object_get(o, "histogram"), where, version, t);
	err = err ?: load_outliers(ld, json_object_get(o, "outliers"), where, t);
	return err;
}

static void thread_free(struct result_thread *t)
{
	free(t->counts);
	t->counts = NULL;
	t->n_counts = 0;
	free(t->outliers);
	t->outliers = NULL;
	t->n_outliers = 0;
}

/* "none", "", absent or false: the run was idle. */
static bool load_is_idle(const char *load)
{
	return !load[0] || strcmp(load, "none") == 0 || strcmp(load, "off") == 0;
}

/*
 * The layout version of a latency document: 1 when absent (files written
 * before the member existed). Version 2 made the histograms sparse.
 */
static int latency_version(struct ld *ld, const json_t *o, const char *where, int *out)
{
	const json_t *v = json_object_get(o, "schema_version");

	*out = 1;
	if (!v || json_is_null(v))
		return 0;
	if (!json_is_integer(v) || json_integer_value(v) < 1 || json_integer_value(v) > 2)
		return bad(ld, "%s.schema_version: this rtready reads latency results of "
			   "versions 1 and 2", where);
	*out = (int)json_integer_value(v);
	return 0;
}

/*
 * A latency result: {config, threads: [...], summary}. Its load comes from
 * config.load (a name; "none" or absent for an idle run).
 */
static int load_latency(struct ld *ld, const json_t *o, const char *where, int forced_phase,
			struct result *r)
{
	const json_t *cfg = json_object_get(o, "config"), *threads = json_object_get(o, "threads");
	const json_t *sum = json_object_get(o, "summary"), *loadv;
	struct result_latency *lat;
	char w[96], *load = NULL;
	enum result_phase phase;
	size_t n;
	int err = 0, version;

	if (!json_is_object(o))
		return bad(ld, "%s: not an object", where);
	err = latency_version(ld, o, where, &version);
	if (err)
		return err;
	if (cfg && !json_is_object(cfg))
		return bad(ld, "%s.config: not an object", where);
	loadv = cfg ? json_object_get(cfg, "load") : NULL;
	if (!loadv || json_is_null(loadv) || json_is_false(loadv)) {
		load = strdup("none");
	} else if (json_is_string(loadv)) {
		load = strdup(json_string_value(loadv));
	} else {
		return bad(ld, "%s.config.load: not a string", where);
	}
	if (!load)
		return -ENOMEM;
	if (forced_phase >= 0)
		phase = (enum result_phase)forced_phase;
	else
		phase = load_is_idle(load) ? PHASE_IDLE : PHASE_LOAD;
	lat = &r->lat[phase];
	if (lat->present) {
		free(load);
		return bad(ld, "%s: a second %s latency result in one file", where,
			   result_phase_name(phase));
	}
	lat->present = true;
	lat->load = load;
	if (cfg) {
		snprintf(w, sizeof(w), "%s.config", where);
		/* latency writes interval_ns and duration_ns; older writers used us and s. */
		if (json_is_number(json_object_get(cfg, "interval_ns"))) {
			err = get_num(ld, cfg, w, "interval_ns", false, &lat->interval_us);
			lat->interval_us /= 1000.0;
		} else {
			err = get_num(ld, cfg, w, "interval_us", false, &lat->interval_us);
		}
		if (!err && json_is_number(json_object_get(cfg, "duration_s")))
			err = get_num(ld, cfg, w, "duration_s", false, &lat->duration_s);
		else if (!err && json_is_number(json_object_get(cfg, "duration_ns"))) {
			err = get_num(ld, cfg, w, "duration_ns", false, &lat->duration_s);
			lat->duration_s /= 1e9;
		}
		if (err)
			return err;
	}
	if (!json_is_array(threads))
		return bad(ld, "%s.threads: missing or not an array", where);
	n = json_array_size(threads);
	if (n > RESULT_MAX_THREADS)
		return bad(ld, "%s.threads: %zu entries, more than %u", where, n,
			   RESULT_MAX_THREADS);
	lat->threads = calloc(n ? n : 1, sizeof(*lat->threads));
	if (!lat->threads)
		return -ENOMEM;
	for (size_t i = 0; i < n && !err; i++) {
		snprintf(w, sizeof(w), "%s.threads[%zu]", where, i);
		lat->n_threads = i + 1;
		err = load_thread(ld, json_array_get(threads, i), w, true, version,
				  &lat->threads[i]);
	}
	if (!err && sum && !json_is_null(sum)) {
		snprintf(w, sizeof(w), "%s.summary", where);
		err = load_thread(ld, sum, w, false, version, &lat->summary);
		lat->summary.cpu = -1;
		lat->has_summary = err == 0;
	}
	return err;
}

static int load_threshold(struct ld *ld, const json_t *o, const char *where,
			  struct result_threshold *t)
{
	char *phase = NULL, *status = NULL;
	const json_t *cpu = json_object_get(o, "cpu");
	int err;

	if (!json_is_object(o))
		return bad(ld, "%s: not an object", where);
	err = get_str(ld, o, where, "name", true, &t->name);
	err = err ?: get_str(ld, o, where, "phase", true, &phase);
	err = err ?: get_str(ld, o, where, "status", true, &status);
	err = err ?: get_num(ld, o, where, "limit_ns", true, &t->limit_ns);
	err = err ?: get_num(ld, o, where, "value_ns", true, &t->value_ns);
	if (err)
		goto out;
	if (strcmp(phase, "idle") == 0)
		t->phase = PHASE_IDLE;
	else if (strcmp(phase, "load") == 0)
		t->phase = PHASE_LOAD;
	else
		err = bad(ld, "%s.phase: \"%.20s\" is not idle or load", where, phase);
	if (!err && status_parse(status, &t->status))
		err = bad(ld, "%s.status: \"%.20s\" is not a status", where, status);
	t->cpu = -1;
	if (!err && cpu && !json_is_null(cpu)) {
		if (!json_is_integer(cpu) || json_integer_value(cpu) < 0 ||
		    json_integer_value(cpu) > 65535)
			err = bad(ld, "%s.cpu: not a CPU number", where);
		else
			t->cpu = (int)json_integer_value(cpu);
	}
out:
	free(phase);
	free(status);
	return err;
}

static int load_verdict(struct ld *ld, const json_t *o, struct result_verdict *v)
{
	const json_t *th;
	char *status = NULL, w[48];
	size_t n;
	int err;

	if (!json_is_object(o))
		return bad(ld, "verdict: not an object");
	err = get_str(ld, o, "verdict", "status", true, &status);
	err = err ?: get_str(ld, o, "verdict", "reason", false, &v->reason);
	err = err ?: get_num(ld, o, "verdict", "max_latency_us", false, &v->max_latency_us);
	if (!err && (status_parse(status, &v->status) ||
		     (v->status != RTR_PASS && v->status != RTR_WARN && v->status != RTR_FAIL)))
		err = bad(ld, "verdict.status: \"%.20s\" is not pass, warn or fail", status);
	free(status);
	if (err)
		return err;
	v->present = true;
	th = json_object_get(o, "thresholds");
	if (!th || json_is_null(th))
		return 0;
	if (!json_is_array(th))
		return bad(ld, "verdict.thresholds: not an array");
	n = json_array_size(th);
	if (n > RESULT_MAX_THRESHOLDS)
		return bad(ld, "verdict.thresholds: %zu entries, more than %u", n,
			   RESULT_MAX_THRESHOLDS);
	v->thresholds = calloc(n ? n : 1, sizeof(*v->thresholds));
	if (!v->thresholds)
		return -ENOMEM;
	for (size_t i = 0; i < n && !err; i++) {
		snprintf(w, sizeof(w), "verdict.thresholds[%zu]", i);
		v->n_thresholds = i + 1;
		err = load_threshold(ld, json_array_get(th, i), w, &v->thresholds[i]);
	}
	return err;
}

static int load_host(struct ld *ld, const json_t *h, struct result *r)
{
	int err;

	if (h && !json_is_object(h))
		return bad(ld, "host: not an object");
	err = get_str(ld, h, "host", "hostname", false, &r->hostname);
	err = err ?: get_str(ld, h, "host", "kernel", false, &r->kernel);
	err = err ?: get_str(ld, h, "host", "cpus_online", false, &r->cpus_online);
	err = err ?: get_str(ld, h, "host", "rt_cpus", false, &r->rt_cpus);
	err = err ?: get_str(ld, h, "host", "root", false, &r->root);
	return err;
}

/* One line of a CPU's cause table: {kind, name, id?, count, total_ns, max_ns}. */
static int load_noise_cause(struct ld *ld, const json_t *o, const char *where,
			    struct result_noise_cause *c)
{
	const json_t *id;
	int err;

	c->id = -1;
	if (!json_is_object(o))
		return bad(ld, "%s: not an object", where);
	err = get_str(ld, o, where, "kind", true, &c->kind) ?:
	      get_str(ld, o, where, "name", false, &c->name) ?:
	      get_count(ld, o, where, "count", true, &c->count) ?:
	      get_count(ld, o, where, "total_ns", true, &c->total_ns) ?:
	      get_count(ld, o, where, "max_ns", false, &c->max_ns);
	if (err)
		return err;
	id = json_object_get(o, "id");
	if (id && !json_is_null(id)) {
		if (!json_is_integer(id) || json_integer_value(id) < -1 ||
		    json_integer_value(id) > INT32_MAX)
			return bad(ld, "%s.id: not an IRQ, vector or pid number", where);
		c->id = json_integer_value(id);
	}
	return 0;
}

static int load_noise_causes(struct ld *ld, const json_t *arr, const char *where,
			     struct result_noise_cpu *nc)
{
	const json_t *v;
	char w[96];
	size_t i;
	int err = 0;

	if (!arr || json_is_null(arr))
		return 0;
	if (!json_is_array(arr))
		return bad(ld, "%s.causes: not an array", where);
	if (json_array_size(arr) > RESULT_MAX_NOISE_CAUSES)
		return bad(ld, "%s.causes: more than %u causes", where, RESULT_MAX_NOISE_CAUSES);
	nc->causes = calloc(json_array_size(arr) + 1, sizeof(*nc->causes));
	if (!nc->causes)
		return -ENOMEM;
	json_array_foreach(arr, i, v) {
		snprintf(w, sizeof(w), "%s.causes[%zu]", where, i);
		nc->n_causes = i + 1;
		err = load_noise_cause(ld, v, w, &nc->causes[i]);
		if (err)
			return err;
	}
	return 0;
}

/*
 * A noise document (`rtready noise`, or verify's "noise"): per CPU the
 * figures the metrics show and the cause table the page shows; the
 * threshold and the source of the attribution.
 */
static int load_noise(struct ld *ld, const json_t *j, const char *where, struct result *r)
{
	const json_t *cpus = json_object_get(j, "cpus"), *c, *att;
	char w[64];
	size_t i;
	int err = 0;

	if (!json_is_array(cpus))
		return bad(ld, "%s.cpus: not an array", where);
	if (json_array_size(cpus) > RESULT_MAX_NOISE_CPUS)
		return bad(ld, "%s.cpus: more than %u CPUs", where, RESULT_MAX_NOISE_CPUS);
	r->noise.cpus = calloc(json_array_size(cpus) + 1, sizeof(*r->noise.cpus));
	if (!r->noise.cpus)
		return -ENOMEM;
	json_array_foreach(cpus, i, c) {
		struct result_noise_cpu *nc = &r->noise.cpus[i];
		uint64_t cpu;

		if (!json_is_object(c))
			return bad(ld, "%s.cpus[%zu]: not an object", where, i);
		/* Counted first, so that result_free() frees a table half read. */
		r->noise.n_cpus++;
		snprintf(w, sizeof(w), "%s.cpus[%zu]", where, i);
		err = get_count(ld, c, w, "cpu", true, &cpu) ?:
		      get_count(ld, c, w, "events", true, &nc->events) ?:
		      get_count(ld, c, w, "max_ns", true, &nc->max_ns) ?:
		      get_count(ld, c, w, "noise_ns", false, &nc->noise_ns) ?:
		      get_num(ld, c, w, "availability_pct", false, &nc->availability_pct) ?:
		      load_noise_causes(ld, json_object_get(c, "causes"), w, nc);
		if (err)
			return err;
		if (cpu >= RTR_CPUSET_MAX_CPUS)
			return bad(ld, "%s.cpus[%zu].cpu: %llu is not a CPU number", where, i,
				   (unsigned long long)cpu);
		if (nc->availability_pct > 100)
			return bad(ld, "%s.cpus[%zu].availability_pct: above 100", where, i);
		nc->has_availability = json_object_get(c, "availability_pct") != NULL;
		nc->cpu = (int)cpu;
	}
	err = get_count(ld, json_object_get(j, "config"), "noise.config", "threshold_ns", false,
			&r->noise.threshold_ns);
	att = json_object_get(j, "attribution");
	if (!err && att && !json_is_object(att))
		err = bad(ld, "%s.attribution: not an object", where);
	err = err ?: get_str(ld, att, "noise.attribution", "source", false, &r->noise.source);
	if (err)
		return err;
	r->noise.present = true;
	return 0;
}

static int load_verify(struct ld *ld, const json_t *j, struct result *r)
{
	const json_t *chk = json_object_get(j, "check"), *v;
	static const char *const keys[PHASE_COUNT] = { "latency_idle", "latency_load" };
	int err = 0;

	if (chk && !json_is_null(chk)) {
		if (!json_is_object(chk))
			return bad(ld, "check: not an object");
		if (!json_object_get(chk, "checks"))
			return bad(ld, "check: member \"checks\" is missing");
		err = load_checks(ld, json_object_get(chk, "checks"), "check.checks", r);
	}
	for (int p = 0; p < PHASE_COUNT && !err; p++) {
		v = json_object_get(j, keys[p]);
		if (v && !json_is_null(v))
			err = load_latency(ld, v, keys[p], p, r);
	}
	v = json_object_get(j, "noise");
	if (!err && v && !json_is_null(v)) {
		err = json_is_object(v) ? load_noise(ld, v, "noise", r) :
					   bad(ld, "noise: not an object");
		if (!err)
			err = get_num(ld, json_object_get(j, "config"), "config", "max_noise_us", false,
				      &r->noise.max_noise_us);
	}
	v = json_object_get(j, "verdict");
	if (!err && v && !json_is_null(v))
		err = load_verdict(ld, v, &r->verdict);
	v = json_object_get(j, "interrupted");
	if (!err && v && !json_is_null(v) && !json_is_boolean(v))
		err = bad(ld, "interrupted: not true or false");
	r->interrupted = json_is_true(v);
	return err;
}

int result_from_json(const json_t *j, const char *label, struct result *r, char *err,
		     size_t errlen)
{
	struct ld ld = { err, errlen, 0 };
	const json_t *tool;
	int rc;

	memset(r, 0, sizeof(*r));
	r->label = strdup(label ? label : "");
	if (!r->label)
		return -ENOMEM;
	if (!json_is_object(j))
		return bad(&ld, "not a JSON object");
	tool = json_object_get(j, "tool");
	if (!json_is_string(tool) || strcmp(json_string_value(tool), "rtready") != 0)
		return bad(&ld, "not an rtready result (\"tool\" is not \"rtready\")");
	rc = get_str(&ld, j, "result", "command", true, &r->command);
	rc = rc ?: get_str(&ld, j, "result", "version", false, &r->version);
	rc = rc ?: load_host(&ld, json_object_get(j, "host"), r);
	if (rc)
		return rc;
	if (strcmp(r->command, "check") == 0)
		return load_checks(&ld, json_object_get(j, "checks"), "checks", r);
	if (strcmp(r->command, "inspect") == 0 || strcmp(r->command, "run") == 0)
		return load_checks(&ld, json_object_get(j, "findings"), "findings", r);
	if (strcmp(r->command, "latency") == 0)
		return load_latency(&ld, j, "latency", -1, r);
	if (strcmp(r->command, "verify") == 0)
		return load_verify(&ld, j, r);
	if (strcmp(r->command, "noise") == 0)
		return load_noise(&ld, j, "noise", r);
	return bad(&ld, "command \"%.40s\" has no report (check, latency, verify, noise, inspect, run)",
		   r->command);
}

/*
 * Count the objects and the array or object members of JSON text, outside
 * strings, without building anything: a cheap look before the costly parse.
 */
static void json_shape(const char *buf, size_t len, size_t *objects, size_t *values)
{
	bool in_str = false;

	*objects = *values = 0;
	for (size_t i = 0; i < len; i++) {
		char c = buf[i];

		if (in_str) {
			if (c == '\\')
				i++;
			else if (c == '"')
				in_str = false;
			continue;
		}
		if (c == '"')
			in_str = true;
		else if (c == '{')
			++*objects;
		else if (c == ',' || c == '[')
			++*values;
	}
}

int result_load_buffer(const char *buf, size_t len, const char *label, struct result *r,
		       char *err, size_t errlen)
{
	size_t objects, values;
	json_error_t je;
	char msg[200];
	json_t *j;
	int rc;

	memset(r, 0, sizeof(*r));
	if (len > RESULT_MAX_FILE_BYTES) {
		snprintf(err, errlen, "%s: larger than %u MiB, not a result file", label,
			 RESULT_MAX_FILE_BYTES >> 20);
		return -EFBIG;
	}
	json_shape(buf, len, &objects, &values);
	if (objects > RESULT_MAX_OBJECTS || values > RESULT_MAX_VALUES) {
		snprintf(err, errlen, "%s: holds %zu JSON objects and %zu values; a result has at "
			 "most %u and %u (refused before parsing, to bound memory)", label, objects,
			 values, RESULT_MAX_OBJECTS, RESULT_MAX_VALUES);
		return -EFBIG;
	}
	j = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &je);
	if (!j) {
		/* An allocation failure comes back as an error at line -1, with no text. */
		bool oom = json_error_code(&je) == json_error_out_of_memory ||
			   (je.line < 0 && !je.text[0]);

		if (oom)
			snprintf(err, errlen, "%s: out of memory while parsing the JSON", label);
		else
			snprintf(err, errlen, "%s: not valid JSON: %s (line %d, column %d)", label,
				 je.text, je.line, je.column);
		return oom ? -ENOMEM : -EINVAL;
	}
	rc = result_from_json(j, label, r, msg, sizeof(msg));
	json_decref(j);
	if (rc == -EINVAL)
		snprintf(err, errlen, "%s: %s", label, msg);
	else if (rc)
		snprintf(err, errlen, "%s: %s", label, strerror(-rc));
	return rc;
}

int result_load_file(const char *path, struct result *r, char *err, size_t errlen)
{
	bool is_stdin = strcmp(path, "-") == 0;
	char *buf = NULL;
	struct stat st;
	size_t len = 0;
	int fd, rc;

	memset(r, 0, sizeof(*r));
	/* Non-blocking open, so a FIFO without a writer cannot hang us before fstat. */
	fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		rc = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(-rc));
		return rc;
	}
	/* Files and pipes (`<(cmd)`); devices only as our own standard input. */
	if (fstat(fd, &st) < 0 || !(S_ISREG(st.st_mode) || S_ISFIFO(st.st_mode) ||
				    (is_stdin && S_ISCHR(st.st_mode)))) {
		snprintf(err, errlen, "%s: not a regular file or a pipe", path);
		rc = -EINVAL;
		goto out;
	}
	if (S_ISREG(st.st_mode) && (uint64_t)st.st_size > RESULT_MAX_FILE_BYTES) {
		snprintf(err, errlen, "%s: larger than %u MiB, not a result file", path,
			 RESULT_MAX_FILE_BYTES >> 20);
		rc = -EFBIG;
		goto out;
	}
	if (!is_stdin)
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	rc = fileio_read_all(fd, RESULT_MAX_FILE_BYTES, 0, &buf, &len);
	if (rc) {
		snprintf(err, errlen, "%s: %s", path,
			 rc == -EFBIG ? "too large for a result file" : strerror(-rc));
		goto out;
	}
	rc = result_load_buffer(buf, len, path, r, err, errlen);
out:
	free(buf);
	if (!is_stdin)
		close(fd);
	return rc;
}

static void latency_free(struct result_latency *l)
{
	for (size_t i = 0; i < l->n_threads; i++)
		thread_free(&l->threads[i]);
	free(l->threads);
	thread_free(&l->summary);
	free(l->load);
	memset(l, 0, sizeof(*l));
}

void result_verdict_free(struct result_verdict *v)
{
	if (!v)
		return;
	for (size_t i = 0; i < v->n_thresholds; i++)
		free(v->thresholds[i].name);
	free(v->thresholds);
	free(v->reason);
	memset(v, 0, sizeof(*v));
}

void result_free(struct result *r)
{
	if (!r)
		return;
	findings_free(r->checks, r->n_checks);
	for (int p = 0; p < PHASE_COUNT; p++)
		latency_free(&r->lat[p]);
	result_verdict_free(&r->verdict);
	for (size_t i = 0; i < r->noise.n_cpus; i++) {
		for (size_t k = 0; k < r->noise.cpus[i].n_causes; k++) {
			free(r->noise.cpus[i].causes[k].kind);
			free(r->noise.cpus[i].causes[k].name);
		}
		free(r->noise.cpus[i].causes);
	}
	free(r->noise.cpus);
	free(r->noise.source);
	free(r->label);
	free(r->command);
	free(r->version);
	free(r->hostname);
	free(r->kernel);
	free(r->cpus_online);
	free(r->rt_cpus);
	free(r->root);
	for (int f = 0; f < HOST_FACTS; f++)
		free(r->host_from[f]);
	memset(r, 0, sizeof(*r));
}

static const char *const host_fact_names[HOST_FACTS] = { "hostname", "kernel", "cpus_online",
							 "root" };

static char **host_fact(struct result *r, enum result_host_fact f)
{
	switch (f) {
	case HOST_HOSTNAME: return &r->hostname;
	case HOST_KERNEL: return &r->kernel;
	case HOST_CPUS_ONLINE: return &r->cpus_online;
	case HOST_ROOT: return &r->root;
	case HOST_FACTS: break;
	}
	return NULL;
}

/* The file @r's fact @f was read from. */
static const char *host_origin(const struct result *r, enum result_host_fact f)
{
	return r->host_from[f] ? r->host_from[f] : r->label;
}

/*
 * Whether @a and @b may be one host: no fact that both carry differs. If
 * not, "A and B are results of different hosts (kernel "x" and "y", ...)"
 * in @err.
 */
static bool same_host(struct result *a, struct result *b, char *err, size_t errlen)
{
	size_t used = 0;
	int n = 0;

	for (int f = 0; f < HOST_FACTS; f++) {
		const char *x = *host_fact(a, f), *y = *host_fact(b, f);
		const char *from = host_origin(a, f);

		if (!x || !y || !x[0] || !y[0] || strcmp(x, y) == 0)
			continue;
		if (!n++)
			used = (size_t)snprintf(err, errlen, "%s and %s are results of different "
						"hosts (", from, b->label);
		if (used < errlen)
			used += (size_t)snprintf(err + used, errlen - used, "%s%s \"%.80s\" and "
						 "\"%.80s\"", n > 1 ? ", " : "",
						 host_fact_names[f], x, y);
	}
	if (n && used < errlen)
		snprintf(err + used, errlen - used, "): one report of both would mix two "
			 "machines; report them separately");
	return n == 0;
}

/*
 * Take @src's fact @f when @dst has none, remembering the file it came
 * from; and name @dst's own file as the origin of what it has, before its
 * label becomes a list of files.
 */
static int take_fact(struct result *dst, struct result *src, enum result_host_fact f)
{
	char **d = host_fact(dst, f), **s = host_fact(src, f);
	char **from = &dst->host_from[f];

	if (*d && (*d)[0]) {
		if (!*from && !(*from = strdup(dst->label)))
			return -ENOMEM;
		return 0;
	}
	if (!*s || !(*s)[0])
		return 0;
	free(*from);
	*from = strdup(host_origin(src, f));
	if (!*from)
		return -ENOMEM;
	free(*d);
	*d = *s;
	*s = NULL;
	return 0;
}

/* Take @src's string when @dst's is empty. */
static void take_if_empty(char **dst, char **src)
{
	if (*dst && (*dst)[0])
		return;
	free(*dst);
	*dst = *src;
	*src = NULL;
}

static int join(char **dst, const char *sep, const char *add)
{
	char *j;

	if (asprintf(&j, "%s%s%s", *dst, sep, add) < 0)
		return -ENOMEM;
	free(*dst);
	*dst = j;
	return 0;
}

int result_merge(struct result *dst, struct result *src, char *err, size_t errlen)
{
	int rc = 0;

	if (strcmp(dst->command, "verify") == 0 || strcmp(src->command, "verify") == 0 ||
	    dst->verdict.present || src->verdict.present)
		return -EEXIST;
	if (dst->has_checks && src->has_checks)
		return -EEXIST;
	for (int p = 0; p < PHASE_COUNT; p++)
		if (dst->lat[p].present && src->lat[p].present)
			return -EEXIST;
	if (dst->noise.present && src->noise.present)
		return -EEXIST;
	if (!same_host(dst, src, err, errlen))
		return -EXDEV;
	for (int f = 0; f < HOST_FACTS && !rc; f++)
		rc = take_fact(dst, src, f);
	rc = rc ?: join(&dst->label, " + ", src->label);
	rc = rc ?: join(&dst->command, " + ", src->command);
	if (rc)
		return rc;
	if (src->has_checks) {
		dst->checks = src->checks;
		dst->n_checks = src->n_checks;
		dst->has_checks = true;
		src->checks = NULL;
		src->n_checks = 0;
		src->has_checks = false;
	}
	for (int p = 0; p < PHASE_COUNT; p++) {
		if (!src->lat[p].present)
			continue;
		dst->lat[p] = src->lat[p];
		memset(&src->lat[p], 0, sizeof(src->lat[p]));
	}
	/* A noise run beside a check or latency result of the same host (it was dropped). */
	if (src->noise.present) {
		dst->noise = src->noise;
		memset(&src->noise, 0, sizeof(src->noise));
	}
	take_if_empty(&dst->version, &src->version);
	take_if_empty(&dst->rt_cpus, &src->rt_cpus);
	return 0;
}
