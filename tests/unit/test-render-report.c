// SPDX-License-Identifier: MIT
/*
 * The report pipeline without the binary: loading results from JSON
 * (shape, defaults, refusals with the member named), the verdict, merging
 * complementary results, and the three renderers (HTML structure and
 * escaping, JUnit counts, Prometheus line syntax and family order), plus
 * the `report` option parser.
 */
#include <errno.h>
#include <fcntl.h>
#include <regex.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "unit.h"
#include <jansson.h>

#include "cli/opt.h"
#include "cli/cmd_report.h"
#include "render/exceed.h"
#include "render/html.h"
#include "render/junit.h"
#include "render/prometheus.h"
#include "report/result.h"

static const char check_json[] =
	"{\"tool\":\"rtready\",\"version\":\"0.1.0\",\"command\":\"check\","
	"\"host\":{\"hostname\":\"rig\",\"kernel\":\"6.12\",\"cpus_online\":\"0-1\","
	"\"rt_cpus\":\"1\",\"root\":\"/\"},"
	"\"checks\":["
	"{\"id\":\"sched.rt_throttling\",\"area\":\"sched\",\"status\":\"warn\",\"title\":\"T\","
	"\"evidence\":\"950000\",\"why\":\"w\",\"fix\":\"sysctl -w x=-1\"},"
	"{\"id\":\"irq.affinity\",\"status\":\"fail\",\"title\":\"<IRQ>\","
	"\"evidence\":\"IRQ 24 & 31\",\"why\":\"w\",\"fix\":\"echo 0 > f\"},"
	"{\"id\":\"mem.swap\",\"area\":\"mem\",\"status\":\"pass\",\"title\":\"S\"}],"
	"\"summary\":{}}";

/* A latency result of CPUs 0 and 1; @load names the load ("none": idle). */
static char *latency_json(const char *load, int max0_us, int max1_us)
{
	char *s;

	assert_true(asprintf(&s,
		"{\"tool\":\"rtready\",\"version\":\"0.1.0\",\"command\":\"latency\","
		"\"host\":{\"hostname\":\"rig\"},"
		"\"config\":{\"interval_ns\":1000000,\"duration_ns\":2000000000,\"load\":\"%s\"},"
		"\"threads\":["
		"{\"cpu\":0,\"samples\":100,\"min_ns\":1000,\"avg_ns\":2000.5,\"max_ns\":%d,"
		"\"p50_ns\":2000,\"p99_ns\":5000,\"p999_ns\":6000,\"overflows\":0,"
		"\"histogram\":{\"bucket_ns\":1000,\"counts\":[0,10,80,9,1]}},"
		"{\"cpu\":1,\"samples\":100,\"min_ns\":1000,\"avg_ns\":2000,\"max_ns\":%d,"
		"\"p50_ns\":2000,\"p99_ns\":5000,\"p999_ns\":6000,\"overflows\":2,"
		"\"histogram\":{\"bucket_ns\":1000,\"counts\":[0,10,80,8]}}],"
		"\"summary\":{\"cpus\":2,\"samples\":200,\"min_ns\":1000,\"avg_ns\":2000,"
		"\"max_ns\":%d,\"p50_ns\":2000,\"p99_ns\":5000,\"p999_ns\":6000}}",
		load, max0_us * 1000, max1_us * 1000,
		(max0_us > max1_us ? max0_us : max1_us) * 1000) > 0);
	return s;
}

static int from_text(const char *text, struct result *r, char *err, size_t errlen)
{
	json_error_t je;
	json_t *j = json_loads(text, 0, &je);
	int rc;

	assert_non_null(j);
	rc = result_from_json(j, "t.json", r, err, errlen);
	json_decref(j);
	return rc;
}

static void load_ok(const char *text, struct result *r)
{
	char err[256] = "";
	int rc = from_text(text, r, err, sizeof(err));

	if (rc)
		fail_msg("load failed: %s", err);
}

static void expect_refused(const char *text, const char *msg_part)
{
	struct result r;
	char err[256] = "";

	assert_int_equal(from_text(text, &r, err, sizeof(err)), -EINVAL);
	if (!strstr(err, msg_part))
		fail_msg("message '%s' lacks '%s'", err, msg_part);
	result_free(&r);
}

static char *render(int (*fn)(FILE *, const struct result *const *, size_t),
		    const struct result *const *rs, size_t n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(fn(f, rs, n), 0);
	fclose(f);
	return buf;
}

/* Whether @needle occurs in @hay before @end (not inlined, as count()). */
__attribute__((noinline)) static bool head_has(const char *hay, const char *end,
					       const char *needle)
{
	const char *e = strstr(hay, end), *p = strstr(hay, needle);

	return p && (!e || p < e);
}

/* Not inlined: GCC's dangling-pointer analysis misreads the strstr loop after free(). */
__attribute__((noinline)) static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

static void test_load_check(void **state)
{
	struct result r;

	(void)state;
	load_ok(check_json, &r);
	assert_string_equal(r.command, "check");
	assert_string_equal(r.hostname, "rig");
	assert_true(r.has_checks);
	assert_int_equal(r.n_checks, 3);
	assert_int_equal(r.checks[1].status, RTR_FAIL);
	/* No "area": taken from the id's prefix. */
	assert_string_equal(r.checks[1].area, "irq");
	assert_string_equal(r.checks[2].fix, "");
	assert_false(r.lat[PHASE_IDLE].present);
	result_free(&r);
	result_free(&r);	/* idempotent */
}

static void test_load_latency(void **state)
{
	struct result r;
	char *idle = latency_json("none", 5, 4), *load = latency_json("all", 30, 12);

	(void)state;
	load_ok(idle, &r);
	assert_true(r.lat[PHASE_IDLE].present);
	assert_false(r.lat[PHASE_LOAD].present);
	assert_int_equal(r.lat[PHASE_IDLE].n_threads, 2);
	assert_true(r.lat[PHASE_IDLE].threads[0].avg_ns > 2000.4);
	assert_int_equal(r.lat[PHASE_IDLE].threads[0].n_counts, 5);
	assert_int_equal(r.lat[PHASE_IDLE].threads[1].overflows, 2);
	assert_true(r.lat[PHASE_IDLE].has_summary);
	assert_int_equal(r.lat[PHASE_IDLE].summary.cpu, -1);
	assert_true(r.lat[PHASE_IDLE].interval_us > 999 && r.lat[PHASE_IDLE].interval_us < 1001);
	assert_true(r.lat[PHASE_IDLE].duration_s > 1.9 && r.lat[PHASE_IDLE].duration_s < 2.1);
	result_free(&r);
	load_ok(load, &r);
	assert_false(r.lat[PHASE_IDLE].present);
	assert_true(r.lat[PHASE_LOAD].present);
	assert_string_equal(r.lat[PHASE_LOAD].load, "all");
	result_free(&r);
	free(idle);
	free(load);
}

