// SPDX-License-Identifier: MIT
/*
 * Memory churn: map a region, write one byte in every page, unmap it, and
 * again. Each first write is a page fault that makes the kernel find and
 * zero a page; each unmap hands the pages back, so the page allocator and
 * (when the size is large against free memory) reclaim stay busy. This is
 * what a realtime task that did not lock and prefault its memory would
 * suffer, and what it must survive on a loaded machine.
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "measure/load_internal.h"

/* Publish progress every this many pages, so a long cycle still shows. */
#define PAGES_PER_UPDATE 256

int load_memory_churn(uint64_t bytes, struct load_shared *sh)
{
	long psize = sysconf(_SC_PAGESIZE);
	size_t page = psize > 0 ? (size_t)psize : 4096;
	size_t len = (size_t)bytes;

	if (len < page)
		len = page;
	for (;;) {
		volatile char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
					MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		uint64_t pending = 0;

		if (p == MAP_FAILED) {
			int err = -errno;

			load_fail(sh, err, "memory churn: cannot map %zu bytes: %s", len,
				  strerror(-err));
			return err;
		}
		for (size_t off = 0; off < len; off += page) {
			/* Non-zero, so the page cannot stay the shared zero page. */
			p[off] = (char)(off >> 12) | 1;
			if (++pending == PAGES_PER_UPDATE) {
				atomic_fetch_add_explicit(&sh->memory_pages, pending,
							  memory_order_relaxed);
				pending = 0;
			}
		}
		atomic_fetch_add_explicit(&sh->memory_pages, pending, memory_order_relaxed);
		munmap((void *)p, len);
		atomic_fetch_add_explicit(&sh->memory_cycles, 1, memory_order_relaxed);
	}
}
