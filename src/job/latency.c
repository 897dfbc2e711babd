// SPDX-License-Identifier: MIT
/*
 * The run of `rtready latency` (job/latency.h): the CPUs from -a and -t,
 * the outputs checked before the measurement costs anything, the session
 * with its live lines, then the summary, --json, --histfile and the exit
 * status.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "job/latency.h"
#include "job/live.h"
#include "measure/histfile.h"
#include "measure/session.h"
#include "measure/trace.h"
#include "render/latency.h"

#define LIVE_REFRESH_NS (100 * 1000000ULL)

/*
 * The CPUs to measure: -a as given (each must be online), -a auto the
 * planned RT CPUs, else the default set (the CPUs we may run on, and the RT
 * CPUs); then -t. Return: 0, or -errno after printing why.
 */
static int resolve_cpus(const struct latency_opts *o, const struct target *t,
			struct rtr_cpuset *out, const struct job_ui *ui)
{
	struct rtr_cpuset allowed = RTR_CPUSET_INIT;
	char msg[4200];
	int err, cpu = -1;

	err = target_need_online(t, msg, sizeof(msg));
	if (!err && o->affinity.kind == RT_REQUEST_LIST) {
		err = target_check_online(t, "--affinity", &o->affinity.cpus, msg, sizeof(msg));
		err = err ?: rtr_cpuset_copy(out, &o->affinity.cpus);
	} else if (!err && o->affinity.kind == RT_REQUEST_AUTO) {
		err = rtr_cpuset_copy(out, &t->rt.cpus);
	} else if (!err) {
		err = rtr_cpuset_get_affinity(&allowed);
		err = err ?: latency_default_cpus(&t->facts.cpu.online, &t->rt.cpus, &allowed, out);
		if (err)
			snprintf(msg, sizeof(msg), "no CPU to measure on: %s", strerror(-err));
	}
	if (err) {
		say(&ui->say, false, "%s", msg);
		goto out;
	}
	if (o->threads) {
		size_t have = rtr_cpuset_count(out);

		if (o->threads > have) {
			say(&ui->say, false, "--threads %u: only %zu CPU%s to measure on", o->threads,
			    have, have == 1 ? "" : "s");
			err = -EINVAL;
			goto out;
		}
		/* Keep the first N. */
		cpu = -1;
		for (size_t i = 0; (cpu = rtr_cpuset_next(out, cpu)) >= 0; i++)
			if (i >= o->threads)
				rtr_cpuset_unset(out, cpu);
	}
out:
	rtr_cpuset_free(&allowed);
	return err;
}

static int write_histfile(const char *path, const struct latency_result *r,
			  const struct job_ui *ui)
{
	struct output out;
	int err = output_open(&out, path);

	if (err) {
		say(&ui->say, false, "cannot write %s: %s", path, strerror(-err));
		return err;
	}
	err = histfile_write(out.fp, r, NULL);
	err = output_close(&out, err == 0) ?: err;
	if (err)
		say(&ui->say, false, "cannot write %s: %s", path, strerror(-err));
	return err;
}

/*
 * The summary: JSON, or text shaped by cyclictest's options. With
 * --histfile the histogram goes there instead, as in cyclictest.
 */
static int render(const struct latency_opts *o, const struct latency_result *r,
		  struct output *out, const struct host_info *host, const struct job_ui *ui)
{
	const struct latency_text_shape s = { o->quiet, o->hist_print && !o->histfile,
					      o->histofall, o->in_ns, ui->use_color(out->fp) };

	if (o->format == FORMAT_JSON)
		return latency_json_write(out->fp, r, host, o->pretty);
	return latency_text_summary(out->fp, r, &s);
}

/* The exit status and, for a failed run, the reason on stderr. */
static int outcome(const struct latency_result *r, const struct job_ui *ui)
{
	uint64_t over = 0;

	for (size_t i = 0; r->cfg.threshold_all && i < r->n_cpus; i++)
		over += r->cpus[i].over_threshold;
	switch (r->stop) {
	case LATENCY_STOP_THRESHOLD:
		say(&ui->say, false, "threshold %.1f us exceeded on CPU %d at wake-up %llu: %.1f us",
		    (double)r->cfg.threshold_ns / 1000.0, r->hit_cpu,
		    (unsigned long long)r->hit_cycle, (double)r->hit_ns / 1000.0);
		return JOB_FINDINGS;
	case LATENCY_STOP_RUNAWAY:
		say(&ui->say, false, "a measuring thread ran without sleeping for %s (SIGXCPU from "
		    "RLIMIT_RTTIME); the run was stopped", "2 s");
		return JOB_FAILED;
	case LATENCY_STOP_ERROR:
		say(&ui->say, false, "a measuring thread failed: %s", strerror(-r->error));
		return JOB_FAILED;
	case LATENCY_STOP_DURATION:
	case LATENCY_STOP_SIGNAL:
	case LATENCY_STOP_LOOPS:
		break;
	}
	/* --trace-all went on past the threshold: passing it still fails the run. */
	if (over) {
		say(&ui->say, false, "threshold %.1f us exceeded by %llu wake-up%s",
		    (double)r->cfg.threshold_ns / 1000.0, (unsigned long long)over,
		    over == 1 ? "" : "s");
		return JOB_FINDINGS;
	}
	return JOB_OK;
}

