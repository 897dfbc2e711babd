// SPDX-License-Identifier: MIT
/* The parser of /sys/kernel/debug/irq/irqs/N; see irqdebugfs.h. */
#include <errno.h>
#include <string.h>

#include "probe/irqdebugfs.h"

/* Copy the value after "key:" on the line at @line into @buf (trimmed). */
static bool line_value(const char *line, const char *end, const char *key, char *buf, size_t len)
{
	size_t k = strlen(key), n;

	if ((size_t)(end - line) < k || strncmp(line, key, k) != 0)
		return false;
	line += k;
	while (line < end && (*line == ' ' || *line == '\t'))
		line++;
	n = (size_t)(end - line);
	while (n && (line[n - 1] == ' ' || line[n - 1] == '\t' || line[n - 1] == '\r'))
		n--;
	if (n >= len)
		n = len - 1;
	memcpy(buf, line, n);
	buf[n] = '\0';
	return true;
}

int irq_debugfs_parse(const char *text, size_t len, bool *managed, struct rtr_cpuset *effective)
{
	const char *p = text, *end = text + len;
	char effv[1024] = "", aff[1024] = "", v[1024];
	size_t lines = 0;

	*managed = false;
	rtr_cpuset_clear(effective);
	while (p < end && lines++ < 4096) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end, *s = p;

		while (s < le && (*s == ' ' || *s == '\t'))
			s++;
		if ((size_t)(le - s) >= 21 && strncmp(s, "IRQD_AFFINITY_MANAGED", 21) == 0 &&
		    (le - s == 21 || s[21] == ' ' || s[21] == '\r'))
			*managed = true;
		else if (line_value(p, le, "effectv:", v, sizeof(v)))
			memcpy(effv, v, sizeof(v));
		else if (line_value(p, le, "affinity:", v, sizeof(v)))
			memcpy(aff, v, sizeof(v));
		p = nl ? nl + 1 : end;
	}
	if (memchr(text, '\0', len))
		return -EINVAL;
	if (effv[0])
		return rtr_cpuset_parse_list(effective, effv);
	if (aff[0])
		return rtr_cpuset_parse_list(effective, aff);
	return 0;
}
