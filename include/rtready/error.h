/* SPDX-License-Identifier: MIT */
/*
 * Errors of librtready. Every function that can fail returns 0 or a
 * negative errno. Functions that fail for a reason a user must act on
 * (a missing privilege, a limit) also leave a one-line explanation for the
 * calling thread, like dlerror(): rtr_last_error().
 */
#ifndef RTREADY_ERROR_H
#define RTREADY_ERROR_H

#ifdef __cplusplus
extern "C" {
#endif

/**
 * rtr_last_error() - the explanation of the calling thread's last failure
 * in librtready, e.g. "mlockall: Cannot allocate memory (RLIMIT_MEMLOCK is
 * 8 MiB; raise it with ulimit -l or limits.conf memlock)".
 * Return: a thread-local string, "" when there is none; valid until the next
 *         librtready call in this thread.
 */
const char *rtr_last_error(void);

#ifdef __cplusplus
}
#endif

#endif
