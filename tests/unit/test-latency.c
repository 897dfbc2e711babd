// SPDX-License-Identifier: MIT
/*
 * Unit tests of `rtready latency` apart from the measurement: option
 * parsing (cyclictest's letters, the refusals), the statistics taken from a
 * histogram, the default CPU set, the /dev/cpu_dma_latency reader on a
 * stand-in file, and the JSON and text renderers on a hand-made result.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cmocka.h>

#include "unit.h"

#include "cli/opt.h"
#include "cli/cmd_latency.h"
#include "measure/dma_latency.h"
#include "measure/histfile.h"
#include "render/latency.h"

static char errbuf[512];

/* Parse a NULL-terminated list of arguments after "latency". */
static int parse(struct latency_opts *o, ...)
{
	char *argv[32] = { "latency" };
	int argc = 1;
	va_list ap;
	char *a;

	va_start(ap, o);
	while ((a = va_arg(ap, char *)) != NULL && argc < 31)
		argv[argc++] = a;
	va_end(ap);
	errbuf[0] = '\0';
	return cli_parse_cmd(&latency_cmd, argc, argv, o, errbuf, sizeof(errbuf));
}

static void test_defaults(void **state)
{
	struct latency_opts o;

	(void)state;
	assert_int_equal(parse(&o, NULL), 0);
	assert_int_equal(o.cfg.policy, RTR_SCHED_FIFO);
	assert_int_equal(o.cfg.priority, 80);
	assert_int_equal(o.cfg.interval_ns, 1000000);
	assert_int_equal(o.cfg.duration_ns, 10000000000ULL);
	assert_int_equal(o.cfg.bucket_ns, 1000);
	assert_int_equal(o.cfg.range_ns, 10000000);
	assert_int_equal(o.cfg.threshold_ns, 0);
	assert_true(o.cfg.mlock);
	assert_int_equal(o.affinity.kind, RT_REQUEST_NONE);
	assert_int_equal(o.threads, 0);
	assert_int_equal(o.dma_us, -1);
	assert_false(o.quiet);
	assert_null(o.histfile);
	latency_opts_free(&o);
}

static void test_cyclictest_letters(void **state)
{
	struct latency_opts o;

	(void)state;
	assert_int_equal(parse(&o, "-m", "-S", "-p", "70", "-i", "250", "-D", "2m", "-a", "0-1",
			       "-q", "-h", "400", "--laptop", "--histfile", "/tmp/x", NULL), 0);
	assert_int_equal(o.cfg.priority, 70);
	assert_int_equal(o.cfg.interval_ns, 250000);
	assert_int_equal(o.cfg.duration_ns, 120000000000ULL);
	assert_int_equal(o.affinity.kind, RT_REQUEST_LIST);
	assert_int_equal(rtr_cpuset_count(&o.affinity.cpus), 2);
	assert_true(o.quiet);
	assert_int_equal(o.cfg.range_ns, 400000);
	assert_string_equal(o.histfile, "/tmp/x");
	latency_opts_free(&o);

	assert_int_equal(parse(&o, "-D", "1.5s", "-i", "1ms", "--bucket", "500",
			       "--threshold", "300", "--dma-latency", "0", "--policy", "rr",
			       "--no-mlock", "-f", "json", "--output", "o.json", NULL), 0);
	assert_int_equal(o.cfg.duration_ns, 1500000000);
	assert_int_equal(o.cfg.interval_ns, 1000000);
	assert_int_equal(o.cfg.bucket_ns, 500);
	assert_int_equal(o.cfg.threshold_ns, 300000);
	assert_int_equal(o.dma_us, 0);
	assert_int_equal(o.cfg.policy, RTR_SCHED_RR);
	assert_false(o.cfg.mlock);
	assert_int_equal(o.format, FORMAT_JSON);
	assert_string_equal(o.output, "o.json");
	latency_opts_free(&o);

	assert_int_equal(parse(&o, "-D", "0", NULL), 0);
	assert_int_equal(o.cfg.duration_ns, 0);
	latency_opts_free(&o);

	/* -h prints the histogram, --hist-max only sets the range; -H adds the sum column. */
	assert_int_equal(parse(&o, "--hist-max", "300", NULL), 0);
	assert_int_equal(o.cfg.range_ns, 300000);
	assert_false(o.hist_print);
	latency_opts_free(&o);
	assert_int_equal(parse(&o, "-H", "50", "-N", "-v", "--json=r.json", NULL), 0);
	assert_int_equal(o.cfg.range_ns, 50000);
	assert_true(o.hist_print && o.histofall && o.in_ns && o.verbose && o.cfg.sample_log);
	assert_string_equal(o.json_file, "r.json");
	latency_opts_free(&o);
	assert_int_equal(parse(&o, "--histogram", "20", NULL), 0);
	assert_true(o.hist_print);
	assert_false(o.histofall);
	latency_opts_free(&o);
}

