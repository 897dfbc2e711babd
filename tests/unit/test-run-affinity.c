// SPDX-License-Identifier: MIT
/*
 * The kernel threads' affinities kept around an isolated partition of run
 * and noise (src/run/affinity.c), on the fixture trees
 * tests/fixtures/isolate-affinity/{before,after} (their README says what
 * each thread is there for): which threads are recorded, which read
 * changed after the partition, the record on disk and back, and that a
 * restore never touches anything under a --root tree.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cmocka.h>

#include "unit.h"

#include "probe/rootfs.h"
#include "probe/tasks.h"
#include "run/affinity.h"

static void open_tree(struct rootfs *fs, const char *name)
{
	char path[4096];
	const char *src = getenv("SRCDIR");

	snprintf(path, sizeof(path), "%s/tests/fixtures/isolate-affinity/%s", src ? src : ".",
		 name);
	assert_int_equal(rootfs_open(fs, path), 0);
}

static const struct run_affinity_entry *entry(const struct run_affinity *rec, int tid)
{
	for (size_t i = 0; i < rec->n; i++)
		if (rec->e[i].tid == tid)
			return &rec->e[i];
	return NULL;
}

static void cpus_are(const struct run_affinity_entry *e, const char *list)
{
	char buf[64];

	assert_non_null(e);
	rtr_cpuset_format_list(&e->cpus, buf, sizeof(buf));
	assert_string_equal(buf, list);
}

static void record_before(struct run_affinity *rec)
{
	struct rootfs fs;

	open_tree(&fs, "before");
	assert_int_equal(run_affinity_record(&fs, rec), 0);
	rootfs_close(&fs);
}

/* Kernel threads narrower than the online CPUs only: not per-CPU ones, not user tasks. */
static void test_record(void **state)
{
	struct run_affinity rec = { 0 };

	(void)state;
	record_before(&rec);
	assert_int_equal(rec.n, 4);
	cpus_are(entry(&rec, 57), "0");
	assert_string_equal(entry(&rec, 57)->comm, "irq/8-rtc0");
	assert_int_equal(entry(&rec, 57)->start_ticks, 40);
	cpus_are(entry(&rec, 58), "1");
	cpus_are(entry(&rec, 60), "0-1");
	cpus_are(entry(&rec, 61), "0");
	assert_null(entry(&rec, 2));	/* every CPU */
	assert_null(entry(&rec, 15));	/* per-CPU */
	assert_null(entry(&rec, 100));	/* a user task */
	run_affinity_free(&rec);
}

/* After: only irq/8-rtc0 is to be put back; the exited and the reused id are gone. */
static void test_changed(void **state)
{
	struct run_affinity rec = { 0 };
	struct rootfs fs;
	size_t *idx, n, gone;

	(void)state;
	record_before(&rec);
	open_tree(&fs, "after");
	assert_int_equal(run_affinity_changed(&fs, &rec, &idx, &n, &gone), 0);
	assert_int_equal(n, 1);
	assert_int_equal(rec.e[idx[0]].tid, 57);
	cpus_are(&rec.e[idx[0]], "0");
	assert_int_equal(gone, 2);
	free(idx);
	rootfs_close(&fs);

	/* Against the tree it was recorded from: nothing changed, nothing gone. */
	open_tree(&fs, "before");
	assert_int_equal(run_affinity_changed(&fs, &rec, &idx, &n, &gone), 0);
	assert_int_equal(n, 0);
	assert_int_equal(gone, 0);
	free(idx);
	rootfs_close(&fs);
	run_affinity_free(&rec);
}

/* A restore sets affinities of real threads: never under a --root tree. */
static void test_restore_not_under_root(void **state)
{
	struct run_affinity rec = { 0 };
	struct run_affinity_result res;
	struct rootfs fs;

	(void)state;
	record_before(&rec);
	open_tree(&fs, "after");
	assert_int_equal(run_affinity_restore(&fs, &rec, &res), -EOPNOTSUPP);
	assert_int_equal(res.recorded, 4);
	assert_int_equal(res.restored, 0);
	rootfs_close(&fs);
	run_affinity_free(&rec);
}

