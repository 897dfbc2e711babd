/* SPDX-License-Identifier: MIT */
/*
 * Apply and revert: carry out a journalled plan, one write() per file and
 * one sched_setaffinity() per task, recording each step in the journal
 * before it happens and after it lands. Revert walks the journal backwards
 * and puts back every old value that may be in effect; running it again
 * changes nothing.
 */
#ifndef RTR_TUNE_APPLY_H
#define RTR_TUNE_APPLY_H

#include <stdbool.h>
#include <stddef.h>

#include "probe/rootfs.h"
#include "tune/journal.h"

/* Task changes share one journal update per batch (a file change has its own). */
#define APPLY_TASK_BATCH 32
/* ... and at most about this many journal updates are spent on tasks. */
#define APPLY_TASK_SAVES 32

struct apply_result {
	size_t done;	  /* applied (or reverted) */
	size_t unchanged; /* revert: the value was already the old one, or its object is gone */
	size_t refused;	  /* refused by the kernel in a way that is expected (an IRQ, a task) */
	size_t failed;	  /* failed for real: the run exits 1 */
};

/*
 * Whether a refusal is expected rather than a failure: an IRQ the kernel
 * will not move (EIO for managed or per-CPU IRQs, EPERM, EINVAL), a task
 * that exited or that its cpuset keeps on its CPUs (ESRCH, EINVAL).
 */
bool apply_refusal_expected(const struct tune_change *c);

/*
 * Apply @j->plan: @j (boot id, rt cpus, changes all pending) is saved in
 * @dirfd before the first write, then each change is marked attempting,
 * written under @fs's root, and marked applied or failed.
 * Return: 0 when every change was tried (see @res), or -errno when the
 * journal could not be written: then nothing more is changed.
 */
int apply_run(const struct rootfs *fs, int dirfd, struct journal *j, struct apply_result *res)
    __attribute__((warn_unused_result));

/*
 * Revert @j: from the last change to the first, put back the old value of
 * every change that may be in effect, marking each reverted in the journal.
 * A file that already holds its old value, an IRQ that is gone, a task
 * that exited (or whose tid now names another task) count as unchanged.
 * Return: 0 (see @res) or -errno when the journal could not be written.
 */
int revert_run(const struct rootfs *fs, int dirfd, struct journal *j, struct apply_result *res)
    __attribute__((warn_unused_result));

/*
 * Changes that outlive a reboot (a configuration file, TUNE_VAL_FILE):
 * unlike runtime values, the reboot did not put them back, so a journal of
 * an earlier boot still owes them.
 *
 * apply_live_persistent() - how many of @j's live changes are persistent.
 *
 * apply_forget_runtime() - mark @j's live runtime changes reverted (the
 * reboot reset them), leaving the persistent ones for revert_run().
 *
 * apply_carry_persistent() - before a new apply replaces @old (a journal
 * of an earlier boot), carry its persistent changes into @plan so that
 * their original text stays journaled: a file still as rtready left it
 * keeps its change (added if the plan has none for it, or the plan's
 * change takes the original as its old value); a file changed since is
 * left out and counted in *@dropped. Return: 0 or -ENOMEM.
 */
size_t apply_live_persistent(const struct journal *j);
void apply_forget_runtime(struct journal *j);
int apply_carry_persistent(const struct rootfs *fs, const struct journal *old,
			   struct tune_plan *plan, size_t *dropped)
	__attribute__((warn_unused_result));

/*
 * The current value of what @c changed (a kernel file's normalized value,
 * a configuration file's exact text, a task's CPU list) in a new string
 * *@out (free it; NULL on error).
 * Return: 0, -ESRCH (task gone or tid reused), -ENOMEM, -errno.
 */
int apply_current(const struct rootfs *fs, const struct tune_change *c, char **out)
    __attribute__((warn_unused_result));

/*
 * Read the current value of every change of @p that is in effect into its
 * ->current ("gone" when it cannot be read: a task that ended), so that
 * --status renders facts read once, before rendering. Return: 0 or -ENOMEM.
 */
int apply_read_current(const struct rootfs *fs, struct tune_plan *p)
    __attribute__((warn_unused_result));

#endif
