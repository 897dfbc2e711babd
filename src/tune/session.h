/* SPDX-License-Identifier: MIT */
/*
 * The journal's policy around apply, revert and status: when an apply may
 * start (not while an apply of this boot is in effect), what an apply of an
 * earlier boot leaves to carry over (the files it changed outlived the
 * reboot, its runtime values did not), and what a revert replays. The
 * command prints what a step says; nothing here prints.
 */
#ifndef RTR_TUNE_SESSION_H
#define RTR_TUNE_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "probe/rootfs.h"
#include "tune/journal.h"

/* What a step said: why it stopped (@error), or what it warns of and went on (@warning). */
struct tune_say {
	char error[768];
	char warning[768];
};

/*
 * The state directory, opened and locked against another tune.
 * Return: the fd; -ENOENT when it does not exist and !@create (nothing
 * said); else -errno with @say->error.
 */
int tune_state_open(const char *state_dir, bool create, struct tune_say *say);

/* The journal in @dirfd. Return: 0 loaded, -ENOENT none, else -errno with @say->error. */
int tune_journal_read(int dirfd, const char *state_dir, struct journal *j, struct tune_say *say);

/* The time @t (seconds since the epoch) for messages, or "an unknown time". */
void tune_when(int64_t t, char *buf, size_t len);

/*
 * May an apply start over the journal in @dirfd, in the boot @boot? Fills
 * @when (of the earlier apply, "" without one). An apply of an earlier
 * boot is replaced (@say->warning); the files it changed are kept in @old
 * for apply_carry_persistent() when *@carry.
 * Return: 0 go; -EBUSY an apply of this boot is in effect; -errno;
 * @say->error for both.
 */
int tune_apply_begin(int dirfd, const char *state_dir, const char *boot, struct journal *old,
		     bool *carry, char *when, size_t whenlen, struct tune_say *say)
	__attribute__((warn_unused_result));

/*
 * What a revert of @j replays. Return: 0 go (of an earlier boot, only its
 * files: @say->warning); 1 nothing to revert (*@nothing says why); -errno
 * refused (@say->error: a journal of an earlier boot with nothing to put
 * back is not replayed).
 */
int tune_revert_begin(const struct rootfs *fs, struct journal *j, const char *state_dir,
		      const char *when, const char **nothing, struct tune_say *say)
	__attribute__((warn_unused_result));

#endif