/* -l LOOPS: alone it replaces the default duration; with -D both stay. */
static void test_loops(void **state)
{
	struct latency_opts o;

	(void)state;
	assert_int_equal(parse(&o, "-l", "2000", NULL), 0);
	assert_int_equal(o.cfg.loops, 2000);
	assert_int_equal(o.cfg.duration_ns, 0);
	latency_opts_free(&o);
	assert_int_equal(parse(&o, "-l2000", "-D", "5s", NULL), 0);
	assert_int_equal(o.cfg.loops, 2000);
	assert_int_equal(o.cfg.duration_ns, 5000000000ULL);
	latency_opts_free(&o);
	assert_int_equal(parse(&o, "--loops", "0", NULL), -EINVAL);
	assert_non_null(strstr(errbuf, "--loops"));
	latency_opts_free(&o);
	assert_int_equal(parse(&o, "-l", "many", NULL), -EINVAL);
	latency_opts_free(&o);
	/* -v's samples and JSON cannot share standard output. */
	assert_int_equal(parse(&o, "-v", "-f", "json", NULL), -EINVAL);
	assert_non_null(strstr(errbuf, "--output"));
	latency_opts_free(&o);
	assert_int_equal(parse(&o, "-v", "-f", "json", "--output", "x.json", NULL), 0);
	latency_opts_free(&o);
	assert_int_equal(parse(&o, "--json=", NULL), -EINVAL);
	latency_opts_free(&o);
	assert_int_equal(parse(&o, "-h", "10", "--bucket", "300", NULL), -EINVAL);
	latency_opts_free(&o);
}

static void test_threads_forms(void **state)
{
	struct latency_opts o;

	(void)state;
	assert_int_equal(parse(&o, "-t", "3", "-q", NULL), 0);
	assert_int_equal(o.threads, 3);
	assert_true(o.quiet);
	latency_opts_free(&o);
	assert_int_equal(parse(&o, "-t2", NULL), 0);
	assert_int_equal(o.threads, 2);
	latency_opts_free(&o);
	assert_int_equal(parse(&o, "-t", "-q", NULL), 0);
	assert_int_equal(o.threads, 0);
	assert_true(o.quiet);
	latency_opts_free(&o);
	assert_int_equal(parse(&o, "--threads=4", NULL), 0);
	assert_int_equal(o.threads, 4);
	latency_opts_free(&o);
	assert_int_equal(parse(&o, "-t0", NULL), -EINVAL);
	latency_opts_free(&o);
}

static void refused(const char *want, ...)
{
	char *argv[16] = { "latency" };
	struct latency_opts o;
	int argc = 1;
	va_list ap;
	char *a;

	va_start(ap, want);
	while ((a = va_arg(ap, char *)) != NULL && argc < 15)
		argv[argc++] = a;
	va_end(ap);
	errbuf[0] = '\0';
	assert_int_equal(cli_parse_cmd(&latency_cmd, argc, argv, &o, errbuf, sizeof(errbuf)), -EINVAL);
	if (!strstr(errbuf, want))
		fail_msg("message '%s' lacks '%s'", errbuf, want);
	latency_opts_free(&o);
}

