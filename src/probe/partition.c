// SPDX-License-Identifier: MIT
/* cgroup v2 cpuset partitions, read through rootfs; see partition.h. */
#include <dirent.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe/cgroupfs.h"
#include "probe/cpu.h"
#include "probe/partition.h"
#include "probe/tasks.h"
#include "util/grow.h"
#include "util/parse.h"
#include "util/strbuf.h"

struct walk {
	const struct rootfs *fs;
	struct partition_facts *p;
	size_t dirs;
	char *buf; /* scratch for cpu lists */
};

#define LIST_CAP 8192

int partition_parse_state(const char *text, char *type, size_t tlen, bool *valid, char *reason,
			  size_t rlen)
{
	static const char *const types[] = { "member", "root", "isolated" };
	const char *rest = NULL;

	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]) && !rest; i++) {
		size_t n = strlen(types[i]);

		if (strncmp(text, types[i], n) == 0 && (text[n] == '\0' || text[n] == ' ')) {
			snprintf(type, tlen, "%s", types[i]);
			rest = text + n;
		}
	}
	if (!rest)
		return -EINVAL;
	*valid = true;
	if (reason && rlen)
		reason[0] = '\0';
	if (!*rest)
		return 0;
	/* "isolated invalid (Cpu list in cpuset.cpus not exclusive)"; 5.x kernels give no reason. */
	if (strncmp(rest, " invalid", 8) != 0)
		return -EINVAL;
	*valid = false;
	rest += 8;
	if (*rest == ' ' && rest[1] == '(' && reason && rlen) {
		const char *end = strrchr(rest, ')');
		int n = end && end > rest + 2 ? (int)(end - rest - 2) : (int)strlen(rest + 2);

		snprintf(reason, rlen, "%.*s", n, rest + 2);
	}
	return 0;
}

int partition_read_isolated(const struct rootfs *fs, struct rtr_cpuset *out)
{
	struct cgroup_mounts *m = calloc(1, sizeof(*m));
	char *buf = malloc(LIST_CAP);
	int err = m && buf ? 0 : -ENOMEM;

	rtr_cpuset_clear(out);
	err = err ?: cgroup_read_mounts(fs, m);
	if (err == -EINVAL)
		err = -ENOENT; /* no cgroup in the mount table */
	/* A cpuset mounted on v1 is unavailable to cgroup2, as in probe_partition(). */
	if (!err && (m->v1_cpuset[0] || !m->v2[0]))
		err = -ENOENT;
	err = err ?: cgroupfs_read(fs, m->v2, "cpuset.cpus.isolated", buf, LIST_CAP);
	err = err ?: rtr_cpuset_parse_list(out, buf);
	if (err)
		rtr_cpuset_clear(out);
	free(buf);
	free(m);
	return err;
}

bool partition_supported(const struct partition_facts *p)
{
	return p->hier == PARTITION_HIER_V2 && p->isolated_err == 0;
}

static void note_group(struct walk *w, const char *dir, const char *state)
{
	struct partition_facts *p = w->p;
	struct partition_group *g;
	char type[16], reason[160];
	bool valid;
	int err;

	if (partition_parse_state(state, type, sizeof(type), &valid, reason, sizeof(reason)) ||
	    strcmp(type, "member") == 0)
		return;
	err = grow_array((void **)&p->groups, &p->cap_groups, p->n_groups, sizeof(*p->groups),
			 PARTITION_MAX);
	if (err == -ENOSPC)
		p->truncated = true;
	else if (err)
		p->err = err;
	if (err)
		return;
	g = &p->groups[p->n_groups++];
	memset(g, 0, sizeof(*g));
	snprintf(g->path, sizeof(g->path), "%.*s", (int)sizeof(g->path) - 1,
		 dir + strlen(p->mount));
	snprintf(g->type, sizeof(g->type), "%s", type);
	snprintf(g->reason, sizeof(g->reason), "%s", reason);
	g->valid = valid;
	g->cpus = (struct rtr_cpuset)RTR_CPUSET_INIT;
	if (cgroupfs_read(w->fs, dir, "cpuset.cpus.effective", w->buf, LIST_CAP) == 0 &&
	    rtr_cpuset_parse_list(&g->cpus, w->buf) != 0)
		rtr_cpuset_clear(&g->cpus);
}

