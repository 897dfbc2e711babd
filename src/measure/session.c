// SPDX-License-Identifier: MIT
/* One latency session for latency and verify; see session.h. */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "measure/latency_attr.h"
#include "measure/session.h"
#include "measure/trace.h"

__attribute__((format(printf, 4, 5)))
static int failed(struct session_outcome *o, enum session_step step, int err, const char *fmt, ...)
{
	va_list ap;

	if (o->failed != SESSION_OK)
		return err;
	o->failed = step;
	o->err = err;
	va_start(ap, fmt);
	vsnprintf(o->why, sizeof(o->why), fmt, ap);
	va_end(ap);
	return err;
}

/* What stopped the run, when it was not the duration, the loops, a signal or the threshold. */
static void stop_reason(const struct latency_result *res, struct session_outcome *o)
{
	if (res->stop == LATENCY_STOP_RUNAWAY)
		failed(o, SESSION_STOPPED, -EINTR, "a measuring thread ran without sleeping for 2 s "
		       "(SIGXCPU from RLIMIT_RTTIME); the run was stopped");
	else if (res->stop == LATENCY_STOP_ERROR)
		failed(o, SESSION_STOPPED, res->error ? res->error : -EIO,
		       "a measuring thread failed: %s", strerror(res->error ? -res->error : EIO));
}

int latency_session_run(const struct latency_session *s, struct latency_result *res,
			struct session_outcome *o)
{
	struct trace_options to = { s->trace_file, &s->cfg->cpus };
	struct latency_run *run = NULL;
	struct trace_session *ts = NULL;
	struct latency_attr *attr = NULL;
	struct load *load = NULL;
	const char *kind = latency_load_name(s->load_kind);
	char why[512] = "";
	sigset_t held;
	int err = 0;

	memset(o, 0, sizeof(*o));
	/* The load first: its supervisor must not inherit the signal mask of the run. */
	if (s->load) {
		err = latency_load_begin(s->load_kind, s->load_cpus, s->load_ncpus, &load);
		if (err)
			return failed(o, SESSION_LOAD, err, "--load %s: cannot start the load: %s",
				      kind, strerror(-err));
	}
	/* Stop signals wait until the trace is put back (the run takes them meanwhile). */
	if (s->trace || s->trace_all) {
		trace_signals_hold(&held);
		/* --trace-all: a whole-run trace of its own; --trace: stopped at the hit. */
		err = s->trace_all ? 0 : trace_session_start(&to, &ts, why, sizeof(why));
		err = err ?: latency_attr_start(s->cfg, s->trace_all, &attr, why, sizeof(why));
		if (err) {
			failed(o, SESSION_TRACE, err, "%s: %s", s->trace_all ? "--trace-all" : "--trace",
			       why[0] ? why : strerror(-err));
			goto out;
		}
	}
	err = latency_run_start(s->cfg, s->dma_us, &run, why, sizeof(why));
	if (err) {
		failed(o, SESSION_START, err, "cannot measure latency: %s",
		       why[0] ? why : strerror(-err));
		goto out;
	}
	if (ts)
		latency_run_on_threshold(run, trace_session_hit, ts);
	if (attr) {
		latency_attr_attach(attr, run);
		latency_run_on_poll(run, LATENCY_ATTR_POLL_NS, latency_attr_poll, attr);
	}
	if (s->started)
		s->started(s->ctx, run);
	latency_run_wait(run, s->tick ? s->tick_ns : 0, s->tick, s->ctx);
	err = latency_run_finish(run, res);
	/* --trace-all reads the run's wake-ups: before it is freed. */
	if (!err && s->trace_all && attr && latency_attr_finish(attr, res))
		snprintf(o->trace_note, sizeof(o->trace_note),
			 "--trace-all: out of memory: some wake-ups are not attributed");
	latency_run_free(run);
	if (err) {
		failed(o, SESSION_COLLECT, err, "cannot collect the results: %s", strerror(-err));
		goto out;
	}
	o->measured = true;
	if (ts) {
		int terr = trace_session_collect(ts, res, &res->trace);

		if (terr)
			snprintf(o->trace_note, sizeof(o->trace_note),
				 "--trace: cannot analyse the trace: %s", strerror(-terr));
		else if (res->trace->file_error[0])
			snprintf(o->trace_note, sizeof(o->trace_note), "--trace: cannot write %.300s: %.200s",
				 res->trace->file, res->trace->file_error);
		if (!terr && attr && latency_attr_finish(attr, res))
			snprintf(o->trace_note, sizeof(o->trace_note), "--trace: out of memory");
	}
	if (load) {
		int lerr = latency_load_end(s->load_kind, load, &res->load);

		if (lerr)
			failed(o, SESSION_LOAD_FAILED, lerr,
			       "--load %s failed during the measurement: %s", res->load.kind,
			       res->load.error);
	}
	stop_reason(res, o);
	err = o->err;
out:
	if (s->trace || s->trace_all) {
		trace_session_free(ts);
		latency_attr_free(attr);
		trace_signals_release(&held);
	}
	if (load) {
		/* Stopped above unless something failed first; a second stop is a no-op. */
		load_stop(load);
		load_free(load);
	}
	return err;
}
