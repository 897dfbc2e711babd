// SPDX-License-Identifier: MIT
/*
 * The streaming JSON writer lays a document out byte for byte as
 * json_write() lays out the same jansson tree, escapes strings the same
 * way, replaces bytes that are not UTF-8, and reports misuse.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "unit.h"

#include "render/json.h"
#include "render/jsonw.h"

/* What json_write() makes of @v. */
static char *tree_text(const json_t *v)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(json_write(f, v), 0);
	fclose(f);
	return buf;
}

static const char *const strings[] = {
	"plain", "", "quote \" backslash \\ slash /", "tab\tnl\ncr\rbs\bff\f", "\x01\x1f",
	"caf\xc3\xa9", "\xe2\x82\xac euro", "\xf0\x9f\x98\x80 emoji", "\x7f del",
};

static void test_same_as_tree(void **state)
{
	char *buf = NULL, *want;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct jsonw w;
	json_t *root = json_object(), *arr = json_array(), *nested = json_pack(
		"{s:[i,{},[]], s:{s:n, s:b}, s:f}", "list", 1, "obj", "n", "t", 1, "real", 2.5);

	(void)state;
	assert_non_null(f);
	/* The tree. */
	json_object_set_new(root, "n", json_integer(-42));
	json_object_set_new(root, "big", json_integer(INT64_MAX));
	for (size_t i = 0; i < sizeof(strings) / sizeof(strings[0]); i++)
		json_array_append_new(arr, json_string(strings[i]));
	json_object_set_new(root, "strings", arr);
	json_object_set_new(root, "empty_obj", json_object());
	json_object_set_new(root, "empty_arr", json_array());
	json_object_set(root, "embedded", nested);
	json_object_set_new(root, "last", json_false());
	want = tree_text(root);

	/* The same, streamed, with the nested part embedded as a jansson value. */
	jsonw_init(&w, f);
	jsonw_object(&w);
	jsonw_key(&w, "n");
	jsonw_int(&w, -42);
	jsonw_key(&w, "big");
	jsonw_int(&w, INT64_MAX);
	jsonw_key(&w, "strings");
	jsonw_array(&w);
	for (size_t i = 0; i < sizeof(strings) / sizeof(strings[0]); i++)
		jsonw_str(&w, strings[i]);
	jsonw_close(&w, ']');
	jsonw_key(&w, "empty_obj");
	jsonw_object(&w);
	jsonw_close(&w, '}');
	jsonw_key(&w, "empty_arr");
	jsonw_array(&w);
	jsonw_close(&w, ']');
	jsonw_key(&w, "embedded");
	jsonw_value(&w, nested);
	jsonw_key(&w, "last");
	jsonw_bool(&w, false);
	jsonw_close(&w, '}');
	assert_int_equal(jsonw_end(&w), 0);
	fclose(f);
	assert_string_equal(buf, want);

	free(buf);
	free(want);
	json_decref(nested);
	json_decref(root);
}

static void test_bad_utf8(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct jsonw w;
	json_t *back;

	(void)state;
	jsonw_init(&w, f);
	jsonw_array(&w);
	/* A stray byte, a truncated sequence, an overlong '/', a surrogate. */
	jsonw_str(&w, "a\xff" "b\xe2\x82" "c\xc0\xaf" "d\xed\xa0\x80" "e");
	jsonw_null(&w);
	jsonw_close(&w, ']');
	assert_int_equal(jsonw_end(&w), 0);
	fclose(f);
	assert_string_equal(buf, "[\n  \"a?b??c??d???e\",\n  null\n]\n");
	back = json_loads(buf, 0, NULL);
	assert_non_null(back);	/* valid JSON whatever the input */
	json_decref(back);
	free(buf);
}

static void test_json_text(void **state)
{
	json_t *j;

	(void)state;
	j = json_text("ok \xc3\xa9");
	assert_string_equal(json_string_value(j), "ok \xc3\xa9");
	json_decref(j);
	/* json_string() refuses these; json_text() keeps the member. */
	assert_null(json_string("/snap\xff" "dir"));
	j = json_text("/snap\xff" "dir\xe2\x82");
	assert_string_equal(json_string_value(j), "/snap?dir??");
	json_decref(j);
	j = json_text(NULL);
	assert_string_equal(json_string_value(j), "");
	json_decref(j);
}

static void test_misuse(void **state)
{
	FILE *f = fopen("/dev/null", "w");
	struct jsonw w;

	(void)state;
	assert_non_null(f);
	jsonw_init(&w, f);
	jsonw_key(&w, "no object");		/* a key outside an object */
	assert_int_equal(jsonw_end(&w), -EINVAL);
	jsonw_init(&w, f);
	jsonw_object(&w);			/* never closed */
	assert_int_equal(jsonw_end(&w), -EINVAL);
	jsonw_init(&w, f);
	jsonw_close(&w, ']');			/* nothing open */
	assert_int_equal(jsonw_end(&w), -EINVAL);
	jsonw_init(&w, f);
	for (int i = 0; i < JSONW_MAX_DEPTH + 2; i++)
		jsonw_array(&w);		/* too deep */
	assert_int_equal(jsonw_end(&w), -EINVAL);
	jsonw_init(&w, f);
	jsonw_value(&w, NULL);			/* a failed allocation upstream */
	assert_int_equal(jsonw_end(&w), -ENOMEM);
	fclose(f);
}

static void test_write_error(void **state)
{
	FILE *f = fopen("/dev/full", "w");
	struct jsonw w;

	(void)state;
	if (!f)
		skip();
	jsonw_init(&w, f);
	jsonw_array(&w);
	for (int i = 0; i < 10000; i++)
		jsonw_str(&w, "fill the stdio buffer past what /dev/full takes");
	jsonw_close(&w, ']');
	assert_int_equal(jsonw_end(&w), -EIO);
	fclose(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_as_tree),
		cmocka_unit_test(test_bad_utf8),
		cmocka_unit_test(test_json_text),
		cmocka_unit_test(test_misuse),
		cmocka_unit_test(test_write_error),
	};

	return unit_run(tests, NULL, NULL);
}