/* Depth first below @dir; every group with cpuset.cpus.partition is looked at. */
static void walk(struct walk *w, const char *dir, int depth)
{
	struct dirent *de;
	char *sub;
	DIR *d;

	if (++w->dirs > PARTITION_MAX_DIRS || depth > PARTITION_MAX_DEPTH) {
		w->p->truncated = true;
		return;
	}
	if (depth > 0 &&
	    cgroupfs_read(w->fs, dir, "cpuset.cpus.partition", w->buf, LIST_CAP) == 0)
		note_group(w, dir, w->buf);
	d = rootfs_opendir(w->fs, dir);
	if (!d)
		return;
	sub = malloc(PATH_MAX);
	while (sub && (de = readdir(d)) && !w->p->truncated && !w->p->err) {
		if ((de->d_type != DT_DIR && de->d_type != DT_UNKNOWN) || de->d_name[0] == '.')
			continue;
		if (rootfs_path(sub, PATH_MAX, "%s/%s", dir, de->d_name))
			continue;
		if (de->d_type == DT_UNKNOWN) {
			char probe[PATH_MAX + 32];

			/* A cgroup always has cgroup.procs; a file has nothing below it. */
			if (rootfs_path(probe, sizeof(probe), "%s/cgroup.procs", sub) ||
			    !rootfs_exists(w->fs, probe))
				continue;
		}
		walk(w, sub, depth + 1);
	}
	free(sub);
	closedir(d);
}

/* The v1 root's sched_load_balance, with or without the "cpuset." prefix. */
static void probe_v1_balance(const struct rootfs *fs, const char *dir, struct partition_facts *p)
{
	char buf[32];
	int64_t v;

	p->v1_balance_err = cgroupfs_read(fs, dir, "cpuset.sched_load_balance", buf, sizeof(buf));
	if (p->v1_balance_err == -ENOENT)
		p->v1_balance_err = cgroupfs_read(fs, dir, "sched_load_balance", buf, sizeof(buf));
	if (!p->v1_balance_err)
		p->v1_balance_err = parse_int64(buf, 0, 1, &v);
	p->v1_balance = p->v1_balance_err ? -1 : (int)v;
}

void probe_partition(const struct rootfs *fs, struct partition_facts *p)
{
	static const char *const cpuset[] = { "cpuset", NULL };
	struct cgroup_mounts *m = calloc(1, sizeof(*m));
	struct walk w = { fs, p, 0, NULL };
	int rc;

	memset(p, 0, sizeof(*p));
	p->v1_balance = -1;
	p->v1_balance_err = -ENOENT;
	p->isolated = (struct rtr_cpuset)RTR_CPUSET_INIT;
	p->isolated_err = -ENOENT;
	p->subtree_err = -ENOENT;
	if (!m) {
		p->err = -ENOMEM;
		return;
	}
	p->err = cgroup_read_mounts(fs, m);
	if (p->err == -EINVAL)
		p->err = 0; /* a mount table without any cgroup: none mounted */
	if (p->err)
		goto out;
	snprintf(p->mount, sizeof(p->mount), "%s", m->v2);
	snprintf(p->v1_cpuset, sizeof(p->v1_cpuset), "%s", m->v1_cpuset);
	if (m->v1_cpuset[0]) {
		/* A cpuset mounted on v1 is unavailable to cgroup2, whatever else is there. */
		p->hier = PARTITION_HIER_V1;
		probe_v1_balance(fs, m->v1_cpuset, p);
		goto out;
	}
	if (!m->v2[0]) {
		p->hier = PARTITION_HIER_NONE;
		goto out;
	}
	rc = cgroupfs_lists(fs, m->v2, "cgroup.controllers", cpuset);
	if (rc != 1) {
		p->hier = PARTITION_HIER_NO_CPUSET;
		if (rc < 0)
			p->subtree_err = rc;
		goto out;
	}
	p->hier = PARTITION_HIER_V2;
	rc = cgroupfs_lists(fs, m->v2, "cgroup.subtree_control", cpuset);
	p->subtree_err = rc < 0 ? rc : 0;
	p->subtree_cpuset = rc == 1;
	w.buf = malloc(LIST_CAP);
	if (!w.buf) {
		p->err = -ENOMEM;
		goto out;
	}
	p->isolated_err = cgroupfs_read(fs, m->v2, "cpuset.cpus.isolated", w.buf, LIST_CAP);
	if (!p->isolated_err)
		p->isolated_err = rtr_cpuset_parse_list(&p->isolated, w.buf);
	/* Without cpuset in the root's subtree_control no child has a partition file. */
	if (p->subtree_cpuset)
		walk(&w, m->v2, 0);
out:
	free(w.buf);
	free(m);
}

void probe_partition_free(struct partition_facts *p)
{
	if (!p)
		return;
	rtr_cpuset_free(&p->isolated);
	for (size_t i = 0; i < p->n_groups; i++)
		rtr_cpuset_free(&p->groups[i].cpus);
	free(p->groups);
	p->groups = NULL;
	p->n_groups = p->cap_groups = 0;
}

/* Tasks pinned to RT CPUs only, named: "412 (rtapp), 977 (pipewire)". Return: how many. */
static size_t pinned_tasks(const struct rootfs *fs, const struct rtr_cpuset *rt, int skip_pid,
			   struct strbuf *names, int *err)
{
	struct tasks_facts tf = { 0 };
	size_t n = 0;
	int last_pid = -1;

