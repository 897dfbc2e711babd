// SPDX-License-Identifier: MIT
/* Runs every probe once; see facts.h. */
#include <stdio.h>
#include <string.h>

#include "probe/facts.h"

int facts_gather(const struct rootfs *fs, struct facts *f)
{
	memset(f, 0, sizeof(*f));
	snprintf(f->root, sizeof(f->root), "%s", fs->path);
	f->host = fs->host;
	probe_kernel(fs, &f->kernel);
	probe_sched(fs, &f->sched);
	probe_tasks(fs, &f->tasks);
	probe_dlbw(fs, &f->tasks, &f->dlbw);
	probe_partition(fs, &f->partition);
	/*
	 * /proc/cmdline and cpuset.cpus.isolated once: the kernel's copy of the
	 * one, also parsed for the CPU boot parameters; the partitions' copy of
	 * the other, also the CPU facts' partitioned set.
	 */
	probe_cpu_cmdline(fs, &f->kernel.cmdline, f->kernel.cmdline_err, &f->partition, &f->cpu);
	probe_irq(fs, &f->irq);
	probe_memory(fs, &f->memory);
	probe_platform(fs, &f->platform);
	probe_kmsg(fs, &f->kmsg);
	probe_tuned(fs, &f->tuned);
	return 0;
}

void facts_free(struct facts *f)
{
	probe_kernel_free(&f->kernel);
	probe_sched_free(&f->sched);
	probe_tasks_free(&f->tasks);
	probe_dlbw_free(&f->dlbw);
	probe_cpu_free(&f->cpu);
	probe_partition_free(&f->partition);
	probe_irq_free(&f->irq);
	probe_memory_free(&f->memory);
	probe_platform_free(&f->platform);
}
