// SPDX-License-Identifier: MIT
/*
 * `rtready noise` with its spinners placed in a cgroup (what --isolate
 * does in its partition), on this machine's cgroup2 hierarchy: a threaded
 * group takes the spinners and accounts their CPU time while the main
 * thread stays outside; a domain group (no single threads may go there)
 * and a group that is not there are refused with a reason, without a
 * hang. Root and a cgroup2 mount are needed (skipped otherwise); no
 * controller is, so a hybrid machine's unified hierarchy will do.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "unit.h"

#include "measure/noise.h"
#include "probe/cgroupfs.h"
#include "probe/rootfs.h"

struct fixture {
	struct rootfs fs;
	char v2[PATH_MAX];
	char group[PATH_MAX + 32];
	int cpu;			/* the CPU measured: the last online one */
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct cgroup_mounts *m = calloc(1, sizeof(*m));
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	*state = f;
	if (!f || !m || rootfs_open(&f->fs, "/")) {
		free(m);
		return -1;
	}
	if (geteuid() == 0 && n >= 2 && cgroup_read_mounts(&f->fs, m) == 0 && m->v2[0] &&
	    !strcmp(m->v2_root, "/"))
		snprintf(f->v2, sizeof(f->v2), "%s", m->v2);
	f->cpu = (int)n - 1;
	free(m);
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	if (f->group[0] && cgroupfs_rmdir_wait(&f->fs, f->group, 50, 20 * 1000 * 1000L))
		fprintf(stderr, "cannot remove %s\n", f->group);
	rootfs_close(&f->fs);
	free(f);
	return 0;
}

/* A fresh group under the cgroup2 root, threaded or not; 0 or skipped. */
static int make_group(struct fixture *f, bool threaded)
{
	snprintf(f->group, sizeof(f->group), "%s/rtr-unit-placed-%ld", f->v2, (long)getpid());
	if (cgroupfs_mkdir_fresh(&f->fs, f->group)) {
		f->group[0] = '\0';
		return -1;
	}
	if (threaded && cgroupfs_write(&f->fs, f->group, "cgroup.type", "threaded"))
		return -1;
	return 0;
}

static int run(const struct fixture *f, const char *group, struct noise_result *res, char *why,
	       size_t len)
{
	struct noise_config cfg;
	int err;

	noise_config_init(&cfg);
	cfg.policy = RTR_SCHED_OTHER;
	cfg.duration_ns = 300 * 1000 * 1000ULL;
	cfg.trace = false;
	cfg.mlock = false;
	snprintf(cfg.cgroup, sizeof(cfg.cgroup), "%s", group);
	err = rtr_cpuset_set(&cfg.cpus, f->cpu) ?: noise_run(&cfg, NULL, res, why, len);
	noise_config_free(&cfg);
	return err;
}

/* usage_usec of @dir/cpu.stat (cgroup2 keeps it without any controller). */
static uint64_t usage_us(const struct fixture *f, const char *dir)
{
	char buf[1024];
	uint64_t v = 0;

	if (cgroupfs_read(&f->fs, dir, "cpu.stat", buf, sizeof(buf)) ||
	    cgroupfs_parse_key(buf, "usage_usec", &v))
		return 0;
	return v;
}

static void test_threaded_group(void **state)
{
	struct fixture *f = *state;
	struct noise_result res;
	char why[512] = "", self[4096];
	int err;

	if (!f->v2[0] || make_group(f, true)) {
		skip();
		return;
	}
	err = run(f, f->group, &res, why, sizeof(why));
	if (err == -EPERM) {
		skip();
		return;
	}
	assert_int_equal(err, 0);
	assert_int_equal(res.n_cpus, 1);
	assert_int_equal(res.cpus[0].cpu, f->cpu);
	assert_true(res.cpus[0].loops > 0);
	assert_string_equal(res.cfg.cgroup, f->group);
	/*
	 * The spinner's loop ran in the group, nothing else did (SCHED_OTHER on
	 * a CPU shared with whatever else runs here: some share of the 300 ms,
	 * which a loaded machine makes small)...
	 */
	assert_true(usage_us(f, f->group) > 0);
	/* ... and the main thread is not in it (it joined the group's parent). */
	assert_int_equal(rootfs_read_text(&f->fs, "/proc/self/cgroup", self, sizeof(self)),
			 0);
	assert_non_null(strstr(self, "0::/"));
	assert_null(strstr(self, "rtr-unit-placed"));
	noise_result_free(&res);
}

/* Bad input: a domain group takes no single thread; nothing hangs, the reason is said. */
static void test_domain_group(void **state)
{
	struct fixture *f = *state;
	struct noise_result res;
	char why[512] = "";
	int err;

	if (!f->v2[0] || make_group(f, false)) {
		skip();
		return;
	}
	err = run(f, f->group, &res, why, sizeof(why));
	assert_int_equal(err, -EOPNOTSUPP);
	assert_non_null(strstr(why, "cgroup.threads"));
	assert_non_null(strstr(why, "threaded"));
	assert_int_equal(res.n_cpus, 0);
}

/* Bad input: a group that is not there. */
static void test_missing_group(void **state)
{
	struct fixture *f = *state;
	struct noise_result res;
	char why[512] = "", group[PATH_MAX + 64];
	int err;

	if (!f->v2[0]) {
		skip();
		return;
	}
	snprintf(group, sizeof(group), "%s/rtr-unit-none-%ld/x", f->v2, (long)getpid());
	err = run(f, group, &res, why, sizeof(why));
	assert_int_equal(err, -ENOENT);
	assert_non_null(strstr(why, "cgroup.procs"));
	err = run(f, "nogroup", &res, why, sizeof(why));
	assert_int_equal(err, -EINVAL);
	assert_non_null(strstr(why, "not a group"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_threaded_group, setup, teardown),
		cmocka_unit_test_setup_teardown(test_domain_group, setup, teardown),
		cmocka_unit_test_setup_teardown(test_missing_group, setup, teardown),
	};

	return unit_run(tests, NULL, NULL);
}
