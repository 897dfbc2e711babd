// SPDX-License-Identifier: MIT
/*
 * The kernel threads' affinities around an isolated partition of run and
 * noise; see affinity.h. /proc and /sys are read through rootfs (so a
 * fixture tree stands for the machine in the tests); the record is a file
 * of rtready's own under /run, written through util/fileio.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "probe/tasks.h"
#include "run/affinity.h"
#include "util/fileio.h"
#include "util/parse.h"

#define RECORD_VERSION 1
#define ONLINE_PATH    "/sys/devices/system/cpu/online"

void run_affinity_free(struct run_affinity *rec)
{
	if (!rec)
		return;
	for (size_t i = 0; i < rec->n; i++)
		rtr_cpuset_free(&rec->e[i].cpus);
	free(rec->e);
	memset(rec, 0, sizeof(*rec));
}

/* Append an entry; its cpus are moved in (cleared in @e). Return: 0 or -ENOMEM. */
static int add(struct run_affinity *rec, struct run_affinity_entry *e)
{
	if (rec->n == rec->cap) {
		size_t cap = rec->cap ? rec->cap * 2 : 64;
		struct run_affinity_entry *p;

		if (cap > TASKS_MAX || !(p = realloc(rec->e, cap * sizeof(*p))))
			return -ENOMEM;
		rec->e = p;
		rec->cap = cap;
	}
	rec->e[rec->n++] = *e;
	memset(&e->cpus, 0, sizeof(e->cpus));
	return 0;
}

int run_affinity_record(const struct rootfs *fs, struct run_affinity *rec)
{
	struct rtr_cpuset online = RTR_CPUSET_INIT;
	struct tasks_facts tf = { 0 };
	char buf[1024];
	int err;

	err = rootfs_read_text(fs, ONLINE_PATH, buf, sizeof(buf));
	err = err ?: rtr_cpuset_parse_list(&online, buf);
	if (err)
		goto out;
	probe_tasks(fs, &tf);
	err = tf.err;
	for (size_t i = 0; i < tf.n && !err; i++) {
		const struct task_info *t = &tf.tasks[i];
		struct run_affinity_entry e = { .pid = t->pid, .tid = t->tid,
						.start_ticks = t->start_ticks,
						.cpus = RTR_CPUSET_INIT };

		/* Per-CPU threads: the kernel leaves them, and so may we. */
		if (!t->kthread || t->per_cpu || t->allowed_err ||
		    rtr_cpuset_is_empty(&t->allowed) || rtr_cpuset_is_subset(&online, &t->allowed))
			continue;
		snprintf(e.comm, sizeof(e.comm), "%s", t->comm);
		err = rtr_cpuset_copy(&e.cpus, &t->allowed) ?: add(rec, &e);
		rtr_cpuset_free(&e.cpus);
	}
out:
	probe_tasks_free(&tf);
	rtr_cpuset_free(&online);
	return err;
}

