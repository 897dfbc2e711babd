// SPDX-License-Identifier: MIT
/*
 * rtready run's pure parts: the option parser, the cgroup layout parsers
 * (mountinfo and /proc/self/cgroup lines of pure v2, hybrid and v1
 * machines), the ELF inspection that tells a static program, and the
 * reader of the runtime checker's JSON lines.
 */
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "unit.h"

#include "cli/opt.h"
#include "cli/cmd_run.h"
#include "run/cgroup.h"
#include "run/exec.h"
#include "run/findings.h"
#include "run/symtab.h"

/* o->cmd points into argv: keep it alive until the next call. */
static char *argv_store[32];

static int parse(struct run_opts *o, char *err, size_t errlen, int argc, ...)
{
	char **argv = argv_store;
	va_list ap;

	va_start(ap, argc);
	for (int i = 0; i < argc; i++)
		argv[i] = va_arg(ap, char *);
	va_end(ap);
	argv[argc] = NULL;
	return cli_parse_cmd(&run_cmd, argc, argv, o, err, errlen);
}

static void test_opts_defaults(void **state)
{
	struct run_opts o;
	char err[256] = "";

	(void)state;
	assert_int_equal(parse(&o, err, sizeof(err), 4, "run", "--prio", "20", "prog"), 0);
	assert_int_equal(o.policy, SCHED_FIFO);
	assert_int_equal(o.prio, 20);
	assert_int_equal(o.n_cmd, 1);
	assert_string_equal(o.cmd[0], "prog");
	run_opts_free(&o);

	assert_int_equal(parse(&o, err, sizeof(err), 4, "run", "--policy", "rr", "prog"), 0);
	assert_int_equal(o.policy, SCHED_RR);
	assert_int_equal(o.prio, 80);
	run_opts_free(&o);

	/* The command's own options stay the command's. */
	assert_int_equal(parse(&o, err, sizeof(err), 5, "run", "--check", "prog", "--strict",
			       "-p"), 0);
	assert_true(o.check);
	assert_false(o.strict);
	assert_int_equal(o.n_cmd, 3);
	run_opts_free(&o);

	assert_int_equal(parse(&o, err, sizeof(err), 8, "run", "--cpu-max", "20%", "--memory-max",
			       "64M", "--nice", "5", "prog"), 0);
	assert_int_equal(o.cpu_max_pct, 20);
	assert_int_equal(o.memory_max_bytes, 64u << 20);
	assert_int_equal(o.nice, 5);
	assert_int_equal(o.policy, -1);
	run_opts_free(&o);
}

static void test_opts_errors(void **state)
{
	static const char *const bad[][6] = {
		{ "run", NULL },
		{ "run", "--prio", "99", "prog", NULL },
		{ "run", "--prio", "0", "prog", NULL },
		{ "run", "--policy", "other", "--prio", "5" },
		{ "run", "--policy", "batch", "prog", NULL },
		{ "run", "--cpu-max", "0", "prog", NULL },
		{ "run", "--cpu-max", "abc", "prog", NULL },
		{ "run", "--memory-max", "0", "prog", NULL },
		{ "run", "--memory-max", "1X", "prog", NULL },
		{ "run", "--nice", "-21", "prog", NULL },
		{ "run", "--report", "f", "prog", NULL },
		{ "run", "--policy", "fifo", "--cpu-max", "20" },
		{ "run", "--prio", NULL },
	};
	struct run_opts o;
	char err[256];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *argv[8] = { NULL };
		int argc = 0;

		while (argc < 6 && bad[i][argc]) {
			argv[argc] = (char *)bad[i][argc];
			argc++;
		}
		if (argc == 6)	/* rows that fill the array need a command */
			argv[argc++] = "prog";
		err[0] = '\0';
		assert_int_equal(cli_parse_cmd(&run_cmd, argc, argv, &o, err, sizeof(err)), -EINVAL);
		assert_true(err[0] != '\0');
		run_opts_free(&o);
	}
	assert_int_equal(parse(&o, err, sizeof(err), 5, "run", "--prio", "99", "--allow-prio99",
			       "prog"), 0);
	run_opts_free(&o);
}

