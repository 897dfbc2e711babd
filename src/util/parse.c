// SPDX-License-Identifier: MIT
/* Option value parsers; see parse.h. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/parse.h"

int parse_int64(const char *s, int64_t min, int64_t max, int64_t *out)
{
	char *end;
	long long v;

	if (!s || !*s || isspace((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (end == s || *end != '\0')
		return -EINVAL;
	if (errno == ERANGE || v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

/* Parse the leading non-negative decimal number of @s ("1.5"); *end after it. */
static int parse_number(const char *s, double *v, const char **end)
{
	char *e;

	if (!isdigit((unsigned char)*s) && !(*s == '.' && isdigit((unsigned char)s[1])))
		return -EINVAL;
	errno = 0;
	*v = strtod(s, &e);
	if (errno == ERANGE || !isfinite(*v))
		return -ERANGE;
	/* strtod takes hex and exponents: refuse them, a duration is plain decimal. */
	for (const char *p = s; p < e; p++)
		if (!isdigit((unsigned char)*p) && *p != '.')
			return -EINVAL;
	*end = e;
	return 0;
}

struct unit {
	const char *name;
	double mult;
};

/*
 * @s as a number with an optional unit from @units (@n of them; compared
 * ignoring case when @nocase), times that unit's multiplier into @out; a
 * bare number is times @bare. Return: 0, -EINVAL, -ERANGE.
 */
static int parse_scaled(const char *s, const struct unit *units, size_t n, bool nocase,
			double bare, double *out)
{
	const char *unit;
	double v;
	size_t i;
	int err;

	if (!s)
		return -EINVAL;
	err = parse_number(s, &v, &unit);
	if (err)
		return err;
	if (!*unit) {
		*out = v * bare;
		return 0;
	}
	for (i = 0; i < n; i++)
		if ((nocase ? strcasecmp(unit, units[i].name) : strcmp(unit, units[i].name)) == 0)
			break;
	if (i == n)
		return -EINVAL;
	*out = v * units[i].mult;
	return 0;
}

int parse_duration_ns(const char *s, int64_t default_unit_ns, int64_t *out_ns)
{
	static const struct unit units[] = {
		{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
		{ "m", 60e9 }, { "min", 60e9 }, { "h", 3600e9 }, { "d", 86400e9 },
	};
	double ns;
	int err = parse_scaled(s, units, sizeof(units) / sizeof(units[0]), false,
			       (double)default_unit_ns, &ns);

	if (err)
		return err;
	if (ns >= 9.2e18)
		return -ERANGE;
	*out_ns = (int64_t)llround(ns);
	return 0;
}

int parse_size(const char *s, uint64_t *out_bytes)
{
	static const struct unit units[] = {
		{ "b", 1 },
		{ "k", 1024.0 }, { "kb", 1024.0 }, { "kib", 1024.0 },
		{ "m", 1048576.0 }, { "mb", 1048576.0 }, { "mib", 1048576.0 },
		{ "g", 1073741824.0 }, { "gb", 1073741824.0 }, { "gib", 1073741824.0 },
		{ "t", 1099511627776.0 }, { "tb", 1099511627776.0 }, { "tib", 1099511627776.0 },
	};
	double bytes;
	int err = parse_scaled(s, units, sizeof(units) / sizeof(units[0]), true, 1, &bytes);

	if (err)
		return err;
	if (bytes >= 1.8e19)
		return -ERANGE;
	*out_bytes = (uint64_t)llround(bytes);
	return 0;
}

long parse_pid_suffix(const char *name, const char *prefix)
{
	size_t plen = strlen(prefix);
	int64_t pid;

	if (strncmp(name, prefix, plen) || name[plen] < '1' || name[plen] > '9' ||
	    parse_int64(name + plen, 1, INT32_MAX, &pid))
		return -1;
	return (long)pid;
}

void format_duration(int64_t ns, char *buf, unsigned long len)
{
	double a = fabs((double)ns);

	if (a < 1e3)
		snprintf(buf, len, "%lld ns", (long long)ns);
	else if (a < 1e6)
		snprintf(buf, len, "%.1f us", (double)ns / 1e3);
	else if (a < 1e9)
		snprintf(buf, len, "%.1f ms", (double)ns / 1e6);
	else
		snprintf(buf, len, "%.1f s", (double)ns / 1e9);
}

void format_size(uint64_t bytes, char *buf, unsigned long len)
{
	static const char *const names[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	double v = (double)bytes;
	int i = 0;

	while (v >= 1024.0 && i < 6) {
		v /= 1024.0;
		i++;
	}
	if (i == 0)
		snprintf(buf, len, "%llu B", (unsigned long long)bytes);
	else
		snprintf(buf, len, "%.1f %s", v, names[i]);
}
