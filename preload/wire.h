/* SPDX-License-Identifier: MIT */
/*
 * The checker's shared record table: the layout that the preloaded library
 * (preload/record.c) writes and `rtready run` (src/run/table.c) reads
 * back, so both include this one header.
 *
 * The JSON lines of the report file are written at exit and exec: a
 * process killed by SIGKILL never writes them. So rtready also makes a
 * memfd that it owns, holding a header and a table of fixed-size entries,
 * and names it to the program in RTREADY_CHECK_TABLE as /proc/PID/fd/N
 * (PID rtready's); each process image maps it MAP_SHARED when it starts
 * (a forked child keeps the mapping). Shared memory (shmem) takes no
 * write-protect faults for dirty tracking, as a file on disk would, so a
 * count raised in it costs no page fault. An entry is taken with one
 * atomic add on `next`, filled, and published by a release store of its
 * `type`; the counts of a finding live in its entry and are raised there
 * when the occurrences are committed (the thread waits again), so what a
 * killed process had committed stays in rtready's memory to be read. When
 * the table is full, `overflow` counts the entries refused.
 */
#ifndef RTR_PRELOAD_WIRE_H
#define RTR_PRELOAD_WIRE_H

#include <stdatomic.h>
#include <stdint.h>

#define RTR_WIRE_MAGIC 0x31304b4843525452ull	/* "RTRCHK01", little-endian */
#define RTR_WIRE_VERSION 1
#define RTR_WIRE_ENTRIES 1024
#define RTR_WIRE_FRAMES 16
#define RTR_WIRE_HEAD_BYTES 4096	/* the header's page; entries follow */
#define RTR_WIRE_ENV "RTREADY_CHECK_TABLE"

struct rtr_wire_head {
	uint64_t magic;
	uint32_t version;
	uint32_t entry_bytes;	/* sizeof(struct rtr_wire_ent) of the writer */
	uint32_t capacity;	/* entries */
	uint32_t table_bytes;	/* header page + entries, page-rounded */
	_Atomic uint32_t next;	/* entries taken (may pass capacity: those were refused) */
	uint32_t pad;
	_Atomic uint64_t overflow;	/* entries refused because the table was full */
};

enum rtr_wire_type {
	RTR_WIRE_FREE = 0,	/* not yet published */
	RTR_WIRE_FINDING = 1,	/* one record: a (thread, kind, site) */
	RTR_WIRE_RT = 2,	/* a realtime thread the hooks met */
	RTR_WIRE_PROC = 3,	/* one process image: its counts of what it lost */
};

/*
 * One entry. FINDING: all fields. RT: pid, tid, thread, and `waited` once
 * the thread waited at a boundary. PROC: pid; `count` holds the records
 * its full private table dropped, `total` the entries this table refused
 * it, `arg` its realtime threads past its thread table.
 */
struct rtr_wire_ent {
	_Atomic uint32_t type;	/* enum rtr_wire_type; stored last, with release */
	int32_t pid;
	int32_t tid;
	uint8_t from_signal;	/* recorded inside a signal handler */
	_Atomic uint8_t waited;
	uint16_t nframes;
	_Atomic int64_t count;	/* committed occurrences */
	_Atomic int64_t total;	/* their weight (page faults), or as said above */
	_Atomic int64_t arg;
	char id[32];		/* finding id, "app.alloc_in_rt" */
	char thread[16];
	char detail[64];
	uint64_t frames[RTR_WIRE_FRAMES];	/* raw return addresses */
};

/* The table's size in bytes for @capacity entries, page-rounded. */
static inline uint32_t rtr_wire_table_bytes(uint32_t capacity)
{
	uint64_t n = RTR_WIRE_HEAD_BYTES + (uint64_t)capacity * sizeof(struct rtr_wire_ent);

	return (uint32_t)((n + 4095) & ~(uint64_t)4095);
}

#endif