/* One thread with histogram @counts in a latency document of @version (0: none). */
static char *hist_doc(int version, const char *counts)
{
	char *s, ver[32] = "";

	if (version)
		snprintf(ver, sizeof(ver), "\"schema_version\":%d,", version);
	assert_true(asprintf(&s,
		"{\"tool\":\"rtready\",\"command\":\"latency\",%s\"threads\":[{\"cpu\":0,"
		"\"samples\":100,\"min_ns\":1000,\"avg_ns\":2000,\"max_ns\":9000,"
		"\"histogram\":{\"bucket_ns\":1000,\"counts\":%s}}]}", ver, counts) > 0);
	return s;
}

/*
 * Histograms as each schema_version writes them: dense in 1 (and before the
 * member existed), sparse [index, count] pairs in 2; both expand to the same
 * buckets. Damaged pairs are refused by path.
 */
static void test_histogram_versions(void **state)
{
	static const uint64_t want[] = { 0, 10, 80, 0, 0, 0, 0, 0, 9, 1 };
	const char *dense = "[0,10,80,0,0,0,0,0,9,1]", *sparse = "[[1,10],[2,80],[8,9],[9,1]]";
	const struct { int version; const char *counts; } ok[] = {
		{ 0, dense }, { 1, dense }, { 2, sparse },
	};
	static const struct { const char *counts, *msg; } bad[] = {
		{ "[[2,80],[1,10]]", "counts[1]: bucket indexes must rise" },
		{ "[[1,10],[1,3]]", "counts[1]: bucket indexes must rise" },
		{ "[[1,10],[2]]", "counts[1]: not a pair" },
		{ "[[1,10,3]]", "counts[0]: not a pair" },
		{ "[[-1,10]]", "counts[0]: not a pair" },
		{ "[[1,-10]]", "counts[0]: not a pair" },
		{ "[3]", "counts[0]: not a pair" },
		{ "[[1048576,1]]", "counts[0]: bucket 1048576, past" },
	};
	struct result r;
	char *doc;

	(void)state;
	for (size_t k = 0; k < sizeof(ok) / sizeof(ok[0]); k++) {
		doc = hist_doc(ok[k].version, ok[k].counts);
		load_ok(doc, &r);
		assert_int_equal(r.lat[PHASE_IDLE].threads[0].n_counts, 10);
		assert_memory_equal(r.lat[PHASE_IDLE].threads[0].counts, want, sizeof(want));
		result_free(&r);
		free(doc);
	}
	/* An empty sparse histogram is no bucket at all. */
	doc = hist_doc(2, "[]");
	load_ok(doc, &r);
	assert_int_equal(r.lat[PHASE_IDLE].threads[0].n_counts, 0);
	result_free(&r);
	free(doc);
	for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		doc = hist_doc(2, bad[k].counts);
		expect_refused(doc, bad[k].msg);
		free(doc);
	}
	/* A dense list read as version 2, and pairs read as version 1, are refused. */
	doc = hist_doc(2, dense);
	expect_refused(doc, "not a pair");
	free(doc);
	doc = hist_doc(1, sparse);
	expect_refused(doc, "counts[0]: not a non-negative integer");
	free(doc);
	doc = hist_doc(3, sparse);
	expect_refused(doc, "versions 1 and 2");
	free(doc);
}

/*
 * A few bytes name a bucket near the top: 16 threads at bucket 1048575 would
 * expand to 16M buckets (128 MiB); the file's budget refuses it instead.
 */
static void test_sparse_budget(void **state)
{
	char *doc, *p;
	size_t cap = 8192, n;

	(void)state;
	doc = malloc(cap);
	assert_non_null(doc);
	n = (size_t)snprintf(doc, cap, "{\"tool\":\"rtready\",\"command\":\"latency\","
			     "\"schema_version\":2,\"threads\":[");
	for (int i = 0; i < 16; i++)
		n += (size_t)snprintf(doc + n, cap - n, "%s{\"cpu\":%d,\"samples\":1,\"min_ns\":1,"
				      "\"avg_ns\":1,\"max_ns\":1,\"histogram\":{\"bucket_ns\":1,"
				      "\"counts\":[[1048575,1]]}}", i ? "," : "", i);
	snprintf(doc + n, cap - n, "]}");
	p = doc;
	expect_refused(p, "buckets in all");
	free(doc);
}

static void test_refusals(void **state)
{
	(void)state;
	expect_refused("[]", "not a JSON object");
	expect_refused("{\"tool\":\"cyclictest\"}", "not an rtready result");
	expect_refused("{\"tool\":\"rtready\"}", "\"command\" is missing");
	expect_refused("{\"tool\":\"rtready\",\"command\":\"dance\"}", "has no report");
	expect_refused("{\"tool\":\"rtready\",\"command\":\"check\"}", "checks: not an array");
	expect_refused("{\"tool\":\"rtready\",\"command\":\"check\",\"checks\":[{\"id\":\"a\","
		       "\"status\":\"bad\"}]}", "checks[0].status");
	expect_refused("{\"tool\":\"rtready\",\"command\":\"check\",\"checks\":[{\"id\":\"\","
		       "\"status\":\"pass\"}]}", "checks[0].id: empty");
	expect_refused("{\"tool\":\"rtready\",\"command\":\"check\",\"checks\":[{\"id\":5,"
		       "\"status\":\"pass\"}]}", "checks[0].id: not a string");
	expect_refused("{\"tool\":\"rtready\",\"command\":\"check\",\"checks\":[{\"id\":\"a\","
		       "\"status\":\"pass\"},{\"id\":\"b\",\"status\":\"pass\"},{\"id\":\"a\","
		       "\"status\":\"fail\"}]}", "\"a\" appears twice");
	expect_refused("{\"tool\":\"rtready\",\"command\":\"check\",\"host\":[],\"checks\":[]}",
		       "host: not an object");
	expect_refused("{\"tool\":\"rtready\",\"command\":\"latency\",\"threads\":[{\"cpu\":-1,"
		       "\"samples\":1,\"min_ns\":1,\"avg_ns\":1,\"max_ns\":1}]}",
		       "threads[0].cpu");
	expect_refused("{\"tool\":\"rtready\",\"command\":\"latency\",\"threads\":[{\"cpu\":0,"
		       "\"samples\":1,\"min_ns\":-1,\"avg_ns\":1,\"max_ns\":1}]}",
		       "threads[0].min_ns");
	expect_refused("{\"tool\":\"rtready\",\"command\":\"latency\",\"threads\":[{\"cpu\":0,"
		       "\"samples\":1,\"min_ns\":1,\"avg_ns\":1,\"max_ns\":1,"
		       "\"histogram\":{\"bucket_ns\":1000,\"counts\":[1,\"x\"]}}]}",
		       "counts[1]");
	expect_refused("{\"tool\":\"rtready\",\"command\":\"verify\",\"verdict\":{\"status\":"
		       "\"skip\"}}", "verdict.status");
	expect_refused("{\"tool\":\"rtready\",\"command\":\"verify\",\"check\":{}}",
		       "\"checks\" is missing");
}

