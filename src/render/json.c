// SPDX-License-Identifier: MIT
/* JSON renderers; see json.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "render/json.h"
#include "util/utf8.h"

json_t *json_text(const char *s)
{
	json_t *j;
	size_t n;
	char *copy;

	if (!s)
		return json_string("");
	j = json_string(s);
	if (j)
		return j;
	/* Not UTF-8: keep what is, replace each bad byte. */
	n = strlen(s);
	copy = malloc(n + 1);
	if (!copy)
		return NULL;
	utf8_scrub(copy, n + 1, s, n, 0);
	j = json_string(copy);
	free(copy);
	return j;
}

json_t *json_envelope(const char *command, const struct host_info *host)
{
	json_t *o = json_object(), *h = json_object();

	if (!o || !h) {
		json_decref(o);
		json_decref(h);
		return NULL;
	}
	json_object_set_new(o, "tool", json_string("rtready"));
	json_object_set_new(o, "version", json_text(RTR_VERSION));
	json_object_set_new(o, "command", json_text(command));
	/* The layout's version (docs/schema/): raised when a member changes meaning. */
	json_object_set_new(o, "schema_version", json_integer(RTR_JSON_SCHEMA_VERSION));
	json_object_set_new(h, "kernel", json_text(host->kernel ? host->kernel : ""));
	json_object_set_new(h, "cpus_online",
			    json_text(host->cpus_online ? host->cpus_online : ""));
	json_object_set_new(h, "rt_cpus", json_text(host->rt_cpus ? host->rt_cpus : ""));
	json_object_set_new(h, "root", json_text(host->root ? host->root : "/"));
	json_object_set_new(o, "host", h);
	return o;
}

json_t *finding_to_json(const struct finding *f)
{
	json_t *o = json_object();

	if (!o)
		return NULL;
	json_object_set_new(o, "id", json_text(f->id));
	json_object_set_new(o, "area", json_text(f->area));
	json_object_set_new(o, "status", json_text(rtr_status_name(f->status)));
	if (f->tid)
		json_object_set_new(o, "tid", json_integer(f->tid));
	json_object_set_new(o, "title", json_text(f->title));
	json_object_set_new(o, "evidence", json_text(f->evidence));
	json_object_set_new(o, "why", json_text(f->why));
	json_object_set_new(o, "fix", json_text(f->fix));
	return o;
}

json_t *report_to_json(const struct report *r, const char *key)
{
	json_t *o = json_envelope(r->command, &r->host), *arr, *sum;
	struct summary s = report_summary(r);

	if (!o)
		return NULL;
	arr = json_array();
	for (size_t i = 0; arr && i < r->n_findings; i++)
		json_array_append_new(arr, finding_to_json(&r->findings[i]));
	json_object_set_new(o, key, arr);
	sum = json_pack("{s:I, s:I, s:I, s:I, s:I}", "pass", (json_int_t)s.pass, "warn",
			(json_int_t)s.warn, "fail", (json_int_t)s.fail, "info",
			(json_int_t)s.info, "skip", (json_int_t)s.skip);
	json_object_set_new(o, "summary", sum);
	return o;
}

static int dump(FILE *out, const json_t *root, size_t flags)
{
	if (json_dumpf(root, out, flags | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII) < 0)
		return -EIO;
	if (fputc('\n', out) == EOF)
		return -EIO;
	return 0;
}

int json_write(FILE *out, const json_t *root)
{
	return dump(out, root, JSON_INDENT(2));
}

int json_write_free(FILE *out, json_t *root)
{
	int err = root ? json_write(out, root) : -ENOMEM;

	json_decref(root);
	return err;
}

int json_write_compact(FILE *out, const json_t *root)
{
	return dump(out, root, JSON_COMPACT);
}