static void test_refusals(void **state)
{
	(void)state;
	refused("priority 99 is refused", "-p", "99", NULL);
	refused("1..98", "-p", "0", NULL);
	refused("1..98", "-p", "100", NULL);
	refused("1..98", "-p", "x", NULL);
	refused("not fifo, rr or deadline", "--policy", "other", NULL);
	refused("needs --runtime", "--policy", "deadline", NULL);
	refused("'5' is not a time from 10us to 10s", "-i", "5", NULL);
	refused("is not a time", "-i", "20s", NULL);
	refused("is not a time", "-D", "ten", NULL);
	refused("is not a time", "-D", "-1", NULL);
	refused("at least one --bucket", "-h", "1", "--bucket", "5us", NULL);
	refused("--histfile needs microsecond rows", "--bucket", "300", "--histfile", "f", NULL);
	refused("not a CPU list", "-a", "x", NULL);
	refused("'0' is not a time longer than 0", "--threshold", "0", NULL);
	refused("0..2000000000", "--dma-latency", "-1", NULL);
	refused("not one of text, json", "-f", "xml", NULL);
	refused("unknown option", "--frobnicate", NULL);
	refused("needs a value", "-i", NULL);
	refused("unexpected argument", "extra", NULL);
}

static void test_deadline_opts(void **state)
{
	struct latency_opts o;

	(void)state;
	assert_int_equal(parse(&o, "--policy", "deadline", "--runtime", "200", "--deadline",
			       "800us", "--period", "1ms", NULL), 0);
	assert_int_equal(o.cfg.policy, RTR_SCHED_DEADLINE);
	assert_int_equal(o.cfg.dl_runtime_ns, 200000);
	assert_int_equal(o.cfg.dl_deadline_ns, 800000);
	assert_int_equal(o.cfg.dl_period_ns, 1000000);
	assert_int_equal(o.cfg.interval_ns, 1000000);
	latency_opts_free(&o);
	/* The period from -i, the deadline from the period. */
	assert_int_equal(parse(&o, "--policy", "deadline", "--runtime", "0.1ms", "-i", "2000",
			       NULL), 0);
	assert_int_equal(o.cfg.dl_runtime_ns, 100000);
	assert_int_equal(o.cfg.dl_period_ns, 2000000);
	assert_int_equal(o.cfg.dl_deadline_ns, 2000000);
	latency_opts_free(&o);
	refused("need --policy deadline", "--runtime", "100", NULL);
	refused("runtime <= --deadline <= --period", "--policy", "deadline", "--runtime", "300",
		"--deadline", "200", "--period", "1000", NULL);
	refused("runtime <= --deadline <= --period", "--policy", "deadline", "--runtime", "100",
		"--deadline", "2000", "--period", "1000", NULL);
	refused("does not apply", "--policy", "deadline", "-p", "10", "--runtime", "100", NULL);
	refused("differ", "--policy", "deadline", "-i", "500", "--runtime", "100", "--period",
		"1000", NULL);
}

/* cyclicdeadline's bookkeeping: origin moved by early jobs, whole periods missed. */
static void test_dl_job(void **state)
{
	int64_t ps = 1000000;
	uint64_t missed = 0;

	(void)state;
	/* On time, then 30 us late: the next period follows. */
	assert_int_equal(latency_dl_job(&ps, 1000000, 1000000, 800000, &missed), 0);
	assert_int_equal(ps, 2000000);
	assert_int_equal(latency_dl_job(&ps, 2030000, 1000000, 800000, &missed), 30000);
	assert_int_equal(ps, 3000000);
	/* Earlier than thought: the origin moves there, not a negative latency. */
	assert_int_equal(latency_dl_job(&ps, 2990000, 1000000, 800000, &missed), 0);
	assert_int_equal(ps, 3990000);
	assert_int_equal(missed, 0);
	/* 2.5 periods late: two periods missed, the next period from this start. */
	assert_int_equal(latency_dl_job(&ps, 6490000, 1000000, 800000, &missed), 2500000);
	assert_int_equal(missed, 2);
	assert_int_equal(ps, 7490000);
	/* Past the deadline within the period: the kernel's new period begins now. */
	assert_int_equal(latency_dl_job(&ps, 8390000, 1000000, 800000, &missed), 900000);
	assert_int_equal(missed, 2);
	assert_int_equal(ps, 9390000);
	/* The kernel had kept its grid after all: that job starts early, the origin follows. */
	assert_int_equal(latency_dl_job(&ps, 8995000, 1000000, 800000, &missed), 0);
	assert_int_equal(ps, 9995000);
}

