/* SPDX-License-Identifier: MIT */
/*
 * The snapshot engine: gather the facts of a root while recording every
 * file and link the probes read (and every file they found but refused),
 * then write exactly those under a directory, never through a link and
 * never outside it. `rtready snapshot` is option parsing around this, and
 * `check --root DIR` on the result reads what check read on the machine.
 */
#ifndef RTR_PROBE_SNAPSHOT_H
#define RTR_PROBE_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>

#include "probe/facts.h"
#include "probe/rootfs.h"

/* The metadata file at the top of a snapshot; no probe path may take its name. */
#define SNAPSHOT_META_NAME "rtready-snapshot.json"

struct snapshot_entry;

/* A file that exists but was not captured. */
struct snapshot_left {
	char *path;
	int err;	/* -EFBIG larger than the cap, -EINVAL not a regular file */
};

struct snapshot {
	struct snapshot_entry *e;	/* what was read, path order once written */
	size_t n, cap;
	size_t *slot;			/* open-addressing hash: index + 1, 0 free */
	size_t nslots;
	size_t unsafe;			/* paths that cannot be written safely: left out */
	struct snapshot_left *left;	/* refused by rootfs, in the order met */
	size_t n_left, cap_left;
	size_t files, links;		/* written by snapshot_write() */
	int err;			/* sticky -ENOMEM of the recording */
};

/*
 * Whether @path (as a probe names it: "/proc/irq/24/smp_affinity_list") can
 * be written under a snapshot directory: absolute, no empty, "." or ".."
 * component, no control bytes, bounded length and depth.
 */
bool snapshot_path_ok(const char *path);

/*
 * Gather the facts of @fs into @f (free with facts_free()) while recording
 * into @s (zeroed first). Return: 0 or -ENOMEM.
 */
int snapshot_record(struct rootfs *fs, struct snapshot *s, struct facts *f)
	__attribute__((warn_unused_result));

/*
 * Write every recorded file and link under the directory @top, in path
 * order; counts go to s->files and s->links. Return: 0, or -errno with
 * *@failed naming the entry that could not be written.
 */
int snapshot_write(int top, struct snapshot *s, const char **failed)
	__attribute__((warn_unused_result));

/* Write one more file (the metadata) under @top. Return: 0 or -errno. */
int snapshot_write_file(int top, const char *path, const char *data, size_t len)
	__attribute__((warn_unused_result));

/*
 * Create the snapshot directory @dir (one level) or accept it empty, or
 * not empty when @force. Return: a descriptor of it, or -errno with the
 * reason in @err.
 */
int snapshot_dir_open(const char *dir, bool force, char *err, size_t errlen)
	__attribute__((warn_unused_result));

/* What SNAPSHOT_META_NAME says of the capture, beside the counts of the snapshot. */
struct snapshot_meta {
	char hostname[256];	/* "" when unreadable */
	char date[32];		/* of the capture, UTC, ISO 8601 */
	char online[4096];	/* the online CPUs, as a list */
	const char *kernel;	/* the release */
	const char *root;	/* what was captured, as the user named it */
};

/*
 * Fill @m from @fs and its facts @f, after snapshot_record(): the hostname
 * is read outside the recording (it describes the capture; check never
 * reads it).
 */
void snapshot_meta_read(const struct rootfs *fs, const struct facts *f, const char *root,
			struct snapshot_meta *m);

/* Why a file was left out, in words. */
const char *snapshot_left_reason(int err);

void snapshot_free(struct snapshot *s);

#endif
