/* SPDX-License-Identifier: MIT */
/*
 * The files of `rtready report` and of verify's report directory: the HTML
 * page, JUnit XML and Prometheus text of some results, each written whole
 * or not at all (src/util/output.h).
 */
#ifndef RTR_RENDER_FILES_H
#define RTR_RENDER_FILES_H

#include <stdbool.h>
#include <stddef.h>

#include "report/result.h"

struct result_files {
	const char *html;		/* NULL: not written */
	const char *junit;
	const char *prometheus;
	bool strict;			/* warnings are JUnit failures */
};

/*
 * Write the files @f names for @rs, in that order, stopping at the first
 * that fails. Return: 0, or -errno with "cannot write PATH: why" in @err.
 */
int render_result_files(const struct result_files *f, const struct result *const *rs, size_t n,
			char *err, size_t errlen) __attribute__((warn_unused_result));

#endif