static void test_load_file_errors(void **state)
{
	char err[256], path[] = "/tmp/rtr-test-report-XXXXXX";
	struct result r;
	int fd;

	(void)state;
	assert_int_equal(result_load_file("/nonexistent/x.json", &r, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "/nonexistent/x.json"));
	result_free(&r);
	assert_int_equal(result_load_file("/tmp", &r, err, sizeof(err)), -EINVAL);
	result_free(&r);
	/* A sparse file past the cap is refused without reading it. */
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, (off_t)RESULT_MAX_FILE_BYTES + 1), 0);
	close(fd);
	assert_int_equal(result_load_file(path, &r, err, sizeof(err)), -EFBIG);
	result_free(&r);
	/* Truncated JSON names line and column. */
	fd = open(path, O_WRONLY | O_TRUNC);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "{\"tool\":", 8), 8);
	close(fd);
	assert_int_equal(result_load_file(path, &r, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "not valid JSON"));
	assert_non_null(strstr(err, "line 1"));
	result_free(&r);
	unlink(path);
}

static void test_verdict(void **state)
{
	struct result chk, lat;
	struct result_verdict v = { 0 };
	char *load = latency_json("all", 30, 120);
	json_t *j;

	(void)state;
	load_ok(check_json, &chk);
	assert_int_equal(result_judge(&chk, 0, &v), 0);
	assert_int_equal(v.status, RTR_FAIL);
	assert_non_null(strstr(v.reason, "1 check failed (irq.affinity)"));
	assert_int_equal(v.n_thresholds, 0);

	load_ok(load, &lat);
	/* Latency alone, no limit: nothing judged, so a warning, and the reason says so. */
	assert_int_equal(result_judge(&lat, 0, &v), 0);
	assert_int_equal(v.status, RTR_WARN);
	assert_non_null(strstr(v.reason, "not judged"));
	/* With a limit: a threshold per CPU; CPU 1 (120 us) fails a 100 us limit. */
	assert_int_equal(result_judge(&lat, 100, &v), 0);
	assert_int_equal(v.status, RTR_FAIL);
	assert_int_equal(v.n_thresholds, 2);
	assert_string_equal(v.thresholds[0].name, "latency.load.cpu0.max");
	assert_int_equal(v.thresholds[0].status, RTR_PASS);
	assert_int_equal(v.thresholds[1].status, RTR_FAIL);
	assert_non_null(strstr(v.reason, "loaded max 120.0 us on CPU 1 exceeds the 100 us limit"));
	assert_int_equal(result_judge(&lat, 200, &v), 0);
	assert_int_equal(v.status, RTR_PASS);
	assert_non_null(strstr(v.reason, "within the 200 us limit"));

	/* The verdict survives a round trip through JSON. */
	j = json_pack("{s:s, s:s, s:o}", "tool", "rtready", "command", "verify", "verdict",
		      result_verdict_to_json(&v));
	assert_non_null(j);
	result_verdict_free(&v);
	{
		struct result back;
		char err[256];

		assert_int_equal(result_from_json(j, "v", &back, err, sizeof(err)), 0);
		assert_true(back.verdict.present);
		assert_int_equal(back.verdict.status, RTR_PASS);
		assert_int_equal(back.verdict.n_thresholds, 2);
		assert_true(back.verdict.max_latency_us > 199 && back.verdict.max_latency_us < 201);
		result_free(&back);
	}
	json_decref(j);
	result_free(&chk);
	result_free(&lat);
	free(load);
}

/* Merge that must not be refused for the host: the message, if any, fails the test. */
static int merge(struct result *dst, struct result *src)
{
	char err[512] = "";
	int rc = result_merge(dst, src, err, sizeof(err));

	if (rc == -EXDEV)
		fail_msg("refused: %s", err);
	return rc;
}

static void test_merge(void **state)
{
	struct result a, b, c, d;
	char *idle = latency_json("none", 5, 4), *load = latency_json("all", 30, 12);
	char *idle2 = latency_json("none", 6, 6);

	(void)state;
	load_ok(check_json, &a);
	load_ok(idle, &b);
	load_ok(load, &c);
	load_ok(idle2, &d);
	assert_int_equal(merge(&a, &b), 0);
	assert_int_equal(merge(&a, &c), 0);
	assert_true(a.has_checks && a.lat[PHASE_IDLE].present && a.lat[PHASE_LOAD].present);
	assert_string_equal(a.label, "t.json + t.json + t.json");
	/* A second idle run does not merge: it is another result (side by side). */
	assert_int_equal(merge(&a, &d), -EEXIST);
	result_free(&b);
	result_free(&c);
	/* Parts of different hosts are refused, the file and the fact named. */
	free(d.hostname);
	d.hostname = strdup("other");
	load_ok(check_json, &b);
	{
		char err[512] = "";

		assert_int_equal(result_merge(&d, &b, err, sizeof(err)), -EXDEV);
		assert_non_null(strstr(err, "hostname \"other\" and \"rig\""));
		/* Nothing was taken from @b. */
		assert_true(b.has_checks && !d.has_checks);
	}
	result_free(&a);
	result_free(&b);
	result_free(&d);
	free(idle);
	free(load);
	free(idle2);
}