/*
 * The kernel begins a DEADLINE thread's first period inside sched_setattr
 * and keeps that grid: every job, the first too, is late against it. A
 * grid taken from the first job's start (cyclicdeadline's) would read 0,
 * 14, 0, 33 and 2 us here: short by the first job's own wake-up.
 */
static void test_dl_origin(void **state)
{
	const int64_t origin = 5000000000, period = 4000000;
	const int64_t late[] = { 31000, 45000, 27000, 60000, 29000 };
	uint64_t missed = 0;
	int64_t ps;

	(void)state;
	/* After three warm-up jobs (three yields), the first measured one. */
	ps = latency_dl_first(origin, origin + 3 * period + late[0], period);
	assert_int_equal(ps, origin + 3 * period);
	for (int64_t k = 0; k < 5; k++)
		assert_int_equal(latency_dl_job(&ps, origin + (3 + k) * period + late[k], period,
						period, &missed),
				 late[k]);
	assert_int_equal(missed, 0);
	/* A start read before the origin (within the call's length): that start. */
	assert_int_equal(latency_dl_first(origin, origin - 300, period), origin - 300);
}

/*
 * After a 95 ms stall the thread reads its deadline and follows the
 * kernel. The guess from the job's start alone (latency_dl_job) takes the
 * new period to begin at the job's start, 30 us after the timer fired
 * here, and would read every later job 30 us short.
 */
static void test_dl_resync(void **state)
{
	const int64_t period = 4000000, offset = -1500;	/* run-queue clock 1.5 us ahead */
	const int64_t pk = 9000000000, fired = pk + 95000000, start = fired + 30000;
	uint64_t missed = 0;
	int64_t ps = pk, next;

	(void)state;
	assert_int_equal(latency_dl_job(&ps, start, period, period, &missed), start - pk);
	assert_int_equal(ps, start + period);	/* the guess */
	/* The timer fired after the deadline: the kernel's period began then. */
	next = latency_dl_resync(fired - offset + period, offset, period, period);
	assert_int_equal(next, fired + period);
	assert_int_equal(latency_dl_job(&next, fired + period + 41000, period, period, &missed),
			 41000);
	/* Only the thread was held up: the kernel kept its grid (deadline pk + D). */
	next = latency_dl_resync(pk - offset + period, offset, period, period);
	assert_int_equal(next, pk + period);
}

static void test_load_kinds(void **state)
{
	enum latency_load_kind k;
	struct load_config c;
	struct latency_opts o;

	(void)state;
	assert_int_equal(parse(&o, "--load", "all", NULL), 0);
	assert_true(o.has_load);
	assert_int_equal(o.load, LATENCY_LOAD_ALL);
	latency_opts_free(&o);
	refused("not one of hackbench, cpu, memory, all", "--load", "oom", NULL);
	assert_int_equal(latency_load_parse("hackbench", &k), 0);
	assert_string_equal(latency_load_name(k), "hackbench");
	assert_int_equal(latency_load_parse("HACKBENCH", &k), -EINVAL);

	/* Every kind runs until stopped, and only what it names. */
	assert_int_equal(latency_load_config(LATENCY_LOAD_HACKBENCH, 4, &c), 0);
	assert_true(c.groups > 0);
	assert_int_equal(c.runs, 0);
	assert_int_equal(c.duration_ns, 0);
	assert_int_equal(c.cpu_hogs, 0);
	assert_int_equal(c.memory_bytes, 0);
	load_config_free(&c);
	assert_int_equal(latency_load_config(LATENCY_LOAD_CPU, 4, &c), 0);
	assert_int_equal(c.groups, 0);
	assert_int_equal(c.cpu_hogs, 4);
	load_config_free(&c);
	assert_int_equal(latency_load_config(LATENCY_LOAD_MEMORY, 4, &c), 0);
	assert_int_equal(c.groups, 0);
	assert_int_equal(c.memory_bytes, LATENCY_LOAD_MEMORY_BYTES);
	load_config_free(&c);
	assert_int_equal(latency_load_config(LATENCY_LOAD_ALL, 2, &c), 0);
	assert_true(c.groups > 0 && c.cpu_hogs == 2 && c.memory_bytes > 0);
	assert_false(c.oom);
	load_config_free(&c);
}

