// SPDX-License-Identifier: MIT
/* The partition of `rtready run --isolate`; see isolate.h. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "probe/partition.h"
#include "run/affinity.h"
#include "run/isolate.h"
#include "util/parse.h"
#include "util/pid.h"

#define SUBTREE_MARK "-sc"
#define STALE_MAX    4096
/* How long the kernel may take to take a removed partition down. */
#define RELEASE_WAIT_MS 5000
/* Passes of put_back(), PUT_BACK_PAUSE_MS apart, until one finds nothing changed. */
#define PUT_BACK_PASSES	  4
#define PUT_BACK_PAUSE_MS 50

/* The cgroup2 mount, where the partition is made. Return: 0 or -errno. */
static int v2_root(const struct rootfs *fs, char *out, size_t len)
{
	struct cgroup_mounts *m = calloc(1, sizeof(*m));
	int err;

	if (!m)
		return -ENOMEM;
	err = cgroup_read_mounts(fs, m);
	if (!err && !m->v2[0])
		err = -ENOENT;
	if (!err)
		snprintf(out, len, "%s", m->v2);
	free(m);
	return err;
}

/*
 * Whether a child of @root other than @except uses cpuset (a non-empty
 * cpuset.cpus, or a partition): taking cpuset out of subtree_control would
 * take it from them too.
 */
static bool others_use_cpuset(const struct rootfs *fs, const char *root, const char *except)
{
	char dir[PATH_MAX], buf[256];
	struct dirent *d;
	bool used = false;
	int seen = 0;
	DIR *dp = rootfs_opendir(fs, root);

	if (!dp)
		return true; /* unknown: keep it */
	while (!used && (d = readdir(dp)) && seen++ < STALE_MAX) {
		if (d->d_name[0] == '.' || strcmp(d->d_name, except) == 0 ||
		    snprintf(dir, sizeof(dir), "%s/%s", root, d->d_name) >= (int)sizeof(dir))
			continue;
		if (cgroupfs_read(fs, dir, "cpuset.cpus", buf, sizeof(buf)) == 0 && buf[0])
			used = true;
		if (cgroupfs_read(fs, dir, "cpuset.cpus.partition", buf, sizeof(buf)) == 0 &&
		    strcmp(buf, "member") != 0)
			used = true;
	}
	closedir(dp);
	return used;
}

/*
 * rmdir may return before the kernel has taken the partition down: kernels
 * that do it when the group goes offline do it in a worker, after an RCU
 * grace period (cpuset_css_offline; later ones at rmdir). Only then are
 * the root's tasks given the CPUs back, kernel threads reset. Wait (at
 * most RELEASE_WAIT_MS) until @cpus (the group's cpuset.cpus) are no
 * longer in the root's cpuset.cpus.isolated, so that what put_back()
 * writes comes after the kernel's reset, not before it.
 */
static void wait_released(const struct rootfs *fs, const char *root, const char *cpus)
{
	const struct timespec pause = { 0, 10 * 1000 * 1000L };
	struct rtr_cpuset mine = RTR_CPUSET_INIT, iso = RTR_CPUSET_INIT;
	char buf[1024];

	if (!cpus[0] || rtr_cpuset_parse_list(&mine, cpus))
		goto out;
	for (int ms = 0; ms < RELEASE_WAIT_MS; ms += 10) {
		rtr_cpuset_clear(&iso);
		if (cgroupfs_read(fs, root, "cpuset.cpus.isolated", buf, sizeof(buf)) ||
		    rtr_cpuset_parse_list(&iso, buf) || !rtr_cpuset_intersects(&iso, &mine))
			break;
		nanosleep(&pause, NULL);
	}
out:
	rtr_cpuset_free(&mine);
	rtr_cpuset_free(&iso);
}

/*
 * Remove @dir (a partition of ours; the kernel gives its CPUs back to the
 * root as the group goes) and, with the mark, the cpuset it enabled. A
 * group that holds processes is left as it is (-EBUSY): never un-isolated
 * under a program that still runs.
 */