/* Write @text to a new temporary file; its name into @path (a mkstemp template). */
static void temp_file(char *path, const char *text)
{
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

/* What `rtready report A B C...` reads: merged in a row, judged, refused whole. */
static void test_load_all(void **state)
{
	char pc[] = "/tmp/rtr-all-c-XXXXXX", pi[] = "/tmp/rtr-all-i-XXXXXX";
	char pl[] = "/tmp/rtr-all-l-XXXXXX", pi2[] = "/tmp/rtr-all-j-XXXXXX";
	char *idle = latency_json("none", 5, 4), *load = latency_json("all", 30, 12);
	char *idle2 = latency_json("none", 6, 6), err[1536] = "";
	struct result res[4];

	(void)state;
	temp_file(pc, check_json);
	temp_file(pi, idle);
	temp_file(pl, load);
	temp_file(pi2, idle2);
	{
		const char *const in[] = { pc, pi, pl, pi2 };

		/* check + idle + load of one host make one result; a second idle run another. */
		assert_int_equal(result_load_all(in, 4, 0, res, err, sizeof(err)), 2);
		assert_true(res[0].has_checks && res[0].lat[PHASE_IDLE].present &&
			    res[0].lat[PHASE_LOAD].present);
		assert_true(res[0].verdict.present && res[1].verdict.present);
		/* A limit judges every result against it, per measured CPU. */
		result_free(&res[0]);
		result_free(&res[1]);
		assert_int_equal(result_load_all(in + 1, 3, 20, res, err, sizeof(err)), 2);
		assert_true(res[0].verdict.max_latency_us == 20 && res[0].verdict.n_thresholds > 0);
		assert_true(res[1].verdict.max_latency_us == 20 && res[1].verdict.n_thresholds > 0);
		result_free(&res[0]);
		result_free(&res[1]);
	}
	{
		const char *const in[] = { pc, "/nonexistent/r.json", pi };

		/* One bad file refuses the whole run, named, with nothing left to free. */
		assert_int_equal(result_load_all(in, 3, 0, res, err, sizeof(err)), -ENOENT);
		assert_non_null(strstr(err, "/nonexistent/r.json"));
	}
	unlink(pc);
	unlink(pi);
	unlink(pl);
	unlink(pi2);
	free(idle);
	free(load);
	free(idle2);
}

static void judged(struct result *r, double limit)
{
	assert_int_equal(result_judge(r, limit, &r->verdict), 0);
}

static void test_html(void **state)
{
	struct result a, b;
	const struct result *rs[2] = { &a, &b };
	char *idle = latency_json("none", 5, 4), *load = latency_json("all", 30, 12), *html;

	(void)state;
	load_ok(check_json, &a);
	load_ok(idle, &b);
	assert_int_equal(merge(&a, &b), 0);
	result_free(&b);
	load_ok(load, &b);
	assert_int_equal(merge(&a, &b), 0);
	result_free(&b);
	judged(&a, 20);
	html = render(html_write, rs, 1);
	assert_non_null(strstr(html, "<!DOCTYPE html>"));
	assert_non_null(strstr(html, "Content-Security-Policy"));
	/* One inline script (sorting the CPU table), allowed by its hash alone. */
	assert_int_equal(count(html, "<script"), 1);
	assert_non_null(strstr(html, "script-src 'sha256-"));
	assert_null(strstr(html, "unsafe-eval"));
	/* Nothing fetched: no src= at all, no link to another site. */
	assert_null(strstr(html, "src="));
	assert_null(strstr(html, "href=\"http"));
	/* One plot per CPU, idle and loaded overlaid in each. */
	assert_int_equal(count(html, "<svg class=\"hist\""), 2);
	/* And its exceedance plot, with an accessible name. */
	assert_int_equal(count(html, "<svg class=\"exceed\""), 2);
	/* The overview: an exceedance plot of all CPUs per run, a heat map, a sortable table. */
	assert_int_equal(count(html, "<svg class=\"exceed all\""), 2);
	assert_int_equal(count(html, "role=\"img\""), 6);
	assert_non_null(strstr(html, "<div class=\"heat\""));
	assert_non_null(strstr(html, "<table class=\"cpus sortable\">"));
	/* Every CPU reachable: the verdict's and the overview's worst lists, heat map, table. */
	assert_int_equal(count(html, "href=\"#cpu-0\""), 4);
	assert_int_equal(count(html, "href=\"#cpu-1\""), 4);
	assert_true(strstr(html, "<p>Worst CPUs:") < strstr(html, "id=\"checks\""));
	assert_int_equal(count(html, "<details class=\"cpu\">"), 2);
	assert_int_equal(count(html, "id=\"cpu-1\""), 1);
	/* Verdict, checks, overview, plots in that order. */
	assert_true(strstr(html, "id=\"verdict\"") < strstr(html, "id=\"checks\""));
	assert_true(strstr(html, "id=\"checks\"") < strstr(html, "id=\"overview\""));
	assert_true(strstr(html, "id=\"overview\"") < strstr(html, "id=\"plots\""));
	assert_non_null(strstr(html, "<title>Exceedance plot of CPU 1: fraction of wake-ups later "
				     "than each latency, log-log</title>"));
	/* Curves: 2 histograms and 2 exceedance curves; CPU 1's overflows are dotted. */
	assert_int_equal(count(html, "<path class=\"idle\""), 4);
	assert_int_equal(count(html, "<path class=\"load\""), 4);
	assert_int_equal(count(html, "<path class=\"load unk\""), 1);
	assert_null(strstr(html, "d=\"\"/>"));
	/* The limit line, and CPU 0's loaded max (30 us) marked over it in the table. */
	assert_non_null(strstr(html, "class=\"lim\""));
	assert_int_equal(count(html, "class=\"n over\""), 1);
	/* Escaped title and evidence; failures before warnings before passes. */
	assert_non_null(strstr(html, "&lt;IRQ&gt;"));
	assert_non_null(strstr(html, "IRQ 24 &amp; 31"));
	assert_true(strstr(html, "irq.affinity") < strstr(html, "sched.rt_throttling"));
	assert_true(strstr(html, "sched.rt_throttling") < strstr(html, "mem.swap"));
	assert_non_null(strstr(html, "@media print"));
	free(html);

	/* Side by side: two results, four plots, two verdict cards. */
	load_ok(check_json, &b);
	judged(&b, 0);
	html = render(html_write, rs, 2);
	assert_int_equal(count(html, "<svg class=\"hist\""), 2);	/* b has no latency */
	assert_int_equal(count(html, "<div class=\"card"), 2);
	free(html);
	result_free(&a);
	result_free(&b);
	free(idle);
	free(load);
}

/*
 * A noise result of CPUs 2 and 3 (as `rtready noise -f json` writes it):
 * CPU 2 has a cause table with an IRQ, a thread with markup in its name and
 * throttling; CPU 3 had no gap.
 */
static const char noise_json[] =
	"{\"tool\":\"rtready\",\"version\":\"0.1.0\",\"command\":\"noise\","
	"\"host\":{\"hostname\":\"rig\",\"kernel\":\"6.12\"},"
	"\"config\":{\"cpus\":\"2-3\",\"threshold_ns\":5000},"
	"\"attribution\":{\"source\":\"trace\",\"per_event\":true},"
	"\"cpus\":["
	"{\"cpu\":2,\"events\":7,\"max_ns\":50250,\"noise_ns\":130000,"
	"\"availability_pct\":99.99870,\"causes\":["
	"{\"kind\":\"rt_throttling\",\"name\":\"sched_rt_runtime_us\",\"count\":1,"
	"\"total_ns\":50250,\"max_ns\":50250},"
	"{\"kind\":\"thread\",\"name\":\"<hog>\",\"id\":4242,\"count\":5,"
	"\"total_ns\":70000,\"max_ns\":20000},"
	"{\"kind\":\"irq\",\"name\":\"eth0\",\"id\":24,\"count\":1,"
	"\"total_ns\":9750,\"max_ns\":9750}]},"
	"{\"cpu\":3,\"events\":0,\"max_ns\":800,\"noise_ns\":0,"
	"\"availability_pct\":100,\"causes\":[]}]}";

static void test_noise(void **state)
{
	struct result a, b;
	const struct result *rs[1] = { &a };
	char *html, *sec;
	json_t *v;

	(void)state;
	load_ok(noise_json, &a);
	assert_true(a.noise.present);
	assert_int_equal(a.noise.n_cpus, 2);
	assert_int_equal(a.noise.threshold_ns, 5000);
	assert_string_equal(a.noise.source, "trace");
	assert_int_equal(a.noise.cpus[0].n_causes, 3);
	assert_string_equal(a.noise.cpus[0].causes[1].kind, "thread");
	assert_string_equal(a.noise.cpus[0].causes[1].name, "<hog>");
	assert_int_equal(a.noise.cpus[0].causes[1].id, 4242);
	assert_int_equal(a.noise.cpus[0].causes[0].id, -1);
	assert_int_equal(a.noise.cpus[0].causes[2].total_ns, 9750);

	html = render(html_write, rs, 1);
	sec = strstr(html, "<section id=\"noise\">");
	assert_non_null(sec);
	assert_non_null(strstr(html, "<a href=\"#noise\">Noise</a>"));
	/* Before the system facts; no latency plots for a noise result. */
	assert_true(sec < strstr(html, "id=\"system\""));
	assert_null(strstr(html, "<svg class=\"hist\""));
	/* Availability with 5 decimals and the largest gap, per CPU, each linked to its table. */
	assert_non_null(strstr(sec, "<td><a href=\"#noise-0-cpu-2\">CPU 2</a></td>"
				    "<td class=\"n\">99.99870</td><td class=\"n\">7</td>"
				    "<td class=\"n\">130.0</td><td class=\"n\">50.2</td>"));
	assert_int_equal(count(html, "id=\"noise-0-cpu-2\""), 1);
	assert_int_equal(count(html, "id=\"noise-0-cpu-3\""), 1);
	/* The cause table: kind, name (escaped, with the pid or IRQ number), count, total, max. */
	assert_int_equal(count(sec, "<table class=\"causes\">"), 1);
	assert_non_null(strstr(sec, "<tr><td>thread</td><td>&lt;hog&gt;/4242</td><td class=\"n\">5"
				    "</td><td class=\"n\">70.0</td><td class=\"n\">20.0</td></tr>"));
	assert_non_null(strstr(sec, "<tr><td>irq</td><td>24 eth0</td><td class=\"n\">1</td>"));
	assert_non_null(strstr(sec, "<td>rt_throttling</td><td>sched_rt_runtime_us</td>"));
	assert_null(strstr(html, "<hog>"));
	assert_non_null(strstr(sec, "No gap over the threshold."));
	assert_non_null(strstr(sec, "from the kernel trace"));
	/* No limit: nothing marked over it. */
	assert_null(strstr(sec, "class=\"n over\""));
	assert_null(strstr(sec, "class=\"over\""));
	free(html);
	result_free(&a);

	/* In a verify result with --max-noise 20: CPU 2's 50.2 us gap is marked. */
	v = json_loads(noise_json, 0, NULL);
	assert_non_null(v);
	{
		json_t *doc = json_pack("{s:s, s:s, s:{s:f}, s:O}", "tool", "rtready", "command",
					"verify", "config", "max_noise_us", 20.0, "noise", v);
		char err[256] = "";

		assert_non_null(doc);
		assert_int_equal(result_from_json(doc, "verify.json", &a, err, sizeof(err)), 0);
		json_decref(doc);
	}
	json_decref(v);
	assert_true(a.noise.present && a.noise.cpus[0].n_causes == 3);
	html = render(html_write, rs, 1);
	assert_non_null(strstr(html, "<td class=\"n over\">50.2</td>"));
	assert_non_null(strstr(html, "largest gap <span class=\"over\">50.2 \xc2\xb5s</span>"));
	assert_non_null(strstr(html, "Limit on the largest gap: 20 \xc2\xb5s."));
	free(html);
	result_free(&a);

	/* Beside a check result of the same host, the noise run is kept (it was dropped). */
	load_ok(check_json, &a);
	load_ok(noise_json, &b);
	assert_int_equal(merge(&a, &b), 0);
	assert_true(a.has_checks && a.noise.present && !b.noise.present);
	assert_int_equal(a.noise.cpus[0].n_causes, 3);
	result_free(&b);
	load_ok(noise_json, &b);
	assert_int_equal(merge(&a, &b), -EEXIST);	/* two noise runs: side by side */
	result_free(&b);
	html = render(html_write, rs, 1);
	assert_non_null(strstr(html, "<section id=\"noise\">"));
	assert_non_null(strstr(html, "id=\"checks\""));
	free(html);
	result_free(&a);

	/* Refusals name the member. */
	expect_refused("{\"tool\":\"rtready\",\"command\":\"noise\",\"cpus\":[{\"cpu\":0,"
		       "\"events\":1,\"max_ns\":1,\"causes\":{}}]}", "noise.cpus[0].causes: not an array");
	expect_refused("{\"tool\":\"rtready\",\"command\":\"noise\",\"cpus\":[{\"cpu\":0,"
		       "\"events\":1,\"max_ns\":1,\"causes\":[{\"name\":\"x\",\"count\":1,"
		       "\"total_ns\":1}]}]}", "noise.cpus[0].causes[0]: member \"kind\" is missing");
	expect_refused("{\"tool\":\"rtready\",\"command\":\"noise\",\"cpus\":[{\"cpu\":0,"
		       "\"events\":1,\"max_ns\":1,\"causes\":[{\"kind\":\"irq\",\"id\":\"7\","
		       "\"count\":1,\"total_ns\":1}]}]}", "noise.cpus[0].causes[0].id");
	expect_refused("{\"tool\":\"rtready\",\"command\":\"noise\",\"cpus\":[{\"cpu\":0,"
		       "\"events\":1,\"max_ns\":1,\"causes\":[{\"kind\":\"irq\",\"count\":-1,"
		       "\"total_ns\":1}]}]}", "noise.cpus[0].causes[0].count");
	expect_refused("{\"tool\":\"rtready\",\"command\":\"noise\",\"attribution\":[],"
		       "\"cpus\":[]}", "noise.attribution: not an object");
}

static void test_histogram_svg(void **state)
{
	uint64_t counts[] = { 0, 3, 1000000, 2, 0, 1 };
	struct result_thread t = { .cpu = 0, .samples = 1000006, .max_ns = 5500, .bucket_ns = 1000,
				   .counts = counts, .n_counts = 6 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	html_write_histogram(f, &t, NULL, 0, "CPU <0>");
	html_write_histogram(f, NULL, NULL, 0, "empty");
	fclose(f);
	assert_int_equal(count(buf, "<svg"), 2);
	assert_int_equal(count(buf, "</svg>"), 2);
	assert_non_null(strstr(buf, "<title>CPU &lt;0&gt;</title>"));
	/* Log scale: a million samples needs the 1M decade label. */
	assert_non_null(strstr(buf, ">1M<"));
	assert_non_null(strstr(buf, "no histogram in this result"));
	assert_null(strstr(buf, "nan"));
	assert_null(strstr(buf, "inf"));
	free(buf);
}

/* One exceedance plot of @idle (and @load) on a scale covering both, as text. */
static char *exceed_text(const struct result_thread *idle, const struct result_thread *load)
{
	struct exceed_scale sc = EXCEED_SCALE_INIT;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	exceed_scale_cover(&sc, idle, 0);
	exceed_scale_cover(&sc, load, 0);
	exceed_write(f, &sc, idle, load, 0, "CPU <0> exceedance");
	fclose(f);
	return buf;
}

/*
 * The points of the @n-th <path class="@cls..."> of @svg: x never goes back
 * and y never goes up (a later latency is never exceeded more often).
 * Return: the number of points; the last one in *lx, *ly.
 */
static size_t path_points(const char *svg, const char *cls, int n, double *lx, double *ly)
{
	char key[64];
	const char *p = svg;
	double px = -1, py = -1;
	size_t pts = 0;

	snprintf(key, sizeof(key), "<path class=\"%s", cls);
	for (int i = 0; i <= n; i++) {
		p = strstr(p, key);
		assert_non_null(p);
		p += strlen(key);
	}
	p = strstr(p, "d=\"") + 3;
	while (*p == 'M' || *p == 'L') {
		double x, y;
		int used;

		assert_int_equal(sscanf(p + 1, "%lf %lf%n", &x, &y, &used), 2);
		if (pts && (x < px - 0.05 || y < py - 0.05))
			fail_msg("%s path goes back at point %zu: %.1f %.1f after %.1f %.1f", cls, pts,
				 x, y, px, py);
		px = x;
		py = y;
		pts++;
		p += 1 + used;
	}
	assert_int_equal(*p, '"');
	*lx = px;
	*ly = py;
	return pts;
}

static void test_exceedance_svg(void **state)
{
	/* 1 us buckets: bulk at 2-4 us, a few at 50 us; two overflows, one kept (30 ms). */
	uint64_t counts[51] = { [2] = 500, [3] = 400, [4] = 95, [50] = 3 };
	uint64_t kept[] = { 30000000 };
	struct result_thread t = { .cpu = 0, .samples = 1000, .min_ns = 2100, .max_ns = 30000000,
				   .overflows = 2, .bucket_ns = 1000, .range_ns = 10000000,
				   .counts = counts, .n_counts = 51, .outliers = kept,
				   .n_outliers = 1 };
	uint64_t *big;
	double x, y, x2, y2;
	char *svg;

	(void)state;
	svg = exceed_text(&t, NULL);
	assert_non_null(strstr(svg, "<svg class=\"exceed\""));
	assert_non_null(strstr(svg, "role=\"img\""));
	assert_non_null(strstr(svg, "<title>CPU &lt;0&gt; exceedance</title>"));
	/* Log-log: decades from 1 us to past 30 ms, fractions down to 1e-3 (1 in 1000). */
	assert_non_null(strstr(svg, ">1 \xc2\xb5s<"));
	assert_non_null(strstr(svg, ">10 ms<"));
	assert_non_null(strstr(svg, ">1e-3<"));
	/* Solid to the range, dotted over the overflow not kept, solid to the exact maximum. */
	path_points(svg, "idle\"", 0, &x, &y);
	path_points(svg, "idle unk", 0, &x2, &y2);
	assert_true(x2 > x);
	path_points(svg, "idle\"", 1, &x, &y);
	assert_true(y > 245.9 && y < 246.1);	/* at the bottom: nothing later than the max */
	assert_non_null(strstr(svg, "max idle 30000 \xc2\xb5s"));
	assert_null(strstr(svg, "nan"));
	free(svg);

	/* Every overflow kept exactly: no dotted stretch. */
	t.overflows = 1;
	t.counts[50] = 4;
	svg = exceed_text(&t, NULL);
	assert_null(strstr(svg, "idle unk"));
	free(svg);

	/* No overflow: the curve ends at the maximum, inside its bucket. */
	t.overflows = 0;
	t.n_outliers = 0;
	t.max_ns = 50500;
	svg = exceed_text(&t, NULL);
	path_points(svg, "idle\"", 0, &x, &y);
	assert_true(y > 245.9 && y < 246.1);
	free(svg);

	/* A million non-empty buckets draw as a bounded path, still monotonic. */
	big = calloc(1u << 20, sizeof(*big));
	assert_non_null(big);
	for (size_t i = 0; i < (1u << 20); i++)
		big[i] = 1 + i % 7;
	t.counts = big;
	t.n_counts = 1u << 20;
	t.samples = 4u << 20;
	t.max_ns = (double)(1u << 20) * 1000 - 1;
	svg = exceed_text(&t, &t);
	assert_true(path_points(svg, "idle\"", 0, &x, &y) < 4000);
	path_points(svg, "load\"", 0, &x, &y);
	assert_true(strlen(svg) < 200000);
	free(svg);
	free(big);

	/* Nothing to draw: axes and a note, no curve. */
	t.samples = 0;
	svg = exceed_text(&t, NULL);
	assert_non_null(strstr(svg, "no samples: not measured"));
	assert_null(strstr(svg, "<path"));
	free(svg);
}

static int junit_default(FILE *f, const struct result *const *rs, size_t n)
{
	struct junit_style st = { false, NULL };

	return junit_write(f, rs, n, &st);
}

static int junit_strict(FILE *f, const struct result *const *rs, size_t n)
{
	struct junit_style st = { true, NULL };

	return junit_write(f, rs, n, &st);
}

static void test_junit(void **state)
{
	struct result a, b;
	const struct result *rs[1] = { &a };
	char *load = latency_json("all", 30, 12), *x;

	(void)state;
	load_ok(check_json, &a);
	load_ok(load, &b);
	assert_int_equal(merge(&a, &b), 0);
	result_free(&b);
	judged(&a, 20);
	x = render(junit_default, rs, 1);
	/* 3 checks + 2 thresholds; irq.affinity and CPU 0 (30 > 20 us) fail. */
	assert_non_null(strstr(x, "<testsuites name=\"rtready\" tests=\"5\" failures=\"2\""));
	/* junit-10.xsd: a time on both levels, no skipped count on <testsuites>. */
	assert_non_null(strstr(x, "errors=\"0\" time=\""));
	assert_false(head_has(x, "<testsuite ", "skipped="));
	assert_non_null(strstr(x, "skipped=\"0\" time=\""));
	assert_non_null(strstr(x, "name=\"latency.load.cpu0.max\""));
	assert_int_equal(count(x, "<failure"), 2);
	assert_non_null(strstr(x, "message=\"&lt;IRQ&gt;: IRQ 24 &amp; 31\""));
	free(x);
	x = render(junit_strict, rs, 1);
	assert_int_equal(count(x, "<failure"), 3);	/* the warning too */
	free(x);
	result_free(&a);
	free(load);
}

/*
 * Every line is # HELP or # TYPE (gauge) of a family, or a sample of the
 * family announced last, with well-formed labels. Return: NULL, or a
 * message about the first bad line (static storage).
 */
static const char *exposition_error(const char *text)
{
	static char msg[256];
	regex_t sample, help, type;
	char family[128] = "", *copy = strdup(text), *save = NULL;
	const char *bad = NULL;
	size_t samples = 0;

	assert_int_equal(regcomp(&sample, "^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{([a-zA-Z_][a-zA-Z0-9_]*="
				 "\"([^\"\\\\]|\\\\.)*\"(,[a-zA-Z_][a-zA-Z0-9_]*=\"([^\"\\\\]|"
				 "\\\\.)*\")*)?\\})? ([-+0-9.eE]+|NaN|[-+]Inf)$", REG_EXTENDED), 0);
	assert_int_equal(regcomp(&help, "^# HELP ([a-zA-Z_:][a-zA-Z0-9_:]*) .+$", REG_EXTENDED), 0);
	assert_int_equal(regcomp(&type, "^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) gauge$", REG_EXTENDED),
			 0);
	for (char *l = strtok_r(copy, "\n", &save); l && !bad; l = strtok_r(NULL, "\n", &save)) {
		regmatch_t m[2];

		if (regexec(&help, l, 2, m, 0) == 0) {
			snprintf(family, sizeof(family), "%.*s", (int)(m[1].rm_eo - m[1].rm_so),
				 l + m[1].rm_so);
			continue;
		}
		if (regexec(&type, l, 2, m, 0) == 0) {
			if ((size_t)(m[1].rm_eo - m[1].rm_so) != strlen(family) ||
			    strncmp(l + m[1].rm_so, family, strlen(family)) != 0)
				bad = "TYPE of another family than HELP";
		} else if (regexec(&sample, l, 2, m, 0) != 0) {
			bad = "not an exposition line";
		} else if ((size_t)(m[1].rm_eo - m[1].rm_so) != strlen(family) ||
			   strncmp(l, family, strlen(family)) != 0) {
			bad = "sample outside its family";
		} else {
			samples++;
		}
		if (bad)
			snprintf(msg, sizeof(msg), "%s: %.200s", bad, l);
	}
	if (!bad && !samples)
		snprintf(msg, sizeof(msg), "no samples");
	regfree(&sample);
	regfree(&help);
	regfree(&type);
	free(copy);
	return bad || !samples ? msg : NULL;
}

static void check_exposition(const char *text)
{
	const char *e = exposition_error(text);

	if (e)
		fail_msg("%s", e);
}

static void test_exposition_checker(void **state)
{
	(void)state;
	/* The checker itself must catch what a scraper would refuse. */
	assert_null(exposition_error("# HELP a_b x\n# TYPE a_b gauge\na_b{x=\"1\"} 2\n"));
	assert_non_null(exposition_error("# HELP a x\n# TYPE a gauge\na{x=\"1\\\"} 2\n"));
	assert_non_null(exposition_error("# HELP a x\n# TYPE a gauge\na{x=\"\n\"} 2\n"));
	assert_non_null(exposition_error("# HELP a x\n# TYPE a gauge\nb 2\n"));
	assert_non_null(exposition_error("# HELP a x\n# TYPE a gauge\na{,x=\"1\"} 2\n"));
	assert_non_null(exposition_error("# HELP a x\n# TYPE a gauge\na 2 x\n"));
}

static void test_prometheus(void **state)
{
	struct result a, b;
	const struct result *rs[2] = { &a, &b };
	char *load = latency_json("all", 30, 12), *p;

	(void)state;
	load_ok(check_json, &a);
	load_ok(load, &b);
	assert_int_equal(merge(&a, &b), 0);
	result_free(&b);
	judged(&a, 20);
	free(a.hostname);
	a.hostname = strdup("rig \"7\"\\x\ny");
	p = render(prom_write, rs, 1);
	check_exposition(p);
	assert_non_null(strstr(p, "rtready_check_status{host=\"rig \\\"7\\\"\\\\x\\ny\","
				  "id=\"irq.affinity\",area=\"irq\",status=\"fail\"} 1"));
	assert_non_null(strstr(p, "rtready_latency_max_seconds{host=\"rig \\\"7\\\"\\\\x\\ny\","
				  "cpu=\"0\",phase=\"load\"} 3e-05"));
	assert_non_null(strstr(p, "cpu=\"all\",phase=\"load\""));
	assert_non_null(strstr(p, "rtready_verdict{host=\"rig \\\"7\\\"\\\\x\\ny\",status=\"fail\"} 1"));
	free(p);
	/* Two results: a "result" label keeps the series apart. */
	load_ok(check_json, &b);
	judged(&b, 0);
	p = render(prom_write, rs, 2);
	check_exposition(p);
	assert_non_null(strstr(p, "result=\"t.json\""));
	free(p);
	result_free(&a);
	result_free(&b);
	free(load);
}

/* A latency run in which CPU 0 took no sample (say -i 10s -D 1s) and CPU 1 did. */
static const char unmeasured_json[] =
	"{\"tool\":\"rtready\",\"version\":\"0.1.0\",\"command\":\"latency\","
	"\"host\":{\"kernel\":\"6.12\",\"cpus_online\":\"0-1\",\"root\":\"/\"},"
	"\"config\":{\"interval_ns\":10000000000,\"duration_ns\":1000000000,\"load\":\"none\"},"
	"\"threads\":["
	"{\"cpu\":0,\"samples\":0,\"min_ns\":0,\"avg_ns\":0,\"max_ns\":0,\"overflows\":0},"
	"{\"cpu\":1,\"samples\":5,\"min_ns\":1000,\"avg_ns\":2000,\"max_ns\":3000,"
	"\"p50_ns\":2000,\"p99_ns\":3000,\"p999_ns\":3000,\"overflows\":0}]}";

/*
 * A CPU without samples: the verdict warns (never passes), with or without a
 * limit and a clean check beside it, and every output says so.
 */
static void test_unmeasured(void **state)
{
	static const char clean_check[] =
		"{\"tool\":\"rtready\",\"command\":\"check\",\"host\":{\"kernel\":\"6.12\"},"
		"\"checks\":[{\"id\":\"mem.swap\",\"status\":\"pass\"}]}";
	struct result r, c;
	const struct result *rs[1] = { &r };
	char *x;

	(void)state;
	load_ok(unmeasured_json, &r);
	/* The case: -m 100, everything measured is within it. */
	judged(&r, 100);
	assert_int_equal(r.verdict.status, RTR_WARN);
	assert_non_null(strstr(r.verdict.reason, "no samples on idle CPU 0 (not measured"));
	assert_int_equal(r.verdict.thresholds[0].status, RTR_SKIP);
	assert_int_equal(r.verdict.thresholds[1].status, RTR_PASS);
	x = render(prom_write, rs, 1);
	check_exposition(x);
	assert_non_null(strstr(x, "rtready_verdict{status=\"warn\"} 1"));
	assert_non_null(strstr(x, "rtready_verdict{status=\"pass\"} 0"));
	/* No sample, no latency: NaN, not a perfect 0 s. */
	assert_non_null(strstr(x, "rtready_latency_max_seconds{cpu=\"0\",phase=\"idle\"} NaN"));
	assert_non_null(strstr(x, "rtready_latency_samples{cpu=\"0\",phase=\"idle\"} 0"));
	free(x);
	x = render(junit_default, rs, 1);
	assert_non_null(strstr(x, "tests=\"2\" failures=\"0\" errors=\"0\" skipped=\"1\""));
	assert_non_null(strstr(x, "<skipped message=\"no samples"));
	assert_non_null(strstr(x, "name=\"verdict\" value=\"warn\""));
	free(x);
	x = render(junit_strict, rs, 1);	/* a warning fails with --strict */
	assert_non_null(strstr(x, "tests=\"2\" failures=\"1\" errors=\"0\" skipped=\"0\""));
	assert_int_equal(count(x, "<failure type=\"warn\" message=\"no samples"), 1);
	free(x);
	x = render(html_write, rs, 1);
	assert_non_null(strstr(x, "<div class=\"card s-warn\">"));
	assert_non_null(strstr(x, "idle: no samples (not measured)"));
	/* Named in the verdict's and the overview's worst lists; the table says 0: not measured. */
	assert_int_equal(count(x, "class=\"nosamples\">no samples"), 2);
	assert_int_equal(count(x, "class=\"n nosamples\">0: not measured"), 1);
	free(x);
	assert_int_equal(result_exit_code(rs, 1, false), 0);
	assert_int_equal(result_exit_code(rs, 1, true), 1);

	/* No limit, a clean check beside it: still a warning, not a pass. */
	result_free(&r);
	load_ok(unmeasured_json, &r);
	load_ok(clean_check, &c);
	assert_int_equal(merge(&c, &r), 0);
	result_free(&r);
	judged(&c, 0);
	assert_int_equal(c.verdict.status, RTR_WARN);
	assert_non_null(strstr(c.verdict.reason, "no samples on idle CPU 0"));
	rs[0] = &c;
	x = render(junit_default, rs, 1);
	assert_int_equal(count(x, "<failure"), 0);
	assert_int_equal(count(x, "<skipped message=\"no samples"), 1);
	free(x);
	result_free(&c);

	/* A run that measured no CPU at all. */
	load_ok("{\"tool\":\"rtready\",\"command\":\"latency\",\"threads\":[]}", &r);
	judged(&r, 100);
	assert_int_equal(r.verdict.status, RTR_WARN);
	assert_non_null(strstr(r.verdict.reason, "the idle run measured no CPU"));
	result_free(&r);
}

/*
 * Parts of one result must come from one host: each host fact both files
 * carry is compared (not rt_cpus, a choice of the run), the refusal names
 * the file each value came from, and nothing is merged.
 */
static void test_merge_hosts(void **state)
{
	struct result a, b, c;
	char err[512];
	char *idle = latency_json("none", 5, 4), *load = latency_json("all", 30, 12);

	(void)state;
	/* check (kernel 6.12, root /) + a latency of another kernel and root. */
	load_ok(check_json, &a);
	load_ok(unmeasured_json, &b);
	free(b.kernel);
	b.kernel = strdup("6.1.0");
	free(b.root);
	b.root = strdup("/srv/snap");
	assert_int_equal(result_merge(&a, &b, err, sizeof(err)), -EXDEV);
	assert_non_null(strstr(err, "t.json and t.json are results of different hosts (kernel "
				    "\"6.12\" and \"6.1.0\", root \"/\" and \"/srv/snap\")"));
	assert_false(a.lat[PHASE_IDLE].present);
	assert_true(b.lat[PHASE_IDLE].present);
	result_free(&b);
	/* Only the online CPUs differ: named alone. */
	load_ok(unmeasured_json, &b);
	free(b.cpus_online);
	b.cpus_online = strdup("0-7");
	assert_int_equal(result_merge(&a, &b, err, sizeof(err)), -EXDEV);
	assert_non_null(strstr(err, "(cpus_online \"0-1\" and \"0-7\")"));
	result_free(&b);
	/* rt_cpus differs, the rest agrees: one host, merged. */
	load_ok(unmeasured_json, &b);
	free(b.rt_cpus);
	b.rt_cpus = strdup("0");
	free(b.label);
	b.label = strdup("idle.json");
	assert_int_equal(merge(&a, &b), 0);
	result_free(&b);
	/* A third file is compared with what the first two carried, and named by origin. */
	load_ok(load, &c);
	free(c.label);
	c.label = strdup("load.json");
	free(c.kernel);
	c.kernel = strdup("6.18");
	assert_int_equal(result_merge(&a, &c, err, sizeof(err)), -EXDEV);
	assert_non_null(strstr(err, "t.json and load.json are results of different hosts (kernel "
				    "\"6.12\" and \"6.18\")"));
	result_free(&c);
	result_free(&a);
	/* A fact only the second file carries is taken, and its file becomes the origin. */
	load_ok(idle, &a);	/* hostname only */
	load_ok(unmeasured_json, &b);
	free(b.label);
	b.label = strdup("has-kernel.json");
	free(a.lat[PHASE_IDLE].load);
	a.lat[PHASE_IDLE].load = strdup("none");
	load_ok(load, &c);
	assert_int_equal(merge(&c, &b), 0);	/* load + idle: kernel from has-kernel.json */
	result_free(&b);
	load_ok("{\"tool\":\"rtready\",\"command\":\"check\",\"host\":{\"kernel\":\"5.10\"},"
		"\"checks\":[]}", &b);
	assert_int_equal(result_merge(&c, &b, err, sizeof(err)), -EXDEV);
	assert_non_null(strstr(err, "has-kernel.json and t.json are results of different hosts "
				    "(kernel \"6.12\" and \"5.10\")"));
	result_free(&a);
	result_free(&b);
	result_free(&c);
	free(idle);
	free(load);
}

static void test_opts(void **state)
{
	char *ok[] = { "report", "a.json", "b.json", "--junit", "j.xml", "-m", "150", NULL };
	char *dflt[] = { "report", "a.json", NULL };
	char *none[] = { "report", "-o", "x.html", NULL };
	char *same[] = { "report", "a.json", "-o", "x", "--prometheus", "x", NULL };
	char *lat[] = { "report", "a.json", "--max-latency", "fast", NULL };
	char *units[] = { "report", "a.json", "--max-latency", "1ms", NULL };
	struct report_opts o;
	char err[256];

	(void)state;
	assert_int_equal(cli_parse_cmd(&report_cmd, 7, ok, &o, err, sizeof(err)), 0);
	assert_int_equal(o.n_inputs, 2);
	assert_string_equal(o.junit, "j.xml");
	assert_null(o.html);	/* only what was asked for */
	assert_true(o.max_latency_us > 149.9 && o.max_latency_us < 150.1);
	assert_int_equal(cli_parse_cmd(&report_cmd, 2, dflt, &o, err, sizeof(err)), 0);
	assert_string_equal(o.html, "report.html");
	assert_int_equal(cli_parse_cmd(&report_cmd, 3, none, &o, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "no result file"));
	assert_int_equal(cli_parse_cmd(&report_cmd, 6, same, &o, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "two outputs"));
	assert_int_equal(cli_parse_cmd(&report_cmd, 4, lat, &o, err, sizeof(err)), -EINVAL);
	assert_int_equal(cli_parse_cmd(&report_cmd, 4, units, &o, err, sizeof(err)), 0);
	assert_true(o.max_latency_us > 999.9 && o.max_latency_us < 1000.1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_load_check),
		cmocka_unit_test(test_load_latency),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_histogram_versions),
		cmocka_unit_test(test_sparse_budget),
		cmocka_unit_test(test_load_file_errors),
		cmocka_unit_test(test_verdict),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_merge_hosts),
		cmocka_unit_test(test_load_all),
		cmocka_unit_test(test_unmeasured),
		cmocka_unit_test(test_html),
		cmocka_unit_test(test_noise),
		cmocka_unit_test(test_histogram_svg),
		cmocka_unit_test(test_exceedance_svg),
		cmocka_unit_test(test_junit),
		cmocka_unit_test(test_exposition_checker),
		cmocka_unit_test(test_prometheus),
		cmocka_unit_test(test_opts),
	};

	return unit_run(tests, NULL, NULL);
}
