// SPDX-License-Identifier: MIT
/* verify's progress line on a terminal; see progress.h. */
#include <time.h>

#include "job/progress.h"
#include "util/clock.h"

void progress_begin(struct progress *p, int step, const char *what, int64_t duration_ns)
{
	p->step = step;
	p->what = what;
	p->start_ns = mono_ns();
	p->duration_ns = duration_ns;
	p->max_ns = 0;
	if (p->tty) {
		fprintf(p->tty, "\r\033[K[%d/3] %s ...", step, what);
		fflush(p->tty);
	}
}

void progress_tick(void *ctx, const struct latency_live_view *v, size_t n)
{
	struct progress *p = ctx;
	int64_t left = p->duration_ns - (mono_ns() - p->start_ns);

	for (size_t i = 0; i < n; i++)
		if (v[i].max_ns > p->max_ns)
			p->max_ns = v[i].max_ns;
	if (left < 0)
		left = 0;
	fprintf(p->tty, "\r\033[K[%d/3] %s: %lld s left, worst wake-up so far %.1f us", p->step,
		p->what, (long long)((left + 999999999) / 1000000000), (double)p->max_ns / 1000.0);
	fflush(p->tty);
}

void progress_end(struct progress *p, const char *how)
{
	if (!p->tty)
		return;
	fprintf(p->tty, "\r\033[K[%d/3] %s: %s\n", p->step, p->what, how);
	fflush(p->tty);
}
