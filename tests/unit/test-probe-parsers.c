// SPDX-License-Identifier: MIT
/*
 * The pure parsers of the kernel, sched, tasks, memory and platform probes
 * on good and hostile input: /proc/PID/stat (comm with spaces and
 * parentheses, missing fields, huge numbers, NUL bytes), /proc/PID/status,
 * /proc/PID/limits, kernel config text, the command line, sysfs choice
 * files, /proc/swaps, /proc/cpuinfo flags, /proc/self/mounts and gzip.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "unit.h"
#include <zlib.h>

#include "probe/cmdline.h"
#include "probe/kconfig.h"
#include "probe/kernel.h"
#include "probe/knob.h"
#include "probe/memory.h"
#include "probe/platform.h"
#include "probe/procstat.h"
#include "probe/cgroupfs.h"
#include "probe/sched.h"

#define S(lit) lit, sizeof(lit) - 1

/* A real line of a kernel thread (pid 15), all 52 fields. */
static const char stat_line[] =
	"15 (migration/0) S 2 0 0 0 -1 69238848 0 0 0 0 0 3 0 0 -100 0 1 0 2 0 0 "
	"18446744073709551615 0 0 0 0 0 0 0 2147483647 0 0 0 0 17 0 99 1 0 0 0 0 0 0 0 0 0 0 0\n";

static void stat_good(void **state)
{
	struct proc_stat ps;

	(void)state;
	assert_int_equal(parse_proc_stat(S(stat_line), &ps), 0);
	assert_int_equal(ps.pid, 15);
	assert_string_equal(ps.comm, "migration/0");
	assert_int_equal(ps.state, 'S');
	assert_int_equal(ps.ppid, 2);
	assert_int_equal(ps.flags, 69238848);
	assert_true(ps.flags & 0x00200000);
	assert_int_equal(ps.priority, -100);
	assert_int_equal(ps.nice, 0);
	assert_int_equal(ps.num_threads, 1);
	assert_int_equal(ps.start_ticks, 2);
	assert_int_equal(ps.processor, 0);
	assert_int_equal(ps.rt_priority, 99);
	assert_int_equal(ps.policy, 1);
	assert_int_equal(ps.stime_ticks, 3);
}

/*
 * Build a stat line "HEAD S 1 0 0 ... 0" with fields 3..41 (state S, ppid
 * 1, the rest 0), field @field (proc(5) numbering) set to @val.
 */
static const char *mkstat(char *buf, size_t len, const char *head, int field, const char *val)
{
	size_t n = (size_t)snprintf(buf, len, "%s", head);

	for (int f = 3; f <= 41 && n < len; f++)
		n += (size_t)snprintf(buf + n, len - n, " %s",
				      f == field ? val : f == 3 ? "S" : f == 4 ? "1" : "0");
	return buf;
}

