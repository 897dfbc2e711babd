/* SPDX-License-Identifier: MIT */
/*
 * The journal of `rtready tune`: every old value, on disk before the first
 * write, with the progress of each change, so that --revert puts back
 * exactly what an apply changed even after kill -9 or a power cut.
 *
 * One journal per machine, STATE_DIR/tune.journal (JSON). Every update is
 * written to a temporary file, fsync'd, renamed over the journal and the
 * directory fsync'd: after a crash the journal is either the old or the new
 * version, never a torn one. It records the boot it was written in
 * (/proc/sys/kernel/random/boot_id): runtime values do not survive a
 * reboot, so a journal from an earlier boot must not be replayed blindly.
 */
#ifndef RTR_TUNE_JOURNAL_H
#define RTR_TUNE_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "probe/rootfs.h"
#include "tune/tune.h"

#define TUNE_STATE_DIR_DEFAULT "/var/lib/rtready"
#define JOURNAL_NAME	       "tune.journal"
#define JOURNAL_VERSION	       1
/* A journal larger than this is not ours (30,000 tasks need ~6 MiB). */
#define JOURNAL_CAP (64u << 20)
/* Notes read back from a journal, at most (a plan has a few dozen). */
#define JOURNAL_NOTES_MAX 4096

enum journal_state {
	JOURNAL_APPLYING,  /* apply started: changes may be in any state */
	JOURNAL_APPLIED,   /* apply finished */
	JOURNAL_REVERTING, /* revert started */
	JOURNAL_REVERTED,  /* everything put back */
};

struct journal {
	char boot_id[64];
	char rt_cpus[256]; /* as given to apply, for --status */
	int64_t created_s; /* wall-clock time of the apply (seconds since the epoch) */
	enum journal_state state;
	struct tune_plan plan; /* the changes, each with its state */
};

const char *journal_state_name(enum journal_state s);

/*
 * Open the state directory (creating it and its parents, mode 0700, when
 * @create). Return: a directory fd or -errno.
 */
int journal_dir_open(const char *dir, bool create) __attribute__((warn_unused_result));

/*
 * Take the journal lock (flock on the directory) so that two rtready tune
 * never interleave. Return: 0, -EWOULDBLOCK when another holds it, -errno.
 */
int journal_lock(int dirfd) __attribute__((warn_unused_result));

/* The current boot's id, from /proc/sys/kernel/random/boot_id. Return: 0 or -errno. */
int journal_boot_id(const struct rootfs *fs, char *buf, size_t len)
    __attribute__((warn_unused_result));

/*
 * Write @j atomically and durably (temp file, fsync, rename, fsync of the
 * directory). Return: 0 or -errno.
 */
int journal_save(int dirfd, const struct journal *j) __attribute__((warn_unused_result));

/*
 * Read the journal into @j (free with journal_free()). Entries are
 * checked against the table of tunables: a path rtready would not write
 * makes the whole journal invalid.
 * Return: 0, -ENOENT (no journal), -EINVAL (not a valid journal, with a
 * reason in @why), -EFBIG, -errno.
 */
int journal_load(int dirfd, struct journal *j, char *why, size_t whylen)
    __attribute__((warn_unused_result));

void journal_free(struct journal *j);

/* One change as JSON, as the journal stores it (also used for command output). NULL on ENOMEM. */
json_t *journal_change_to_json(const struct tune_change *c);

/* Whether a change of @j may still be in effect (attempting, applied, revert-failed). */
bool journal_change_live(const struct tune_change *c);

/* How many changes of @j may still be in effect. */
size_t journal_live_count(const struct journal *j);

#endif
