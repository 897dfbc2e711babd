/* SPDX-License-Identifier: MIT */
/*
 * Small shared pieces of the probes: a tunable read as one integer with the
 * error that explains a missing value, and the parser of sysfs "choice"
 * files that mark the active entry with brackets or parentheses
 * ("always [madvise] never", "(none) voluntary full").
 */
#ifndef RTR_PROBE_KNOB_H
#define RTR_PROBE_KNOB_H

#include <stddef.h>
#include <stdint.h>

#include "probe/rootfs.h"

/* One integer tunable: err is 0 when value was read, else -errno (-EINVAL: garbage). */
struct knob {
	int err;
	int64_t value;
};

/* Read @path as one decimal integer into @k (never fails: @k carries the error). */
void knob_read(const struct rootfs *fs, const char *path, struct knob *k);

/*
 * Find the active choice in @s: the word between @open and @close
 * (e.g. '[' ']'), copied into @out.
 * Return: 0, -EINVAL when no word is marked, or more than one, -ENAMETOOLONG
 * when it does not fit in @len.
 */
int knob_active_choice(const char *s, char open, char close, char *out, size_t len);

/*
 * Replace control bytes (below 0x20, and 0x7f) in @s with '?': text from a
 * snapshot ends up in evidence printed on a terminal, where an escape
 * sequence must not act.
 */
void knob_sanitize(char *s);

#endif
