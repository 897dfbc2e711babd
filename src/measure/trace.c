// SPDX-License-Identifier: MIT
/*
 * Helpers of --trace that do not depend on libtracefs: names of kinds,
 * phases and softirq vectors, priority conversion, the default file name
 * and the signal mask held while tracing is set up and read back.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "measure/trace.h"

const char *trace_kind_name(enum trace_kind k)
{
	switch (k) {
	case TRACE_KIND_TASK: return "task";
	case TRACE_KIND_IRQ: return "irq";
	case TRACE_KIND_SOFTIRQ: return "softirq";
	case TRACE_KIND_TIMER: return "timer";
	case TRACE_KIND_UNKNOWN: return "unknown";
	}
	return "unknown";
}

const char *trace_phase_name(enum trace_phase p)
{
	switch (p) {
	case TRACE_PHASE_TIMER: return "timer";
	case TRACE_PHASE_WAIT: return "wait";
	case TRACE_PHASE_RESUME: return "resume";
	case TRACE_PHASE_UNKNOWN: return "unknown";
	}
	return "unknown";
}

/* The kernel's softirq vectors (include/linux/interrupt.h), in order. */
const char *trace_softirq_name(int vec)
{
	static const char *const names[] = {
		"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK",
		"IRQ_POLL", "TASKLET", "SCHED", "HRTIMER", "RCU",
	};

	if (vec < 0 || (size_t)vec >= sizeof(names) / sizeof(names[0]))
		return "softirq";
	return names[vec];
}

/*
 * The kernel keeps prio = 99 - rt_priority for realtime tasks (MAX_RT_PRIO
 * is 100) and 100..139 for the others; -1 is SCHED_DEADLINE.
 */
int trace_rt_priority(int kernel_prio)
{
	if (kernel_prio >= 0 && kernel_prio < 100)
		return 99 - kernel_prio;
	return 0;
}

int trace_default_file(const char *output, char *buf, size_t len)
{
	const char *slash = output ? strrchr(output, '/') : NULL;
	int n;

	if (slash)
		n = snprintf(buf, len, "%.*s/%s", (int)(slash - output), output,
			     TRACE_DEFAULT_FILE);
	else
		n = snprintf(buf, len, "%s", TRACE_DEFAULT_FILE);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

static void stop_signals(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGHUP);
}

void trace_signals_hold(sigset_t *old)
{
	sigset_t set;

	stop_signals(&set);
	pthread_sigmask(SIG_BLOCK, &set, old);
}

void trace_signals_release(const sigset_t *old)
{
	struct timespec zero = { 0, 0 };
	sigset_t set;

	stop_signals(&set);
	/* Bounded: each call takes one pending signal, there are three kinds. */
	for (int i = 0; i < 4 && sigtimedwait(&set, NULL, &zero) > 0; i++)
		;
	pthread_sigmask(SIG_SETMASK, old, NULL);
}
