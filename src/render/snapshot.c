// SPDX-License-Identifier: MIT
/* The metadata file of a snapshot; see snapshot.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/json.h"
#include "render/snapshot.h"

char *snapshot_meta_text(const struct snapshot_meta *m, const struct snapshot *s)
{
	struct host_info host = { 0 };
	json_t *j, *left;
	char *text, *line;

	host.kernel = (char *)m->kernel;
	host.cpus_online = (char *)m->online;
	host.rt_cpus = "";
	host.root = (char *)m->root;
	j = json_envelope("snapshot", &host);
	if (!j)
		return NULL;
	json_object_set_new(j, "hostname", json_text(m->hostname));
	json_object_set_new(j, "date", json_text(m->date));
	json_object_set_new(j, "files", json_integer((json_int_t)s->files));
	json_object_set_new(j, "links", json_integer((json_int_t)s->links));
	/* What check would have read but the capture refused, so --root shows why it skips. */
	left = json_array();
	for (size_t i = 0; left && i < s->n_left; i++)
		json_array_append_new(left, json_pack("{s:o, s:s}", "path",
						      json_text(s->left[i].path), "reason",
						      snapshot_left_reason(s->left[i].err)));
	json_object_set_new(j, "left_out", left);
	text = json_dumps(j, JSON_INDENT(2));
	json_decref(j);
	line = text ? malloc(strlen(text) + 2) : NULL;
	if (line)
		sprintf(line, "%s\n", text);
	free(text);
	return line;
}
