/* SPDX-License-Identifier: MIT */
/*
 * The runtime checker's records, read back: each process preloaded with
 * librtready-check.so writes JSON lines (preload/record.c) to one report
 * file: "hello" when it starts (proof the checker is attached), "finding"
 * per (thread, kind) with counts and a symbolised backtrace, and "bye" at
 * exit or exec. app_check_parse() merges them (a record written twice keeps
 * the larger count), and run_table_merge() (table.h) adds what the shared
 * table kept of processes killed before their lines; app_check_to_report()
 * turns them into findings shaped
 * like those of `rtready check`, with the thread, counts and backtrace in
 * the evidence, and the extra data kept for the JSON output.
 */
#ifndef RTR_RUN_FINDINGS_H
#define RTR_RUN_FINDINGS_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "core/report.h"

struct app_process {
	long pid, ppid;
	char *exe;
	bool bye;		/* its last record was written */
	char *why;		/* "exit", "exec" or "_exit" of the last bye */
	long dropped;		/* records lost to a full table */
	long rt_untracked;	/* realtime threads past the checker's table */
	bool mlock_by_rtready;
	long table_entry;	/* its image's PROC entry in the shared table; -1: none */
	bool table_seen;	/* no last lines, but its counts are in the shared table */
	long table_refused;	/* its records the full shared table refused */
};

/* A loaded object of a process, from its "module" lines: names raw frames. */
struct app_module {
	long pid;
	unsigned long long base, start, end;
	char *obj;
};

struct app_record {
	long pid, tid;
	long site;		/* the record's slot in its process: one per site */
	char *id;
	char *thread;
	long count, total, arg;
	char *detail;
	bool in_signal_handler;
	json_t *frames;		/* array of {addr, obj, off, sym, symoff} */
};

/* A realtime thread that never waited where the checker sees it. */
struct app_unjudged {
	long pid, tid;
	char *thread;
};

struct app_check {
	struct app_process *procs;
	size_t n_procs, cap_procs;
	struct app_unjudged *unjudged;
	size_t n_unjudged, cap_unjudged;
	struct app_record *recs;
	size_t n_recs, cap_recs;
	struct app_module *modules;
	size_t n_modules, cap_modules;
	size_t bad_lines;	/* lines that were not records (truncated, foreign) */
	bool table;		/* the shared table was read */
	unsigned long table_overflow;	/* entries the full shared table refused */
};

/* Parse @text (@len bytes of JSON lines). Return: 0 or -ENOMEM. */
int app_check_parse(const char *text, size_t len, struct app_check *out)
	__attribute__((warn_unused_result));
void app_check_free(struct app_check *c);

/*
 * Add one record @o, of the shape of a JSON line ("hello", "finding",
 * "unjudged", "module", "bye"), to @c; a finding told before keeps the
 * larger count. Return: 0 or -ENOMEM.
 */
int app_check_add(struct app_check *c, json_t *o) __attribute__((warn_unused_result));

/*
 * Name the frames dladdr() left unnamed from their files' symbol tables
 * (static functions, executables without -rdynamic): adds "sym" and
 * "symoff" to those frames. Raw frames (from the shared table) first get
 * "obj" and "off" from the modules of their process, or of the parent it
 * was forked from. Files that cannot be read are left as they
 * are. Relative object paths are taken from the current directory, which
 * is the program's starting one.
 */
void app_check_symbolize(struct app_check *c);

/* What `rtready run` knows about the program when the checker is silent. */
struct app_context {
	long pid;		/* the program rtready started */
	const char *program;	/* its path */
	bool is_static;		/* an ELF without interpreter */
	bool is_setid;		/* set-user-ID / set-group-ID */
	bool is_script;
	int wait_status;	/* how it ended */
};

/*
 * Add the findings to @r (in a stable order: failures first), one per
 * record, plus app.checker (skip) when the checker was not attached to
 * the program or its last records are missing. @extras receives, in the
 * order of @r's findings, a JSON object per finding with pid, thread,
 * count and backtrace (NULL members for app.checker). Return: 0 or
 * -ENOMEM.
 */
int app_check_to_report(const struct app_check *c, const struct app_context *ctx,
			struct report *r, json_t *extras) __attribute__((warn_unused_result));

/* The process @pid of @c, or NULL. */
struct app_process *app_check_proc(const struct app_check *c, long pid);

/* Whether the program itself sent its hello record. */
bool app_check_attached(const struct app_check *c, long pid);

/* Kernel-style text for one frame: "work+0x1a (/usr/bin/app+0x11a9)". */
void app_frame_text(const json_t *frame, char *buf, size_t len);

/* Known finding ids, for docs and tests: NULL-terminated. */
extern const char *const app_finding_ids[];

#endif
