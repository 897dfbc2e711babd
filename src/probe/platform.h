/* SPDX-License-Identifier: MIT */
/*
 * Platform facts: the clock source the kernel keeps time with (and the
 * ones it could use), and whether the machine is a virtual one (sysfs
 * hypervisor type, the CPU's "hypervisor" flag, the DMI vendor and product).
 */
#ifndef RTR_PROBE_PLATFORM_H
#define RTR_PROBE_PLATFORM_H

#include <stdbool.h>

#include "probe/rootfs.h"

struct platform_facts {
	int clocksource_err;
	char clocksource[64];	/* .../clocksource0/current_clocksource */
	int clocksources_err;
	char clocksources[512];	/* .../available_clocksource, space-separated */

	int hypervisor_type_err;
	char hypervisor_type[64];	/* /sys/hypervisor/type ("xen", ...) */
	int cpuinfo_err;		/* /proc/cpuinfo; -ENOENT: no "flags" line (not x86) */
	bool cpu_hypervisor_flag;	/* "hypervisor" among the first CPU's flags */
	int sys_vendor_err;
	char sys_vendor[128];		/* /sys/class/dmi/id/sys_vendor */
	int product_name_err;
	char product_name[128];		/* /sys/class/dmi/id/product_name */
	int dt_err;			/* /sys/firmware/devicetree/base/compatible (Arm, RISC-V) */
	char dt_compatible[128];	/* its first entry, "linux,dummy-virt" on QEMU virt */
	bool dt_virtual;		/* an entry names a virtual machine board */
};

/* Fill @out from @fs. Never fails as a whole: fields carry their own errors. */
void probe_platform(const struct rootfs *fs, struct platform_facts *out);

/*
 * The device tree's compatible list (NUL-separated strings) into @first (its
 * first entry) and *@virt (an entry of a virtual board: QEMU's
 * "linux,dummy-virt", "qemu,..."). Return: 0, or -EINVAL when empty.
 */
int platform_parse_compatible(const char *buf, size_t len, char *first, size_t first_len,
			      bool *virt);
void probe_platform_free(struct platform_facts *out);

/*
 * Look at the first "flags" line of /proc/cpuinfo text for the word
 * "hypervisor". Return: 0 (and *flag), -ENOENT when there is no flags line.
 */
int platform_parse_cpuinfo(const char *buf, size_t len, bool *flag);

#endif