static void stat_hostile_comm(void **state)
{
	struct proc_stat ps;
	char b[512];
	char l3[] = "9 (x\ny\tz) S";

	(void)state;
	/* A thread may name itself "a) (b" or ") S 1 (": the LAST ')' ends comm. */
	mkstat(b, sizeof(b), "42 (a) (b)", 12, "5");
	assert_int_equal(parse_proc_stat(b, strlen(b), &ps), 0);
	assert_string_equal(ps.comm, "a) (b");
	assert_int_equal(ps.pid, 42);
	assert_int_equal(ps.majflt, 5);
	assert_int_equal(ps.policy, 0);
	mkstat(b, sizeof(b), "7 () S 1 () R 1 (", 40, "50");
	assert_int_equal(parse_proc_stat(b, strlen(b), &ps), -EINVAL);	/* comm has no ')' end */
	mkstat(b, sizeof(b), "7 () S 1 () R 1 ()", 40, "50");
	assert_int_equal(parse_proc_stat(b, strlen(b), &ps), 0);
	assert_string_equal(ps.comm, ") S 1 () R 1 (");
	assert_int_equal(ps.rt_priority, 50);
	mkstat(b, sizeof(b), "7 ()", 41, "2");
	assert_int_equal(parse_proc_stat(b, strlen(b), &ps), 0);
	assert_string_equal(ps.comm, "");
	assert_int_equal(ps.policy, 2);
	/* Control bytes in comm are made harmless for a terminal. */
	l3[sizeof(l3) - 3] = '\0';
	mkstat(b, sizeof(b), l3, 0, "");
	assert_int_equal(parse_proc_stat(b, strlen(b), &ps), 0);
	assert_string_equal(ps.comm, "x?y?z");
	/*
	 * A thread may name itself with any bytes: what is not UTF-8 (a stray
	 * continuation, a truncated sequence, an overlong form, a surrogate)
	 * and C1 controls become '?', one per bad byte or character, while
	 * valid UTF-8 is kept, so the name is valid JSON text and safe on a
	 * terminal.
	 */
	mkstat(b, sizeof(b), "9 (a\xff\xfe" "b\xc3\xa9\xe2\x82)", 0, "");
	assert_int_equal(parse_proc_stat(b, strlen(b), &ps), 0);
	assert_string_equal(ps.comm, "a??b\xc3\xa9" "??");
	mkstat(b, sizeof(b), "9 (\xc0\xaf\xed\xa0\x80\xc2\x9b[2J\xf0\x9f\x98\x80)", 0, "");
	assert_int_equal(parse_proc_stat(b, strlen(b), &ps), 0);
	assert_string_equal(ps.comm, "??????[2J\xf0\x9f\x98\x80");
	/* Optional fields after policy are ignored; a trailing newline is fine. */
	mkstat(b, sizeof(b), "8 (x)", 0, "");
	strcat(b, " 0 0 0 junk\n");
	assert_int_equal(parse_proc_stat(b, strlen(b), &ps), 0);
}

static void stat_bad(void **state)
{
	struct proc_stat ps;
	char nul[sizeof(stat_line)];
	char b[512], name[200], head[256];

	(void)state;
	assert_int_equal(parse_proc_stat("", 0, &ps), -EINVAL);
	assert_int_equal(parse_proc_stat(S("15 (x"), &ps), -EINVAL);
	assert_int_equal(parse_proc_stat(S("15 x) S"), &ps), -EINVAL);
	assert_int_equal(parse_proc_stat(S("15 (x) S 2 0 0"), &ps), -EINVAL);	/* missing fields */
	mkstat(b, sizeof(b), "(x)", 0, "");
	assert_int_equal(parse_proc_stat(b, strlen(b), &ps), -EINVAL);		/* no pid */
	mkstat(b, sizeof(b), "0 (x)", 0, "");
	assert_int_equal(parse_proc_stat(b, strlen(b), &ps), -ERANGE);
	mkstat(b, sizeof(b), "-5 (x)", 0, "");
	assert_int_equal(parse_proc_stat(b, strlen(b), &ps), -ERANGE);
	mkstat(b, sizeof(b), "99999999999 (x)", 0, "");
	assert_int_equal(parse_proc_stat(b, strlen(b), &ps), -ERANGE);
	/* nice outside -20..19, rt_priority above 99, a number past uint64, words */
	mkstat(b, sizeof(b), "5 (x)", 19, "40");
	assert_int_equal(parse_proc_stat(b, strlen(b), &ps), -ERANGE);
	mkstat(b, sizeof(b), "5 (x)", 19, "-19");
	assert_int_equal(parse_proc_stat(b, strlen(b), &ps), 0);
	assert_int_equal(ps.nice, -19);
	mkstat(b, sizeof(b), "5 (x)", 40, "100");
	assert_int_equal(parse_proc_stat(b, strlen(b), &ps), -ERANGE);
	mkstat(b, sizeof(b), "5 (x)", 10, "99999999999999999999999");
	assert_int_equal(parse_proc_stat(b, strlen(b), &ps), -ERANGE);
	mkstat(b, sizeof(b), "5 (x)", 10, "1234567890123456789012345678901234567890");
	assert_int_equal(parse_proc_stat(b, strlen(b), &ps), -EINVAL);	/* too long a token */
	mkstat(b, sizeof(b), "5 (x)", 10, "18446744073709551616");
	assert_int_equal(parse_proc_stat(b, strlen(b), &ps), -ERANGE);
	mkstat(b, sizeof(b), "5 (x)", 10, "18446744073709551615");
	assert_int_equal(parse_proc_stat(b, strlen(b), &ps), 0);
	mkstat(b, sizeof(b), "5 (x)", 9, "4294967296");
	assert_int_equal(parse_proc_stat(b, strlen(b), &ps), -ERANGE);
	mkstat(b, sizeof(b), "5 (x)", 10, "abc");
	assert_int_equal(parse_proc_stat(b, strlen(b), &ps), -EINVAL);
	mkstat(b, sizeof(b), "5 (x)", 30, "x1");
	assert_int_equal(parse_proc_stat(b, strlen(b), &ps), -EINVAL);
	mkstat(b, sizeof(b), "5 (x)", 10, "-1");
	assert_int_equal(parse_proc_stat(b, strlen(b), &ps), -EINVAL);	/* unsigned field */
	mkstat(b, sizeof(b), "5 (x)", 3, "SS");
	assert_int_equal(parse_proc_stat(b, strlen(b), &ps), -EINVAL);
	mkstat(b, sizeof(b), "5 (x)", 4, "");				/* double space */
	assert_int_equal(parse_proc_stat(b, strlen(b), &ps), -EINVAL);
	/* a NUL byte inside a number field */
	memcpy(nul, stat_line, sizeof(stat_line));
	nul[strstr(stat_line, "69238848") - stat_line + 3] = '\0';
	assert_int_equal(parse_proc_stat(nul, sizeof(stat_line) - 1, &ps), -EINVAL);
	/* a NUL byte inside comm is kept as '?' */
	memcpy(nul, stat_line, sizeof(stat_line));
	nul[5] = '\0';
	assert_int_equal(parse_proc_stat(nul, sizeof(stat_line) - 1, &ps), 0);
	assert_string_equal(ps.comm, "m?gration/0");
	/* a long comm is cut, not overflowed */
	memset(name, 'c', sizeof(name));
	snprintf(head, sizeof(head), "1 (%.*s)", (int)sizeof(name), name);
	mkstat(b, sizeof(b), head, 0, "");
	assert_int_equal(parse_proc_stat(b, strlen(b), &ps), 0);
	assert_int_equal(strlen(ps.comm), PROC_COMM_MAX - 1);
}

