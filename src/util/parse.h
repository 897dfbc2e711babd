/* SPDX-License-Identifier: MIT */
/*
 * Option value parsers shared by every subcommand: integers in a range,
 * durations with units, sizes with binary suffixes. Pure functions: they
 * never print and never exit; the CLI turns -EINVAL/-ERANGE into a message.
 */
#ifndef RTR_UTIL_PARSE_H
#define RTR_UTIL_PARSE_H

#include <stdint.h>

/*
 * A decimal integer in [min, max], the whole string (leading/trailing blanks
 * refused). Return: 0, -EINVAL (not a number), -ERANGE (outside).
 */
int parse_int64(const char *s, int64_t min, int64_t max, int64_t *out);

/*
 * A duration: a number with an optional unit ns, us, ms, s, m, h, d; a bare
 * number is in @default_unit_ns (e.g. 1e9 for seconds, 1000 for µs).
 * Fractions are allowed ("1.5s"). Negative values are refused.
 * Return: 0, -EINVAL, -ERANGE (overflows int64 ns).
 */
int parse_duration_ns(const char *s, int64_t default_unit_ns, int64_t *out_ns);

/*
 * A size: a number with an optional suffix K, M, G, T (powers of 1024,
 * "KiB"/"kB" spellings accepted) or none (bytes).
 * Return: 0, -EINVAL, -ERANGE.
 */
int parse_size(const char *s, uint64_t *out_bytes);

/*
 * The pid in a name @prefix<pid> (a decimal from 1 to INT32_MAX, no leading
 * zero, nothing after it), as the names of the trace instances and cgroups
 * that a run creates; -1 for any other name.
 */
long parse_pid_suffix(const char *name, const char *prefix);

/* Format @ns as a short human duration ("1.5 ms", "20 s") into @buf. */
void format_duration(int64_t ns, char *buf, unsigned long len);

/* Format @bytes as "8.0 MiB" into @buf. */
void format_size(uint64_t bytes, char *buf, unsigned long len);

#endif
