// SPDX-License-Identifier: MIT
/* The streaming JSON writer; see jsonw.h. */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "render/json.h"
#include "render/jsonw.h"
#include "util/utf8.h"

void jsonw_init(struct jsonw *w, FILE *out)
{
	memset(w, 0, sizeof(*w));
	w->out = out;
}

static void fail(struct jsonw *w, int err)
{
	if (!w->err)
		w->err = err;
}

static void indent(struct jsonw *w, int depth)
{
	fputc('\n', w->out);
	for (int i = 0; i < depth; i++)
		fputs("  ", w->out);
}

/* Start a value: its separator and indentation, unless it follows a key. */
static void begin_value(struct jsonw *w)
{
	if (w->after_key) {
		w->after_key = false;
		return;
	}
	if (w->depth > 0) {
		if (!w->first[w->depth])
			fputc(',', w->out);
		w->first[w->depth] = false;
		indent(w, w->depth);
	}
}

static void open_(struct jsonw *w, char c)
{
	begin_value(w);
	if (w->depth + 1 >= JSONW_MAX_DEPTH) {
		fail(w, -EINVAL);
		return;
	}
	fputc(c, w->out);
	w->first[++w->depth] = true;
}

void jsonw_object(struct jsonw *w)
{
	open_(w, '{');
}

void jsonw_array(struct jsonw *w)
{
	open_(w, '[');
}

void jsonw_close(struct jsonw *w, char bracket)
{
	if (w->depth == 0) {
		fail(w, -EINVAL);
		return;
	}
	if (!w->first[w->depth])
		indent(w, w->depth - 1);
	w->depth--;
	fputc(bracket, w->out);
}

/* A JSON string, ASCII only (as jansson's JSON_ENSURE_ASCII writes it). */
static void string(struct jsonw *w, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;

	fputc('"', w->out);
	while (*s) {
		const unsigned char *run = s;
		uint32_t cp;
		size_t len;

		while (*s >= 0x20 && *s < 0x80 && *s != '"' && *s != '\\')
			s++;
		if (s > run)
			fwrite(run, 1, (size_t)(s - run), w->out);
		if (!*s)
			break;
		switch (*s) {
		case '"': fputs("\\\"", w->out); s++; continue;
		case '\\': fputs("\\\\", w->out); s++; continue;
		case '\b': fputs("\\b", w->out); s++; continue;
		case '\f': fputs("\\f", w->out); s++; continue;
		case '\n': fputs("\\n", w->out); s++; continue;
		case '\r': fputs("\\r", w->out); s++; continue;
		case '\t': fputs("\\t", w->out); s++; continue;
		default: break;
		}
		if (*s < 0x20) {
			fprintf(w->out, "\\u%04X", *s);
			s++;
			continue;
		}
		len = utf8_decode(s, SIZE_MAX, &cp);	/* the NUL ends it */
		if (!len) {
			fputc('?', w->out);
			s++;
			continue;
		}
		if (cp < 0x10000) {
			fprintf(w->out, "\\u%04X", (unsigned)cp);
		} else {
			cp -= 0x10000;
			fprintf(w->out, "\\u%04X\\u%04X", 0xd800 | (unsigned)(cp >> 10),
				0xdc00 | (unsigned)(cp & 0x3ff));
		}
		s += len;
	}
	fputc('"', w->out);
}

void jsonw_key(struct jsonw *w, const char *key)
{
	if (w->after_key || w->depth == 0) {
		fail(w, -EINVAL);
		return;
	}
	begin_value(w);
	string(w, key);
	fputs(": ", w->out);
	w->after_key = true;
}

void jsonw_str(struct jsonw *w, const char *s)
{
	begin_value(w);
	string(w, s);
}

void jsonw_int(struct jsonw *w, int64_t v)
{
	begin_value(w);
	fprintf(w->out, "%" PRId64, v);
}

void jsonw_bool(struct jsonw *w, bool v)
{
	begin_value(w);
	fputs(v ? "true" : "false", w->out);
}

void jsonw_null(struct jsonw *w)
{
	begin_value(w);
	fputs("null", w->out);
}

void jsonw_key_str(struct jsonw *w, const char *key, const char *s)
{
	jsonw_key(w, key);
	jsonw_str(w, s);
}

void jsonw_key_int(struct jsonw *w, const char *key, int64_t v)
{
	jsonw_key(w, key);
	jsonw_int(w, v);
}

void jsonw_value(struct jsonw *w, const json_t *v)
{
	char *text;

	if (!v) {
		fail(w, -ENOMEM);
		jsonw_null(w);
		return;
	}
	text = json_dumps(v, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII |
				     JSON_ENCODE_ANY);
	if (!text) {
		fail(w, -ENOMEM);
		jsonw_null(w);
		return;
	}
	begin_value(w);
	/* Strings hold no raw newline: every '\n' is a line break of the layout. */
	for (const char *p = text, *nl; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl) {
			fputs(p, w->out);
			break;
		}
		fwrite(p, 1, (size_t)(nl - p), w->out);
		indent(w, w->depth);
	}
	free(text);
}

int jsonw_end(struct jsonw *w)
{
	if (w->depth != 0 || w->after_key)
		fail(w, -EINVAL);
	fputc('\n', w->out);
	if (ferror(w->out))
		fail(w, -EIO);
	return w->err;
}
