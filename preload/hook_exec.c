// SPDX-License-Identifier: MIT
/*
 * exec and _exit: neither runs destructors, so the records of this process
 * image are written first. LD_PRELOAD and RTREADY_CHECK_REPORT stay in the
 * environment, so an exec'd program is checked too and reports under its
 * own pid (unless the app passes an environment without them). A failed
 * exec is harmless: the records are written again at exit and the reader
 * keeps the larger counts.
 *
 * The execl family is variadic; glibc implements it on an internal execve
 * we cannot see, so it is rebuilt here on an argv of bounded size.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <unistd.h>

#include "internal.h"

#define MAX_ARGS 1024	/* 8 KiB of stack: execl() callers pass a handful */

static int (*real_execve)(const char *, char *const[], char *const[]);
static int (*real_execv)(const char *, char *const[]);
static int (*real_execvp)(const char *, char *const[]);
static int (*real_execvpe)(const char *, char *const[], char *const[]);
static int (*real_fexecve)(int, char *const[], char *const[]);
static void (*real__exit)(int);

static void before_exec(void)
{
	if (pl_enabled)
		pl_flush("exec");
}

PL_EXPORT int execve(const char *path, char *const argv[], char *const envp[])
{
	PL_REAL(real_execve, "execve");
	if (!real_execve) {
		errno = ENOSYS;
		return -1;
	}
	before_exec();
	return real_execve(path, argv, envp);
}

PL_EXPORT int execv(const char *path, char *const argv[])
{
	PL_REAL(real_execv, "execv");
	if (!real_execv) {
		errno = ENOSYS;
		return -1;
	}
	before_exec();
	return real_execv(path, argv);
}

PL_EXPORT int execvp(const char *file, char *const argv[])
{
	PL_REAL(real_execvp, "execvp");
	if (!real_execvp) {
		errno = ENOSYS;
		return -1;
	}
	before_exec();
	return real_execvp(file, argv);
}

PL_EXPORT int execvpe(const char *file, char *const argv[], char *const envp[])
{
	PL_REAL(real_execvpe, "execvpe");
	if (!real_execvpe) {
		errno = ENOSYS;
		return -1;
	}
	before_exec();
	return real_execvpe(file, argv, envp);
}

PL_EXPORT int fexecve(int fd, char *const argv[], char *const envp[])
{
	PL_REAL(real_fexecve, "fexecve");
	if (!real_fexecve) {
		errno = ENOSYS;
		return -1;
	}
	before_exec();
	return real_fexecve(fd, argv, envp);
}

/* Collect the variadic arguments after @arg0 into @argv; NULL-terminated. */
static int collect(char **argv, const char *arg0, va_list ap, char ***envp)
{
	int n = 0;

	argv[n++] = (char *)arg0;
	while (argv[n - 1]) {
		if (n == MAX_ARGS)
			return -E2BIG;
		argv[n++] = va_arg(ap, char *);
	}
	if (envp)
		*envp = va_arg(ap, char **);
	return 0;
}

PL_EXPORT int execl(const char *path, const char *arg, ...)
{
	char *argv[MAX_ARGS];
	va_list ap;
	int rc;

	va_start(ap, arg);
	rc = collect(argv, arg, ap, NULL);
	va_end(ap);
	if (rc) {
		errno = -rc;
		return -1;
	}
	return execv(path, argv);
}

PL_EXPORT int execlp(const char *file, const char *arg, ...)
{
	char *argv[MAX_ARGS];
	va_list ap;
	int rc;

	va_start(ap, arg);
	rc = collect(argv, arg, ap, NULL);
	va_end(ap);
	if (rc) {
		errno = -rc;
		return -1;
	}
	return execvp(file, argv);
}

PL_EXPORT int execle(const char *path, const char *arg, ...)
{
	char *argv[MAX_ARGS], **envp = NULL;
	va_list ap;
	int rc;

	va_start(ap, arg);
	rc = collect(argv, arg, ap, &envp);
	va_end(ap);
	if (rc) {
		errno = -rc;
		return -1;
	}
	return execve(path, argv, envp);
}

PL_EXPORT void _exit(int status)
{
	PL_REAL(real__exit, "_exit");
	if (pl_enabled)
		pl_flush("_exit");
	if (real__exit)
		real__exit(status);
	abort();	/* not reached: there is always a real _exit */
}

/* The C99 name; glibc makes it an alias, which would bypass the hook above. */
PL_EXPORT void _Exit(int status)
{
	_exit(status);
}