static const char status_text[] =
	"Name:\tcyclictest\n"
	"Umask:\t0022\n"
	"State:\tS (sleeping)\n"
	"Tgid:\t1234\n"
	"Pid:\t1236\n"
	"PPid:\t1000\n"
	"VmSize:\t   20000 kB\n"
	"VmLck:\t   10240 kB\n"
	"VmPin:\t       0 kB\n"
	"VmRSS:\t    4096 kB\n"
	"VmSwap:\t       0 kB\n"
	"Threads:\t3\n"
	"CapEff:\t000001ffffffffff\n"
	"Kthread:\t0\n"
	"Cpus_allowed:\tc\n"
	"Cpus_allowed_list:\t2-3\n"
	"voluntary_ctxt_switches:\t150\n"
	"nonvoluntary_ctxt_switches:\t7\n";

static void status_good(void **state)
{
	struct proc_status st;

	(void)state;
	assert_int_equal(parse_proc_status(S(status_text), &st), 0);
	assert_string_equal(st.name, "cyclictest");
	assert_int_equal(st.tgid, 1234);
	assert_int_equal(st.pid, 1236);
	assert_int_equal(st.ppid, 1000);
	assert_int_equal(st.vm_lck_kb, 10240);
	assert_int_equal(st.vm_rss_kb, 4096);
	assert_int_equal(st.vm_size_kb, 20000);
	assert_int_equal(st.threads, 3);
	assert_int_equal(st.cap_eff, 0x1ffffffffffULL);
	assert_false(st.kthread);
	assert_int_equal(st.cpus_allowed_err, 0);
	assert_true(rtr_cpuset_test(&st.cpus_allowed, 2));
	assert_true(rtr_cpuset_test(&st.cpus_allowed, 3));
	assert_int_equal(rtr_cpuset_count(&st.cpus_allowed), 2);
	assert_int_equal(st.voluntary_ctxt_switches, 150);
	assert_int_equal(st.nonvoluntary_ctxt_switches, 7);
	assert_true(st.have & PROC_ST_VMLCK);
	assert_true(st.have & PROC_ST_KTHREAD);
	proc_status_free(&st);
}

