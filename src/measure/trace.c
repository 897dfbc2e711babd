// SPDX-License-Identifier: MIT
/*
 * Helpers of --trace that do not depend on libtracefs: names of kinds,
 * phases and softirq vectors, priority conversion, the default file name,
 * the signal mask held while tracing is set up and read back, and the
 * removal of instances left by killed rtready processes.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <linux/magic.h>

#include "measure/trace.h"
#include "probe/rootfs.h"
#include "util/parse.h"
#include "util/pid.h"

/* Entries of instances/ looked at, at most. */
#define STALE_SCAN_MAX 4096

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

size_t trace_ev_first(const struct trace_ev *ev, size_t n, int64_t t)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ev[mid].ts_ns < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
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

/* Best effort (Return: 0 or -errno, unused): the rmdir that follows is what counts. */
static int write_zero(const struct rootfs *fs, const char *dir, const char *name,
		      const char *file)
{
	char path[PATH_MAX];

	if (snprintf(path, sizeof(path), "%s/%s/%s", dir, name, file) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	return rootfs_write(fs, path, "0", 1);
}

int trace_instance_remove(const char *name)
{
	const char *dir = TRACE_TRACEFS_DIR "/instances";
	char path[PATH_MAX];
	struct rootfs fs;
	int err = rootfs_open(&fs, "/");

	if (err)
		return err;
	/* Stop it first, so that it costs nothing even if it cannot be removed. */
	(void)write_zero(&fs, dir, name, "tracing_on");
	(void)write_zero(&fs, dir, name, "events/enable");
	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path))
		err = -ENAMETOOLONG;
	else
		err = rootfs_rmdir(&fs, path);
	rootfs_close(&fs);
	return err;
}

int trace_remove_stale(void (*fn)(void *ctx, const char *name, int err), void *ctx)
{
	const char *dir = TRACE_TRACEFS_DIR "/instances";
	struct statfs sfs;
	struct rootfs fs;
	struct dirent *d;
	int found = 0, seen = 0;
	DIR *dp;

	/* Never mount just for this: an unmounted tracefs holds no instance of ours... */
	if (statfs(TRACE_TRACEFS_DIR, &sfs) < 0 || sfs.f_type != TRACEFS_MAGIC)
		return 0;
	/* ...and without root, instances/ cannot be read. */
	if (rootfs_open(&fs, "/"))
		return 0;
	dp = rootfs_opendir(&fs, dir);
	rootfs_close(&fs);	/* the DIR has its own descriptor */
	if (!dp)
		return 0;
	while ((d = readdir(dp)) != NULL && seen++ < STALE_SCAN_MAX) {
		long pid = parse_pid_suffix(d->d_name, TRACE_INSTANCE_PREFIX);
		int err;

		/* Alive (or not ours to see): its rtready still uses it. */
		if (!pid_ended(pid))
			continue;
		err = trace_instance_remove(d->d_name);
		if (err == -ENOENT || err == -ENAMETOOLONG)
			continue;	/* another rtready removed it meanwhile */
		if (fn)
			fn(ctx, d->d_name, err);
		found++;
	}
	closedir(dp);
	return found;
}
