// SPDX-License-Identifier: MIT
/*
 * JUnit XML renderer; see junit.h. The layout is the one Jenkins, GitLab
 * and GitHub test reporters read: <testsuites> holding <testsuite> elements
 * with tests/failures/errors/skipped counts, <properties>, then
 * <testcase classname name> with at most one <failure> or <skipped>.
 */
#include <errno.h>
#include <string.h>

#include "render/junit.h"
#include "render/markup.h"

#define E(s) markup_escape(out, (s))

static bool check_fails(const struct finding *c, const struct junit_style *st)
{
	return c->status == RTR_FAIL || (st->warn_fails && c->status == RTR_WARN);
}

struct counts {
	unsigned tests, failures, skipped;
};

static struct counts count_checks(const struct result *r, const struct junit_style *st)
{
	struct counts k = { 0, 0, 0 };

	for (size_t i = 0; i < r->n_checks; i++) {
		k.tests++;
		k.failures += check_fails(&r->checks[i], st);
		k.skipped += r->checks[i].status == RTR_SKIP;
	}
	return k;
}

static bool has_latency(const struct result *r)
{
	return r->lat[PHASE_IDLE].present || r->lat[PHASE_LOAD].present;
}

/*
 * A CPU without samples was not measured: the verdict warns, so its case is
 * skipped, and fails only where warnings fail (--strict), like a check's
 * warning. Return: what the case of a CPU with @samples and @s is.
 */
enum case_kind { CASE_PASS, CASE_FAIL, CASE_SKIP };

static enum case_kind latency_case(uint64_t samples, enum rtr_status s,
				   const struct junit_style *st)
{
	if (s == RTR_FAIL)
		return CASE_FAIL;
	if (!samples || s == RTR_SKIP)
		return st->warn_fails ? CASE_FAIL : CASE_SKIP;
	return CASE_PASS;
}

static enum case_kind threshold_kind(const struct result *r, const struct result_threshold *t,
				     const struct junit_style *st)
{
	const struct result_thread *th = result_thread_of(&r->lat[t->phase], t->cpu);

	/* A stored threshold without its thread: its own status decides. */
	return latency_case(th ? th->samples : t->status != RTR_SKIP, t->status, st);
}

/* Latency cases: the verdict's thresholds, or one per measured CPU without a limit. */
static struct counts count_latency(const struct result *r, const struct junit_style *st)
{
	struct counts k = { 0, 0, 0 };
	enum case_kind c;

	if (r->verdict.n_thresholds) {
		for (size_t i = 0; i < r->verdict.n_thresholds; i++) {
			c = threshold_kind(r, &r->verdict.thresholds[i], st);
			k.tests++;
			k.failures += c == CASE_FAIL;
			k.skipped += c == CASE_SKIP;
		}
		return k;
	}
	for (int p = 0; p < PHASE_COUNT; p++)
		for (size_t i = 0; i < r->lat[p].n_threads; i++) {
			c = latency_case(r->lat[p].threads[i].samples, RTR_PASS, st);
			k.tests++;
			k.failures += c == CASE_FAIL;
			k.skipped += c == CASE_SKIP;
		}
	return k;
}

/* How long a result's latency phases ran, for the suites' time attribute (0 unknown). */
static double latency_seconds(const struct result *r)
{
	double s = 0;

	for (int p = 0; p < PHASE_COUNT; p++)
		if (r->lat[p].present)
			s += r->lat[p].duration_s;
	return s;
}

static void suite_open(FILE *out, const struct result *r, const char *kind, struct counts k,
		       double seconds, const struct junit_style *st)
{
	fputs("  <testsuite name=\"", out);
	E(r->label);
	fprintf(out, ": %s\" tests=\"%u\" failures=\"%u\" errors=\"0\" skipped=\"%u\" "
		     "time=\"%.3f\"", kind, k.tests, k.failures, k.skipped, seconds);
	if (st->timestamp && st->timestamp[0])
		markup_put(out, " timestamp=\"", st->timestamp, "\"");
	if (r->hostname[0])
		markup_put(out, " hostname=\"", r->hostname, "\"");
	fputs(">\n    <properties>\n", out);
	{
		const char *const props[][2] = {
			{ "command", r->command }, { "version", r->version },
			{ "kernel", r->kernel },   { "cpus_online", r->cpus_online },
			{ "rt_cpus", r->rt_cpus }, { "root", r->root },
		};

		for (size_t i = 0; i < sizeof(props) / sizeof(props[0]); i++) {
			if (!props[i][1] || !props[i][1][0])
				continue;
			fprintf(out, "      <property name=\"%s\" value=\"", props[i][0]);
			E(props[i][1]);
			fputs("\"/>\n", out);
		}
	}
	if (r->verdict.present) {
		fprintf(out, "      <property name=\"verdict\" value=\"%s\"/>\n",
			rtr_status_name(r->verdict.status));
		markup_put(out, "      <property name=\"verdict_reason\" value=\"",
			   r->verdict.reason, "\"/>\n");
	}
	fputs("    </properties>\n", out);
}