static const struct task_info *find(const struct tasks_facts *tf, int pid, int tid)
{
	size_t lo = 0, hi = tf->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct task_info *t = &tf->tasks[mid];

		if (t->pid == pid && t->tid == tid)
			return t;
		if (t->pid < pid || (t->pid == pid && t->tid < tid))
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

int run_affinity_changed(const struct rootfs *fs, const struct run_affinity *rec, size_t **idx,
			 size_t *n, size_t *gone)
{
	struct tasks_facts tf = { 0 };
	int err = 0;

	*idx = NULL;
	*n = 0;
	if (gone)
		*gone = 0;
	if (!rec->n)
		return 0;
	probe_tasks(fs, &tf);
	err = tf.err;
	if (!err && !(*idx = calloc(rec->n, sizeof(**idx))))
		err = -ENOMEM;
	for (size_t i = 0; i < rec->n && !err; i++) {
		const struct run_affinity_entry *e = &rec->e[i];
		const struct task_info *t = find(&tf, e->pid, e->tid);

		/* A thread id taken again by a new thread is not the one recorded. */
		if (!t || t->start_ticks != e->start_ticks) {
			if (gone)
				(*gone)++;
			continue;
		}
		if (!t->allowed_err && rtr_cpuset_equal(&t->allowed, &e->cpus))
			continue;
		(*idx)[(*n)++] = i;
	}
	probe_tasks_free(&tf);
	if (err) {
		free(*idx);
		*idx = NULL;
		*n = 0;
	}
	return err;
}

static int set_affinity(int tid, const struct rtr_cpuset *cpus)
{
	cpu_set_t *cs = NULL;
	size_t size;
	int err = rtr_cpuset_to_sched(cpus, &cs, &size);

	if (!err && sched_setaffinity(tid, size, cs) < 0)
		err = -errno;
	if (cs)
		CPU_FREE(cs);
	return err;
}

int run_affinity_restore(const struct rootfs *fs, const struct run_affinity *rec,
			 struct run_affinity_result *res)
{
	size_t *idx = NULL, n = 0;
	int err;

	memset(res, 0, sizeof(*res));
	res->recorded = rec->n;
	if (!fs->host)
		return -EOPNOTSUPP;
	err = run_affinity_changed(fs, rec, &idx, &n, &res->gone);
	if (err)
		return err;
	res->changed = n;
	for (size_t k = 0; k < n; k++) {
		const struct run_affinity_entry *e = &rec->e[idx[k]];
		int r = set_affinity(e->tid, &e->cpus);

		if (!r) {
			res->restored++;
		} else if (r == -ESRCH) {
			res->gone++;
		} else {
			if (!res->refused++) {
				res->first_err = r;
				res->first_tid = e->tid;
				snprintf(res->first_comm, sizeof(res->first_comm), "%s", e->comm);
				rtr_cpuset_format_list(&e->cpus, res->first_cpus,
						       sizeof(res->first_cpus));
			}
		}
	}
	free(idx);
	return 0;
}

/*
 * The record:
 * {"version":1,"pid":812,"threads":[{"pid":57,"tid":57,"start":3,
 *   "comm":"irq/8-rtc0","cpus":"0"}, ...]}
 */
int run_affinity_encode(const struct run_affinity *rec, long pid, char **text)
{
	json_t *root = json_object(), *arr = json_array();
	char list[4096];
	int err = 0;

	*text = NULL;
	if (!root || !arr || json_object_set_new(root, "version", json_integer(RECORD_VERSION)) ||
	    json_object_set_new(root, "pid", json_integer(pid)) ||
	    json_object_set(root, "threads", arr))
		err = -ENOMEM;
	for (size_t i = 0; i < rec->n && !err; i++) {
		const struct run_affinity_entry *e = &rec->e[i];

		if (rtr_cpuset_format_list(&e->cpus, list, sizeof(list)) >= sizeof(list)) {
			err = -ENAMETOOLONG;
			break;
		}
		if (json_array_append_new(arr, json_pack("{s:i,s:i,s:I,s:s,s:s}", "pid", e->pid,
							 "tid", e->tid, "start",
							 (json_int_t)e->start_ticks, "comm",
							 e->comm, "cpus", list)))
			err = -ENOMEM;
	}
	if (!err && !(*text = json_dumps(root, JSON_COMPACT)))
		err = -ENOMEM;
	json_decref(arr);
	json_decref(root);
	return err;
}

int run_affinity_decode(const char *text, size_t len, long pid, struct run_affinity *rec)
{
	json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, NULL), *arr, *t;
	size_t i;
	int err = 0;

	if (!root || !json_is_object(root) ||
	    json_integer_value(json_object_get(root, "version")) != RECORD_VERSION ||
	    json_integer_value(json_object_get(root, "pid")) != pid ||
	    !json_is_array(arr = json_object_get(root, "threads"))) {
		json_decref(root);
		return -EINVAL;
	}
	json_array_foreach(arr, i, t) {
		struct run_affinity_entry e = { .cpus = RTR_CPUSET_INIT };
		json_int_t p, tid, start;
		const char *comm, *cpus;

		if (json_unpack(t, "{s:I,s:I,s:I,s:s,s:s}", "pid", &p, "tid", &tid, "start", &start,
				"comm", &comm, "cpus", &cpus) ||
		    p < 1 || p > INT32_MAX || tid < 1 || tid > INT32_MAX || start < 0 ||
		    rtr_cpuset_parse_list(&e.cpus, cpus) || rtr_cpuset_is_empty(&e.cpus)) {
			rtr_cpuset_free(&e.cpus);
			err = -EINVAL;
			break;
		}
		e.pid = (int)p;
		e.tid = (int)tid;
		e.start_ticks = (uint64_t)start;
		snprintf(e.comm, sizeof(e.comm), "%s", comm);
		err = add(rec, &e);
		rtr_cpuset_free(&e.cpus);
		if (err)
			break;
	}
	json_decref(root);
	if (err)
		run_affinity_free(rec);
	return err;
}