/*
 * The session: the load, the trace, the run. Return: 0 with @res measured
 * (*@load_failed set when the load failed during it), or -errno after
 * printing why.
 */
static int measure(const struct latency_opts *o, const struct target *t,
		   struct latency_result *res, const struct output *out, bool *load_failed,
		   const struct job_ui *ui)
{
	struct live_ctx live = { .out = stdout, .cfg = &o->cfg, .verbose = o->verbose,
				 .in_ns = o->in_ns };
	struct latency_session s = { &o->cfg, o->dma_us, o->has_load, o->load, NULL,
				     (unsigned int)rtr_cpuset_count(&t->facts.cpu.online),
				     o->trace && !o->trace_all, o->trace_file, LIVE_REFRESH_NS, NULL,
				     live_started, &live, o->trace_all };
	struct session_outcome so;
	char file[4096];
	int err;

	if (s.trace && !o->trace_file) {
		if (trace_default_file(o->output, file, sizeof(file))) {
			say(&ui->say, false, "--trace: the --output name is too long for a trace file");
			return -ENAMETOOLONG;
		}
		s.trace_file = file;
	}
	/* Live lines only on a terminal, and never into the JSON on standard output. */
	live.show = !o->quiet && !o->verbose && isatty(STDOUT_FILENO) &&
		    !(o->format == FORMAT_JSON && out->fp == stdout);
	if (live.show || live.verbose)
		s.tick = live_tick;
	err = latency_session_run(&s, res, &so);
	live_free(&live);
	*load_failed = so.failed == SESSION_LOAD_FAILED;
	if (so.failed != SESSION_OK && so.failed != SESSION_STOPPED)
		say(&ui->say, false, "%s", so.why);
	if (!so.measured)
		return err;
	if (live.out_err) {
		say(&ui->say, false, "cannot write to standard output: %s; the run was stopped",
		    strerror(-live.out_err));
		return live.out_err;
	}
	if (live.show)
		fputc('\n', stdout);
	if (so.trace_note[0])
		say(&ui->say, false, "%s", so.trace_note);
	return 0;
}

/* Two outputs on one file would keep only the last one written: refuse them. */
static int check_collisions(const struct latency_opts *o, const struct job_ui *ui)
{
	struct output_file outs[4] = {
		{ "--output", o->output },
		{ "--json", o->json_file },
		{ "--histfile", o->histfile },
		{ "--trace-file", o->trace_file },
	};
	char trace[4096];

	if (o->trace && !o->trace_all && !o->trace_file) {
		if (trace_default_file(o->output, trace, sizeof(trace)) == 0)
			outs[3] = (struct output_file){ "the trace file", trace };
	}
	return job_collisions(ui, outs, 4, NULL, 0);
}

int latency_job_run(void *opts, const struct job_ui *ui)
{
	struct latency_opts *o = opts;
	struct latency_result res;
	struct host_info host;
	struct output out = { 0 }, jout = { 0 };
	bool written = false, jwritten = false, load_failed = false;
	int rc = JOB_FAILED, err;
	struct target *t = job_target_measure(ui, &o->affinity, &host);

	if (!t)
		return JOB_FAILED;
	memset(&res, 0, sizeof(res));
	err = resolve_cpus(o, t, &o->cfg.cpus, ui);
	if (err)
		goto out;
	if (check_collisions(o, ui))
		goto out;
	/*
	 * Check the outputs first: a bad path must not cost a measurement. A
	 * file's temporary twin is made only when the result is ready, so a
	 * kill -9 during the run leaves nothing beside it.
	 */
	if (job_out_reserve(ui, &out, o->output) ||
	    (o->json_file && job_out_reserve(ui, &jout, o->json_file)))
		goto out;
	err = o->histfile ? output_check(o->histfile) : 0;
	if (err) {
		say(&ui->say, false, "cannot write %s: %s", o->histfile, strerror(-err));
		goto out;
	}
	/* Its tracing would cost this measurement; --trace or not. */
	job_remove_stale_trace(ui);
	err = measure(o, t, &res, &out, &load_failed, ui);
	if (err)
		goto out;
	rc = load_failed ? JOB_FAILED : outcome(&res, ui);
	if (job_out_ready(ui, &out, o->output) ||
	    (o->json_file && job_out_ready(ui, &jout, o->json_file))) {
		rc = JOB_FAILED;
		goto out;
	}
	err = render(o, &res, &out, &host, ui);
	if (err) {
		say(&ui->say, false, "cannot write the result: %s", strerror(-err));
		rc = JOB_FAILED;
	}
	written = err == 0;
	if (o->json_file) {
		err = latency_json_write(jout.fp, &res, &host, o->pretty);
		if (err) {
			say(&ui->say, false, "cannot write %s: %s", o->json_file, strerror(-err));
			rc = JOB_FAILED;
		}
		jwritten = err == 0;
	}
	if (o->histfile && write_histfile(o->histfile, &res, ui))
		rc = JOB_FAILED;
out:
	if (o->json_file)
		job_out_close(ui, &jout, o->json_file, jwritten, &rc);
	job_out_close(ui, &out, o->output, written, &rc);
	latency_result_free(&res);
	host_info_free(&host);
	job_target_free(t);
	return rc;
}
