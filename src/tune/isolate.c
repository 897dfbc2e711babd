// SPDX-License-Identifier: MIT
/*
 * tune --isolate; see isolate.h. A new group starts with an empty
 * cpuset.cpus and partition "member": those are the old values journalled,
 * so revert writes them back before the group is removed.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "probe/partition.h"
#include "tune/isolate.h"

#define ROOT "/sys/fs/cgroup"

static int add(struct tune_plan *out, enum tune_id id, const char *label, const char *old,
	       const char *nw)
{
	struct tune_change c = { .id = id, .state = CHANGE_PENDING };

	c.path = (char *)tunable_get(id)->pattern;
	c.label = (char *)label;
	c.old_value = (char *)old;
	c.new_value = (char *)nw;
	return tune_plan_add(out, &c);
}

int isolate_plan(const struct rootfs *fs, const struct tune_settings *s, struct tune_plan *out,
		 char *why, size_t len)
{
	const char *own = TUNE_ISO_GROUP_PATH + strlen(ROOT);
	struct partition_facts p;
	char list[256];
	int rc;

	why[0] = '\0';
	probe_partition(fs, &p);
	rc = partition_obstacle(fs, &p, &s->rt, own, s->skip_pid, why, len);
	if (rc)
		goto out;
	/* The journal allows writes to these paths only: its rows name them whole. */
	if (strcmp(p.mount, ROOT) != 0) {
		snprintf(why, len, "cgroup2 is mounted at %s; rtready makes its partition under "
			 ROOT " only", p.mount);
		rc = -EOPNOTSUPP;
		goto out;
	}
	rtr_cpuset_format_list(&s->rt, list, sizeof(list));
	if (rootfs_exists(fs, TUNE_ISO_GROUP_PATH)) {
		const struct partition_group *g = NULL;

		for (size_t i = 0; i < p.n_groups; i++)
			if (strcmp(p.groups[i].path, own) == 0)
				g = &p.groups[i];
		if (g && g->valid && strcmp(g->type, "isolated") == 0 &&
		    rtr_cpuset_equal(&g->cpus, &s->rt)) {
			rc = tune_plan_note(out, TUNE_ISO_PARTITION, "already right: "
					    TUNE_ISO_GROUP_PATH " is an isolated partition of "
					    "CPUs %s", list);
			goto out;
		}
		snprintf(why, len, TUNE_ISO_GROUP_PATH " exists and is not an isolated partition "
			 "of CPUs %s (an apply of other CPUs, or left by someone): put it back "
			 "with rtready tune --revert, or remove it (rmdir)", list);
		rc = -EBUSY;
		goto out;
	}
	if (!p.subtree_cpuset)
		rc = add(out, TUNE_ISO_SUBTREE, "cpuset for the root's children", "-cpuset",
			 "+cpuset");
	rc = rc ?: add(out, TUNE_ISO_GROUP, NULL, "absent", "present");
	rc = rc ?: add(out, TUNE_ISO_CPUS, NULL, "", list);
	rc = rc ?: add(out, TUNE_ISO_PARTITION, NULL, "member", "isolated");
out:
	probe_partition_free(&p);
	return rc;
}
