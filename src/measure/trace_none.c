// SPDX-License-Identifier: MIT
/*
 * The session of --trace in a build without libtracefs/libtraceevent
 * (meson -Dtracing=disabled, or the libraries were not found): every call
 * says what is missing, so that --trace fails with a clear message and
 * exit 2 instead of silently measuring without a trace.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "measure/trace.h"

bool trace_supported(void)
{
	return false;
}

int trace_session_start(const struct trace_options *opt, struct trace_session **out, char *why,
			size_t whylen)
{
	(void)opt;
	*out = NULL;
	snprintf(why, whylen,
		 "this rtready was built without kernel tracing: it needs libtracefs and "
		 "libtraceevent (Debian: libtracefs-dev libtraceevent-dev) at build time, then "
		 "'meson setup --reconfigure -Dtracing=enabled'");
	return -ENOTSUP;
}

int trace_session_start_run(const struct rtr_cpuset *cpus, unsigned int buffer_kb,
			    struct trace_session **out, char *why, size_t whylen)
{
	(void)cpus;
	(void)buffer_kb;
	return trace_session_start(NULL, out, why, whylen);
}

void trace_session_hit(void *session, const struct latency_hit *hit)
{
	(void)session;
	(void)hit;
}

int trace_session_collect(struct trace_session *s, const struct latency_result *res,
			  struct trace_result **out)
{
	(void)s;
	(void)res;
	*out = NULL;
	return -ENOTSUP;
}

int trace_session_drain(struct trace_session *s,
			void (*fn)(void *ctx, int cpu, const struct trace_ev *ev, long long missed),
			void *ctx)
{
	(void)s;
	(void)fn;
	(void)ctx;
	return -ENOTSUP;
}

void trace_session_stop(struct trace_session *s)
{
	(void)s;
}

void trace_session_free(struct trace_session *s)
{
	(void)s;
}
