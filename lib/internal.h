/* SPDX-License-Identifier: MIT */
/*
 * Private helpers of librtready: the export macro (everything else is
 * hidden, see librtready.sym) and the per-thread error message behind
 * rtr_last_error().
 */
#ifndef RTREADY_LIB_INTERNAL_H
#define RTREADY_LIB_INTERNAL_H

#define RTR_EXPORT __attribute__((visibility("default")))

/*
 * Record a human message for the calling thread and return @err (a negative
 * errno), so that a failing path reads: return rtr__fail(-EPERM, "...", ...);
 */
int rtr__fail(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Forget the calling thread's last message. */
void rtr__clear_error(void);

#endif
