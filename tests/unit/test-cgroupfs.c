// SPDX-License-Identifier: MIT
/* The shared mountinfo and /proc/PID/cgroup parsers (probe/cgroupfs). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "unit.h"

#include "probe/cgroupfs.h"
#include "probe/partition.h"
#include "probe/rootfs.h"

static void test_mountinfo(void **state)
{
	struct cgroup_mounts *m = calloc(1, sizeof(*m));
	static const char hybrid[] =
		"25 30 0:22 / /sys/fs/cgroup ro,nosuid - tmpfs tmpfs ro,mode=755\n"
		"26 25 0:23 / /sys/fs/cgroup/unified rw,nosuid shared:5 - cgroup2 cgroup2 rw\n"
		"34 25 0:31 / /sys/fs/cgroup/memory rw,relatime shared:9 - cgroup cgroup rw,memory\n"
		"35 25 0:32 /sub /sys/fs/cgroup/cpu,cpuacct rw - cgroup cgroup rw,cpu,cpuacct\n"
		"36 25 0:33 / /sys/fs/cgroup/cpuset rw - cgroup cgroup rw,cpuset\n";

	(void)state;
	assert_non_null(m);
	assert_int_equal(cgroup_parse_mountinfo(hybrid, m), 0);
	assert_string_equal(m->v2, "/sys/fs/cgroup/unified");
	assert_string_equal(m->v2_root, "/");
	assert_string_equal(m->v1_memory, "/sys/fs/cgroup/memory");
	assert_string_equal(m->v1_cpu, "/sys/fs/cgroup/cpu,cpuacct");
	assert_string_equal(m->v1_cpu_root, "/sub");
	assert_string_equal(m->v1_cpuset, "/sys/fs/cgroup/cpuset");
	/* Octal escapes in paths, no optional fields. */
	assert_int_equal(cgroup_parse_mountinfo(
				 "40 30 0:37 /a\\040b /mnt/my\\040cg rw - cgroup2 cgroup2 rw\n", m),
			 0);
	assert_string_equal(m->v2_root, "/a b");
	assert_string_equal(m->v2, "/mnt/my cg");
	/* "memoryx" is not "memory"; truncated lines and garbage give nothing. */
	assert_int_equal(cgroup_parse_mountinfo("1 2 0:3 / /m rw - cgroup c rw,memoryx\n", m), 0);
	assert_string_equal(m->v1_memory, "");
	assert_int_equal(cgroup_parse_mountinfo("40 30 0:37 / /mnt rw", m), -EINVAL);
	assert_int_equal(cgroup_parse_mountinfo("", m), -EINVAL);
	free(m);
}

/* cpuset.cpus.partition as the kernel writes it (6.x adds the reason). */
static void test_partition_state(void **state)
{
	char type[16], reason[160];
	bool valid;

	(void)state;
	assert_int_equal(partition_parse_state("member", type, sizeof(type), &valid, reason,
					       sizeof(reason)), 0);
	assert_string_equal(type, "member");
	assert_true(valid);
	assert_int_equal(partition_parse_state("isolated", type, sizeof(type), &valid, reason,
					       sizeof(reason)), 0);
	assert_string_equal(type, "isolated");
	assert_true(valid);
	assert_int_equal(partition_parse_state("isolated invalid (Cpu list in cpuset.cpus not "
					       "exclusive)", type, sizeof(type), &valid, reason,
					       sizeof(reason)), 0);
	assert_string_equal(type, "isolated");
	assert_false(valid);
	assert_string_equal(reason, "Cpu list in cpuset.cpus not exclusive");
	/* 5.x: no reason. */
	assert_int_equal(partition_parse_state("root invalid", type, sizeof(type), &valid, reason,
					       sizeof(reason)), 0);
	assert_string_equal(type, "root");
	assert_false(valid);
	assert_string_equal(reason, "");
	assert_int_equal(partition_parse_state("isolatedx", type, sizeof(type), &valid, reason,
					       sizeof(reason)), -EINVAL);
	assert_int_equal(partition_parse_state("root broken", type, sizeof(type), &valid, reason,
					       sizeof(reason)), -EINVAL);
	assert_int_equal(partition_parse_state("", type, sizeof(type), &valid, reason,
					       sizeof(reason)), -EINVAL);
}

