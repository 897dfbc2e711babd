// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: the small /proc and /sys formats the probes parse
 * (/proc/swaps, /proc/cpuinfo flags, /proc/self/mounts cgroup lines, sysfs
 * "[active]" choice files, gzip'ed /proc/config.gz). The first byte picks
 * the parser.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "probe/kernel.h"
#include "probe/knob.h"
#include "probe/memory.h"
#include "probe/platform.h"
#include "probe/cgroupfs.h"
#include "probe/sched.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *buf = (const char *)data + 1;
	size_t len = size ? size - 1 : 0;

	if (size == 0)
		return 0;
	switch (data[0] % 5) {
	case 0: {
		unsigned int n;
		uint64_t total, used;

		(void)memory_parse_swaps(buf, len, &n, &total, &used);
		break;
	}
	case 1: {
		bool flag;

		char first[64];

		(void)platform_parse_cpuinfo(buf, len, &flag);
		/* The device tree's NUL-separated compatible list, same bytes. */
		if (platform_parse_compatible(buf, len, first, sizeof(first), &flag) == 0 &&
		    !memchr(first, '\0', sizeof(first)))
			__builtin_trap();
		break;
	}
	case 2: {
		struct cgroup_mounts *m = malloc(sizeof(*m));

		if (!m)
			return 0;
		if (cgroup_parse_mounts(buf, len, m) == 0 && !memchr(m->v2, '\0', sizeof(m->v2)))
			__builtin_trap();
		free(m);
		break;
	}
	case 3: {
		char *s = malloc(len + 1), word[32];

		if (!s)
			return 0;
		memcpy(s, buf, len);
		s[len] = '\0';
		if (knob_active_choice(s, '[', ']', word, sizeof(word)) == 0 &&
		    strlen(word) >= sizeof(word))
			__builtin_trap();
		(void)knob_active_choice(s, '(', ')', word, sizeof(word));
		free(s);
		break;
	}
	case 4: {
		char *out;
		size_t olen;

		if (kernel_gunzip(buf, len, 1u << 20, &out, &olen) == 0) {
			if (olen > (1u << 20) || out[olen] != '\0')
				__builtin_trap();
			free(out);
		}
		break;
	}
	}
	return 0;
}