static void test_opts_deadline(void **state)
{
	struct run_opts o;
	char err[256];

	(void)state;
	assert_int_equal(parse(&o, err, sizeof(err), 8, "run", "--policy", "deadline", "--runtime",
			       "200", "--period", "1ms", "prog"), 0);
	assert_int_equal(o.policy, 6);
	assert_int_equal(o.dl_runtime_ns, 200000);
	assert_int_equal(o.dl_deadline_ns, 1000000);	/* the period */
	assert_int_equal(o.dl_period_ns, 1000000);
	run_opts_free(&o);
	/* The bad combinations, each with its message. */
	assert_int_equal(parse(&o, err, sizeof(err), 4, "run", "--runtime", "200", "prog"),
			 -EINVAL);
	assert_non_null(strstr(err, "need --policy deadline"));
	run_opts_free(&o);
	assert_int_equal(parse(&o, err, sizeof(err), 6, "run", "--policy", "deadline",
			       "--runtime", "200", "prog"), -EINVAL);
	assert_non_null(strstr(err, "needs --runtime US and --period US"));
	run_opts_free(&o);
	assert_int_equal(parse(&o, err, sizeof(err), 10, "run", "--policy", "deadline",
			       "--runtime", "300", "--deadline", "200", "--period", "1000", "prog"),
			 -EINVAL);
	assert_non_null(strstr(err, "<= --period (got 300.000, 200.000, 1000.000 us)"));
	run_opts_free(&o);
	assert_int_equal(parse(&o, err, sizeof(err), 10, "run", "--policy", "deadline", "-p", "5",
			       "--runtime", "200", "--period", "1000", "prog"), -EINVAL);
	assert_non_null(strstr(err, "--prio does not apply"));
	run_opts_free(&o);
	assert_int_equal(parse(&o, err, sizeof(err), 10, "run", "--policy", "deadline", "-c", "0",
			       "--runtime", "200", "--period", "1000", "prog"), -EINVAL);
	assert_non_null(strstr(err, "--cpus cannot go with --policy deadline"));
	run_opts_free(&o);
	assert_int_equal(parse(&o, err, sizeof(err), 8, "run", "--policy", "deadline", "--runtime",
			       "20s", "--period", "1000", "prog"), -EINVAL);
	assert_non_null(strstr(err, "from 1us to 10s"));
	run_opts_free(&o);
}

static const char hybrid_mountinfo[] =
	"22 1 0:21 / /sys rw,nosuid - sysfs sysfs rw\n"
	"30 22 0:27 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
	"31 30 0:28 / /sys/fs/cgroup/cpu,cpuacct rw,relatime shared:9 - cgroup cgroup rw,cpu,cpuacct\n"
	"34 30 0:31 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n"
	"40 30 0:37 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n";

static void test_mountinfo(void **state)
{
	struct cgroup_mounts *m = calloc(1, sizeof(*m));

	(void)state;
	assert_non_null(m);
	assert_int_equal(cgroup_parse_mountinfo(hybrid_mountinfo, m), 0);
	assert_string_equal(m->v2, "/sys/fs/cgroup/unified");
	assert_string_equal(m->v1_cpu, "/sys/fs/cgroup/cpu,cpuacct");
	assert_string_equal(m->v1_memory, "/sys/fs/cgroup/memory");
	assert_string_equal(m->v1_cpu_root, "/");

	/* Pure v2, a mount point with a blank (escaped), cpuacct alone is not cpu. */
	assert_int_equal(cgroup_parse_mountinfo(
				 "25 20 0:22 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw,nsdelegate\n"
				 "26 20 0:23 /x /mnt/my\\040cg rw - cgroup cgroup rw,cpuacct\n",
				 m),
			 0);
	assert_string_equal(m->v2, "/sys/fs/cgroup");
	assert_string_equal(m->v1_cpu, "");
	assert_int_equal(cgroup_parse_mountinfo("garbage\n", m), -EINVAL);
	free(m);
}

static void test_self_cgroup(void **state)
{
	struct cgroup_self *s = calloc(1, sizeof(*s));

	(void)state;
	assert_non_null(s);
	assert_int_equal(cgroup_parse_self("9:name=systemd:/\n4:memory:/process_api/ae06\n"
					   "2:cpu,cpuacct:/a b\n0::/user.slice/s.scope\n",
					   s),
			 0);
	assert_string_equal(s->v2, "/user.slice/s.scope");
	assert_string_equal(s->v1_memory, "/process_api/ae06");
	assert_string_equal(s->v1_cpu, "/a b");
	assert_int_equal(cgroup_parse_self("nonsense\n", s), -EINVAL);
	free(s);
}