	probe_tasks(fs, &tf);
	*err = tf.err == -ENOMEM ? -ENOMEM : 0;
	for (size_t i = 0; i < tf.n; i++) {
		const struct task_info *t = &tf.tasks[i];

		/* Kernel threads follow the kernel (IRQ threads their IRQ's affinity). */
		if (t->allowed_err || t->kthread || t->pid == skip_pid ||
		    rtr_cpuset_is_empty(&t->allowed) || !rtr_cpuset_is_subset(&t->allowed, rt))
			continue;
		/* One name per process: its threads share the reason. */
		if (t->pid == last_pid)
			continue;
		last_pid = t->pid;
		if (n++ < 6)
			strbuf_printf(names, "%s%d (%s)", n > 1 ? ", " : "", t->pid, t->comm);
	}
	if (n > 6)
		strbuf_printf(names, " and %zu more", n - 6);
	probe_tasks_free(&tf);
	return n;
}

int partition_obstacle(const struct rootfs *fs, const struct partition_facts *p,
		       const struct rtr_cpuset *rt, const char *own, int skip_pid, char *why,
		       size_t len)
{
	struct cpu_facts nodes = { 0 };
	struct strbuf names = STRBUF_INIT;
	char list[256];
	int rc = 0, err;
	size_t n;

	why[0] = '\0';
	if (p->err) {
		snprintf(why, len, "cannot read the mount table (/proc/self/mountinfo): %s",
			 strerror(-p->err));
		return p->err == -ENOMEM ? -ENOMEM : -EOPNOTSUPP;
	}
	switch (p->hier) {
	case PARTITION_HIER_V1:
		snprintf(why, len, "the cpuset controller is on a cgroup v1 hierarchy (%s): "
			 "isolated partitions need it on cgroup v2 (boot with "
			 "systemd.unified_cgroup_hierarchy=1, or cgroup_no_v1=cpuset), or isolate "
			 "at boot (rtready plan)", p->v1_cpuset);
		return -EOPNOTSUPP;
	case PARTITION_HIER_NONE:
	case PARTITION_HIER_UNKNOWN:
		snprintf(why, len, "no cgroup2 file system is mounted (mount -t cgroup2 none "
			 "/sys/fs/cgroup)");
		return -EOPNOTSUPP;
	case PARTITION_HIER_NO_CPUSET:
		snprintf(why, len, "cgroup2 at %s does not offer the cpuset controller (not in "
			 "its cgroup.controllers: a kernel without CONFIG_CPUSETS)", p->mount);
		return -EOPNOTSUPP;
	case PARTITION_HIER_V2:
		break;
	}
	if (!partition_supported(p)) {
		snprintf(why, len, "this kernel has no %s/cpuset.cpus.isolated: isolated "
			 "partitions that rtready can verify need Linux 6.8 or later; isolate at "
			 "boot instead (rtready plan)", p->mount);
		return -EOPNOTSUPP;
	}
	for (size_t i = 0; i < p->n_groups; i++) {
		const struct partition_group *g = &p->groups[i];

		if ((own && strcmp(g->path, own) == 0) || !rtr_cpuset_intersects(&g->cpus, rt))
			continue;
		rtr_cpuset_format_list(&g->cpus, list, sizeof(list));
		snprintf(why, len, "the cgroup %s is already a partition ('%s%s') of CPUs %s; "
			 "remove it or choose other RT CPUs", g->path, g->type,
			 g->valid ? "" : " invalid", list);
		return -EBUSY;
	}
	probe_cpu_nodes(fs, &nodes);
	for (size_t i = 0; i < nodes.n_nodes && rc == 0; i++) {
		if (!rtr_cpuset_is_subset(&nodes.nodes[i].cpus, rt))
			continue;
		rtr_cpuset_format_list(&nodes.nodes[i].cpus, list, sizeof(list));
		snprintf(why, len, "CPUs %s are all the CPUs of NUMA node %d: an isolated partition "
			 "would leave that node's memory and kernel threads no CPU that balances; "
			 "keep at least one CPU of node %d out of the RT CPUs", list,
			 nodes.nodes[i].id, nodes.nodes[i].id);
		rc = -EINVAL;
	}
	probe_cpu_free(&nodes);
	if (rc || !fs->host)
		return rc;
	n = pinned_tasks(fs, rt, skip_pid, &names, &err);
	if (err || names.err) {
		strbuf_free(&names);
		return -ENOMEM;
	}
	if (n) {
		rtr_cpuset_format_list(rt, list, sizeof(list));
		snprintf(why, len, "%zu process(es) are pinned to CPUs of %s by others and would "
			 "lose them to the partition: %s; move them (taskset -a -p -c CPUS PID) or "
			 "choose other RT CPUs", n, list, strbuf_str(&names));
		rc = -EBUSY;
	}
	strbuf_free(&names);
	return rc;
}
