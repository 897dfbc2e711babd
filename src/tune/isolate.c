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
#include "probe/tasks.h"
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

/*
 * Kernel threads with an affinity of their own (IRQ threads follow their
 * IRQ): when a partition comes or goes, the kernel sets every task of the
 * root group to the root's CPUs, and unlike a user task's, a kernel
 * thread's own mask is not kept. Journal each one's mask as it is (a write
 * of the same value), ahead of the partition, so revert puts it back after
 * the partition is gone. Threads the tasks row moves (on RT and other
 * CPUs) are its own. Live system only. Return: 0 or -ENOMEM.
 */
static int keep_kthreads(const struct rootfs *fs, const struct tune_settings *s,
			 struct tune_plan *out)
{
	struct rtr_cpuset all = RTR_CPUSET_INIT;
	struct tasks_facts tf = { 0 };
	char list[256];
	int err = 0;

	if (!fs->host)
		return 0;
	probe_tasks(fs, &tf);
	if (tf.err == -ENOMEM)
		err = -ENOMEM;
	err = err ?: rtr_cpuset_copy(&all, &s->rt);
	err = err ?: rtr_cpuset_or(&all, &s->nonrt);
	for (size_t i = 0; i < tf.n && !err; i++) {
		const struct task_info *t = &tf.tasks[i];
		struct tune_change c = { .id = TUNE_TASKS, .state = CHANGE_PENDING };

		if (!t->kthread || t->per_cpu || t->allowed_err || rtr_cpuset_is_empty(&t->allowed) ||
		    rtr_cpuset_is_subset(&all, &t->allowed))
			continue;
		if (s->enabled[TUNE_TASKS] && rtr_cpuset_intersects(&t->allowed, &s->rt) &&
		    !rtr_cpuset_is_subset(&t->allowed, &s->rt))
			continue;
		if (rtr_cpuset_format_list(&t->allowed, list, sizeof(list)) >= sizeof(list))
			continue;
		c.note = "kept: the partition resets kernel threads to the root's CPUs";
		err = tune_plan_add_task(out, &c, t, list, list);
	}
	rtr_cpuset_free(&all);
	probe_tasks_free(&tf);
	return err;
}

int isolate_plan(const struct rootfs *fs, const struct tune_settings *s, struct tune_plan *out,
		 char *why, size_t len)
{
	const char *own = &TUNE_ISO_GROUP_PATH[strlen(ROOT)];
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
	rc = keep_kthreads(fs, s, out);
	if (!rc && !p.subtree_cpuset)
		rc = add(out, TUNE_ISO_SUBTREE, "cpuset for the root's children", "-cpuset",
			 "+cpuset");
	rc = rc ?: add(out, TUNE_ISO_GROUP, NULL, "absent", "present");
	rc = rc ?: add(out, TUNE_ISO_CPUS, NULL, "", list);
	rc = rc ?: add(out, TUNE_ISO_PARTITION, NULL, "member", "isolated");
out:
	probe_partition_free(&p);
	return rc;
}
