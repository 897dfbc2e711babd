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

void trace_session_free(struct trace_session *s)
{
	(void)s;
}
