// SPDX-License-Identifier: MIT
/*
 * Privilege explanations for refused realtime requests. The capability set
 * is read with the raw capget system call (no libcap dependency, works the
 * same on glibc and musl); limits with getrlimit.
 */
#include <stdint.h>
#include <stdio.h>
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

void rtr__priv_explain_rtprio(char *buf, size_t len, int prio)
{
	struct rlimit rl = { 0, 0 };
	char lim[32];

	if (getrlimit(RLIMIT_RTPRIO, &rl) != 0)
		rl.rlim_cur = 0;
	format_limit(lim, sizeof(lim), rl.rlim_cur, "");
	if (rtr__priv_has_cap(PRIV_CAP_SYS_NICE)) {
		/* With the capability, EPERM comes from RT group scheduling. */
		snprintf(buf, len,
			 "CAP_SYS_NICE is present, so the refusal comes from the cgroup: with "
			 "CONFIG_RT_GROUP_SCHED the cgroup's cpu.rt_runtime_us must be > 0");
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