static void status_bad(void **state)
{
	struct proc_status st;
	char withnul[] = "VmLck:\t1\0 kB\nVmRSS:\t5 kB\n";

	(void)state;
	assert_int_equal(parse_proc_status("", 0, &st), -EINVAL);
	proc_status_free(&st);
	assert_int_equal(parse_proc_status(S("garbage\nno colon\n::::\n"), &st), -EINVAL);
	proc_status_free(&st);
	/* Garbage values leave their bit clear but keep the rest. */
	assert_int_equal(parse_proc_status(S("VmLck:\tlots kB\nVmRSS:\t99999999999999999999999 kB\n"
					     "Cpus_allowed_list:\t3-1\nThreads:\t2"), &st), 0);
	assert_false(st.have & PROC_ST_VMLCK);
	assert_false(st.have & PROC_ST_VMRSS);
	assert_false(st.have & PROC_ST_CPUS);
	assert_int_equal(st.cpus_allowed_err, -EINVAL);
	assert_int_equal(st.threads, 2);	/* the last line has no newline */
	proc_status_free(&st);
	/* A repeated line wins, even when it is garbage. */
	assert_int_equal(parse_proc_status(S("Cpus_allowed_list:\t1\nCpus_allowed_list:\tx\n"
					     "Name:\ta\n"), &st), 0);
	assert_false(st.have & PROC_ST_CPUS);
	assert_int_equal(st.cpus_allowed_err, -EINVAL);
	proc_status_free(&st);
	/* No Cpus_allowed_list line at all. */
	assert_int_equal(parse_proc_status(S("Name:\tx\n"), &st), 0);
	assert_int_equal(st.cpus_allowed_err, -ENOENT);
	proc_status_free(&st);
	/* A NUL inside a value. */
	assert_int_equal(parse_proc_status(withnul, sizeof(withnul) - 1, &st), 0);
	assert_false(st.have & PROC_ST_VMLCK);
	assert_int_equal(st.vm_rss_kb, 5);
	proc_status_free(&st);
	/* Kthread other than 0/1, CapEff too long. */
	assert_int_equal(parse_proc_status(S("Kthread:\t7\nCapEff:\t00000000000000000001\n"
					     "Name:\ta"), &st), 0);
	assert_false(st.have & (PROC_ST_KTHREAD | PROC_ST_CAPEFF));
	proc_status_free(&st);
	/* NSpid: one id per PID namespace that sees the task; garbage is left out. */
	assert_int_equal(parse_proc_status(S("NSpid:\t4242\t1\nName:\ta\n"), &st), 0);
	assert_true(st.have & PROC_ST_NSPID);
	assert_int_equal(st.nspid_levels, 2);
	proc_status_free(&st);
	assert_int_equal(parse_proc_status(S("NSpid:\t17\n"), &st), 0);
	assert_int_equal(st.nspid_levels, 1);
	proc_status_free(&st);
	assert_int_equal(parse_proc_status(S("NSpid:\t17 x\nName:\ta\n"), &st), 0);
	assert_false(st.have & PROC_ST_NSPID);
	proc_status_free(&st);
	assert_int_equal(parse_proc_status(S("NSpid:\t\nName:\ta\n"), &st), 0);
	assert_false(st.have & PROC_ST_NSPID);
	proc_status_free(&st);
}

