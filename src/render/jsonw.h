/* SPDX-License-Identifier: MIT */
/*
 * A streaming JSON writer for outputs too large to build as a tree (the
 * threads of `inspect --all` on a machine with tens of thousands of them):
 * values go straight to the stream, laid out exactly as json_write() lays
 * out a jansson tree (two-space indent, ": " after keys, non-ASCII escaped
 * as \uXXXX), and a jansson value can be embedded at any point, so small
 * parts are still built with jansson and the output is the same either
 * way. Errors are sticky: check jsonw_end() once at the end.
 */
#ifndef RTR_RENDER_JSONW_H
#define RTR_RENDER_JSONW_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#define JSONW_MAX_DEPTH 32

struct jsonw {
	FILE *out;
	int depth;
	bool first[JSONW_MAX_DEPTH];	/* no member written yet at this depth */
	bool after_key;			/* the next value follows "key": */
	int err;			/* 0, -EIO on a write error, -ENOMEM, -EINVAL on misuse */
};

void jsonw_init(struct jsonw *w, FILE *out);
/* Open an object or array (as a member value after jsonw_key, or an element). */
void jsonw_object(struct jsonw *w);
void jsonw_array(struct jsonw *w);
/* Close the innermost object or array ("{}" / "[]" when empty). */
void jsonw_close(struct jsonw *w, char bracket);
void jsonw_key(struct jsonw *w, const char *key);
/* Values. A string that is not valid UTF-8 has each bad byte written as '?'. */
void jsonw_str(struct jsonw *w, const char *s);
void jsonw_int(struct jsonw *w, int64_t v);
void jsonw_bool(struct jsonw *w, bool v);
void jsonw_null(struct jsonw *w);
/* A member in one call: jsonw_key() and the value. */
void jsonw_key_str(struct jsonw *w, const char *key, const char *s);
void jsonw_key_int(struct jsonw *w, const char *key, int64_t v);
/* A jansson value, laid out as json_write() would at this depth (NULL: -ENOMEM). */
void jsonw_value(struct jsonw *w, const json_t *v);
/* Finish the document with a newline. Return: 0, or the first error. */
int jsonw_end(struct jsonw *w);

#endif
