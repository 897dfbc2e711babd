/* SPDX-License-Identifier: MIT */
/*
 * JSON output through jansson (never printf escaping). report_to_json()
 * builds the common envelope of docs/CONTRACTS.md: tool, version, command, host,
 * the findings under @key ("checks" or "findings") and the summary. A
 * command adds its own members to the object before writing it.
 */
#ifndef RTR_RENDER_JSON_H
#define RTR_RENDER_JSON_H

#include <stdio.h>

#include <jansson.h>

#include "core/report.h"

/*
 * A JSON string of @s that always exists: bytes that are not UTF-8 (paths,
 * arguments and names from the machine or the user may hold any) become
 * '?', where json_string() would fail and the member would be missing.
 * NULL gives "". Returns NULL only on ENOMEM.
 */
json_t *json_text(const char *s);

/*
 * The version of the JSON layout every document carries as "schema_version"
 * (docs/schema/COMMAND.schema.json describe it). Members are only ever added; a
 * change of meaning raises it.
 */
#define RTR_JSON_SCHEMA_VERSION 1
/*
 * latency (and verify, which holds two latency documents) are at 2: their
 * histogram "counts" became sparse [bucket index, count] pairs.
 */
#define RTR_JSON_SCHEMA_VERSION_LATENCY 2

/* The envelope without findings: tool, version, command, host. NULL on ENOMEM. */
json_t *json_envelope(const char *command, const struct host_info *host);

/* The envelope plus "<key>": [findings] and "summary". NULL on ENOMEM. */
json_t *report_to_json(const struct report *r, const char *key);

/* One finding object. */
json_t *finding_to_json(const struct finding *f);

/* Write @root, indented, with a final newline. Return: 0 or -EIO. */
int json_write(FILE *out, const json_t *root);

/*
 * json_write() of a document just built (NULL when building it ran out of
 * memory), then drop it. Return: 0, -ENOMEM or -EIO.
 */
int json_write_new(FILE *out, json_t *root);

/* Write @root on one line without spaces, with a final newline. Return: 0 or -EIO. */
int json_write_compact(FILE *out, const json_t *root);

#endif