static int remove_group(const struct rootfs *fs, const char *root, const char *dir, int tries)
{
	char cpus[256];
	const char *name = strrchr(dir, '/');
	size_t n, m = strlen(SUBTREE_MARK);
	int err;

	name = name ? name + 1 : dir;
	n = strlen(name);
	if (cgroupfs_read(fs, dir, "cpuset.cpus", cpus, sizeof(cpus)))
		cpus[0] = '\0';
	err = cgroupfs_rmdir_wait(fs, dir, tries, 20 * 1000 * 1000L);
	if (err)
		return err;
	wait_released(fs, root, cpus);
	if (n > m && strcmp(name + n - m, SUBTREE_MARK) == 0 && !others_use_cpuset(fs, root, name))
		err = cgroupfs_write(fs, root, "cgroup.subtree_control", "-cpuset");
	return err == -EBUSY ? 0 : err; /* a group below uses it now: theirs */
}

/*
 * After the partition of rtready @pid is gone: give the kernel threads it
 * recorded (run/affinity.h) their affinity back, then forget the record.
 * A record that cannot be read is forgotten too (said): nothing can use it.
 * Return: 0, or -errno with @err saying what was left changed.
 */
static int put_back(const struct rootfs *fs, long pid, char *err, size_t errlen)
{
	struct run_affinity rec = { 0 };
	struct run_affinity_result res;
	int rc = run_affinity_load(RUN_AFFINITY_DIR, pid, &rec);

	if (rc == -ENOENT)
		return 0;
	if (rc) {
		snprintf(err, errlen, "cannot read the kernel threads' affinities kept in "
			 RUN_AFFINITY_DIR "/" RUN_AFFINITY_PREFIX "%ld (%s); those the partition "
			 "changed are not put back", pid, strerror(-rc));
		(void)run_affinity_forget(RUN_AFFINITY_DIR, pid);
		return rc;
	}
	/*
	 * Again after a pause, until a pass finds nothing to put back: the
	 * kernel's reset could still be under way (see wait_released()).
	 */
	for (int pass = 0; pass < PUT_BACK_PASSES; pass++) {
		const struct timespec pause = { 0, PUT_BACK_PAUSE_MS * 1000 * 1000L };

		if (pass)
			nanosleep(&pause, NULL);
		rc = run_affinity_restore(fs, &rec, &res);
		if (rc || (pass && !res.changed))
			break;
	}
	if (rc) {
		/* Kept: the next rtready run tries again. */
		snprintf(err, errlen, "cannot put back the kernel threads' affinities kept in "
			 RUN_AFFINITY_DIR "/" RUN_AFFINITY_PREFIX "%ld: %s", pid, strerror(-rc));
	} else if (res.refused) {
		snprintf(err, errlen, "%zu of %zu kernel threads that the partition changed refused "
			 "their affinity back (first: %s, thread %d, CPUs %s: %s)", res.refused,
			 res.changed, res.first_comm, res.first_tid, res.first_cpus,
			 strerror(-res.first_err));
		rc = res.first_err;
	}
	if (!rc || res.refused)
		(void)run_affinity_forget(RUN_AFFINITY_DIR, pid);
	run_affinity_free(&rec);
	return rc;
}