static void test_encode_decode(void **state)
{
	struct run_affinity rec = { 0 }, back = { 0 };
	char *text;

	(void)state;
	record_before(&rec);
	assert_int_equal(run_affinity_encode(&rec, 812, &text), 0);
	assert_int_equal(run_affinity_decode(text, strlen(text), 812, &back), 0);
	assert_int_equal(back.n, rec.n);
	for (size_t i = 0; i < rec.n; i++) {
		assert_int_equal(back.e[i].pid, rec.e[i].pid);
		assert_int_equal(back.e[i].tid, rec.e[i].tid);
		assert_int_equal(back.e[i].start_ticks, rec.e[i].start_ticks);
		assert_string_equal(back.e[i].comm, rec.e[i].comm);
		assert_true(rtr_cpuset_equal(&back.e[i].cpus, &rec.e[i].cpus));
	}
	run_affinity_free(&back);
	/* Another rtready's record is not this one's. */
	assert_int_equal(run_affinity_decode(text, strlen(text), 813, &back), -EINVAL);
	assert_int_equal(back.n, 0);
	free(text);
	run_affinity_free(&rec);
}

static void test_decode_bad(void **state)
{
	static const char *const bad[] = {
		"",
		"not json",
		"[]",
		"{\"version\":2,\"pid\":5,\"threads\":[]}",
		"{\"version\":1,\"pid\":5}",
		"{\"version\":1,\"pid\":5,\"threads\":[{\"pid\":0,\"tid\":1,\"start\":1,"
		"\"comm\":\"x\",\"cpus\":\"0\"}]}",
		"{\"version\":1,\"pid\":5,\"threads\":[{\"pid\":1,\"tid\":1,\"start\":-1,"
		"\"comm\":\"x\",\"cpus\":\"0\"}]}",
		"{\"version\":1,\"pid\":5,\"threads\":[{\"pid\":1,\"tid\":1,\"start\":1,"
		"\"comm\":\"x\",\"cpus\":\"\"}]}",
		"{\"version\":1,\"pid\":5,\"threads\":[{\"pid\":1,\"tid\":1,\"start\":1,"
		"\"comm\":\"x\",\"cpus\":\"0-\"}]}",
		"{\"version\":1,\"pid\":5,\"threads\":[{\"pid\":1,\"tid\":1,\"start\":1,"
		"\"comm\":\"x\",\"cpus\":\"0\"},7]}",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct run_affinity rec = { 0 };

		assert_int_equal(run_affinity_decode(bad[i], strlen(bad[i]), 5, &rec), -EINVAL);
		assert_int_equal(rec.n, 0);
	}
}

/* A thread of this test that waits until told to end. */
struct waiter {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int tid;
	int done;
};