static void limits_parse(void **state)
{
	static const char text[] =
		"Limit                     Soft Limit           Hard Limit           Units     \n"
		"Max cpu time              unlimited            unlimited            seconds   \n"
		"Max locked memory         8388608              8388608              bytes     \n"
		"Max nice priority         0                    0                    \n"
		"Max realtime priority     0                    95                   \n"
		"Max realtime timeout      unlimited            unlimited            us        \n";
	struct proc_limits l;

	(void)state;
	assert_int_equal(parse_proc_limits(S(text), &l), 0);
	assert_true(l.memlock.found);
	assert_int_equal(l.memlock.soft, 8388608);
	assert_true(l.rtprio.found);
	assert_int_equal(l.rtprio.soft, 0);
	assert_int_equal(l.rtprio.hard, 95);
	assert_true(l.rttime.soft == PROC_LIMIT_INFINITY);
	assert_true(l.nice.found);
	assert_int_equal(parse_proc_limits("", 0, &l), -EINVAL);
	assert_int_equal(parse_proc_limits(S("Max realtime priority     x y\n"), &l), -EINVAL);
	assert_false(l.rtprio.found);
	assert_int_equal(parse_proc_limits(S("Max realtime priority\n"), &l), -EINVAL);
	assert_int_equal(parse_proc_limits(S("Max realtime priorityX 1 1\n"), &l), -EINVAL);
	assert_int_equal(parse_proc_limits(S("Max locked memory  unlimited  unlimited bytes"), &l),
			 0);
	assert_true(l.memlock.hard == PROC_LIMIT_INFINITY);
}

static void kconfig_good(void **state)
{
	static const char text[] =
		"#\n# Automatically generated file; DO NOT EDIT.\n#\n"
		"CONFIG_PREEMPT_RT=y\r\n"
		"CONFIG_HZ=1000\n"
		"CONFIG_LOCALVERSION=\"-rt\"\n"
		"# CONFIG_KASAN is not set\n"
		"CONFIG_DRM=m\n"
		"CONFIG_HZ=250\n"		/* a later line wins */
		"CONFIG_=y\n"			/* no name: ignored */
		"# CONFIG_X is not set yet\n"	/* not the exact form: ignored */
		"CONFIG_EMPTY=\n"
		"CONFIG_LAST=y";		/* no newline at the end */
	struct kconfig kc;

	(void)state;
	assert_int_equal(kconfig_parse(S(text), &kc), 0);
	assert_int_equal(kc.n, 7);
	assert_int_equal(kconfig_tristate(&kc, "CONFIG_PREEMPT_RT"), KCONFIG_YES);
	assert_string_equal(kconfig_get(&kc, "CONFIG_HZ"), "250");
	assert_string_equal(kconfig_get(&kc, "CONFIG_LOCALVERSION"), "\"-rt\"");
	assert_int_equal(kconfig_tristate(&kc, "CONFIG_KASAN"), KCONFIG_NO);
	assert_int_equal(kconfig_tristate(&kc, "CONFIG_DRM"), KCONFIG_MODULE);
	assert_true(kconfig_enabled(&kc, "CONFIG_DRM"));
	assert_int_equal(kconfig_tristate(&kc, "CONFIG_NOPE"), KCONFIG_ABSENT);
	assert_int_equal(kconfig_tristate(&kc, "CONFIG_X"), KCONFIG_ABSENT);
	assert_int_equal(kconfig_tristate(&kc, "CONFIG_HZ"), KCONFIG_OTHER);
	assert_string_equal(kconfig_get(&kc, "CONFIG_EMPTY"), "");
	assert_int_equal(kconfig_tristate(&kc, "CONFIG_LAST"), KCONFIG_YES);
	kconfig_free(&kc);
	kconfig_free(&kc);	/* twice is harmless */
	assert_int_equal(kconfig_tristate(NULL, "CONFIG_X"), KCONFIG_ABSENT);
}

static void kconfig_bad(void **state)
{
	struct kconfig kc;
	char nul[] = "CONFIG_A=y\0CONFIG_B=y\nCONFIG_C=y\n";

	(void)state;
	assert_int_equal(kconfig_parse("", 0, &kc), -EINVAL);
	assert_int_equal(kconfig_parse(S("hello\nworld\n"), &kc), -EINVAL);
	assert_int_equal(kconfig_parse(S("\xff\xfe\x00\x01"), &kc), -EINVAL);
	assert_int_equal(kconfig_parse(NULL, KCONFIG_TEXT_MAX + 1, &kc), -EFBIG);
	/* A line with a NUL byte is dropped; the others count. */
	assert_int_equal(kconfig_parse(nul, sizeof(nul) - 1, &kc), 0);
	assert_int_equal(kconfig_tristate(&kc, "CONFIG_A"), KCONFIG_ABSENT);
	assert_int_equal(kconfig_tristate(&kc, "CONFIG_C"), KCONFIG_YES);
	kconfig_free(&kc);
}