static int name_of(long pid, char *name, size_t len)
{
	return snprintf(name, len, RUN_AFFINITY_PREFIX "%ld", pid) >= (int)len ? -ENAMETOOLONG
									       : 0;
}

static int open_dir(const char *dir, bool create)
{
	int fd;

	if (create && mkdir(dir, 0700) < 0 && errno != EEXIST)
		return -errno;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

int run_affinity_save(const char *dir, long pid, const struct run_affinity *rec)
{
	char name[64], tmp[80], *text = NULL;
	int dfd, err;

	err = name_of(pid, name, sizeof(name)) ?: run_affinity_encode(rec, pid, &text);
	if (err)
		return err;
	snprintf(tmp, sizeof(tmp), ".%s.tmp", name);
	dfd = open_dir(dir, true);
	if (dfd < 0) {
		free(text);
		return dfd;
	}
	err = fileio_replace_at(dfd, name, tmp, 0600, text, strlen(text));
	close(dfd);
	free(text);
	return err;
}

int run_affinity_load(const char *dir, long pid, struct run_affinity *rec)
{
	char name[64], *text = NULL;
	size_t len;
	int dfd, fd, err;

	err = name_of(pid, name, sizeof(name));
	if (err)
		return err;
	dfd = open_dir(dir, false);
	if (dfd < 0)
		return dfd;
	fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	close(dfd);
	if (fd < 0)
		return -errno;
	err = fileio_read_all(fd, RUN_AFFINITY_CAP, 0, &text, &len);
	close(fd);
	if (!err)
		err = run_affinity_decode(text, len, pid, rec);
	free(text);
	return err;
}

int run_affinity_forget(const char *dir, long pid)
{
	char name[64];
	int dfd, err;

	err = name_of(pid, name, sizeof(name));
	if (err)
		return err;
	dfd = open_dir(dir, false);
	if (dfd == -ENOENT)
		return 0;
	if (dfd < 0)
		return dfd;
	if (unlinkat(dfd, name, 0) < 0 && errno != ENOENT)
		err = -errno;
	if (!err)
		(void)fsync(dfd);
	close(dfd);
	return err;
}

size_t run_affinity_list(const char *dir, long *pids, size_t max)
{
	size_t plen = strlen(RUN_AFFINITY_PREFIX), n = 0;
	struct dirent *d;
	int seen = 0;
	DIR *dp = opendir(dir);

	if (!dp)
		return 0;
	while (n < max && (d = readdir(dp)) != NULL && seen++ < 4096) {
		int64_t pid;

		if (strncmp(d->d_name, RUN_AFFINITY_PREFIX, plen) ||
		    d->d_name[plen] == '0' || parse_int64(d->d_name + plen, 1, INT32_MAX, &pid))
			continue;
		pids[n++] = (long)pid;
	}
	closedir(dp);
	return n;
}