static void test_stats(void **state)
{
	struct latency_stats s;
	struct rtr_hist h;

	(void)state;
	assert_int_equal(rtr_hist_init(&h, 1000, 100000, 4), 0);
	latency_stats_compute(&h, 0, &s);
	assert_int_equal(s.samples, 0);
	assert_int_equal(s.min_ns, 0);
	assert_int_equal(s.max_ns, 0);
	assert_int_equal(s.p99_ns, 0);
	/* 1000 samples: 990 at 5.5 us, 9 at 50.5 us, one overflow at 200 us. */
	for (int i = 0; i < 990; i++)
		rtr_hist_add(&h, 5500);
	for (int i = 0; i < 9; i++)
		rtr_hist_add(&h, 50500);
	rtr_hist_add(&h, 200000);
	latency_stats_compute(&h, 7, &s);
	assert_int_equal(s.samples, 1000);
	assert_int_equal(s.min_ns, 5500);
	assert_int_equal(s.max_ns, 200000);
	assert_int_equal(s.overflows, 1);
	assert_int_equal(s.missed, 7);
	assert_int_equal(s.avg_ns, (990 * 5500 + 9 * 50500 + 200000) / 1000);
	assert_true(s.min_ns <= s.p50_ns && s.p50_ns <= s.p99_ns && s.p99_ns <= s.p999_ns &&
		    s.p999_ns <= s.max_ns);
	assert_int_equal(s.p50_ns, 5999);	/* upper edge of the 5 us bucket */
	assert_int_equal(s.p99_ns, 5999);
	assert_int_equal(s.p999_ns, 50999);
	rtr_hist_free(&h);
}

static void set(struct rtr_cpuset *s, const char *list)
{
	assert_int_equal(rtr_cpuset_parse_list(s, list), 0);
}

static void test_default_cpus(void **state)
{
	struct rtr_cpuset online = RTR_CPUSET_INIT, iso = RTR_CPUSET_INIT;
	struct rtr_cpuset allowed = RTR_CPUSET_INIT, out = RTR_CPUSET_INIT;
	char buf[64];

	(void)state;
	/* Isolated CPUs are not in an inherited mask, but are measured. */
	set(&online, "0-3");
	set(&iso, "2-3");
	set(&allowed, "0-1");
	assert_int_equal(latency_default_cpus(&online, &iso, &allowed, &out), 0);
	rtr_cpuset_format_list(&out, buf, sizeof(buf));
	assert_string_equal(buf, "0-3");
	/* A CPU we may use but that went offline is dropped. */
	set(&online, "0,2-3");
	set(&iso, "");
	set(&allowed, "0-3");
	assert_int_equal(latency_default_cpus(&online, &iso, &allowed, &out), 0);
	rtr_cpuset_format_list(&out, buf, sizeof(buf));
	assert_string_equal(buf, "0,2-3");
	set(&online, "0-1");
	set(&allowed, "4");
	assert_int_equal(latency_default_cpus(&online, &iso, &allowed, &out), -ENOENT);
	rtr_cpuset_free(&online);
	rtr_cpuset_free(&iso);
	rtr_cpuset_free(&allowed);
	rtr_cpuset_free(&out);
}