int run_isolate_create(struct run_cgroup *cg, const struct rtr_cpuset *cpus, bool threaded,
		       char *err, size_t errlen)
{
	struct partition_facts p;
	struct run_affinity rec = { 0 };
	char root[PATH_MAX], list[256], state[256], type[16], reason[160];
	struct rootfs fs;
	bool add_subtree, valid;
	int rc;

	memset(cg, 0, sizeof(*cg));
	cg->memory_dir = -1;
	err[0] = '\0';
	rc = rootfs_open(&fs, "/");
	if (rc) {
		snprintf(err, errlen, "cannot open /: %s", strerror(-rc));
		return rc;
	}
	probe_partition(&fs, &p);
	rc = partition_obstacle(&fs, &p, cpus, NULL, (int)getpid(), err, errlen);
	add_subtree = !p.subtree_cpuset;
	probe_partition_free(&p);
	if (rc)
		goto out;
	rc = v2_root(&fs, root, sizeof(root));
	if (rc) {
		snprintf(err, errlen, "cannot find the cgroup2 mount: %s", strerror(-rc));
		goto out;
	}
	if (snprintf(cg->dirs[0], sizeof(cg->dirs[0]), "%s/" RUN_ISOLATE_PREFIX "%ld%s", root,
		     (long)getpid(), add_subtree ? SUBTREE_MARK : "") >= (int)sizeof(cg->dirs[0]) ||
	    snprintf(cg->procs[0], sizeof(cg->procs[0]), "%s/cgroup.procs", cg->dirs[0]) >=
		(int)sizeof(cg->procs[0])) {
		rc = -ENAMETOOLONG;
		snprintf(err, errlen, "the cgroup2 mount's path is too long");
		goto out;
	}
	/*
	 * The kernel threads' affinities before anything changes, kept on disk
	 * under rtready's pid like the group's name: whoever removes the
	 * partition (we, or the next rtready after a kill -9) puts them back.
	 */
	rc = run_affinity_record(&fs, &rec);
	if (rc) {
		snprintf(err, errlen, "cannot read the kernel threads' affinities (to put them back "
			 "after the partition): %s", strerror(-rc));
		goto out;
	}
	rc = run_affinity_save(RUN_AFFINITY_DIR, (long)getpid(), &rec);
	if (rc) {
		snprintf(err, errlen, "cannot keep the kernel threads' affinities in "
			 RUN_AFFINITY_DIR ": %s", strerror(-rc));
		goto out;
	}
	/* The name first: a kill from here on leaves a group that says what to undo. */
	rc = cgroupfs_mkdir_fresh(&fs, cg->dirs[0]);
	if (rc) {
		snprintf(err, errlen, "cannot make %s: %s", cg->dirs[0], strerror(-rc));
		(void)run_affinity_forget(RUN_AFFINITY_DIR, (long)getpid());
		goto out;
	}
	cg->n_dirs = 1;
	cg->version = 2;
	rtr_cpuset_format_list(cpus, list, sizeof(list));
	if (add_subtree && (rc = cgroupfs_write(&fs, root, "cgroup.subtree_control", "+cpuset"))) {
		snprintf(err, errlen, "cannot enable cpuset in %s/cgroup.subtree_control: %s", root,
			 strerror(-rc));
		goto undo;
	}
	/*
	 * Threaded while it is empty (the kernel allows it then only): the
	 * root group is its threaded domain, so a thread of a process there
	 * may move in alone.
	 */
	if (threaded && (rc = cgroupfs_write(&fs, cg->dirs[0], "cgroup.type", "threaded"))) {
		snprintf(err, errlen, "cannot make %s threaded (cgroup.type): %s", cg->dirs[0],
			 strerror(-rc));
		goto undo;
	}
	rc = cgroupfs_write(&fs, cg->dirs[0], "cpuset.cpus", list);
	if (rc) {
		snprintf(err, errlen, "cannot write CPUs %s into %s/cpuset.cpus: %s", list,
			 cg->dirs[0], strerror(-rc));
		goto undo;
	}
	rc = cgroupfs_write(&fs, cg->dirs[0], "cpuset.cpus.partition", "isolated");
	if (rc) {
		snprintf(err, errlen, "the kernel refused the partition (%s/cpuset.cpus.partition): "
			 "%s", cg->dirs[0], strerror(-rc));
		goto undo;
	}
	/* Refused without an error: it reads "isolated invalid (reason)" and isolates nothing. */
	rc = cgroupfs_read(&fs, cg->dirs[0], "cpuset.cpus.partition", state, sizeof(state));
	if (!rc && (partition_parse_state(state, type, sizeof(type), &valid, reason,
					  sizeof(reason)) || !valid || strcmp(type, "isolated"))) {
		snprintf(err, errlen, "the kernel did not make the partition: %s/"
			 "cpuset.cpus.partition reads '%s'", cg->dirs[0], state);
		rc = -EINVAL;
	}
	if (!rc) {
		cg->n_procs = 1;
		goto out;
	}
undo:
	if (remove_group(&fs, root, cg->dirs[0], 50) == 0) {
		char why[256];

		(void)put_back(&fs, (long)getpid(), why, sizeof(why));
	}
	cg->n_dirs = 0;
	cg->n_procs = 0;
	cg->version = 0;
out:
	run_affinity_free(&rec);
	rootfs_close(&fs);
	return rc;
}