static void *wait_fn(void *arg)
{
	struct waiter *w = arg;

	pthread_mutex_lock(&w->lock);
	w->tid = (int)syscall(SYS_gettid);
	pthread_cond_broadcast(&w->cond);
	while (!w->done)
		pthread_cond_wait(&w->cond, &w->lock);
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

/*
 * On the live machine: a thread of ours recorded on CPU 0, then given
 * every CPU (as a partition's removal does to a kernel thread), is put back
 * on CPU 0; an entry whose start time is not the thread's is left alone.
 */
static void test_restore_live(void **state)
{
	struct waiter w = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0 };
	struct run_affinity rec = { 0 };
	struct run_affinity_result res;
	struct rtr_cpuset all = RTR_CPUSET_INIT, now = RTR_CPUSET_INIT;
	struct tasks_facts tf = { 0 };
	const struct task_info *t = NULL;
	struct rootfs fs;
	pthread_t th;

	(void)state;
	if (rtr_cpuset_get_affinity(&all) || rtr_cpuset_count(&all) < 2) {
		rtr_cpuset_free(&all);
		skip();
	}
	assert_int_equal(pthread_create(&th, NULL, wait_fn, &w), 0);
	pthread_mutex_lock(&w.lock);
	while (!w.tid)
		pthread_cond_wait(&w.cond, &w.lock);
	pthread_mutex_unlock(&w.lock);

	assert_int_equal(rootfs_open(&fs, "/"), 0);
	assert_int_equal(probe_tasks_of(&fs, (int)getpid(), &tf), 0);
	for (size_t i = 0; i < tf.n; i++)
		if (tf.tasks[i].tid == w.tid)
			t = &tf.tasks[i];
	assert_non_null(t);
	for (int k = 0; k < 2; k++) {
		struct run_affinity_entry e = { .pid = (int)getpid(), .tid = w.tid,
						.start_ticks = t->start_ticks + (uint64_t)k,
						.cpus = RTR_CPUSET_INIT };

		assert_int_equal(rtr_cpuset_set(&e.cpus, rtr_cpuset_next(&all, -1)), 0);
		rec.e = realloc(rec.e, (rec.n + 1) * sizeof(*rec.e));
		assert_non_null(rec.e);
		rec.e[rec.n++] = e;
	}
	rec.cap = rec.n;
	/* Every CPU, as the kernel leaves it. */
	{
		cpu_set_t *cs;
		size_t size;

		assert_int_equal(rtr_cpuset_to_sched(&all, &cs, &size), 0);
		assert_int_equal(sched_setaffinity(w.tid, size, cs), 0);
		CPU_FREE(cs);
	}
	assert_int_equal(run_affinity_restore(&fs, &rec, &res), 0);
	assert_int_equal(res.recorded, 2);
	assert_int_equal(res.changed, 1);
	assert_int_equal(res.restored, 1);
	assert_int_equal(res.gone, 1);	/* the entry of another start time */
	assert_int_equal(res.refused, 0);
	{
		cpu_set_t *cs = CPU_ALLOC(RTR_CPUSET_MAX_CPUS);
		size_t size = CPU_ALLOC_SIZE(RTR_CPUSET_MAX_CPUS);

		assert_non_null(cs);
		CPU_ZERO_S(size, cs);
		assert_int_equal(sched_getaffinity(w.tid, size, cs), 0);
		assert_int_equal(rtr_cpuset_from_sched(&now, cs, size), 0);
		CPU_FREE(cs);
	}
	assert_true(rtr_cpuset_equal(&now, &rec.e[0].cpus));
	/* Put back already: a second restore finds nothing to do. */
	assert_int_equal(run_affinity_restore(&fs, &rec, &res), 0);
	assert_int_equal(res.changed, 0);

	pthread_mutex_lock(&w.lock);
	w.done = 1;
	pthread_cond_broadcast(&w.cond);
	pthread_mutex_unlock(&w.lock);
	pthread_join(th, NULL);
	probe_tasks_free(&tf);
	rootfs_close(&fs);
	rtr_cpuset_free(&all);
	rtr_cpuset_free(&now);
	run_affinity_free(&rec);
}

/* On disk: saved whole, listed by pid, loaded back, forgotten. */
static void test_save_load_forget(void **state)
{
	char tmp[] = "/tmp/rtr-affinity-XXXXXX", dir[64];
	struct run_affinity rec = { 0 }, back = { 0 };
	long pids[4];
	struct stat st;

	(void)state;
	assert_non_null(mkdtemp(tmp));
	snprintf(dir, sizeof(dir), "%s/run", tmp);	/* made by the save */
	record_before(&rec);
	assert_int_equal(run_affinity_load(dir, 812, &back), -ENOENT);
	assert_int_equal(run_affinity_list(dir, pids, 4), 0);
	assert_int_equal(run_affinity_save(dir, 812, &rec), 0);
	assert_int_equal(stat(dir, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0700);
	assert_int_equal(run_affinity_list(dir, pids, 4), 1);
	assert_int_equal(pids[0], 812);
	assert_int_equal(run_affinity_load(dir, 812, &back), 0);
	assert_int_equal(back.n, 4);
	run_affinity_free(&back);
	assert_int_equal(run_affinity_forget(dir, 812), 0);
	assert_int_equal(run_affinity_load(dir, 812, &back), -ENOENT);
	assert_int_equal(run_affinity_forget(dir, 812), 0);	/* twice: no error */
	assert_int_equal(run_affinity_list(dir, pids, 4), 0);
	assert_int_equal(rmdir(dir), 0);
	assert_int_equal(rmdir(tmp), 0);
	run_affinity_free(&rec);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_record),
		cmocka_unit_test(test_changed),
		cmocka_unit_test(test_restore_not_under_root),
		cmocka_unit_test(test_restore_live),
		cmocka_unit_test(test_encode_decode),
		cmocka_unit_test(test_decode_bad),
		cmocka_unit_test(test_save_load_forget),
	};

	return unit_run(tests, NULL, NULL);
}
