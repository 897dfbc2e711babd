/* SPDX-License-Identifier: MIT */
/*
 * Starting the program of `rtready run`: find it on PATH, tell whether the
 * runtime checker can be preloaded into it (a static or set-user-ID
 * program ignores LD_PRELOAD), find the checker library, and fork and exec
 * it with its scheduling, affinity, limits and cgroup applied in the child
 * before exec. A failure in the child before exec comes back to the parent
 * through a close-on-exec pipe, so "the program could not be started"
 * (rtready's error, exit 2) is never mistaken for the program's own exit
 * status.
 */
#ifndef RTR_RUN_EXEC_H
#define RTR_RUN_EXEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "rtready/cpuset.h"
#include "run/cgroup.h"

/*
 * Find @name as execvp() would: as given when it holds a '/', else in
 * $PATH (default "/usr/local/bin:/usr/bin:/bin"), the first regular file
 * we may execute. Return: 0, -ENOENT, -EACCES, -ENAMETOOLONG.
 */
int run_find_program(const char *name, char *out, size_t len);

struct elf_facts {
	bool elf;		/* an ELF file (else a script or unknown) */
	bool script;		/* starts with "#!": the interpreter is what runs */
	bool dynamic;		/* has a program interpreter (PT_INTERP) */
	bool setid;		/* set-user-ID or set-group-ID bit */
};

/*
 * Read the start of @path (bounded) and its mode. Return: 0 or -errno.
 */
int run_inspect_program(const char *path, struct elf_facts *out);

/* Pure: the same from a buffer holding the file's first @len bytes. */
void run_inspect_elf(const unsigned char *buf, size_t len, struct elf_facts *out);

/*
 * Locate librtready-check.so: $RTREADY_PRELOAD, else relative to the
 * running binary's directory (/proc/self/exe): ../LIBDIR/rtready/ (the
 * configured libdir, lib/<multiarch> on Debian), ../lib/rtready/ (a
 * release tarball), ../preload/ (the build tree); else the configured
 * install path. *@self_err is 0, or -errno when /proc/self/exe could not
 * be read (no procfs: the binary's own places were not tried).
 * Return: 0, or -ENOENT with @out listing the places tried (for the message).
 */
int run_find_preload(char *out, size_t len, int *self_err);

/* SCHED_DEADLINE (include/uapi/linux/sched.h): older C libraries lack the name. */
#define RUN_SCHED_DEADLINE 6

struct spawn_config {
	char *const *argv;		/* the command, argv[0] as the user gave it */
	const char *path;		/* what run_find_program() found */
	char *const *envp;		/* its environment */
	int policy;			/* -1: leave, else SCHED_OTHER/FIFO/RR/DEADLINE */
	int prio;
	uint64_t dl_runtime_ns;		/* SCHED_DEADLINE: the reservation */
	uint64_t dl_deadline_ns;
	uint64_t dl_period_ns;
	bool nice_set;
	int nice;
	const struct rtr_cpuset *cpus;	/* NULL: leave */
	bool memlock_set;
	uint64_t memlock_bytes;		/* UINT64_MAX: unlimited */
	bool memlock_raise;		/* raise the soft limit to the hard one, if lower */
	uint64_t rttime_us;		/* RLIMIT_RTTIME soft limit; 0: leave */
	const struct run_cgroup *cg;	/* NULL or the cgroup to join */
	bool elf;			/* an ELF file: never handed to the shell */
	bool own_group;			/* start it in a process group of its own */
};

/*
 * Whether the program should get a process group of its own: when rtready
 * does not own the terminal's foreground (no terminal on standard input, or
 * rtready runs in a background group, as under timeout(1) or in a script).
 * There a signal sent to rtready's whole group (timeout sends one to the
 * group as well as to rtready) would reach the program twice: directly, and
 * again as rtready passes it on. In its own group the program gets each
 * signal once, from rtready. In the terminal's foreground group it stays with
 * rtready, so job control and the keyboard's signals keep working.
 */
bool spawn_wants_own_group(void);

/*
 * Fork and exec; a file the kernel refuses as not executable (ENOEXEC: a
 * script without "#!") is run by /bin/sh, as execvp(3) does, unless it is
 * an ELF file (of another machine, say: no shell can run that). The program
 * gets SIGTERM when rtready dies (PR_SET_PDEATHSIG; kept across exec except
 * for set-ID programs).
 * Return: 0 with *pid set once the program runs (exec succeeded), or
 * -errno with @err naming the step that failed (the child is then reaped
 * already).
 */
int spawn_start(const struct spawn_config *c, pid_t *pid, char *err, size_t errlen);

/*
 * Wait for @pid, passing SIGINT, SIGTERM, SIGHUP and SIGQUIT sent to
 * rtready on to it (a terminal's own signals reach it directly when it
 * shares rtready's group, @own_group false, and are not sent twice). Those signals stay blocked afterwards, so that the
 * clean-up after the program cannot be interrupted by them.
 * Return: 0 with the wait status in *status, or -errno.
 */
int spawn_wait(pid_t pid, bool own_group, int *status);

/* The shell's view of a wait status: the exit code, or 128 + signal. */
int spawn_exit_code(int status);

#endif
