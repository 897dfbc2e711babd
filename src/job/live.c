// SPDX-License-Identifier: MIT
/* The live lines and -v's samples of `rtready latency`; see live.h. */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio_ext.h>
#include <stdlib.h>

#include "job/live.h"
#include "render/latency.h"

/*
 * The live output could not be written (a closed pipe: `latency -v | head`).
 * Every signal is blocked during the run, so the write returned EPIPE and
 * left SIGPIPE pending on this thread: take it, or it would kill rtready
 * when the mask is restored, before the reason is told. Then stop the run.
 */
static void live_broken(struct live_ctx *l)
{
	const struct timespec zero = { 0, 0 };
	sigset_t sigpipe;

	l->out_err = errno ? -errno : -EIO;
	/* Said once, here: what is left in the buffer has nowhere to go. */
	__fpurge(l->out);
	clearerr(l->out);
	sigemptyset(&sigpipe);
	sigaddset(&sigpipe, SIGPIPE);
	while (sigtimedwait(&sigpipe, NULL, &zero) == SIGPIPE)
		;
	latency_run_stop(l->run);
}

/* -v: cyclictest's "%8d:%8lu:%8ld" sample lines (thread, wake-up, latency). */
static void print_sample(void *ctx, size_t thread, uint64_t cycle, uint64_t ns)
{
	struct live_ctx *l = ctx;

	fprintf(l->out, "%8zu:%8" PRIu64 ":%8" PRIu64 "\n", thread, cycle,
		l->in_ns ? ns : ns / 1000);
}

void live_tick(void *ctx, const struct latency_live_view *v, size_t n)
{
	struct live_ctx *l = ctx;

	if (l->out_err)
		return;
	errno = 0;
	if (l->verbose) {
		latency_run_drain(l->run, print_sample, l, l->lost);
		for (size_t i = 0; i < n; i++) {
			if (l->lost[i] == l->told[i])
				continue;
			fprintf(l->out, "# T:%zu: %" PRIu64 " samples not shown: the output did not "
				"keep up\n", i, l->lost[i] - l->told[i]);
			l->told[i] = l->lost[i];
		}
	}
	if (l->show) {
		latency_text_live(l->out, l->cfg, v, n, l->drawn, l->in_ns);
		l->drawn = true;
	}
	if (fflush(l->out) == EOF || ferror(l->out))
		live_broken(l);
}

/* -v: the run's samples are drained from the live tick. */
void live_started(void *ctx, struct latency_run *run)
{
	struct live_ctx *live = ctx;

	live->run = run;
	if (live->verbose) {
		live->lost = calloc(latency_run_ncpus(run), sizeof(*live->lost));
		live->told = calloc(latency_run_ncpus(run), sizeof(*live->told));
		if (!live->lost || !live->told)
			live->verbose = false;
	}
}

void live_free(struct live_ctx *l)
{
	free(l->lost);
	free(l->told);
}
