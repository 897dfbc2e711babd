// SPDX-License-Identifier: MIT
/*
 * Privilege explanations for refused realtime requests. The capability set
 * is read with the raw capget system call (no libcap dependency, works the
 * same on glibc and musl); limits with getrlimit.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "priv.h"

/* struct __user_cap_header_struct / _data_struct, version 3 (64-bit sets). */
struct priv_cap_header {
	uint32_t version;
	int pid;
};

struct priv_cap_data {
	uint32_t effective;
	uint32_t permitted;
	uint32_t inheritable;
};

#define PRIV_CAP_VERSION_3 0x20080522

bool rtr__priv_has_cap(int cap)
{
	struct priv_cap_header hdr = { PRIV_CAP_VERSION_3, 0 };
	struct priv_cap_data data[2] = { { 0, 0, 0 }, { 0, 0, 0 } };

	if (cap < 0 || cap >= 64 || syscall(SYS_capget, &hdr, data) != 0)
		return false;
	return data[cap / 32].effective & (1u << (cap % 32));
}

static void format_limit(char *buf, size_t len, rlim_t v, const char *unit)
{
	if (v == RLIM_INFINITY)
		snprintf(buf, len, "unlimited");
	else
		snprintf(buf, len, "%llu%s", (unsigned long long)v, unit);
}

/* Whether the comma-separated @list holds @word. */
static bool list_has(const char *list, size_t n, const char *word)
{
	size_t wl = strlen(word);

	for (const char *p = list, *end = list + n; p < end;) {
		const char *c = memchr(p, ',', (size_t)(end - p));
		size_t l = (size_t)((c ? c : end) - p);

		if (l == wl && memcmp(p, word, wl) == 0)
			return true;
		p = c ? c + 1 : end;
	}
	return false;
}

/*
 * The calling thread's cgroup as the cpu controller sees it, from
 * /proc/thread-self/cgroup: "2:cpu,cpuacct:/app" (v1) or "0::/app" (v2).
 * Return: 1 (v1), 2 (v2) or 0 (unreadable), the path in @path.
 */
static int own_cgroup(char *path, size_t len)
{
	char text[2048], v2[512] = "";
	ssize_t n;
	int fd = open("/proc/thread-self/cgroup", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		fd = open("/proc/self/cgroup", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, text, sizeof(text) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	text[n] = '\0';
	for (char *line = text, *next; line && *line; line = next) {
		char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (!c2)
			continue;
		if (list_has(c1 + 1, (size_t)(c2 - c1 - 1), "cpu")) {
			snprintf(path, len, "%s", c2 + 1);
			return 1;
		}
		if (c1 == line + 1 && line[0] == '0' && c2 == c1 + 1)
			snprintf(v2, sizeof(v2), "%s", c2 + 1);
	}
	if (!v2[0])
		return 0;
	snprintf(path, len, "%s", v2);
	return 2;
}

/* With the capability, EPERM for FIFO/RR comes from RT group scheduling. */
static void explain_group(char *buf, size_t len)
{
	char path[256];

	switch (own_cgroup(path, sizeof(path))) {
	case 1:
		snprintf(buf, len,
			 "CAP_SYS_NICE is present, so the refusal comes from RT group scheduling: "
			 "cgroup v1 group %s has cpu.rt_runtime_us = 0; give it a budget (parents "
			 "first) or run in the root group; `rtready check --only sched.rt_group` "
			 "says how", path);
		break;
	case 2:
		snprintf(buf, len,
			 "CAP_SYS_NICE is present, so the refusal comes from RT group scheduling: "
			 "cgroup v2 group %s (or a parent that takes the cpu controller) has no RT "
			 "budget, and v2 cannot give it one; run in the root cgroup, turn the cpu "
			 "controller off below the root, or boot with rt_group_sched=0 (6.16+); "
			 "`rtready check --only sched.rt_group` says how", path);
		break;
	default:
		snprintf(buf, len,
			 "CAP_SYS_NICE is present, so the refusal comes from RT group scheduling: "
			 "this thread's cgroup has no RT budget; `rtready check --only "
			 "sched.rt_group` says which and how to fix it");
		break;
	}
}

void rtr__priv_explain_rtprio(char *buf, size_t len, int prio)
{
	struct rlimit rl = { 0, 0 };
	char lim[32];

	if (getrlimit(RLIMIT_RTPRIO, &rl) != 0)
		rl.rlim_cur = 0;
	format_limit(lim, sizeof(lim), rl.rlim_cur, "");
	if (rtr__priv_has_cap(PRIV_CAP_SYS_NICE)) {
		explain_group(buf, len);
	} else if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur >= (rlim_t)prio) {
		snprintf(buf, len,
			 "CAP_SYS_NICE is missing; RLIMIT_RTPRIO is %s, which allows priority %d, "
			 "so the policy change itself is not allowed (e.g. SCHED_RESET_ON_FORK "
			 "or a different thread's owner)", lim, prio);
	} else {
		snprintf(buf, len,
			 "CAP_SYS_NICE is missing and RLIMIT_RTPRIO is %s, below %d; run as "
			 "root, grant CAP_SYS_NICE, or raise rtprio in limits.conf / ulimit -r",
			 lim, prio);
	}
}

void rtr__priv_explain_memlock(char *buf, size_t len)
{
	struct rlimit rl = { 0, 0 };
	char lim[32];

	if (getrlimit(RLIMIT_MEMLOCK, &rl) != 0)
		rl.rlim_cur = 0;
	if (rl.rlim_cur == RLIM_INFINITY)
		format_limit(lim, sizeof(lim), rl.rlim_cur, "");
	else
		snprintf(lim, sizeof(lim), "%llu KiB", (unsigned long long)rl.rlim_cur / 1024);
	if (rtr__priv_has_cap(PRIV_CAP_IPC_LOCK))
		snprintf(buf, len,
			 "CAP_IPC_LOCK is present, so there is not enough free memory to lock "
			 "(RLIMIT_MEMLOCK is %s)", lim);
	else
		snprintf(buf, len,
			 "CAP_IPC_LOCK is missing and RLIMIT_MEMLOCK is %s; run as root, grant "
			 "CAP_IPC_LOCK, or raise memlock in limits.conf / ulimit -l", lim);
}
