// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: the record of kernel threads' affinities that run and
 * noise --isolate keep in /run/rtready (run/affinity.h), read back by a
 * later rtready after a kill -9. Whatever the file holds, the decoder
 * takes it whole or refuses it (-EINVAL, nothing kept); a record it takes
 * is encoded again and must read back the same.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "run/affinity.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct run_affinity rec = { 0 }, back = { 0 };
	char *text = NULL;
	int err = run_affinity_decode((const char *)data, size, 5, &rec);

	if (err) {
		if (err != -EINVAL && err != -ENOMEM)
			__builtin_trap();
		if (rec.n || rec.e)
			__builtin_trap(); /* a refused record keeps nothing */
		return 0;
	}
	if (run_affinity_encode(&rec, 5, &text) == 0) {
		if (run_affinity_decode(text, strlen(text), 5, &back) || back.n != rec.n)
			__builtin_trap();
		for (size_t i = 0; i < rec.n; i++)
			if (back.e[i].tid != rec.e[i].tid || back.e[i].pid != rec.e[i].pid ||
			    back.e[i].start_ticks != rec.e[i].start_ticks ||
			    strcmp(back.e[i].comm, rec.e[i].comm) ||
			    !rtr_cpuset_equal(&back.e[i].cpus, &rec.e[i].cpus))
				__builtin_trap();
	}
	free(text);
	run_affinity_free(&back);
	run_affinity_free(&rec);
	return 0;
}
