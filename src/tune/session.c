// SPDX-License-Identifier: MIT
/* The journal's policy around apply, revert and status; see session.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tune/apply.h"
#include "tune/session.h"

int tune_state_open(const char *state_dir, bool create, struct tune_say *say)
{
	int fd = journal_dir_open(state_dir, create), err;

	if (fd < 0) {
		if (fd != -ENOENT || create)
			snprintf(say->error, sizeof(say->error),
				 "cannot open the state directory %s: %s", state_dir, strerror(-fd));
		return fd;
	}
	err = journal_lock(fd);
	if (err) {
		snprintf(say->error, sizeof(say->error), "%s",
			 err == -EWOULDBLOCK
				 ? "another rtready tune is running (the state directory is locked)"
				 : strerror(-err));
		close(fd);
		/* Never -ENOENT here: that means "no state directory" to the caller. */
		return err == -ENOENT ? -EIO : err;
	}
	return fd;
}

int tune_journal_read(int dirfd, const char *state_dir, struct journal *j, struct tune_say *say)
{
	char why[256];
	int err = journal_load(dirfd, j, why, sizeof(why));

	if (err && err != -ENOENT)
		snprintf(say->error, sizeof(say->error), "the journal %s/%s cannot be used: %s",
			 state_dir, JOURNAL_NAME, err == -EINVAL ? why : strerror(-err));
	return err;
}

void tune_when(int64_t t, char *buf, size_t len)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (!t || !localtime_r(&tt, &tm) || !strftime(buf, len, "%Y-%m-%d %H:%M:%S", &tm))
		snprintf(buf, len, "an unknown time");
}

int tune_apply_begin(int dirfd, const char *state_dir, const char *boot, struct journal *old,
		     bool *carry, char *when, size_t whenlen, struct tune_say *say)
{
	bool live, same;
	int err;

	*carry = false;
	when[0] = '\0';
	err = tune_journal_read(dirfd, state_dir, old, say);
	if (err == -ENOENT)
		return 0;
	if (err)
		return err;
	live = journal_live_count(old) > 0;
	same = strcmp(old->boot_id, boot) == 0;
	tune_when(old->created_s, when, whenlen);
	/* Files it changed outlived the reboot: the new journal keeps their originals. */
	*carry = live && !same && apply_live_persistent(old) > 0;
	if (!*carry)
		journal_free(old);
	if (live && same) {
		snprintf(say->error, sizeof(say->error),
			 "changes made by an apply at %s are still in effect; put them back with "
			 "'rtready tune --revert' first (see 'rtready tune --status')", when);
		return -EBUSY;
	}
	if (live)
		snprintf(say->warning, sizeof(say->warning),
			 "replacing the journal of an earlier boot (apply at %s): the reboot "
			 "already reset its runtime values", when);
	return 0;
}

int tune_revert_begin(const struct rootfs *fs, struct journal *j, const char *state_dir,
		      const char *when, const char **nothing, struct tune_say *say)
{
	char boot[64];
	int err = journal_boot_id(fs, boot, sizeof(boot));

	if (err) {
		snprintf(say->error, sizeof(say->error), "cannot read the boot id: %s",
			 strerror(-err));
		return err;
	}
	if (strcmp(j->boot_id, boot) != 0 && apply_live_persistent(j)) {
		/*
		 * The reboot reset the runtime values but not the files: put
		 * those back (the others are marked reset, never replayed).
		 */
		snprintf(say->warning, sizeof(say->warning),
			 "the journal in %s is of an earlier boot (apply at %s): only the files "
			 "it changed are put back, the reboot reset the rest", state_dir, when);
		apply_forget_runtime(j);
	} else if (strcmp(j->boot_id, boot) != 0) {
		snprintf(say->error, sizeof(say->error),
			 "the journal in %s was written during an earlier boot (apply at %s, boot "
			 "%s); the reboot already reset those runtime values, so it is not "
			 "replayed. A new --apply replaces it.", state_dir, when, j->boot_id);
		return -ESTALE;
	}
	if (journal_live_count(j) == 0) {
		*nothing = j->state == JOURNAL_REVERTED ? "the last apply was already reverted"
							 : "no change of the last apply is in effect";
		return 1;
	}
	return 0;
}