static void test_dma_latency_read(void **state)
{
	char path[] = "/tmp/rtr-dma-XXXXXX", text[160];
	struct dma_latency_state st;
	int32_t v = 20;
	int fd;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, &v, sizeof(v)), sizeof(v));
	close(fd);
	assert_int_equal(dma_latency_read(path, &st), 0);
	assert_true(st.present);
	assert_int_equal(st.current_us, 20);
	dma_latency_describe(&st, text, sizeof(text));
	assert_non_null(strstr(text, "20 us, requested by another process"));

	st.current_us = DMA_LATENCY_NONE_US;
	dma_latency_describe(&st, text, sizeof(text));
	assert_non_null(strstr(text, "no request"));
	st.held = true;
	st.held_us = 0;
	st.current_us = 0;
	dma_latency_describe(&st, text, sizeof(text));
	assert_non_null(strstr(text, "held at 0 us by this run"));

	/* A short read is an error, not a value. */
	fd = open(path, O_WRONLY | O_TRUNC);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "ab", 2), 2);
	close(fd);
	assert_int_equal(dma_latency_read(path, &st), -EIO);
	unlink(path);
	assert_int_equal(dma_latency_read(path, &st), 0);
	assert_false(st.present);
	dma_latency_describe(&st, text, sizeof(text));
	assert_non_null(strstr(text, "absent"));
}

/* Two CPUs, the second crossed a threshold. */
static void make_result(struct latency_result *r)
{
	memset(r, 0, sizeof(*r));
	latency_config_init(&r->cfg);
	r->cfg.range_ns = 10000;
	r->cfg.threshold_ns = 8000;
	set(&r->cfg.cpus, "2-3");
	r->n_cpus = 2;
	r->cpus = calloc(2, sizeof(*r->cpus));
	assert_non_null(r->cpus);
	assert_int_equal(rtr_hist_init(&r->total, 1000, 10000, 4), 0);
	for (int i = 0; i < 2; i++) {
		struct latency_cpu_result *c = &r->cpus[i];

		c->cpu = 2 + i;
		c->tid = 100 + i;
		assert_int_equal(rtr_hist_init(&c->hist, 1000, 10000, 4), 0);
		rtr_hist_add(&c->hist, 1500);
		rtr_hist_add(&c->hist, 2500);
		if (i == 1)
			rtr_hist_add(&c->hist, 25000);
		latency_stats_compute(&c->hist, 0, &c->stats);
		assert_int_equal(rtr_hist_merge(&r->total, &c->hist), 0);
	}
	latency_stats_compute(&r->total, 0, &r->total_stats);
	r->stop = LATENCY_STOP_THRESHOLD;
	r->hit_cpu = 3;
	r->hit_cycle = 2;
	r->hit_ns = 25000;
	r->elapsed_ns = 3000000;
	r->dma.present = true;
	r->dma.current_us = DMA_LATENCY_NONE_US;
}

static json_int_t jint(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	assert_non_null(v);
	assert_true(json_is_integer(v));
	return json_integer_value(v);
}

static void test_json(void **state)
{
	struct host_info host = { "6.0", "0-3", "", "/" };
	struct latency_result r;
	json_t *j, *threads, *t1, *h, *counts, *stop, *sum;
	json_int_t total = 0;

	(void)state;
	make_result(&r);
	j = latency_to_json(&r, &host);
	assert_non_null(j);
	assert_string_equal(json_string_value(json_object_get(j, "command")), "latency");
	assert_string_equal(json_string_value(json_object_get(json_object_get(j, "config"),
							      "cpus")), "2-3");
	threads = json_object_get(j, "threads");
	assert_int_equal(json_array_size(threads), 2);
	t1 = json_array_get(threads, 1);
	assert_int_equal(jint(t1, "cpu"), 3);
	assert_int_equal(jint(t1, "samples"), 3);
	assert_int_equal(jint(t1, "overflows"), 1);
	assert_int_equal(jint(t1, "max_ns"), 25000);
	assert_int_equal(jint(t1, "min_ns"), 1500);
	jint(t1, "p50_ns");
	jint(t1, "p99_ns");
	jint(t1, "p999_ns");
	jint(t1, "avg_ns");
	assert_int_equal(json_integer_value(json_array_get(json_object_get(t1, "outliers"), 0)),
			 25000);
	h = json_object_get(t1, "histogram");
	assert_int_equal(jint(h, "bucket_ns"), 1000);
	assert_int_equal(jint(h, "range_ns"), 10000);
	counts = json_object_get(h, "counts");
	/* Sparse (schema_version 2): [index, count] of the non-empty buckets only. */
	assert_int_equal(jint(j, "schema_version"), 2);
	assert_int_equal(json_array_size(counts), 2);
	assert_int_equal(json_integer_value(json_array_get(json_array_get(counts, 0), 0)), 1);
	assert_int_equal(json_integer_value(json_array_get(json_array_get(counts, 0), 1)), 1);
	assert_int_equal(json_integer_value(json_array_get(json_array_get(counts, 1), 0)), 2);
	assert_int_equal(json_integer_value(json_array_get(json_array_get(counts, 1), 1)), 1);
	for (size_t i = 0; i < json_array_size(counts); i++)
		total += json_integer_value(json_array_get(json_array_get(counts, i), 1));
	assert_int_equal(total + jint(t1, "overflows"), jint(t1, "samples"));
	sum = json_object_get(j, "summary");
	assert_int_equal(jint(sum, "samples"), 5);
	assert_int_equal(jint(sum, "cpus"), 2);
	stop = json_object_get(j, "stop");
	assert_string_equal(json_string_value(json_object_get(stop, "reason")), "threshold");
	assert_int_equal(jint(json_object_get(stop, "threshold"), "cpu"), 3);
	assert_int_equal(jint(json_object_get(stop, "threshold"), "cycle"), 2);
	assert_int_equal(jint(json_object_get(stop, "threshold"), "value_ns"), 25000);
	assert_true(json_is_false(json_object_get(json_object_get(j, "dma_latency"), "held")));
	json_decref(j);
	latency_result_free(&r);
}

