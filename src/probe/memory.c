// SPDX-License-Identifier: MIT
/* The memory probe; see memory.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe/memory.h"

int memory_parse_swaps(const char *buf, size_t len, unsigned int *devices, uint64_t *total_kb,
		       uint64_t *used_kb)
{
	const char *p = buf, *end = buf + len;
	bool header = false;

	*devices = 0;
	*total_kb = *used_kb = 0;
	if (memchr(buf, '\0', len))
		return -EINVAL;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p);
		char line[4352], name[4096], type[32];
		unsigned long long size, used;

		if (n >= sizeof(line))
			return -EINVAL;
		memcpy(line, p, n);
		line[n] = '\0';
		if (!header) {
			if (strncmp(line, "Filename", 8) != 0)
				return -EINVAL;
			header = true;
		} else if (n > 0) {
			if (sscanf(line, "%4095s %31s %llu %llu", name, type, &size, &used) != 4 ||
			    *devices >= 100000 || size > UINT64_MAX / 2 || used > UINT64_MAX / 2)
				return -EINVAL;
			(*devices)++;
			*total_kb += size;
			*used_kb += used;
		}
		if (!nl)
			break;
		p = nl + 1;
	}
	return header ? 0 : -EINVAL;
}

/* Read a choice file into @out: its active (bracketed) word. */
static int read_choice(const struct rootfs *fs, const char *path, char *out, size_t len)
{
	char buf[256];
	int err = rootfs_read_str(fs, path, buf, sizeof(buf));

	if (!err) {
		knob_sanitize(buf);
		err = knob_active_choice(buf, '[', ']', out, len);
	}
	if (err)
		out[0] = '\0';
	return err;
}

static void probe_self(const struct rootfs *fs, struct memory_facts *m)
{
	struct proc_status st;
	char *buf = NULL;
	size_t len;

	m->limits_err = rootfs_read(fs, "/proc/self/limits", ROOTFS_CAP_DEFAULT, &buf, &len);
	if (!m->limits_err)
		m->limits_err = parse_proc_limits(buf, len, &m->limits);
	free(buf);
	buf = NULL;
	m->cap_err = rootfs_read(fs, "/proc/self/status", ROOTFS_CAP_DEFAULT, &buf, &len);
	if (!m->cap_err) {
		m->cap_err = parse_proc_status(buf, len, &st);
		if (!m->cap_err && !(st.have & PROC_ST_CAPEFF))
			m->cap_err = -EINVAL;
		m->cap_eff = st.cap_eff;
		proc_status_free(&st);
	}
	free(buf);
}

void probe_memory(const struct rootfs *fs, struct memory_facts *m)
{
	char *buf = NULL;
	size_t len;

	memset(m, 0, sizeof(*m));
	m->swaps_err = rootfs_read(fs, "/proc/swaps", ROOTFS_CAP_LARGE, &buf, &len);
	if (!m->swaps_err)
		m->swaps_err = memory_parse_swaps(buf, len, &m->swap_devices, &m->swap_total_kb,
						  &m->swap_used_kb);
	free(buf);
	knob_read(fs, "/proc/sys/vm/swappiness", &m->swappiness);
	m->thp_enabled_err = read_choice(fs, "/sys/kernel/mm/transparent_hugepage/enabled",
					 m->thp_enabled, sizeof(m->thp_enabled));
	m->thp_defrag_err = read_choice(fs, "/sys/kernel/mm/transparent_hugepage/defrag",
					m->thp_defrag, sizeof(m->thp_defrag));
	knob_read(fs, "/sys/kernel/mm/ksm/run", &m->ksm_run);
	knob_read(fs, "/proc/sys/kernel/numa_balancing", &m->numa_balancing);
	m->sys_mm_dir = rootfs_exists(fs, "/sys/kernel/mm");
	m->sysctl_kernel_dir = rootfs_exists(fs, "/proc/sys/kernel");
	probe_self(fs, m);
}

void probe_memory_free(struct memory_facts *m)
{
	(void)m;
}
