// SPDX-License-Identifier: MIT
/*
 * The checker's shared record table (src/run/table.c): entries written as
 * the preloaded library writes them are merged with the JSON lines, so a
 * process killed before its lines keeps its findings, and what it lost is
 * still named.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <cmocka.h>
#include "unit.h"
#include "run/findings.h"
#include "run/table.h"
#include "wire.h"

/* The program (300), killed; its child (301) exited and wrote its lines. */
static const char lines[] =
	"{\"type\":\"hello\",\"pid\":300,\"ppid\":1,\"exe\":\"/bin/app\",\"table_entry\":0}\n"
	"{\"type\":\"module\",\"pid\":300,\"obj\":\"/bin/app\",\"base\":\"0x1000\","
	"\"start\":\"0x1000\",\"end\":\"0x3000\"}\n"
	"{\"type\":\"hello\",\"pid\":301,\"ppid\":300,\"exe\":\"/bin/app\",\"table_entry\":4}\n"
	"{\"type\":\"finding\",\"pid\":301,\"id\":\"app.stdio_in_rt\",\"tid\":301,\"site\":5,"
	"\"thread\":\"c\",\"count\":3,\"total\":3,\"arg\":0,\"detail\":\"printf\","
	"\"in_signal_handler\":false,\"frames\":[{\"addr\":\"0x9\",\"obj\":\"/bin/app\"}]}\n"
	"{\"type\":\"bye\",\"pid\":301,\"why\":\"exit\",\"records\":1,\"dropped\":0}\n";

static struct rtr_wire_ent *take(struct rtr_wire_head *h, uint32_t type, int pid, int tid)
{
	struct rtr_wire_ent *e = (struct rtr_wire_ent *)((char *)h + RTR_WIRE_HEAD_BYTES) +
				 atomic_fetch_add(&h->next, 1);

	e->pid = pid;
	e->tid = tid;
	atomic_store(&e->type, type);
	return e;
}

static void finding(struct rtr_wire_head *h, int pid, const char *id, long count)
{
	struct rtr_wire_ent *e = take(h, RTR_WIRE_FINDING, pid, pid);

	strcpy(e->id, id);
	strcpy(e->thread, "rt");
	strcpy(e->detail, "malloc");
	atomic_store(&e->arg, 64);
	atomic_store(&e->count, count);
	e->nframes = 1;
	e->frames[0] = 0x1234;
}

static void test_killed(void **state)
{
	struct app_context ctx = { 300, "/bin/app", false, false, false, 9 };
	struct rtr_wire_head *h;
	struct app_check c;
	json_t *extras = json_array(), *f;
	struct report r;
	char path[64];
	int fd;

	(void)state;
	assert_int_equal(run_table_create(&fd, path, sizeof(path)), 0);
	assert_non_null(strstr(path, "/proc/"));
	h = mmap(NULL, rtr_wire_table_bytes(RTR_WIRE_ENTRIES), PROT_READ | PROT_WRITE, MAP_SHARED,
		 fd, 0);
	assert_true(h != MAP_FAILED);
	/* Entry 0: the program's PROC entry; 2 of its records found the table full. */
	atomic_store(&take(h, RTR_WIRE_PROC, 300, 0)->total, 2);
	finding(h, 300, "app.alloc_in_rt", 5);	/* 1: committed */
	finding(h, 300, "app.stdio_in_rt", 0);	/* 2: never committed (teardown) */
	strcpy(take(h, RTR_WIRE_RT, 300, 302)->thread, "spinner");	/* 3: never waited */
	take(h, RTR_WIRE_PROC, 301, 0);	/* 4 */
	finding(h, 301, "app.stdio_in_rt", 3);	/* 5: also in a line */
	strcpy(take(h, RTR_WIRE_RT, 301, 303)->thread, "told");	/* 6: 301 said bye */
	take(h, RTR_WIRE_FREE, 300, 0);	/* 7: its writer was killed while filling it */

	assert_int_equal(app_check_parse(lines, strlen(lines), &c), 0);
	assert_int_equal(run_table_merge(h, rtr_wire_table_bytes(RTR_WIRE_ENTRIES), &c), 0);
	app_check_symbolize(&c);
	assert_int_equal(c.n_recs, 2);	/* 301's line and 300's table entry, once each */
	assert_int_equal(c.recs[1].pid, 300);
	assert_int_equal(c.recs[1].count, 5);
	f = json_array_get(c.recs[1].frames, 0);
	assert_string_equal(json_string_value(json_object_get(f, "obj")), "/bin/app");
	assert_string_equal(json_string_value(json_object_get(f, "off")), "0x234");
	assert_int_equal(c.n_unjudged, 1);
	assert_string_equal(c.unjudged[0].thread, "spinner");
	assert_true(c.procs[0].table_seen);
	assert_string_equal(c.procs[0].why, "killed");

	report_init(&r, "run");
	assert_int_equal(app_check_to_report(&c, &ctx, &r, extras), 0);
	/* alloc, stdio, then app.checker: the refused records, and the spinner. */
	assert_int_equal(r.n_findings, 4);
	assert_string_equal(r.findings[0].id, "app.alloc_in_rt");
	assert_string_equal(r.findings[2].id, "app.checker");
	assert_non_null(strstr(r.findings[2].evidence, "process 300"));
	assert_non_null(strstr(r.findings[2].evidence, "2 of them found the shared record table "
							"full"));
	assert_non_null(strstr(r.findings[3].evidence, "spinner"));
	report_free(&r);
	json_decref(extras);
	app_check_free(&c);
	munmap(h, rtr_wire_table_bytes(RTR_WIRE_ENTRIES));
	close(fd);
}

