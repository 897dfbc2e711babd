// SPDX-License-Identifier: MIT
/*
 * CPU hog: integer work in registers, with no system call and no memory
 * traffic, so the task is always runnable and competes for the CPU only.
 * Progress is published per work unit (about a million iterations) so the
 * shared counter costs nothing measurable.
 */
#include "measure/load_internal.h"

#define UNIT_ITERATIONS (1u << 20)

void load_cpu_hog(struct load_shared *sh)
{
	uint64_t x = 0x9e3779b97f4a7c15ull;

	for (;;) {
		for (unsigned int i = 0; i < UNIT_ITERATIONS; i++) {
			/* A 64-bit LCG step; the asm keeps the compiler from folding the loop. */
			x = x * 6364136223846793005ull + 1442695040888963407ull;
			__asm__ volatile("" : "+r"(x));
		}
		atomic_fetch_add_explicit(&sh->cpu_loops, 1, memory_order_relaxed);
	}
}