static void test_elf(void **state)
{
	unsigned char buf[512];
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	struct elf_facts f;

	(void)state;
	memset(buf, 0, sizeof(buf));
	memset(&eh, 0, sizeof(eh));
	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_phoff = sizeof(eh);
	eh.e_phentsize = sizeof(ph);
	eh.e_phnum = 2;
	memcpy(buf, &eh, sizeof(eh));
	memset(&ph, 0, sizeof(ph));
	ph.p_type = PT_LOAD;
	memcpy(buf + sizeof(eh), &ph, sizeof(ph));
	ph.p_type = PT_INTERP;
	memcpy(buf + sizeof(eh) + sizeof(ph), &ph, sizeof(ph));
	run_inspect_elf(buf, sizeof(buf), &f);
	assert_true(f.elf);
	assert_true(f.dynamic);

	ph.p_type = PT_NOTE;	/* no interpreter: static */
	memcpy(buf + sizeof(eh) + sizeof(ph), &ph, sizeof(ph));
	run_inspect_elf(buf, sizeof(buf), &f);
	assert_true(f.elf);
	assert_false(f.dynamic);

	/* Program headers past the bytes read, or a huge count: no crash, not dynamic. */
	eh.e_phoff = 1u << 30;
	memcpy(buf, &eh, sizeof(eh));
	run_inspect_elf(buf, sizeof(buf), &f);
	assert_false(f.dynamic);
	run_inspect_elf((const unsigned char *)"#!/bin/sh\n", 10, &f);
	assert_true(f.script);
	assert_false(f.elf);
	run_inspect_elf((const unsigned char *)"\x7f" "EL", 3, &f);
	assert_false(f.elf);
}

static const char lines[] =
	"{\"type\":\"hello\",\"pid\":100,\"ppid\":1,\"exe\":\"/bin/app\",\"mlock_by_rtready\":false}\n"
	"{\"type\":\"finding\",\"pid\":100,\"id\":\"app.alloc_in_rt\",\"tid\":101,\"thread\":\"w\","
	"\"count\":3,\"total\":3,\"arg\":64,\"detail\":\"malloc\",\"in_signal_handler\":false,"
	"\"frames\":[{\"addr\":\"0x10\",\"obj\":\"/bin/app\",\"off\":\"0x10\",\"sym\":\"work\","
	"\"symoff\":\"0x4\"}]}\n"
	"{\"type\":\"bye\",\"pid\":100,\"why\":\"exec\",\"records\":1,\"dropped\":0}\n"
	/* the exec failed; the same record is written again at exit, with more */
	"{\"type\":\"finding\",\"pid\":100,\"id\":\"app.alloc_in_rt\",\"tid\":101,\"thread\":\"w\","
	"\"count\":7,\"total\":7,\"arg\":64,\"detail\":\"malloc\",\"in_signal_handler\":false,"
	"\"frames\":[]}\n"
	"{\"type\":\"finding\",\"pid\":100,\"id\":\"app.prio99\",\"tid\":100,\"thread\":\"app\","
	"\"count\":1,\"total\":1,\"arg\":99,\"detail\":\"pthread_setschedparam\","
	"\"in_signal_handler\":false,\"frames\":[]}\n"
	"{\"type\":\"finding\",\"pid\":100,\"id\":\"app.made_up\",\"tid\":1}\n"
	"not json at all\n"
	"{\"type\":\"bye\",\"pid\":100,\"why\":\"exit\",\"records\":2,\"dropped\":0}\n"
	"{\"type\":\"finding\",\"pid\":100,\"id\":\"app.mut";	/* truncated last line */

/* Fill the stack below us with set bits, as garbage a failed fstat leaves. */
static void __attribute__((noinline)) dirty_stack(void)
{
	volatile unsigned char junk[65536];

	memset((unsigned char *)junk, 0xff, sizeof(junk));
}

/*
 * A failed fstat() of the program is reported as its own error, never as
 * "not a regular file" made up from the struct fstat did not fill. In a
 * child, a seccomp filter makes every stat call fail with EIO.
 */