static void test_text(void **state)
{
	struct latency_result r;
	char *buf = NULL;
	size_t len = 0;
	FILE *fp;

	(void)state;
	make_result(&r);
	fp = open_memstream(&buf, &len);
	assert_int_equal(latency_text_write(fp, &r, false, false), 0);
	fclose(fp);
	assert_non_null(strstr(buf, "CPU 2-3: SCHED_FIFO 80, interval 1000 us"));
	assert_non_null(strstr(buf, "threshold 8.0 us exceeded on CPU 3 at wake-up 2: 25.0 us late"));
	assert_non_null(strstr(buf, "CPU 3: 25.0 us"));
	assert_non_null(strstr(buf, "  all "));
	assert_null(strstr(buf, "\033["));
	free(buf);

	/* -N: the table in ns. */
	fp = open_memstream(&buf, &len);
	assert_int_equal(latency_text_write(fp, &r, false, true), 0);
	fclose(fp);
	assert_non_null(strstr(buf, "(latencies in ns)"));
	free(buf);
	latency_result_free(&r);
}

/* cyclictest's -q end lines, byte for byte (rt-tests 2.x print_stat). */
static void test_tlines(void **state)
{
	struct latency_result r;
	char *buf = NULL;
	size_t len = 0;
	FILE *fp;

	(void)state;
	make_result(&r);
	for (size_t i = 0; i < r.n_cpus; i++)
		r.cpus[i].last_ns = 4321 + i * 1000;
	fp = open_memstream(&buf, &len);
	assert_int_equal(latency_text_tlines(fp, &r, false), 0);
	fclose(fp);
	assert_string_equal(buf,
			    "T: 0 (  100) P:80 I:1000 C:      2 Min:      1 Act:    4 Avg:    2 Max:"
			    "       2\n"
			    "T: 1 (  101) P:80 I:1000 C:      3 Min:      1 Act:    5 Avg:    9 Max:"
			    "      25\n");
	free(buf);
	fp = open_memstream(&buf, &len);
	assert_int_equal(latency_text_tlines(fp, &r, true), 0);
	fclose(fp);
	assert_non_null(strstr(buf, " Act:    4321 Avg:"));
	free(buf);
	latency_result_free(&r);
}

/* The summary of @r shaped by @sh, in a string (free() it). */
static char *capture_summary(const struct latency_result *r, const struct latency_text_shape *sh)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	assert_non_null(fp);
	assert_int_equal(latency_text_summary(fp, r, sh), 0);
	fclose(fp);
	return buf;
}

