/* SPDX-License-Identifier: MIT */
/*
 * The file where the preloaded checker of `run --check` writes its records:
 * $TMPDIR/rtready-check.PID.XXXXXX, made by rtready (PID is its own) and
 * opened by name, O_APPEND, by every process of the program (preload/
 * record.c), across fork and exec and changes of user. rtready holds an
 * exclusive flock(2) on it while it runs, so that a later run can tell a
 * file whose rtready was killed (no lock, no such process) and remove it.
 */
#ifndef RTR_RUN_REPORTFILE_H
#define RTR_RUN_REPORTFILE_H

#include <stddef.h>

/*
 * run_report_file_dir() - the directory for the file: $TMPDIR, or /tmp
 * when TMPDIR is unset or empty. @from_env is set when $TMPDIR was used.
 */
const char *run_report_file_dir(int *from_env);

/*
 * run_report_file_create() - make the file in @dir, name it in @path (size
 * @len) and return in *@fd a descriptor (close-on-exec) that holds its lock;
 * close it, then unlink @path, when done.
 * Return: 0 or -errno (*@fd -1, nothing left behind).
 */
int run_report_file_create(const char *dir, char *path, size_t len, int *fd)
	__attribute__((warn_unused_result));

/*
 * run_report_file_clean_stale() - remove from @dir the files of rtready
 * processes that are gone: no process has the PID in the name, and no one
 * holds the file's lock (a PID of another PID namespace sharing @dir still
 * holds its lock). Files of other users are left alone. @fn (may be NULL)
 * is told each file removed (@err 0) or that could not be (-errno).
 * Return: how many files were stale.
 */
int run_report_file_clean_stale(const char *dir,
				void (*fn)(void *ctx, const char *path, long pid, int err),
				void *ctx);

#endif
