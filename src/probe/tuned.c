// SPDX-License-Identifier: MIT
/* Probe of tuned's state; see tuned.h. Two small reads, no judgement. */
#include <errno.h>
#include <string.h>

#include "probe/knob.h"
#include "probe/tuned.h"

void probe_tuned(const struct rootfs *fs, struct tuned_facts *out)
{
	memset(out, 0, sizeof(*out));
	/* An empty file is meaningful here: `tuned-adm off` leaves it so. */
	out->profile_err = rootfs_read_str(fs, "/etc/tuned/active_profile", out->profile,
					   sizeof(out->profile));
	if (out->profile_err)
		out->profile[0] = '\0';
	knob_sanitize(out->profile);
	out->mode_err = rootfs_read_text(fs, "/etc/tuned/profile_mode", out->mode,
					 sizeof(out->mode));
	if (out->mode_err)
		out->mode[0] = '\0';
	knob_sanitize(out->mode);
}

bool tuned_profile_is_rt(const char *name)
{
	return strncmp(name, "realtime", 8) == 0 || strncmp(name, "cpu-partitioning", 16) == 0;
}

int tuned_running_pid(const struct tasks_facts *t)
{
	/* The daemon is a Python script: its comm is the script's name. */
	for (size_t i = 0; i < t->n; i++)
		if (!t->tasks[i].kthread && strcmp(t->tasks[i].comm, "tuned") == 0)
			return t->tasks[i].pid;
	return 0;
}