/* -q, -h and -H shape the summary as cyclictest's end output. */
static void test_summary_shape(void **state)
{
	const struct histfile_opts ho = { .sum_column = true };
	struct host_info host = { "6.0", "0-3", "", "/" };
	struct latency_text_shape sh = { 0 };
	struct latency_result r;
	char *table, *tl, *hist, *got, *want, *line = NULL;
	size_t len = 0;
	FILE *fp;

	(void)state;
	make_result(&r);
	table = capture_summary(&r, &sh);
	fp = open_memstream(&tl, &len);
	assert_int_equal(latency_text_tlines(fp, &r, false), 0);
	fclose(fp);
	fp = open_memstream(&hist, &len);
	assert_int_equal(histfile_write(fp, &r, &ho), 0);
	fclose(fp);
	/* -q -H: the histogram alone, with the summing column. */
	sh = (struct latency_text_shape){ .quiet = true, .hist = true, .sum_column = true };
	got = capture_summary(&r, &sh);
	assert_string_equal(got, hist);
	free(got);
	/* -q: the T: lines, a blank line, the table. */
	sh = (struct latency_text_shape){ .quiet = true };
	got = capture_summary(&r, &sh);
	assert_true(asprintf(&want, "%s\n%s", tl, table) > 0);
	assert_string_equal(got, want);
	free(got);
	free(want);
	/* -H without -q: the table, a blank line, the histogram. */
	sh = (struct latency_text_shape){ .hist = true, .sum_column = true };
	got = capture_summary(&r, &sh);
	assert_true(asprintf(&want, "%s\n%s", table, hist) > 0);
	assert_string_equal(got, want);
	free(got);
	free(want);
	/* JSON: one line unless pretty. */
	fp = open_memstream(&line, &len);
	assert_int_equal(latency_json_write(fp, &r, &host, false), 0);
	fclose(fp);
	assert_ptr_equal(strchr(line, '\n'), line + strlen(line) - 1);
	free(line);
	fp = open_memstream(&line, &len);
	assert_int_equal(latency_json_write(fp, &r, &host, true), 0);
	fclose(fp);
	assert_true(strchr(line, '\n') < line + strlen(line) - 1);
	free(line);
	free(table);
	free(tl);
	free(hist);
	latency_result_free(&r);
}

/*
 * A run leaves RLIMIT_RTTIME as it found it, also where the process may not
 * raise a hard limit again (no CAP_SYS_RESOURCE): a later realtime thread of
 * the same process must not be killed by the run's guard.
 */
static void test_rttime_restored(void **state)
{
	struct latency_result res;
	struct latency_config cfg;
	struct latency_run *run = NULL;
	struct rlimit before, after;
	char why[256] = "";
	int err;

	(void)state;
	memset(&res, 0, sizeof(res));
	assert_int_equal(getrlimit(RLIMIT_RTTIME, &before), 0);
	latency_config_init(&cfg);
	cfg.loops = 3;
	cfg.duration_ns = 1000000000ULL;
	cfg.mlock = false;
	assert_int_equal(rtr_cpuset_set(&cfg.cpus, 0), 0);
	err = latency_run_start(&cfg, -1, &run, why, sizeof(why));
	if (err == -EPERM) {
		latency_config_free(&cfg);
		skip();	/* not allowed SCHED_FIFO here */
	}
	assert_int_equal(err, 0);
	latency_run_wait(run, 0, NULL, NULL);
	assert_int_equal(latency_run_finish(run, &res), 0);
	latency_run_free(run);
	assert_int_equal(getrlimit(RLIMIT_RTTIME, &after), 0);
	assert_true(after.rlim_cur == before.rlim_cur);
	assert_true(after.rlim_max == before.rlim_max);
	latency_result_free(&res);
	latency_config_free(&cfg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_cyclictest_letters),
		cmocka_unit_test(test_threads_forms),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_deadline_opts),
		cmocka_unit_test(test_dl_job),
		cmocka_unit_test(test_dl_origin),
		cmocka_unit_test(test_dl_resync),
		cmocka_unit_test(test_load_kinds),
		cmocka_unit_test(test_stats),
		cmocka_unit_test(test_default_cpus),
		cmocka_unit_test(test_dma_latency_read),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_tlines),
		cmocka_unit_test(test_summary_shape),
		cmocka_unit_test(test_rttime_restored),
		cmocka_unit_test(test_loops),
	};

	return unit_run(tests, NULL, NULL);
}
