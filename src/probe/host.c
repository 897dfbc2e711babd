// SPDX-License-Identifier: MIT
/* The host facts of every report, gathered once; see host.h. */
#include <errno.h>
#include <string.h>

#include "probe/host.h"

int probe_host(const struct rootfs *fs, const struct rtr_cpuset *given, struct host_facts *h)
{
	return probe_host_rt(fs, given, false, h);
}

int probe_host_rt(const struct rootfs *fs, const struct rtr_cpuset *given, bool planned,
		  struct host_facts *h)
{
	int err;

	memset(h, 0, sizeof(*h));
	h->release_err = rootfs_read_str(fs, "/proc/sys/kernel/osrelease", h->release,
					 sizeof(h->release));
	if (h->release_err)
		h->release[0] = '\0';
	/* The UTS namespace's name, as gethostname() gives it; the root's under --root. */
	if (rootfs_read_str(fs, "/proc/sys/kernel/hostname", h->hostname, sizeof(h->hostname)))
		h->hostname[0] = '\0';
	probe_cpu_sets(fs, &h->cpu);
	err = rtcpus_resolve_planned(&h->cpu, given, planned, &h->rt);
	if (err)
		return err;
	rtcpus_format(&h->rt, h->rt_list, sizeof(h->rt_list));
	if (h->cpu.online_err)
		return h->cpu.online_err;
	rtr_cpuset_format_list(&h->cpu.online, h->online_list, sizeof(h->online_list));
	return 0;
}

void probe_host_free(struct host_facts *h)
{
	probe_cpu_free(&h->cpu);
	rtcpus_free(&h->rt);
}
