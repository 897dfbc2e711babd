// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: the readers of `rtready noise` without a trace, the
 * per-CPU steal time of /proc/stat and the per-CPU softirq counts of
 * /proc/softirqs, for a few CPU numbers (the first byte picks one more).
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>

#include "probe/noisesrc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const int cpus[] = { 0, 1, 63, size ? data[0] : 2 };
	uint64_t steal, counts[NOISESRC_SOFTIRQS];

	for (size_t i = 0; i < sizeof(cpus) / sizeof(cpus[0]); i++) {
		int err = noisesrc_parse_steal((const char *)data, size, cpus[i], &steal);

		if (err && err != -EINVAL && err != -ENOENT)
			__builtin_trap();
		err = noisesrc_parse_softirqs((const char *)data, size, cpus[i], counts);
		if (err && err != -EINVAL && err != -ENOENT)
			__builtin_trap();
	}
	return 0;
}
