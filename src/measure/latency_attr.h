/* SPDX-License-Identifier: MIT */
/*
 * The causes of late wake-ups of `rtready latency --trace`, named as
 * `rtready noise` names them, by the same matcher (noise_match_wakeup(),
 * src/measure/noise_match.c):
 *
 *   - with --trace (the first hit), the cause of that hit, with the steal
 *     time of its CPU around it as evidence: a woken thread that waited
 *     while its CPU's idle task was current, with steal rising, is
 *     "hypervisor" (the host did not run the vCPU), not "swapper ran";
 *   - with --trace-all, every wake-up over the threshold: the run goes on
 *     past it, a whole-run trace of the measured CPUs is drained while it
 *     runs, each wake-up the threads publish is matched as soon as its
 *     events are in, and each CPU gets a cause table. Events older than
 *     what the pending wake-ups need are dropped, so memory stays bounded
 *     over a long run.
 *
 * Steal time (/proc/stat) of the measured CPUs is sampled every 10 ms by
 * the (non-realtime) main thread, from latency_run_wait()'s poll hook.
 */
#ifndef RTR_MEASURE_LATENCY_ATTR_H
#define RTR_MEASURE_LATENCY_ATTR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "measure/latency.h"

#define LATENCY_ATTR_POLL_NS 10000000ULL	/* steal sampled every 10 ms */

struct latency_attr;

/*
 * latency_attr_start() - sample steal of @cfg's CPUs; with @all, also start
 * a whole-run trace of them (tracefs), read on each poll.
 * @why: what is missing when the trace cannot be set up.
 * Return: 0, -ENOMEM, or the -errno of trace_session_start_run() (@all).
 */
int latency_attr_start(const struct latency_config *cfg, bool all, struct latency_attr **out,
		       char *why, size_t whylen) __attribute__((warn_unused_result));

/* Read the published wake-ups of @run while it runs (@all). Call before latency_run_wait(). */
void latency_attr_attach(struct latency_attr *a, struct latency_run *run);

/* The poll hook (latency_run_on_poll(), every LATENCY_ATTR_POLL_NS). */
void latency_attr_poll(void *ctx, int64_t now_ns);

/*
 * latency_attr_finish() - after latency_run_finish() (and, with --trace,
 * trace_session_collect()): stop the trace, match what is left and fill
 * @res: the cause of res->trace's hit, or with @all every CPU's cause
 * table, res->trace_all and its note. Return: 0 or -ENOMEM.
 */
int latency_attr_finish(struct latency_attr *a, struct latency_result *res)
	__attribute__((warn_unused_result));

/* Stop and free (the trace put back). NULL: no-op. */
void latency_attr_free(struct latency_attr *a);

#endif