static void check_case(FILE *out, const struct finding *c, const struct junit_style *st)
{
	fputs("    <testcase classname=\"rtready.check.", out);
	E(c->area);
	fputs("\" name=\"", out);
	E(c->id);
	if (c->tid)
		fprintf(out, " (thread %ld)", c->tid);
	fputs("\">\n", out);
	if (check_fails(c, st)) {
		fprintf(out, "      <failure type=\"%s\" message=\"", rtr_status_name(c->status));
		E(c->title);
		fputs(": ", out);
		E(c->evidence);
		fputs("\">", out);
		E(c->evidence);
		fputs("\n\nWhy: ", out);
		E(c->why);
		fputs("\n\nFix: ", out);
		E(c->fix);
		fputs("</failure>\n", out);
	} else if (c->status == RTR_SKIP) {
		markup_put(out, "      <skipped message=\"", c->evidence, "\"/>\n");
	} else {
		fprintf(out, "      <system-out>%s: ", rtr_status_name(c->status));
		E(c->evidence);
		if (c->status == RTR_WARN && c->fix[0]) {
			fputs("\nFix: ", out);
			E(c->fix);
		}
		fputs("</system-out>\n", out);
	}
	fputs("    </testcase>\n", out);
}

static void figures(FILE *out, const struct result_thread *t)
{
	fprintf(out, "samples %llu, min %.0f ns, avg %.0f ns, p50 %.0f ns, p99 %.0f ns, "
		     "p99.9 %.0f ns, max %.0f ns, past the histogram %llu",
		(unsigned long long)t->samples, t->min_ns, t->avg_ns, t->p50_ns, t->p99_ns,
		t->p999_ns, t->max_ns, (unsigned long long)t->overflows);
}

static const char no_samples[] = "no samples: this CPU was not measured";

static void threshold_case(FILE *out, const struct result *r, const struct result_threshold *t,
			   const struct junit_style *st)
{
	const struct result_thread *th = result_thread_of(&r->lat[t->phase], t->cpu);
	enum case_kind c = threshold_kind(r, t, st);

	fprintf(out, "    <testcase classname=\"rtready.latency.%s\" name=\"", result_phase_name(t->phase));
	E(t->name);
	fputs("\">\n", out);
	if (c == CASE_FAIL && t->status == RTR_FAIL)
		fprintf(out, "      <failure type=\"threshold\" message=\"max %.1f us exceeds the "
			     "limit of %.1f us\"/>\n", t->value_ns / 1000.0, t->limit_ns / 1000.0);
	else if (c == CASE_FAIL)
		fprintf(out, "      <failure type=\"warn\" message=\"%s\"/>\n", no_samples);
	else if (c == CASE_SKIP)
		fprintf(out, "      <skipped message=\"%s\"/>\n", no_samples);
	if (th) {
		fputs("      <system-out>", out);
		figures(out, th);
		fputs("</system-out>\n", out);
	}
	fputs("    </testcase>\n", out);
}

static void measured_case(FILE *out, enum result_phase p, const struct result_thread *t,
			  const struct junit_style *st)
{
	enum case_kind c = latency_case(t->samples, RTR_PASS, st);

	fprintf(out, "    <testcase classname=\"rtready.latency.%s\" name=\"latency.%s.cpu%d\">\n",
		result_phase_name(p), result_phase_name(p), t->cpu);
	if (c == CASE_FAIL)
		fprintf(out, "      <failure type=\"warn\" message=\"%s\"/>\n", no_samples);
	else if (c == CASE_SKIP)
		fprintf(out, "      <skipped message=\"%s\"/>\n", no_samples);
	fputs("      <system-out>", out);
	figures(out, t);
	fputs(" (no limit given: not judged)</system-out>\n    </testcase>\n", out);
}

int junit_write(FILE *out, const struct result *const *rs, size_t n, const struct junit_style *st)
{
	struct counts all = { 0, 0, 0 };
	double seconds = 0;

	for (size_t i = 0; i < n; i++) {
		struct counts a = count_checks(rs[i], st), b = count_latency(rs[i], st);

		all.tests += a.tests + b.tests;
		all.failures += a.failures + b.failures;
		seconds += latency_seconds(rs[i]);
	}
	/* junit-10.xsd (Jenkins xunit) allows no skipped count on <testsuites>. */
	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"rtready\" "
		     "tests=\"%u\" failures=\"%u\" errors=\"0\" time=\"%.3f\">\n", all.tests,
		all.failures, seconds);
	for (size_t i = 0; i < n; i++) {
		const struct result *r = rs[i];

		if (r->has_checks) {
			suite_open(out, r, "checks", count_checks(r, st), 0, st);
			for (size_t c = 0; c < r->n_checks; c++)
				check_case(out, &r->checks[c], st);
			fputs("  </testsuite>\n", out);
		}
		if (has_latency(r)) {
			suite_open(out, r, "latency", count_latency(r, st), latency_seconds(r), st);
			if (r->verdict.n_thresholds) {
				for (size_t t = 0; t < r->verdict.n_thresholds; t++)
					threshold_case(out, r, &r->verdict.thresholds[t], st);
			} else {
				for (int p = 0; p < PHASE_COUNT; p++)
					for (size_t t = 0; t < r->lat[p].n_threads; t++)
						measured_case(out, p, &r->lat[p].threads[t], st);
			}
			fputs("  </testsuite>\n", out);
		}
	}
	fputs("</testsuites>\n", out);
	return ferror(out) ? -EIO : 0;
}
