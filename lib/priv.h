/* SPDX-License-Identifier: MIT */
/*
 * Naming the missing privilege. When the kernel says EPERM or ENOMEM to a
 * realtime request, the user needs to know which of the capability or the
 * resource limit to fix; these helpers ask the kernel (capget, getrlimit)
 * and write that sentence.
 */
#ifndef RTREADY_LIB_PRIV_H
#define RTREADY_LIB_PRIV_H

#include <stdbool.h>
#include <stddef.h>

/* Capability numbers of linux/capability.h (stable kernel ABI). */
#define PRIV_CAP_IPC_LOCK 14
#define PRIV_CAP_SYS_NICE 23

/* Return: true when @cap is in the calling thread's effective set. */
bool rtr__priv_has_cap(int cap);

/*
 * Explain why the kernel refused realtime priority @prio (FIFO/RR) with
 * EPERM: whether CAP_SYS_NICE is missing and the value of RLIMIT_RTPRIO.
 */
void rtr__priv_explain_rtprio(char *buf, size_t len, int prio);

/* Explain an mlock failure: RLIMIT_MEMLOCK value and CAP_IPC_LOCK. */
void rtr__priv_explain_memlock(char *buf, size_t len);

#endif
