// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: the CPU boot parameters (isolcpus= with flags,
 * nohz_full=, rcu_nocbs=, irqaffinity= with "N", maxcpus=, nr_cpus=) read
 * from a command line.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "probe/cpu.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cmdline cl;
	struct cpu_facts c;

	if (cmdline_parse((const char *)data, size, &cl))
		return 0;
	memset(&c, 0, sizeof(c));
	/* The last CPU comes from the input too, so "N" takes many values. */
	if (cpu_parse_boot_params(&cl, size ? (int)(data[0] * 37) - 1 : -1, &c) == 0 &&
	    strlen(c.isolcpus.text) >= sizeof(c.isolcpus.text))
		__builtin_trap();
	probe_cpu_free(&c);
	cmdline_free(&cl);
	return 0;
}
