/* SPDX-License-Identifier: MIT */
/*
 * The counters that say what disturbed a CPU when no kernel trace is at
 * hand (`rtready noise` without tracefs), and the steal time that shows a
 * hypervisor stall either way: per-CPU steal from /proc/stat, per-CPU
 * softirq counts from /proc/softirqs. Parsers are pure functions of a
 * buffer, like every parser of the probes; noisesrc_read() reads the files
 * through rootfs.
 *
 *   /proc/stat:     cpu1 2141 0 1733 90519 31 0 60 17 0 0
 *                   (user nice system idle iowait irq softirq steal ...)
 *   /proc/softirqs:                    CPU0       CPU1
 *                         HI:          0          1
 *                      TIMER:      12011       9834
 */
#ifndef RTR_PROBE_NOISESRC_H
#define RTR_PROBE_NOISESRC_H

#include <stddef.h>
#include <stdint.h>

#include "probe/rootfs.h"

#define NOISESRC_SOFTIRQS 10	/* HI .. RCU, the kernel's NR_SOFTIRQS */
#define NOISESRC_READ_CAP (4u << 20)

/*
 * The steal time of CPU @cpu (the 8th value of its "cpuN" line, in
 * USER_HZ ticks) from /proc/stat text.
 * Return: 0, -ENOENT (no line for that CPU), -EINVAL (a short or bad line).
 */
int noisesrc_parse_steal(const char *buf, size_t len, int cpu, uint64_t *steal_ticks)
	__attribute__((warn_unused_result));

/*
 * The softirq counts of CPU @cpu from /proc/softirqs text, by vector
 * (HI=0 .. RCU=9, the order of the kernel's names; rows with other names
 * are skipped).
 * Return: 0, -ENOENT (no column for that CPU), -EINVAL (no header).
 */
int noisesrc_parse_softirqs(const char *buf, size_t len, int cpu,
			    uint64_t counts[NOISESRC_SOFTIRQS]) __attribute__((warn_unused_result));

/*
 * Read @path ("/proc/stat", "/proc/softirqs", "/proc/interrupts") under
 * @fs into *@buf (grown as needed; free() it at the end).
 * Return: 0 or -errno.
 */
int noisesrc_read(const struct rootfs *fs, const char *path, char **buf, size_t *size,
		  size_t *len) __attribute__((warn_unused_result));

#endif
