// SPDX-License-Identifier: MIT
/*
 * The checker's shared record table, made and read back (see table.h and
 * preload/wire.h). The entries are turned into objects of the same shape
 * as the checker's JSON lines and merged through app_check_add(), so a
 * record told both ways is one record (its larger count kept).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "run/table.h"
#include "wire.h"

const char run_table_env[] = RTR_WIRE_ENV;

int run_table_create(int *fd, char *path, size_t len)
{
	struct rtr_wire_head head = {
		.magic = RTR_WIRE_MAGIC,
		.version = RTR_WIRE_VERSION,
		.entry_bytes = sizeof(struct rtr_wire_ent),
		.capacity = RTR_WIRE_ENTRIES,
		.table_bytes = rtr_wire_table_bytes(RTR_WIRE_ENTRIES),
	};
	int n, err;

	*fd = memfd_create("rtready-check-table", MFD_CLOEXEC);
	if (*fd < 0)
		return -errno;
	if (ftruncate(*fd, head.table_bytes) < 0 ||
	    pwrite(*fd, &head, sizeof(head), 0) != (ssize_t)sizeof(head)) {
		err = errno ? -errno : -EIO;
		goto fail;
	}
	n = snprintf(path, len, "/proc/%ld/fd/%d", (long)getpid(), *fd);
	if (n < 0 || (size_t)n >= len) {
		err = -ENAMETOOLONG;
		goto fail;
	}
	return 0;
fail:
	close(*fd);
	*fd = -1;
	return err;
}

/* A fixed-size text field of an entry, NUL-terminated or not. */
static json_t *text_of(const char *s, size_t n)
{
	return json_stringn_nocheck(s, strnlen(s, n));
}

static json_t *finding_of(const struct rtr_wire_ent *e, size_t index)
{
	json_t *frames = json_array(), *o;
	char hex[24];
	bool handler;

	if (!frames)
		return NULL;
	handler = e->from_signal && strncmp(e->id, "app.signal", sizeof(e->id)) == 0;
	for (unsigned i = 0; i < e->nframes && i < RTR_WIRE_FRAMES; i++) {
		snprintf(hex, sizeof(hex), "0x%llx", (unsigned long long)e->frames[i]);
		/* A handler's own address (frame 0) is exact, as in the lines. */
		if (json_array_append_new(frames, i == 0 && handler ?
					  json_pack("{s:s, s:b}", "addr", hex, "exact", 1) :
					  json_pack("{s:s}", "addr", hex)) < 0) {
			json_decref(frames);
			return NULL;
		}
	}
	o = json_pack("{s:s, s:I, s:o, s:I, s:I, s:o, s:I, s:I, s:I, s:o, s:b, s:o}", "type",
		      "finding", "pid", (json_int_t)e->pid, "id", text_of(e->id, sizeof(e->id)),
		      "tid", (json_int_t)e->tid, "site", (json_int_t)index, "thread",
		      text_of(e->thread, sizeof(e->thread)), "count",
		      (json_int_t)atomic_load(&e->count), "total", (json_int_t)atomic_load(&e->total),
		      "arg", (json_int_t)atomic_load(&e->arg), "detail",
		      text_of(e->detail, sizeof(e->detail)), "in_signal_handler", e->from_signal != 0,
		      "frames", frames);
	return o;
}

static int merge_one(struct app_check *c, const struct rtr_wire_ent *e, size_t index)
{
	struct app_process *p = app_check_proc(c, e->pid);
	json_t *o = NULL;
	int rc = 0;

	switch (atomic_load(&e->type)) {
	case RTR_WIRE_FINDING:
		if (atomic_load(&e->count) <= 0)
			return 0;	/* nothing committed: teardown, or not yet a wait */
		o = finding_of(e, index);
		break;
	case RTR_WIRE_RT:
		/* A process that wrote its last lines told these itself (and more). */
		if (!p || p->bye || atomic_load(&e->waited))
			return 0;
		o = json_pack("{s:s, s:I, s:I, s:o}", "type", "unjudged", "pid", (json_int_t)e->pid,
			      "tid", (json_int_t)e->tid, "thread",
			      text_of(e->thread, sizeof(e->thread)));
		break;
	case RTR_WIRE_PROC:
		/* One per process image: the one its last hello named. */
		if (p && !p->bye && p->table_entry == (long)index) {
			char *why = strdup("killed");

			if (!why)
				return -ENOMEM;
			free(p->why);
			p->why = why;
			p->table_seen = true;
			p->dropped = (long)atomic_load(&e->count);
			p->table_refused = (long)atomic_load(&e->total);
			p->rt_untracked = (long)atomic_load(&e->arg);
		}
		return 0;
	default:
		return 0;	/* not published: its writer was killed while filling it */
	}
	rc = o ? app_check_add(c, o) : -ENOMEM;
	json_decref(o);
	return rc;
}

int run_table_merge(const void *buf, size_t len, struct app_check *c)
{
	const struct rtr_wire_head *h = buf;
	const struct rtr_wire_ent *ents;
	size_t n;
	int rc = 0;

	if (len < sizeof(*h) || h->magic != RTR_WIRE_MAGIC || h->version != RTR_WIRE_VERSION ||
	    h->entry_bytes != sizeof(*ents) || h->capacity != RTR_WIRE_ENTRIES ||
	    h->table_bytes != rtr_wire_table_bytes(h->capacity) || len < h->table_bytes)
		return -EINVAL;
	ents = (const struct rtr_wire_ent *)((const char *)buf + RTR_WIRE_HEAD_BYTES);
	n = atomic_load(&h->next);
	if (n > h->capacity)
		n = h->capacity;
	c->table = true;
	c->table_overflow = (unsigned long)atomic_load(&h->overflow);
	for (size_t i = 0; i < n && !rc; i++)
		rc = merge_one(c, &ents[i], i);
	return rc;
}