static void test_program_fstat_fails(void **state)
{
	struct sock_filter code[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
#ifdef __NR_fstat
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_fstat, 3, 0),
#else
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, -1u, 3, 0),
#endif
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_newfstatat, 2, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_statx, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EIO),
	};
	struct sock_fprog prog = { sizeof(code) / sizeof(code[0]), code };
	int status;
	pid_t pid;

	(void)state;
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct elf_facts f;
		int rc;

		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
		    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog))
			_exit(77);
		dirty_stack();
		rc = run_inspect_program("/proc/self/exe", &f);
		_exit(rc == -EIO ? 0 : rc == -EACCES ? 1 : 2);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	if (WEXITSTATUS(status) == 77)
		skip();	/* no seccomp here */
	assert_int_equal(WEXITSTATUS(status), 0);
}

static void test_findings(void **state)
{
	struct app_context ctx = { 100, "/bin/app", false, false, false, 0 };
	struct app_check c;
	json_t *extras = json_array();
	struct report r;

	(void)state;
	assert_int_equal(app_check_parse(lines, strlen(lines), &c), 0);
	assert_int_equal(c.n_procs, 1);
	assert_true(c.procs[0].bye);
	assert_string_equal(c.procs[0].why, "exit");
	assert_int_equal(c.n_recs, 2);
	assert_int_equal(c.bad_lines, 3);
	assert_true(app_check_attached(&c, 100));

	report_init(&r, "run");
	assert_int_equal(app_check_to_report(&c, &ctx, &r, extras), 0);
	assert_int_equal(r.n_findings, 2);
	/* Both fail; sorted by id. */
	assert_string_equal(r.findings[0].id, "app.alloc_in_rt");
	assert_int_equal(r.findings[0].tid, 101);
	assert_non_null(strstr(r.findings[0].evidence, "malloc(64 bytes)"));
	assert_non_null(strstr(r.findings[0].evidence, "7 times"));
	assert_string_equal(r.findings[1].id, "app.prio99");
	assert_int_equal(json_integer_value(json_object_get(json_array_get(extras, 0), "count")),
			 7);
	report_free(&r);
	json_decref(extras);
	app_check_free(&c);
}

static void test_not_attached(void **state)
{
	struct app_context ctx = { 200, "/bin/static", true, false, false, 0 };
	struct app_check c;
	json_t *extras = json_array();
	struct report r;

	(void)state;
	assert_int_equal(app_check_parse("", 0, &c), 0);
	report_init(&r, "run");
	assert_int_equal(app_check_to_report(&c, &ctx, &r, extras), 0);
	assert_int_equal(r.n_findings, 1);
	assert_string_equal(r.findings[0].id, "app.checker");
	assert_int_equal(r.findings[0].status, RTR_SKIP);
	assert_non_null(strstr(r.findings[0].evidence, "statically linked"));
	report_free(&r);
	json_decref(extras);
	app_check_free(&c);
}

static void test_frame_text(void **state)
{
	json_t *f = json_pack("{s:s, s:s, s:s, s:s, s:s}", "addr", "0x5555", "obj", "/bin/a",
			      "off", "0x11a9", "sym", "work", "symoff", "0x1a");
	char buf[128];

	(void)state;
	app_frame_text(f, buf, sizeof(buf));
	assert_string_equal(buf, "work+0x1a (/bin/a+0x11a9)");
	json_object_del(f, "sym");
	app_frame_text(f, buf, sizeof(buf));
	assert_string_equal(buf, "0x5555 (/bin/a+0x11a9)");
	json_decref(f);
}

/* A static function: dladdr() cannot name it, the file's .symtab can. */
static __attribute__((noinline)) int local_marker(int x)
{
	return x * 3 + 1;
}

static void test_symtab(void **state)
{
	int (*volatile fn)(int) = local_marker;
	char name[128];
	uint64_t off, so = 0;
	Dl_info info;

	(void)state;
	assert_int_equal(fn(1), 4);
	assert_true(dladdr((void *)fn, &info) != 0);
	off = (uint64_t)((uintptr_t)fn - (uintptr_t)info.dli_fbase);
	assert_int_equal(symtab_lookup(info.dli_fname, off + 2, name, sizeof(name), &so), 0);
	assert_string_equal(name, "local_marker");
	assert_int_equal(so, 2);
	assert_int_equal(symtab_lookup("/nonexistent/file", 0, name, sizeof(name), &so), -ENOENT);
	assert_int_equal(symtab_lookup("/etc/hostname", 0, name, sizeof(name), &so), -EINVAL);
}

