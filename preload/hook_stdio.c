// SPDX-License-Identifier: MIT
/*
 * stdio and syslog in a realtime thread's periodic work (app.stdio_in_rt).
 * Every FILE has a lock of its own, taken by each call, that has no
 * priority inheritance; a stream allocates its buffer at first use, and
 * the printf engine allocates for large or wide conversions; a full
 * buffer is flushed with a write() to wherever the stream goes (a pipe, a
 * terminal, a disk), which can block. syslog() takes a process-wide lock,
 * may allocate, and writes to a socket. One record per thread, with the
 * first call's backtrace, then a count.
 *
 * The hooks forward the variadic calls to the v* functions of the C
 * library (printf -> vfprintf(stdout)). The compiler turns some printf
 * calls into puts, putchar or fwrite, and _FORTIFY_SOURCE into the __*_chk
 * functions: those are hooked too. The *_unlocked functions take no lock
 * and are not watched. Exit handlers flushing streams are not periodic
 * work (pl_exiting).
 */
#include <stdarg.h>
#include <stdio.h>
#include <syslog.h>

#include "internal.h"

static inline void check_stdio(const char *fn, void *caller)
{
	struct pl_thread *t = pl_rt_thread();

	if (t && pl_in_rt_work(t))
		pl_note(t, PL_STDIO_IN_RT, fn, 0, 1, caller);
}

static int (*real_vfprintf)(FILE *, const char *, va_list);
static int (*real_fputs)(const char *, FILE *);
static int (*real_puts)(const char *);
static int (*real_fputc)(int, FILE *);
static int (*real_putc)(int, FILE *);
static int (*real_putchar)(int);
static size_t (*real_fwrite)(const void *, size_t, size_t, FILE *);
static int (*real_fflush)(FILE *);
static void (*real_perror)(const char *);
static void (*real_vsyslog)(int, const char *, va_list);

PL_EXPORT int vfprintf(FILE *f, const char *fmt, va_list ap)
{
	PL_REAL(real_vfprintf, "vfprintf");
	check_stdio("vfprintf", __builtin_return_address(0));
	return real_vfprintf(f, fmt, ap);
}

PL_EXPORT int vprintf(const char *fmt, va_list ap)
{
	PL_REAL(real_vfprintf, "vfprintf");
	check_stdio("vprintf", __builtin_return_address(0));
	return real_vfprintf(stdout, fmt, ap);
}

PL_EXPORT int fprintf(FILE *f, const char *fmt, ...)
{
	va_list ap;
	int rc;

	PL_REAL(real_vfprintf, "vfprintf");
	check_stdio("fprintf", __builtin_return_address(0));
	va_start(ap, fmt);
	rc = real_vfprintf(f, fmt, ap);
	va_end(ap);
	return rc;
}

PL_EXPORT int printf(const char *fmt, ...)
{
	va_list ap;
	int rc;

	PL_REAL(real_vfprintf, "vfprintf");
	check_stdio("printf", __builtin_return_address(0));
	va_start(ap, fmt);
	rc = real_vfprintf(stdout, fmt, ap);
	va_end(ap);
	return rc;
}

PL_EXPORT int fputs(const char *s, FILE *f)
{
	PL_REAL(real_fputs, "fputs");
	check_stdio("fputs", __builtin_return_address(0));
	return real_fputs(s, f);
}

PL_EXPORT int puts(const char *s)
{
	PL_REAL(real_puts, "puts");
	check_stdio("puts", __builtin_return_address(0));
	return real_puts(s);
}

PL_EXPORT int fputc(int c, FILE *f)
{
	PL_REAL(real_fputc, "fputc");
	check_stdio("fputc", __builtin_return_address(0));
	return real_fputc(c, f);
}

#undef putc
PL_EXPORT int putc(int c, FILE *f)
{
	PL_REAL(real_putc, "putc");
	check_stdio("putc", __builtin_return_address(0));
	return real_putc(c, f);
}

#undef putchar
PL_EXPORT int putchar(int c)
{
	PL_REAL(real_putchar, "putchar");
	check_stdio("putchar", __builtin_return_address(0));
	return real_putchar(c);
}

