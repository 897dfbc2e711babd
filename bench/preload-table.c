// SPDX-License-Identifier: MIT
/*
 * Run a command with the checker's shared record table, as `rtready run
 * --check` gives it (preload/wire.h): a memfd with its header, inherited
 * and named in RTREADY_CHECK_TABLE, so that bench/preload.sh times the
 * hooks with their counts raised in the table.
 *
 *   preload-table CMD [ARGS]
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "wire.h"

int main(int argc, char **argv)
{
	struct rtr_wire_head head = {
		.magic = RTR_WIRE_MAGIC,
		.version = RTR_WIRE_VERSION,
		.entry_bytes = sizeof(struct rtr_wire_ent),
		.capacity = RTR_WIRE_ENTRIES,
		.table_bytes = rtr_wire_table_bytes(RTR_WIRE_ENTRIES),
	};
	char path[64];
	int fd;

	if (argc < 2) {
		fprintf(stderr, "usage: preload-table CMD [ARGS]\n");
		return 2;
	}
	fd = memfd_create("rtready-check-table", 0);	/* inherited by CMD */
	if (fd < 0 || ftruncate(fd, head.table_bytes) < 0 ||
	    pwrite(fd, &head, sizeof(head), 0) != (ssize_t)sizeof(head)) {
		perror("preload-table: memfd");
		return 2;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	setenv(RTR_WIRE_ENV, path, 1);
	execvp(argv[1], argv + 1);
	perror("preload-table: exec");
	return 2;
}