static void cmdline_split(void **state)
{
	static const char text[] =
		"BOOT_IMAGE=/vmlinuz root=UUID=abc ro quiet isolcpus=2-3 nohz_full=2,3 "
		"threadirqs dyndbg=\"file x.c +p\" \"acpi_osi=Windows 2020\" rcu-nocbs=2-3 "
		"isolcpus=1 empty= -- init-arg nohz_full=9\n";
	const struct cmdline_param *p;
	struct cmdline cl;

	(void)state;
	assert_int_equal(cmdline_parse(S(text), &cl), 0);
	assert_int_equal(cl.n, 12);
	p = cmdline_get(&cl, "isolcpus");
	assert_non_null(p);
	assert_string_equal(p->value, "1");	/* the last one wins */
	assert_string_equal(cmdline_get(&cl, "root")->value, "UUID=abc");
	assert_string_equal(cmdline_get(&cl, "nohz_full")->value, "2,3");	/* not init's */
	assert_null(cmdline_get(&cl, "threadirqs")->value);
	assert_string_equal(cmdline_get(&cl, "dyndbg")->value, "file x.c +p");
	assert_string_equal(cmdline_get(&cl, "acpi_osi")->value, "Windows 2020");
	assert_string_equal(cmdline_get(&cl, "rcu_nocbs")->value, "2-3");	/* '-' == '_' */
	assert_string_equal(cmdline_get(&cl, "empty")->value, "");
	assert_null(cmdline_get(&cl, "init-arg"));
	assert_null(cmdline_get(&cl, "quie"));
	cmdline_free(&cl);
}

static void cmdline_hostile(void **state)
{
	struct cmdline cl;
	char nul[] = "a=1 b\0c=3";
	char *many;

	(void)state;
	assert_int_equal(cmdline_parse("", 0, &cl), 0);
	assert_int_equal(cl.n, 0);
	cmdline_free(&cl);
	assert_int_equal(cmdline_parse(S("   \t\n"), &cl), 0);
	assert_int_equal(cl.n, 0);
	cmdline_free(&cl);
	assert_int_equal(cmdline_parse(S("\"unterminated quote=a b c"), &cl), 0);
	assert_int_equal(cl.n, 1);
	assert_string_equal(cl.params[0].name, "unterminated quote");
	cmdline_free(&cl);
	assert_int_equal(cmdline_parse(nul, sizeof(nul) - 1, &cl), 0);
	assert_int_equal(cl.n, 2);
	assert_null(cmdline_get(&cl, "c"));
	cmdline_free(&cl);
	/* More parameters than kept: bounded, no failure. */
	many = malloc(CMDLINE_PARAMS_MAX * 2 * 2 + 1);
	assert_non_null(many);
	for (size_t i = 0; i < CMDLINE_PARAMS_MAX * 2; i++)
		memcpy(many + 2 * i, "x ", 2);
	assert_int_equal(cmdline_parse(many, CMDLINE_PARAMS_MAX * 4, &cl), 0);
	assert_int_equal(cl.n, CMDLINE_PARAMS_MAX);
	cmdline_free(&cl);
	free(many);
	assert_int_equal(cmdline_parse(NULL, CMDLINE_TEXT_MAX + 1, &cl), -EFBIG);
}

static void choice(void **state)
{
	char out[16];

	(void)state;
	assert_int_equal(knob_active_choice("always [madvise] never", '[', ']', out, sizeof(out)),
			 0);
	assert_string_equal(out, "madvise");
	assert_int_equal(knob_active_choice("(none) voluntary full lazy", '(', ')', out,
					    sizeof(out)), 0);
	assert_string_equal(out, "none");
	assert_int_equal(knob_active_choice("always madvise never", '[', ']', out, sizeof(out)),
			 -EINVAL);
	assert_int_equal(knob_active_choice("[a] [b]", '[', ']', out, sizeof(out)), -EINVAL);
	assert_int_equal(knob_active_choice("[a", '[', ']', out, sizeof(out)), -EINVAL);
	assert_int_equal(knob_active_choice("[]", '[', ']', out, sizeof(out)), -EINVAL);
	assert_int_equal(knob_active_choice("[a b]", '[', ']', out, sizeof(out)), -EINVAL);
	assert_int_equal(knob_active_choice("[[a]", '[', ']', out, sizeof(out)), -EINVAL);
	assert_int_equal(knob_active_choice("[averyveryverylongword]", '[', ']', out, sizeof(out)),
			 -ENAMETOOLONG);
}