PL_EXPORT size_t fwrite(const void *p, size_t size, size_t n, FILE *f)
{
	PL_REAL(real_fwrite, "fwrite");
	check_stdio("fwrite", __builtin_return_address(0));
	return real_fwrite(p, size, n, f);
}

PL_EXPORT int fflush(FILE *f)
{
	PL_REAL(real_fflush, "fflush");
	check_stdio("fflush", __builtin_return_address(0));
	return real_fflush(f);
}

PL_EXPORT void perror(const char *s)
{
	PL_REAL(real_perror, "perror");
	check_stdio("perror", __builtin_return_address(0));
	real_perror(s);
}

PL_EXPORT void vsyslog(int prio, const char *fmt, va_list ap)
{
	PL_REAL(real_vsyslog, "vsyslog");
	check_stdio("vsyslog", __builtin_return_address(0));
	real_vsyslog(prio, fmt, ap);
}

PL_EXPORT void syslog(int prio, const char *fmt, ...)
{
	va_list ap;

	PL_REAL(real_vsyslog, "vsyslog");
	check_stdio("syslog", __builtin_return_address(0));
	va_start(ap, fmt);
	real_vsyslog(prio, fmt, ap);
	va_end(ap);
}

#ifdef __GLIBC__
/* The _FORTIFY_SOURCE forms; @flag asks for the extra checks of %n. */
int __vfprintf_chk(FILE *f, int flag, const char *fmt, va_list ap);
int __vprintf_chk(int flag, const char *fmt, va_list ap);
int __fprintf_chk(FILE *f, int flag, const char *fmt, ...);
int __printf_chk(int flag, const char *fmt, ...);
void __vsyslog_chk(int prio, int flag, const char *fmt, va_list ap);
void __syslog_chk(int prio, int flag, const char *fmt, ...);

static int (*real_vfprintf_chk)(FILE *, int, const char *, va_list);
static void (*real_vsyslog_chk)(int, int, const char *, va_list);

PL_EXPORT int __vfprintf_chk(FILE *f, int flag, const char *fmt, va_list ap)
{
	PL_REAL(real_vfprintf_chk, "__vfprintf_chk");
	check_stdio("vfprintf", __builtin_return_address(0));
	return real_vfprintf_chk(f, flag, fmt, ap);
}

PL_EXPORT int __vprintf_chk(int flag, const char *fmt, va_list ap)
{
	PL_REAL(real_vfprintf_chk, "__vfprintf_chk");
	check_stdio("vprintf", __builtin_return_address(0));
	return real_vfprintf_chk(stdout, flag, fmt, ap);
}

PL_EXPORT int __fprintf_chk(FILE *f, int flag, const char *fmt, ...)
{
	va_list ap;
	int rc;

	PL_REAL(real_vfprintf_chk, "__vfprintf_chk");
	check_stdio("fprintf", __builtin_return_address(0));
	va_start(ap, fmt);
	rc = real_vfprintf_chk(f, flag, fmt, ap);
	va_end(ap);
	return rc;
}

PL_EXPORT int __printf_chk(int flag, const char *fmt, ...)
{
	va_list ap;
	int rc;

	PL_REAL(real_vfprintf_chk, "__vfprintf_chk");
	check_stdio("printf", __builtin_return_address(0));
	va_start(ap, fmt);
	rc = real_vfprintf_chk(stdout, flag, fmt, ap);
	va_end(ap);
	return rc;
}

PL_EXPORT void __vsyslog_chk(int prio, int flag, const char *fmt, va_list ap)
{
	PL_REAL(real_vsyslog_chk, "__vsyslog_chk");
	check_stdio("vsyslog", __builtin_return_address(0));
	real_vsyslog_chk(prio, flag, fmt, ap);
}

PL_EXPORT void __syslog_chk(int prio, int flag, const char *fmt, ...)
{
	va_list ap;

	PL_REAL(real_vsyslog_chk, "__vsyslog_chk");
	check_stdio("syslog", __builtin_return_address(0));
	va_start(ap, fmt);
	real_vsyslog_chk(prio, flag, fmt, ap);
	va_end(ap);
}
#endif
