/* SPDX-License-Identifier: MIT */
/*
 * The checker's shared record table (layout in preload/wire.h): a memfd
 * that `run --check` makes and owns, which every process of the program
 * maps and where each record's committed counts are raised as they
 * happen. Read after the program is gone, it gives the findings of
 * processes killed before they could write their JSON lines (SIGKILL).
 * A process that cannot open it (no /proc in its view, another user that
 * may not open rtready's descriptors) records without it, as before: its
 * lines still come at exit, and a kill loses them (said as app.checker).
 */
#ifndef RTR_RUN_TABLE_H
#define RTR_RUN_TABLE_H

#include <stddef.h>

#include "run/findings.h"

/* The environment variable that names the table to the program's processes. */
extern const char run_table_env[];

/*
 * run_table_create() - make the table: a memfd (close-on-exec) with its
 * header written, in *@fd, and in @path (size @len) the name the
 * program's processes open it by: /proc/PID/fd/N of this process.
 * Return: 0 or -errno (*@fd -1).
 */
int run_table_create(int *fd, char *path, size_t len) __attribute__((warn_unused_result));

/*
 * run_table_merge() - add what the table @buf (@len bytes, as read from
 * the memfd) holds to @c, after the JSON lines were parsed into it: each
 * record no line told, or told with a smaller count (a process killed
 * after a line was written); the realtime threads of processes without
 * their last lines that never waited; and per such process what it lost.
 * A buffer that is no table of this version is refused.
 * Return: 0, -EINVAL (not a table) or -ENOMEM.
 */
int run_table_merge(const void *buf, size_t len, struct app_check *c)
	__attribute__((warn_unused_result));

#endif