static void sanitize(void **state)
{
	char s[] = "tsc\x1b]0;x\x07\x7f ok\xc3\xa9";

	(void)state;
	knob_sanitize(s);
	assert_string_equal(s, "tsc?]0;x?? ok\xc3\xa9");	/* UTF-8 kept */
}

static void swaps(void **state)
{
	static const char none[] = "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n";
	static const char two[] = "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n"
				  "/dev/sda2                               partition\t8388604\t\t1024"
				  "\t\t-2\n/swapfile file 1048576 0 -3\n";
	unsigned int n;
	uint64_t total, used;

	(void)state;
	assert_int_equal(memory_parse_swaps(S(none), &n, &total, &used), 0);
	assert_int_equal(n, 0);
	assert_int_equal(memory_parse_swaps(S(two), &n, &total, &used), 0);
	assert_int_equal(n, 2);
	assert_int_equal(total, 8388604 + 1048576);
	assert_int_equal(used, 1024);
	assert_int_equal(memory_parse_swaps("", 0, &n, &total, &used), -EINVAL);
	assert_int_equal(memory_parse_swaps(S("garbage\n"), &n, &total, &used), -EINVAL);
	assert_int_equal(memory_parse_swaps(S("Filename\n/dev/x partition lots 0 -2\n"), &n, &total,
					    &used), -EINVAL);
	assert_int_equal(memory_parse_swaps(S("Filename\n\0/dev/x partition 1 0 -2\n"), &n, &total,
					    &used), -EINVAL);
}

static void cpuinfo(void **state)
{
	bool flag;

	(void)state;
	assert_int_equal(platform_parse_cpuinfo(S("processor\t: 0\nflags\t\t: fpu vme hypervisor "
						  "lahf_lm\n"), &flag), 0);
	assert_true(flag);
	assert_int_equal(platform_parse_cpuinfo(S("flags\t\t: fpu hypervisorx vme\n"), &flag), 0);
	assert_false(flag);
	assert_int_equal(platform_parse_cpuinfo(S("flags: hypervisor"), &flag), 0);
	assert_true(flag);
	assert_int_equal(platform_parse_cpuinfo(S("Features\t: fp asimd\n"), &flag), -ENOENT);
	assert_int_equal(platform_parse_cpuinfo("", 0, &flag), -ENOENT);
	assert_int_equal(platform_parse_cpuinfo(S("flagsy: hypervisor\n"), &flag), -ENOENT);
}

static void mounts(void **state)
{
	static const char text[] =
		"proc /proc proc rw 0 0\n"
		"cgroup2 /sys/fs/cgroup/unified cgroup2 rw,nosuid 0 0\n"
		"cgroup /sys/fs/cgroup/cpuacct cgroup rw,cpuacct 0 0\n"
		"cgroup /sys/fs/cgroup/cpu\\040x cgroup rw,relatime,cpu 0 0\n"
		"garbage\n";
	static const char nul[] = "a b c\0d 0 0\n";
	struct cgroup_mounts *m = calloc(1, sizeof(*m));

	(void)state;
	assert_non_null(m);
	assert_int_equal(cgroup_parse_mounts(S(text), m), 0);
	assert_string_equal(m->v1_cpu, "/sys/fs/cgroup/cpu x");
	assert_string_equal(m->v1_cpu_root, "/");
	assert_string_equal(m->v2, "/sys/fs/cgroup/unified");
	assert_string_equal(m->v1_memory, "");
	assert_int_equal(cgroup_parse_mounts("", 0, m), -EINVAL);
	assert_int_equal(cgroup_parse_mounts(S("a b cgroup rw,cpuset 0 0\n"), m), 0);
	assert_string_equal(m->v1_cpu, "");
	/* No line to read: garbage, NUL bytes, an overlong line. */
	assert_int_equal(cgroup_parse_mounts(S("garbage\n"), m), -EINVAL);
	assert_int_equal(cgroup_parse_mounts(nul, sizeof(nul) - 1, m), -EINVAL);
	free(m);
}

