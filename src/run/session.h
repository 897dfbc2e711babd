/* SPDX-License-Identifier: MIT */
/*
 * One `rtready run` from start to end: clear what a killed rtready left,
 * find the program and the checker library, make the record files, the
 * budget cgroup or the isolated partition, start the program, wait for it,
 * say how it ended (an OOM kill, the --rttime guard), take the cgroup down
 * and read the checker's records into findings. Nothing here prints: each
 * message goes to the caller's @say, one line, as "rtready: run: LINE".
 */
#ifndef RTR_RUN_SESSION_H
#define RTR_RUN_SESSION_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include <jansson.h>

#include "core/report.h"
#include "run/cgroup.h"
#include "run/exec.h"
#include "run/findings.h"
#include "util/say.h"

/* What to run, and how. */
struct run_request {
	/*
	 * The program and its settings: argv, policy, prio (0 unless fifo or
	 * rr), the deadline reservation, nice, cpus, memlock, memlock_raise
	 * (--mlock) and rttime_us. The session fills in path, envp, cg, elf and
	 * own_group.
	 */
	struct spawn_config spawn;
	int argc;
	unsigned cpu_max_pct;		/* 0: no CPU budget */
	uint64_t memory_max_bytes;	/* 0: no memory budget */
	bool isolate;			/* an isolated partition of spawn.cpus */
	bool check;			/* preload the checker, read its records */
	bool mlock;			/* preload the library for its mlockall() */
	const char *report;		/* --report FILE, NULL: standard error */
};

struct run_session {
	char path[PATH_MAX];		/* the program found on PATH */
	char preload[PATH_MAX];		/* the checker library, "" when not used */
	char report_file[PATH_MAX];	/* the checker's JSON lines, "" when not used */
	int report_fd;			/* it, open and locked (-1: none) */
	char table_path[64];		/* the checker's shared table, as the program opens it */
	int table_fd;			/* it (a memfd; -1: none) */
	struct elf_facts elf;
	struct run_cgroup cg;
	char **envp;
	pid_t pid;
	bool own_group;			/* the program has a process group of its own */
	int status;			/* as waitpid() gave it */
	/* With check, once the program ended and its records were read: */
	struct report report;		/* the findings, host block filled */
	json_t *extras;			/* per finding: thread, counts, backtrace */
	struct app_check ac;		/* the checker's records */
	bool findings;			/* a finding failed, warned or skipped */
	const struct say *say;
};

/*
 * Run @rq to its end. *@out (NULL when it could not be allocated) keeps
 * what the report needs; free it with run_session_free() in every case.
 * Return: the program's exit code (128 + signal when one killed it), or
 * -errno when it could not be started or waited for, or its records read
 * (said through @say).
 */
int run_session_exec(const struct run_request *rq, const struct say *say,
		     struct run_session **out) __attribute__((warn_unused_result));

/* Remove the record file, close what is open, free @s. NULL is a no-op. */
void run_session_free(struct run_session *s);

#endif
