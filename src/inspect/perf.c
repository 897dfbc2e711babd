// SPDX-License-Identifier: MIT
/* perf_event_open counters per thread; see perf.h. */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "inspect/perf.h"

static const struct {
	const char *name;
	uint32_t type;
	uint64_t config;
} counters[PERF_NCOUNTERS] = {
	[PERF_PAGE_FAULTS] = { "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	[PERF_CONTEXT_SWITCHES] = { "context-switches", PERF_TYPE_SOFTWARE,
				    PERF_COUNT_SW_CONTEXT_SWITCHES },
	[PERF_CPU_MIGRATIONS] = { "cpu-migrations", PERF_TYPE_SOFTWARE,
				  PERF_COUNT_SW_CPU_MIGRATIONS },
	[PERF_CACHE_MISSES] = { "cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
};

const char *perf_counter_name(enum perf_counter c)
{
	return c < PERF_NCOUNTERS ? counters[c].name : "?";
}

void perf_thread_open(struct perf_thread *p, int tid)
{
	memset(p, 0, sizeof(*p));
	p->tid = tid;
	for (int c = 0; c < PERF_NCOUNTERS; c++) {
		struct perf_event_attr attr;
		long fd;

		memset(&attr, 0, sizeof(attr));
		attr.size = sizeof(attr);
		attr.type = counters[c].type;
		attr.config = counters[c].config;
		/* Count the thread's user and kernel work: faults are taken in the kernel. */
		attr.exclude_hv = 1;
		fd = syscall(SYS_perf_event_open, &attr, tid, -1, -1, PERF_FLAG_FD_CLOEXEC);
		p->fd[c] = fd < 0 ? -1 : (int)fd;
		p->err[c] = fd < 0 ? -errno : 0;
	}
}

void perf_thread_close(struct perf_thread *p)
{
	for (int c = 0; c < PERF_NCOUNTERS; c++) {
		uint64_t v;

		if (p->fd[c] < 0)
			continue;
		if (read(p->fd[c], &v, sizeof(v)) == (ssize_t)sizeof(v)) {
			p->value[c] = v;
			p->read_ok[c] = true;
		} else {
			p->err[c] = -EIO;
		}
		close(p->fd[c]);
		p->fd[c] = -1;
	}
}

void perf_explain(int err, int paranoid, char *buf, unsigned long len)
{
	switch (-err) {
	case ENOENT:
	case EOPNOTSUPP:
		snprintf(buf, len, "not supported by this kernel or CPU (%s)", strerror(-err));
		break;
	case EACCES:
	case EPERM:
		if (paranoid != INT32_MIN)
			snprintf(buf, len,
				 "not allowed: perf_event_paranoid is %d; needs CAP_PERFMON (or "
				 "root), or perf_event_paranoid <= 2 for your own processes",
				 paranoid);
		else
			snprintf(buf, len, "not allowed: needs CAP_PERFMON (or root)");
		break;
	case ESRCH:
		snprintf(buf, len, "the thread exited");
		break;
	default:
		snprintf(buf, len, "%s", strerror(-err));
	}
}

void perf_counter_explain(enum perf_counter c, int err, int paranoid, char *buf,
			  unsigned long len)
{
	if (c < PERF_NCOUNTERS && counters[c].type == PERF_TYPE_HARDWARE &&
	    (err == -ENOENT || err == -EOPNOTSUPP || err == -ENODEV)) {
		snprintf(buf, len,
			 "this machine offers no hardware counter for it (%s): a virtual machine "
			 "without a virtual PMU, or a CPU the kernel's perf does not drive; the "
			 "software counters still count",
			 strerror(-err));
		return;
	}
	perf_explain(err, paranoid, buf, len);
}

size_t perf_counter_gaps(const struct perf_thread *p, size_t n, enum perf_counter c, int *err)
{
	size_t gaps = 0;

	*err = 0;
	for (size_t i = 0; i < n; i++) {
		if (p[i].read_ok[c])
			continue;
		if (!*err)
			*err = p[i].err[c] ? p[i].err[c] : -EIO;
		gaps++;
	}
	return gaps;
}