/* gzip @text with zlib (windowBits 31 writes a gzip header). */
static size_t gzip(const char *text, size_t len, unsigned char *out, size_t cap)
{
	z_stream zs = { 0 };

	assert_int_equal(deflateInit2(&zs, 9, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY), Z_OK);
	zs.next_in = (Bytef *)text;
	zs.avail_in = (uInt)len;
	zs.next_out = out;
	zs.avail_out = (uInt)cap;
	assert_int_equal(deflate(&zs, Z_FINISH), Z_STREAM_END);
	deflateEnd(&zs);
	return cap - zs.avail_out;
}

static void gunzip(void **state)
{
	static const char text[] = "CONFIG_PREEMPT_RT=y\n# CONFIG_KASAN is not set\n";
	unsigned char gz[256];
	char *big, *out;
	size_t n, len;
	unsigned char *bgz;

	(void)state;
	n = gzip(S(text), gz, sizeof(gz));
	assert_int_equal(kernel_gunzip(gz, n, 1 << 20, &out, &len), 0);
	assert_int_equal(len, sizeof(text) - 1);
	assert_string_equal(out, text);
	free(out);
	/* truncated and corrupt input */
	assert_int_equal(kernel_gunzip(gz, n / 2, 1 << 20, &out, &len), -EINVAL);
	gz[12] ^= 0xff;
	assert_true(kernel_gunzip(gz, n, 1 << 20, &out, &len) == -EINVAL);
	assert_int_equal(kernel_gunzip("plain text", 10, 1 << 20, &out, &len), -EINVAL);
	assert_int_equal(kernel_gunzip("", 0, 1 << 20, &out, &len), -EINVAL);
	/* a bomb: 16 MiB of zeros against a 1 MiB cap */
	big = calloc(1, 16 << 20);
	bgz = malloc(1 << 20);
	assert_non_null(big);
	assert_non_null(bgz);
	n = gzip(big, 16 << 20, bgz, 1 << 20);
	assert_int_equal(kernel_gunzip(bgz, n, 1 << 20, &out, &len), -EFBIG);
	free(big);
	free(bgz);
}

static void release(void **state)
{
	int a = 0, b = 0;

	(void)state;
	assert_int_equal(kernel_parse_release("6.12.3-rt5", &a, &b), 0);
	assert_int_equal(a, 6);
	assert_int_equal(b, 12);
	assert_int_equal(kernel_parse_release("5.10", &a, &b), 0);
	assert_int_equal(b, 10);
	assert_int_equal(kernel_parse_release("v6.1", &a, &b), -EINVAL);
	assert_int_equal(kernel_parse_release("6", &a, &b), -EINVAL);
	assert_int_equal(kernel_parse_release("6.", &a, &b), -EINVAL);
	assert_int_equal(kernel_parse_release("", &a, &b), -EINVAL);
	assert_int_equal(kernel_parse_release("99999999999999999999.1", &a, &b), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(stat_good),
		cmocka_unit_test(stat_hostile_comm),
		cmocka_unit_test(stat_bad),
		cmocka_unit_test(status_good),
		cmocka_unit_test(status_bad),
		cmocka_unit_test(limits_parse),
		cmocka_unit_test(kconfig_good),
		cmocka_unit_test(kconfig_bad),
		cmocka_unit_test(cmdline_split),
		cmocka_unit_test(cmdline_hostile),
		cmocka_unit_test(choice),
		cmocka_unit_test(sanitize),
		cmocka_unit_test(swaps),
		cmocka_unit_test(cpuinfo),
		cmocka_unit_test(mounts),
		cmocka_unit_test(gunzip),
		cmocka_unit_test(release),
	};

	return unit_run(tests, NULL, NULL);
}
