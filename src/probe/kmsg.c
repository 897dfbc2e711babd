// SPDX-License-Identifier: MIT
/* The kernel log's realtime failures; see kmsg.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "probe/kmsg.h"
#include "util/utf8.h"

static const struct {
	enum kmsg_event ev;
	const char *needle;
} patterns[] = {
	{ KMSG_RT_THROTTLING, "RT throttling activated" },
	{ KMSG_HARD_LOCKUP, "hard LOCKUP" },
	{ KMSG_SOFT_LOCKUP, "soft lockup" },
	{ KMSG_HUNG_TASK, "blocked for more than" },
	{ KMSG_RCU_STALL, "detected stalls on CPUs" },
	{ KMSG_RCU_STALL, "self-detected stall on CPU" },
	{ KMSG_CLOCKSOURCE, "Marking clocksource" },
	{ KMSG_CLOCKSOURCE, "clocksource watchdog" },
};

const char *kmsg_event_name(enum kmsg_event e)
{
	static const char *const names[KMSG_EVENT_COUNT] = {
		[KMSG_RT_THROTTLING] = "RT throttling activated",
		[KMSG_HARD_LOCKUP] = "hard lockup",
		[KMSG_SOFT_LOCKUP] = "soft lockup",
		[KMSG_HUNG_TASK] = "hung task",
		[KMSG_RCU_STALL] = "RCU stall",
		[KMSG_CLOCKSOURCE] = "clock source marked unstable",
	};

	return (unsigned int)e < KMSG_EVENT_COUNT ? names[e] : "?";
}

/* memmem within one line (the message is not NUL-terminated). */
static bool contains(const char *s, size_t n, const char *needle)
{
	size_t k = strlen(needle);

	for (size_t i = 0; i + k <= n; i++)
		if (memcmp(s + i, needle, k) == 0)
			return true;
	return false;
}

/* "PRIO,SEQ,TS_US,FLAGS...;MESSAGE": the timestamp and the message. */
static bool parse_record(const char *line, size_t n, uint64_t *ts_us, const char **msg,
			 size_t *msg_len)
{
	const char *semi = memchr(line, ';', n), *p = line;
	uint64_t ts = 0;
	int field = 0;

	if (!semi)
		return false;
	for (; p < semi && field < 2; p++)
		if (*p == ',')
			field++;
	if (field < 2 || p >= semi || *p < '0' || *p > '9')
		return false;
	for (; p < semi && *p >= '0' && *p <= '9'; p++) {
		if (ts > (UINT64_MAX - 9) / 10)
			return false;
		ts = ts * 10 + (uint64_t)(*p - '0');
	}
	*ts_us = ts;
	*msg = semi + 1;
	*msg_len = n - (size_t)(semi + 1 - line);
	return true;
}

void kmsg_parse(const char *buf, size_t len, struct kmsg_facts *out)
{
	const char *p = buf, *end = buf + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *msg;
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p), msg_len;
		uint64_t ts;

		if (n && p[0] != ' ' && parse_record(p, n, &ts, &msg, &msg_len)) {
			out->records++;
			for (size_t i = 0; i < sizeof(patterns) / sizeof(patterns[0]); i++) {
				struct kmsg_hit *h = &out->hits[patterns[i].ev];

				if (!contains(msg, msg_len, patterns[i].needle))
					continue;
				h->count++;
				h->last_us = ts;
				/* The log may hold any bytes (\xNN escapes, driver strings). */
				utf8_scrub(h->last, sizeof(h->last), msg, msg_len,
					   UTF8_SCRUB_CONTROLS);
				break;
			}
		}
		p += n + 1;
	}
}

void probe_kmsg(const struct rootfs *fs, struct kmsg_facts *out)
{
	char *buf = NULL;
	size_t len = 0;

	memset(out, 0, sizeof(*out));
	out->err = rootfs_read_kmsg(fs, KMSG_CAP, &buf, &len);
	if (!out->err)
		kmsg_parse(buf, len, out);
	free(buf);
}
