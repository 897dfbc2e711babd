/* SPDX-License-Identifier: MIT */
/*
 * Facts about tuned, the profile daemon of Red Hat and friends: which
 * profile it applies (/etc/tuned/active_profile: one name, or several
 * separated by spaces that tuned merges; empty after `tuned-adm off`) and
 * whether the user chose it (/etc/tuned/profile_mode: "manual", or "auto"
 * when tuned picked its recommendation). tuned writes the same runtime knobs
 * that `rtready tune` does (governors, THP, sysctls, IRQ affinities) and
 * writes them again when it restarts, so the two fight. Whether the daemon
 * runs comes from the task list (struct tasks_facts).
 */
#ifndef RTR_PROBE_TUNED_H
#define RTR_PROBE_TUNED_H

#include <stdbool.h>

#include "probe/rootfs.h"
#include "probe/tasks.h"

struct tuned_facts {
	int profile_err;	/* /etc/tuned/active_profile; -ENOENT: tuned never set one */
	char profile[256];	/* as written (control bytes replaced); "" when off */
	int mode_err;		/* /etc/tuned/profile_mode */
	char mode[16];		/* "manual" or "auto" */
};

/* Fill @out from @fs. Never fails as a whole: fields carry their own errors. */
void probe_tuned(const struct rootfs *fs, struct tuned_facts *out);

/*
 * Whether @name is a profile made for realtime work (realtime*,
 * cpu-partitioning*): an ally of rtready in purpose, though it still owns
 * the same knobs. Pure.
 */
bool tuned_profile_is_rt(const char *name);

/* The pid of a running tuned daemon in @t (0 when none is listed). Pure. */
int tuned_running_pid(const struct tasks_facts *t);

#endif
