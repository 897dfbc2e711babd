// SPDX-License-Identifier: MIT
/*
 * syscall(): programs reach sched_setattr (no libc wrapper before glibc
 * 2.41, none in musl), tgkill and futex (libjack's waits) through it. The six argument registers are
 * passed on unchanged, as libc's own syscall() does; reading all six even
 * when fewer were passed is what that function does too.
 */
#include <sched.h>
#include <stdarg.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "internal.h"

static long (*real_syscall)(long, ...);

PL_EXPORT long syscall(long n, ...)
{
	long a[6];
	bool sched = false;
	va_list ap;

	va_start(ap, n);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	PL_REAL(real_syscall, "syscall");
	switch (n) {
	case SYS_tgkill:
		if (a[0] == pl_pid)
			pl_check_kill("syscall(tgkill)", (int)a[2], __builtin_return_address(0));
		break;
	case SYS_tkill:
		pl_check_kill("syscall(tkill)", (int)a[1], __builtin_return_address(0));
		break;
#ifdef SYS_sched_setattr
	case SYS_sched_setattr:
		pl_check_setattr((const void *)a[1], __builtin_return_address(0));
		sched = true;
		break;
#endif
	case SYS_sched_setscheduler:
		if (a[2])
			pl_check_prio("syscall(sched_setscheduler)",
				      ((const struct sched_param *)a[2])->sched_priority,
				      __builtin_return_address(0));
		sched = true;
		break;
	case SYS_sched_setparam:
		if (a[1])
			pl_check_prio("syscall(sched_setparam)",
				      ((const struct sched_param *)a[1])->sched_priority,
				      __builtin_return_address(0));
		sched = true;
		break;
	case SYS_futex:
		pl_futex((int)a[1], (const void *)a[3], __builtin_return_address(0));
		break;
#ifdef SYS_futex_time64
	case SYS_futex_time64:
		pl_futex((int)a[1], (const void *)a[3], __builtin_return_address(0));
		break;
#endif
#ifdef SYS_futex_waitv
	case SYS_futex_waitv:
		pl_maybe_wait(true, __builtin_return_address(0));
		break;
#endif
	default:
		break;
	}
	long rc = real_syscall(n, a[0], a[1], a[2], a[3], a[4], a[5]);

	if (sched)
		pl_sched_changed();
	return rc;
}
