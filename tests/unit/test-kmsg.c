// SPDX-License-Identifier: MIT
/*
 * The kernel-log parser (/dev/kmsg records) and the kernel.log check:
 * records, continuation lines, junk, the events and their statuses.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "unit.h"

#include "checks-helper.h"
#include "probe/kmsg.h"

static void parse(void **state)
{
	static const char log[] =
		"6,0,0,-;Linux version 6.12.0\n"
		" SUBSYSTEM=cpu\n"
		"4,5,73125004,-;sched: RT throttling activated\n"
		"garbage without a separator\n"
		"x,y;not a record\n"
		"4,6,99000000,-,caller=T1;sched: RT throttling activated\n"
		"0,7,100,-;watchdog: BUG: soft lockup - CPU#3 stuck for 22s! [a\x01\xff]\n"
		"3,8,200,-;INFO: task kworker:12 blocked for more than 120 seconds.";
	struct kmsg_facts k = { 0 };

	(void)state;
	kmsg_parse(log, sizeof(log) - 1, &k);
	assert_int_equal(k.records, 5);
	assert_int_equal(k.hits[KMSG_RT_THROTTLING].count, 2);
	assert_int_equal(k.hits[KMSG_RT_THROTTLING].last_us, 99000000);
	assert_int_equal(k.hits[KMSG_SOFT_LOCKUP].count, 1);
	/* Control bytes and bytes that are not UTF-8 are scrubbed. */
	assert_has(k.hits[KMSG_SOFT_LOCKUP].last, "[a??]");
	assert_int_equal(k.hits[KMSG_HUNG_TASK].count, 1);	/* the last line, no newline */
	assert_int_equal(k.hits[KMSG_HARD_LOCKUP].count, 0);
}

static void hostile(void **state)
{
	struct kmsg_facts k = { 0 };
	char buf[512];

	(void)state;
	kmsg_parse("", 0, &k);
	kmsg_parse(";;;\n\n\n,,,;\n", 12, &k);
	assert_int_equal(k.records, 0);
	/* A timestamp past 64 bits is not a record. */
	kmsg_parse("1,2,999999999999999999999999,-;x\n", 33, &k);
	assert_int_equal(k.records, 0);
	/* A message far longer than what is kept. */
	memset(buf, 'a', sizeof(buf));
	memcpy(buf, "1,2,3,-;RT throttling activated ", 32);
	kmsg_parse(buf, sizeof(buf), &k);
	assert_int_equal(k.hits[KMSG_RT_THROTTLING].count, 1);
	assert_true(strlen(k.hits[KMSG_RT_THROTTLING].last) < sizeof(k.hits[0].last));
}

static void check(void **state)
{
	struct facts *f = facts_blank();
	struct result r;

	(void)state;
	f->kmsg.err = -EPERM;
	assert_int_equal(run_check(f, "", "kernel.log", &r), RTR_SKIP);
	assert_has(r.evidence, "/dev/kmsg");
	f->kmsg.err = 0;
	assert_int_equal(run_check(f, "", "kernel.log", &r), RTR_SKIP);	/* nothing read */
	f->kmsg.records = 40;
	assert_int_equal(run_check(f, "", "kernel.log", &r), RTR_PASS);
	assert_has(r.evidence, "40 kernel log records");
	f->kmsg.hits[KMSG_CLOCKSOURCE].count = 1;
	assert_int_equal(run_check(f, "", "kernel.log", &r), RTR_WARN);
	f->kmsg.hits[KMSG_RT_THROTTLING] = (struct kmsg_hit){ 2, 73125004, "sched: RT throttling" };
	assert_int_equal(run_check(f, "", "kernel.log", &r), RTR_FAIL);
	assert_has(r.evidence, "RT throttling activated: 2 times, last at 73.125004 s");
	assert_has(r.evidence, "clock source");
	assert_has(r.fix, "throttling");
	facts_blank_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parse),
		cmocka_unit_test(hostile),
		cmocka_unit_test(check),
	};

	return unit_run(tests, NULL, NULL);
}