static void test_self(void **state)
{
	struct cgroup_self *s = calloc(1, sizeof(*s));
	static const char text[] = "9:name=systemd:/\n"
				   "4:memory,foo:/process_api/abc\n"
				   "3:cpu,cpuacct:/x\n"
				   "0::/user.slice/x.scope\n";

	(void)state;
	assert_non_null(s);
	assert_int_equal(cgroup_parse_self(text, s), 0);
	assert_string_equal(s->v1_memory, "/process_api/abc");
	assert_string_equal(s->v1_cpu, "/x");
	assert_string_equal(s->v2, "/user.slice/x.scope");
	assert_int_equal(cgroup_parse_self("4:memoryx:/a\n", s), 0);
	assert_string_equal(s->v1_memory, "");
	assert_int_equal(cgroup_parse_self("garbage", s), -EINVAL);
	assert_int_equal(cgroup_parse_self("4:memory:relative\n", s), -EINVAL);
	free(s);
}

static void test_dir(void **state)
{
	char out[64];

	(void)state;
	assert_int_equal(cgroupfs_dir(out, sizeof(out), "/sys/fs/cgroup", "/", "/a/b"), 0);
	assert_string_equal(out, "/sys/fs/cgroup/a/b");
	assert_int_equal(cgroupfs_dir(out, sizeof(out), "/sys/fs/cgroup", "/", "/"), 0);
	assert_string_equal(out, "/sys/fs/cgroup");
	/* Below the mount's root: strip it; outside it: the mount itself. */
	assert_int_equal(cgroupfs_dir(out, sizeof(out), "/mnt", "/sub", "/sub/c"), 0);
	assert_string_equal(out, "/mnt/c");
	assert_int_equal(cgroupfs_dir(out, sizeof(out), "/mnt", "/sub", "/subx/c"), 0);
	assert_string_equal(out, "/mnt");
	assert_int_equal(cgroupfs_dir(out, 8, "/sys/fs/cgroup", "/", "/a"), -ENAMETOOLONG);
	assert_true(cgroupfs_list_has("rw,cpu,cpuacct", "cpu"));
	assert_false(cgroupfs_list_has("rw,cpuacct", "cpu"));
}

/* A thread into a group of a fixture tree (cgroup.threads, as noise --isolate does). */
static void test_move_thread(void **state)
{
	char dir[] = "/tmp/rtr-cgthreads-XXXXXX", path[128], buf[64];
	struct rootfs fs;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/grp", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/grp/cgroup.threads", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fclose(f);
	assert_int_equal(rootfs_open(&fs, dir), 0);
	assert_int_equal(cgroupfs_move_thread(&fs, "/grp", 4242), 0);
	assert_int_equal(cgroupfs_read(&fs, "/grp", "cgroup.threads", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "4242");
	/* Bad input: no thread id, a group that is not there, a path out of the root. */
	assert_int_equal(cgroupfs_move_thread(&fs, "/grp", 0), -EINVAL);
	assert_int_equal(cgroupfs_move_thread(&fs, "/grp", -7), -EINVAL);
	assert_int_equal(cgroupfs_move_thread(&fs, "/grp", 1L << 40), -EINVAL);
	assert_int_equal(cgroupfs_move_thread(&fs, "/none", 4242), -ENOENT);
	assert_true(cgroupfs_move_thread(&fs, "/../../../../etc", 4242) < 0);
	assert_int_equal(cgroupfs_read(&fs, "/grp", "cgroup.threads", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "4242");
	rootfs_close(&fs);
	unlink(path);
	snprintf(path, sizeof(path), "%s/grp", dir);
	rmdir(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mountinfo),
		cmocka_unit_test(test_partition_state),
		cmocka_unit_test(test_self),
		cmocka_unit_test(test_dir),
		cmocka_unit_test(test_move_thread),
	};

	return unit_run(tests, NULL, NULL);
}