/*
 * Two objects at one range of process 300 (B.so loaded after A.so was
 * closed): the later line names the frame, also after the exec of its
 * child 301 removed 301's lines, which stood before them.
 */
static void test_module_order(void **state)
{
	static const char ml[] =
		"{\"type\":\"hello\",\"pid\":300,\"ppid\":1,\"exe\":\"/bin/app\"}\n"
		"{\"type\":\"hello\",\"pid\":301,\"ppid\":300,\"exe\":\"/bin/app\"}\n"
		"{\"type\":\"module\",\"pid\":301,\"obj\":\"/bin/app\",\"base\":\"0x5000\","
		"\"start\":\"0x5000\",\"end\":\"0x6000\"}\n"
		"{\"type\":\"module\",\"pid\":300,\"obj\":\"/old/A.so\",\"base\":\"0x1000\","
		"\"start\":\"0x1000\",\"end\":\"0x3000\"}\n"
		"{\"type\":\"module\",\"pid\":300,\"obj\":\"/new/B.so\",\"base\":\"0x1000\","
		"\"start\":\"0x1000\",\"end\":\"0x3000\"}\n"
		"{\"type\":\"hello\",\"pid\":301,\"ppid\":300,\"exe\":\"/bin/other\"}\n"
		"{\"type\":\"finding\",\"pid\":300,\"id\":\"app.alloc_in_rt\",\"tid\":300,"
		"\"site\":1,\"thread\":\"rt\",\"count\":1,\"total\":1,\"arg\":0,"
		"\"detail\":\"malloc\",\"in_signal_handler\":false,"
		"\"frames\":[{\"addr\":\"0x1234\"}]}\n";
	struct app_check c;
	json_t *f;

	(void)state;
	assert_int_equal(app_check_parse(ml, strlen(ml), &c), 0);
	app_check_symbolize(&c);
	assert_int_equal(c.n_recs, 1);
	f = json_array_get(c.recs[0].frames, 0);
	assert_string_equal(json_string_value(json_object_get(f, "obj")), "/new/B.so");
	assert_string_equal(json_string_value(json_object_get(f, "off")), "0x234");
	app_check_free(&c);
}

static void test_not_a_table(void **state)
{
	static const char junk[8192];
	struct app_check c;

	(void)state;
	assert_int_equal(app_check_parse("", 0, &c), 0);
	assert_int_equal(run_table_merge(junk, sizeof(junk), &c), -EINVAL);
	assert_int_equal(run_table_merge(junk, 10, &c), -EINVAL);
	assert_false(c.table);
	app_check_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_killed),
		cmocka_unit_test(test_module_order),
		cmocka_unit_test(test_not_a_table),
	};

	return unit_run(tests, NULL, NULL);
}
