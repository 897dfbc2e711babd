// SPDX-License-Identifier: MIT
/*
 * sys.tuned: the probe on a small tree (active_profile, profile_mode, an
 * emptied and an unreadable file) and the check on hand-made facts: which
 * profiles fight rtready tune, which are realtime allies, a daemon with no
 * profile file, and no verdict without a readable task list.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "unit.h"

#include "checks-helper.h"

static char dir[] = "/tmp/rtr-tuned-XXXXXX";

static void put(const char *rel, const char *text)
{
	char p[256];
	FILE *f;

	snprintf(p, sizeof(p), "%s/etc", dir);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/etc/tuned", dir);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/%s", dir, rel);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void probe(struct tuned_facts *t)
{
	struct rootfs fs;

	assert_int_equal(rootfs_open(&fs, dir), 0);
	probe_tuned(&fs, t);
	rootfs_close(&fs);
}

static void test_probe(void **state)
{
	struct tuned_facts t;
	char p[256];

	(void)state;
	assert_non_null(mkdtemp(dir));
	probe(&t);
	assert_int_equal(t.profile_err, -ENOENT);
	assert_int_equal(t.mode_err, -ENOENT);
	put("etc/tuned/active_profile", "throughput-performance\n");
	put("etc/tuned/profile_mode", "manual\n");
	probe(&t);
	assert_int_equal(t.profile_err, 0);
	assert_string_equal(t.profile, "throughput-performance");
	assert_string_equal(t.mode, "manual");
	/* tuned-adm off empties the file: that is a value, not an error. */
	put("etc/tuned/active_profile", "");
	put("etc/tuned/profile_mode", "");
	probe(&t);
	assert_int_equal(t.profile_err, 0);
	assert_string_equal(t.profile, "");
	assert_int_equal(t.mode_err, -ENODATA);
	/* Control bytes never reach the evidence. */
	put("etc/tuned/active_profile", "x\033[31m\n");
	probe(&t);
	assert_string_equal(t.profile, "x?[31m");
	snprintf(p, sizeof(p), "rm -rf '%s'", dir);
	assert_int_equal(system(p), 0);
}

static struct facts *with_tasks(bool tuned_runs)
{
	struct facts *f = facts_blank();
	struct task_info init = { .pid = 1, .tid = 1, .comm = "systemd" };
	struct task_info d = { .pid = 812, .tid = 812, .comm = "tuned" };

	f->tasks.err = 0;
	assert_int_equal(tasks_append(&f->tasks, &init), 0);
	if (tuned_runs)
		assert_int_equal(tasks_append(&f->tasks, &d), 0);
	return f;
}

static void set_profile(struct facts *f, const char *profile, const char *mode)
{
	f->tuned.profile_err = 0;
	snprintf(f->tuned.profile, sizeof(f->tuned.profile), "%s", profile);
	f->tuned.mode_err = 0;
	snprintf(f->tuned.mode, sizeof(f->tuned.mode), "%s", mode);
}

static void test_check(void **state)
{
	struct facts *f;
	struct result r;

	(void)state;
	/* No task list: nobody can tell whether tuned runs. */
	f = facts_blank();
	set_profile(f, "balanced", "auto");
	assert_int_equal(run_check(f, "", "sys.tuned", &r), RTR_SKIP);
	facts_blank_free(f);

	/* No file, no daemon: pass. */
	f = with_tasks(false);
	assert_int_equal(run_check(f, "", "sys.tuned", &r), RTR_PASS);
	assert_has(r.evidence, "no /etc/tuned/active_profile");
	/* Selected but not running: info, it comes back at boot. */
	set_profile(f, "balanced", "auto");
	assert_int_equal(run_check(f, "", "sys.tuned", &r), RTR_INFO);
	assert_has(r.evidence, "'balanced' is selected (auto) but no tuned runs");
	facts_blank_free(f);

	/* Running a general-purpose profile: warn. */
	f = with_tasks(true);
	set_profile(f, "throughput-performance", "manual");
	assert_int_equal(run_check(f, "", "sys.tuned", &r), RTR_WARN);
	assert_has(r.evidence, "tuned runs (pid 812 in the snapshot's task list) with profile "
			       "'throughput-performance'");
	/* Merged profiles: one general-purpose name is enough to fight. */
	set_profile(f, "realtime virtual-guest", "manual");
	assert_int_equal(run_check(f, "", "sys.tuned", &r), RTR_WARN);
	/* Realtime-purpose profiles: an ally, still one owner to choose. */
	set_profile(f, "realtime", "manual");
	assert_int_equal(run_check(f, "", "sys.tuned", &r), RTR_INFO);
	assert_has(r.fix, "/etc/tuned/realtime-variables.conf");
	set_profile(f, "cpu-partitioning cpu-partitioning-powersave", "manual");
	assert_int_equal(run_check(f, "", "sys.tuned", &r), RTR_INFO);
	assert_has(r.fix, "/etc/tuned/cpu-partitioning-variables.conf");
	/* tuned-adm off: the daemon runs and changes nothing. */
	set_profile(f, "", "manual");
	assert_int_equal(run_check(f, "", "sys.tuned", &r), RTR_PASS);
	assert_has(r.evidence, "tuned-adm off");
	/* No file at all: the daemon applies its own recommendation. */
	f->tuned.profile_err = -ENOENT;
	assert_int_equal(run_check(f, "", "sys.tuned", &r), RTR_WARN);
	assert_has(r.evidence, "recommends");
	/* An unreadable file: skip, naming it. */
	f->tuned.profile_err = -EINVAL;
	assert_int_equal(run_check(f, "", "sys.tuned", &r), RTR_SKIP);
	assert_has(r.evidence, "/etc/tuned/active_profile is not in the expected format");
	facts_blank_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_probe),
		cmocka_unit_test(test_check),
	};

	return unit_run(tests, NULL, NULL);
}