/*
 * A 32-bit Arm executable as armhf boards run, built in memory: one PT_LOAD
 * at 0x10000, a .symtab with a Thumb function (odd value) and its .strtab.
 */
static size_t elf32_image(unsigned char *img, size_t cap)
{
	static const char strtab[] = "\0work_alloc\0";
	Elf32_Ehdr eh = { 0 };
	Elf32_Phdr ph = { 0 };
	Elf32_Shdr sh[3];
	Elf32_Sym sym[2];
	size_t off_ph = sizeof(eh), off_sym = off_ph + sizeof(ph);
	size_t off_str = off_sym + sizeof(sym), off_sh = off_str + sizeof(strtab);

	assert_true(off_sh + sizeof(sh) <= cap);
	memset(sh, 0, sizeof(sh));
	memset(sym, 0, sizeof(sym));
	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS32;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_machine = EM_ARM;
	eh.e_phoff = (Elf32_Off)off_ph;
	eh.e_phentsize = sizeof(ph);
	eh.e_phnum = 1;
	eh.e_shoff = (Elf32_Off)off_sh;
	eh.e_shentsize = sizeof(Elf32_Shdr);
	eh.e_shnum = 3;
	ph.p_type = PT_LOAD;
	ph.p_vaddr = 0x10000;
	sym[1].st_name = 1;
	sym[1].st_value = 0x10401;	/* Thumb */
	sym[1].st_size = 0x20;
	sym[1].st_info = ELF32_ST_INFO(STB_LOCAL, STT_FUNC);
	sym[1].st_shndx = 1;
	sh[1].sh_type = SHT_SYMTAB;
	sh[1].sh_offset = (Elf32_Off)off_sym;
	sh[1].sh_size = sizeof(sym);
	sh[1].sh_entsize = sizeof(Elf32_Sym);
	sh[1].sh_link = 2;
	sh[2].sh_type = SHT_STRTAB;
	sh[2].sh_offset = (Elf32_Off)off_str;
	sh[2].sh_size = sizeof(strtab);
	memcpy(img, &eh, sizeof(eh));
	memcpy(img + off_ph, &ph, sizeof(ph));
	memcpy(img + off_sym, sym, sizeof(sym));
	memcpy(img + off_str, strtab, sizeof(strtab));
	memcpy(img + off_sh, sh, sizeof(sh));
	return off_sh + sizeof(sh);
}

static void test_symtab_elf32(void **state)
{
	unsigned char img[1024];
	size_t len = elf32_image(img, sizeof(img));
	char name[64];
	uint64_t so = 0;

	(void)state;
	/* dladdr's offset from the load base 0x10000: 0x10410 is 0x10 into the function. */
	assert_int_equal(symtab_lookup_mem(img, len, 0x410, name, sizeof(name), &so), 0);
	assert_string_equal(name, "work_alloc");
	assert_int_equal(so, 0x10);
	assert_int_equal(symtab_lookup_mem(img, len, 0x400, name, sizeof(name), &so), 0);
	assert_int_equal(so, 0);
	assert_int_equal(symtab_lookup_mem(img, len, 0x420, name, sizeof(name), &so), -ENOENT);
	/* Cut short anywhere: refused, never read past the end. */
	for (size_t cut = 0; cut < len; cut++)
		assert_true(symtab_lookup_mem(img, cut, 0x410, name, sizeof(name), &so) < 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_symtab_elf32), cmocka_unit_test(test_program_fstat_fails),
		cmocka_unit_test(test_opts_defaults), cmocka_unit_test(test_opts_errors),
		cmocka_unit_test(test_mountinfo),     cmocka_unit_test(test_self_cgroup),
		cmocka_unit_test(test_elf),	      cmocka_unit_test(test_findings),
		cmocka_unit_test(test_not_attached),  cmocka_unit_test(test_frame_text),
		cmocka_unit_test(test_symtab),
		cmocka_unit_test(test_opts_deadline),
	};

	return unit_run(tests, NULL, NULL);
}
