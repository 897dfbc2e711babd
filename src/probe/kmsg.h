/* SPDX-License-Identifier: MIT */
/*
 * The kernel log as evidence: the messages that say a realtime system has
 * already failed ("sched: RT throttling activated", lockups, hung tasks, an
 * unstable clock source). Read from /dev/kmsg without blocking and within
 * bounds on the live machine, from the captured DIR/dev/kmsg text in a
 * snapshot.
 */
#ifndef RTR_PROBE_KMSG_H
#define RTR_PROBE_KMSG_H

#include <stddef.h>
#include <stdint.h>

#include "probe/rootfs.h"

/* At most this much of the log is read (the default buffer is 128 KiB to 1 MiB). */
#define KMSG_CAP (4u << 20)

enum kmsg_event {
	KMSG_RT_THROTTLING,	/* sched: RT throttling activated */
	KMSG_HARD_LOCKUP,	/* watchdog: ... hard LOCKUP */
	KMSG_SOFT_LOCKUP,	/* watchdog: BUG: soft lockup */
	KMSG_HUNG_TASK,		/* INFO: task ... blocked for more than N seconds */
	KMSG_RCU_STALL,		/* rcu: INFO: rcu_preempt detected stalls */
	KMSG_CLOCKSOURCE,	/* clocksource: ... unstable / Marking clocksource ... */
	KMSG_EVENT_COUNT
};

struct kmsg_hit {
	unsigned int count;
	uint64_t last_us;	/* its timestamp, microseconds since boot */
	char last[160];		/* the last such message, sanitised */
};

struct kmsg_facts {
	int err;		/* why the log could not be read; 0 when it was */
	size_t records;		/* messages seen */
	struct kmsg_hit hits[KMSG_EVENT_COUNT];
};

/*
 * Parse @len bytes in /dev/kmsg's format: one record per line,
 * "PRIO,SEQ,TS_US,FLAGS[,...];MESSAGE", continuation lines starting with a
 * space (" KEY=VALUE") ignored. Bad lines are skipped. Pure: never fails.
 */
void kmsg_parse(const char *buf, size_t len, struct kmsg_facts *out);

/* Human name of an event, for evidence ("RT throttling activated"). */
const char *kmsg_event_name(enum kmsg_event e);

void probe_kmsg(const struct rootfs *fs, struct kmsg_facts *out);

#endif