int run_isolate_remove(struct run_cgroup *cg, char *err, size_t errlen)
{
	char root[PATH_MAX];
	struct rootfs fs;
	int rc;

	err[0] = '\0';
	if (!cg->n_dirs)
		return 0;
	rc = rootfs_open(&fs, "/");
	if (rc)
		return rc;
	rc = v2_root(&fs, root, sizeof(root));
	if (!rc)
		rc = remove_group(&fs, root, cg->dirs[0], 50);
	if (!rc) {
		/* The partition is gone: what it did to the kernel threads is ours to undo. */
		cg->n_dirs = cg->n_procs = 0;
		rc = put_back(&fs, (long)getpid(), err, errlen);
		rootfs_close(&fs);
		return rc;
	}
	if (rc == -EBUSY)
		snprintf(err, errlen, "the partition %s still holds processes of the program; "
			 "left in place (end them: the next rtready run removes it)", cg->dirs[0]);
	else if (rc)
		snprintf(err, errlen, "cannot remove the partition %s: %s", cg->dirs[0],
			 strerror(-rc));
	else
		cg->n_dirs = cg->n_procs = 0;
	rootfs_close(&fs);
	return rc;
}

/* The pid in RUN_ISOLATE_PREFIX<pid>[-sc], or -1. */
static long stale_pid(const char *name)
{
	size_t plen = strlen(RUN_ISOLATE_PREFIX), n;
	char digits[16];
	int64_t pid;

	if (strncmp(name, RUN_ISOLATE_PREFIX, plen))
		return -1;
	n = strspn(name + plen, "0123456789");
	if (n == 0 || n >= sizeof(digits) ||
	    (name[plen + n] && strcmp(name + plen + n, SUBTREE_MARK) != 0))
		return -1;
	memcpy(digits, name + plen, n);
	digits[n] = '\0';
	if (digits[0] == '0' || parse_int64(digits, 1, INT32_MAX, &pid))
		return -1;
	return (long)pid;
}

/*
 * Records of ended rtready processes whose partition is gone already (it
 * was killed after the group went and before the affinities were put
 * back, or before the group was made): put back, then forgotten; @fn hears
 * only of a failure. A record whose group is still there waits for it (it
 * holds processes).
 */
static int put_back_orphans(const struct rootfs *fs, const char *root,
			    const struct run_isolate_notes *n)
{
	char dir[PATH_MAX], why[512], path[PATH_MAX + 32];
	long pids[256];
	size_t count = run_affinity_list(RUN_AFFINITY_DIR, pids, sizeof(pids) / sizeof(pids[0]));
	int found = 0;

	for (size_t i = 0; i < count; i++) {
		if (!pid_ended(pids[i]))
			continue;
		if (rootfs_path(dir, sizeof(dir), "%s/" RUN_ISOLATE_PREFIX "%ld", root, pids[i]) ||
		    rootfs_path(path, sizeof(path), "%s" SUBTREE_MARK, dir) ||
		    rootfs_exists(fs, dir) || rootfs_exists(fs, path))
			continue;
		if (put_back(fs, pids[i], why, sizeof(why))) {
			n->affinity(n->ctx, pids[i], why);
			found++;
		}
	}
	return found;
}

int run_isolate_clean_stale(const struct run_isolate_notes *n)
{
	char root[PATH_MAX], dir[PATH_MAX], why[512];
	struct rootfs fs;
	struct dirent *d;
	int found = 0, seen = 0;
	DIR *dp;

	if (rootfs_open(&fs, "/"))
		return 0;
	if (v2_root(&fs, root, sizeof(root)) || !(dp = rootfs_opendir(&fs, root))) {
		rootfs_close(&fs);
		return 0;
	}
	while ((d = readdir(dp)) != NULL && seen++ < STALE_MAX) {
		long pid = stale_pid(d->d_name);
		int r;

		/* Alive (or not ours to see): its rtready still owns the partition. */
		if (!pid_ended(pid))
			continue;
		if (snprintf(dir, sizeof(dir), "%s/%s", root, d->d_name) >= (int)sizeof(dir))
			continue;
		r = remove_group(&fs, root, dir, 1);
		if (r == -EACCES || r == -EPERM || r == -ENOENT || r == -ENOTDIR)
			continue;
		n->group(n->ctx, dir, pid, r);
		found++;
		if (!r && put_back(&fs, pid, why, sizeof(why))) {
			n->affinity(n->ctx, pid, why);
			found++;
		}
	}
	closedir(dp);
	found += put_back_orphans(&fs, root, n);
	rootfs_close(&fs);
	return found;
}
