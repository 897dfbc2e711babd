// SPDX-License-Identifier: MIT
/*
 * probe_partition() on a hand-built cgroup2 tree: each partition found is
 * listed (members are not), and past PARTITION_MAX the list stops and says
 * it was cut.
 */
#include <errno.h>
#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "unit.h"

#include "probe/partition.h"
#include "probe/rootfs.h"

static char dir[64];

static void put(const char *rel, const char *text)
{
	char p[1024];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, rel);
	for (char *s = p + strlen(dir) + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		mkdir(p, 0755);
		*s = '/';
	}
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int rm(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(p);
}

/* A cgroup2 root with cpuset for children, and @n isolated partitions g0.. plus a member. */
static void tree(int n)
{
	char rel[128];

	snprintf(dir, sizeof(dir), "/tmp/rtr-partition-XXXXXX");
	assert_non_null(mkdtemp(dir));
	put("proc/self/mountinfo",
	    "30 25 0:26 / /sys/fs/cgroup rw,nosuid shared:4 - cgroup2 cgroup2 rw\n");
	put("sys/fs/cgroup/cgroup.controllers", "cpuset cpu memory\n");
	put("sys/fs/cgroup/cgroup.subtree_control", "cpuset\n");
	put("sys/fs/cgroup/cpuset.cpus.isolated", "2-3\n");
	put("sys/fs/cgroup/m/cgroup.procs", "");
	put("sys/fs/cgroup/m/cpuset.cpus.partition", "member\n");
	for (int i = 0; i < n; i++) {
		snprintf(rel, sizeof(rel), "sys/fs/cgroup/g%d/cgroup.procs", i);
		put(rel, "");
		snprintf(rel, sizeof(rel), "sys/fs/cgroup/g%d/cpuset.cpus.partition", i);
		put(rel, "isolated\n");
		snprintf(rel, sizeof(rel), "sys/fs/cgroup/g%d/cpuset.cpus.effective", i);
		put(rel, "3\n");
	}
}

static void probe(struct partition_facts *p)
{
	struct rootfs fs;

	assert_int_equal(rootfs_open(&fs, dir), 0);
	probe_partition(&fs, p);
	rootfs_close(&fs);
	nftw(dir, rm, 16, FTW_DEPTH | FTW_PHYS);
}

static void test_listed(void **state)
{
	struct partition_facts p;

	(void)state;
	tree(3);
	probe(&p);
	assert_int_equal(p.err, 0);
	assert_int_equal(p.hier, PARTITION_HIER_V2);
	assert_int_equal(p.n_groups, 3);
	assert_false(p.truncated);
	for (size_t i = 0; i < p.n_groups; i++) {
		assert_string_equal(p.groups[i].type, "isolated");
		assert_true(p.groups[i].valid);
		assert_int_equal(p.groups[i].path[0], '/');
		assert_true(rtr_cpuset_test(&p.groups[i].cpus, 3));
		assert_int_equal(rtr_cpuset_count(&p.groups[i].cpus), 1);
	}
	probe_partition_free(&p);
	assert_int_equal(p.n_groups, 0);
}

static void test_cut(void **state)
{
	struct partition_facts p;

	(void)state;
	tree(PARTITION_MAX + 6);
	probe(&p);
	assert_int_equal(p.err, 0);
	assert_int_equal(p.n_groups, PARTITION_MAX);
	assert_true(p.truncated);
	probe_partition_free(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_listed),
		cmocka_unit_test(test_cut),
	};

	return unit_run(tests, NULL, NULL);
}
