/* SPDX-License-Identifier: MIT */
/*
 * A parser of the kernel command line (/proc/cmdline), splitting it the way
 * the kernel does: parameters are separated by white space, a value may be
 * double-quoted (`param="a b"`, or `"param=a b"`), and everything after a
 * lone `--` belongs to init, not to the kernel. Names compare with '-' and
 * '_' as the same character, as the kernel's parameq() does. Pure: no file
 * access.
 */
#ifndef RTR_PROBE_CMDLINE_H
#define RTR_PROBE_CMDLINE_H

#include <stddef.h>

/* Longest command line accepted (the kernel's limit is 2-64 KiB by arch). */
#define CMDLINE_TEXT_MAX (256u << 10)
/* Most parameters kept. */
#define CMDLINE_PARAMS_MAX 4096

struct cmdline_param {
	const char *name;	/* into the owned text */
	const char *value;	/* NULL for a bare flag ("threadirqs"), "" for "name=" */
};

struct cmdline {
	char *text;		/* owned, NUL-split copy */
	struct cmdline_param *params;	/* kernel parameters, in order */
	size_t n;
};

/*
 * Split @len bytes of command line into @out (free with cmdline_free()).
 * NUL bytes end the line (procfs never has them inside; a snapshot might).
 * An empty line is valid (no parameters).
 * Return: 0, -EFBIG past CMDLINE_TEXT_MAX, -ENOMEM.
 */
int cmdline_parse(const char *buf, size_t len, struct cmdline *out)
	__attribute__((warn_unused_result));
void cmdline_free(struct cmdline *cl);

/* The LAST parameter named @name (the kernel lets a later one win), or NULL. */
const struct cmdline_param *cmdline_get(const struct cmdline *cl, const char *name);

#endif
