/* SPDX-License-Identifier: MIT */
/*
 * JUnit XML for CI servers: every check is a test case (fail: <failure>,
 * skip: <skipped>, warn: a failure only when the style says warnings fail),
 * and every latency threshold of the verdict is one too (or, without a
 * limit, every measured CPU, which fails only when it has no samples). One
 * <testsuite> per result and kind. Text goes through markup_escape(), so
 * the file is well-formed XML whatever the result holds.
 */
#ifndef RTR_RENDER_JUNIT_H
#define RTR_RENDER_JUNIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "report/result.h"

struct junit_style {
	bool warn_fails;	/* a warning is a <failure> (like --strict) */
	/* The suites' timestamp, ISO 8601 without a zone ("2026-12-03T21:44:00"), as
	 * junit-10.xsd wants; chosen by the caller (when the report was made). */
	const char *timestamp;
};

/* Return: 0 or -EIO. */
int junit_write(FILE *out, const struct result *const *results, size_t n,
		const struct junit_style *st);

#endif
