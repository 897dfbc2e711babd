// SPDX-License-Identifier: MIT
/* The target context, opened once per command; see target.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpuplan/cpuplan.h"
#include "probe/placement.h"
#include "target/target.h"
#include "util/parse.h"

int target_parse_cpulist(const char *opt, const char *arg, struct rtr_cpuset *out, char *err,
			 size_t errlen)
{
	int rc = rtr_cpuset_parse_list(out, arg);

	if (rc == -ENOMEM) {
		snprintf(err, errlen, "%s", strerror(ENOMEM));
		return rc;
	}
	if (rc == -ERANGE) {
		snprintf(err, errlen, "%s: '%s': CPU number too large", opt, arg);
		return -EINVAL;
	}
	if (rc) {
		snprintf(err, errlen, "%s: '%s' is not a CPU list (like 0-3,8,10-11)", opt, arg);
		return -EINVAL;
	}
	if (rtr_cpuset_is_empty(out)) {
		snprintf(err, errlen, "%s: empty CPU list", opt);
		return -EINVAL;
	}
	return 0;
}

int rt_request_parse(const char *opt, const char *arg, struct rt_request *out, char *err,
		     size_t errlen)
{
	int64_t n;
	int e;

	rt_request_free(out);
	snprintf(out->opt, sizeof(out->opt), "%s", opt);
	if (strcmp(arg, "auto") == 0) {
		out->kind = RT_REQUEST_AUTO;
		return 0;
	}
	if (strncmp(arg, "auto:", 5) == 0) {
		if (parse_int64(arg + 5, 1, RTR_CPUSET_MAX_CPUS, &n)) {
			snprintf(err, errlen, "%s: '%s': auto:N needs a CPU count of 1 or more", opt,
				 arg);
			return -EINVAL;
		}
		out->kind = RT_REQUEST_AUTO;
		out->count = (size_t)n;
		return 0;
	}
	e = target_parse_cpulist(opt, arg, &out->cpus, err, errlen);
	if (e)
		return e;
	out->kind = RT_REQUEST_LIST;
	return 0;
}

void rt_request_free(struct rt_request *r)
{
	rtr_cpuset_free(&r->cpus);
	r->kind = RT_REQUEST_NONE;
	r->count = 0;
}

/* The RT CPUs of an auto request: the planner's choice under the target. */
static int plan_auto(struct target *t, const struct rt_request *rt, struct rtr_cpuset *out,
		     char *err, size_t errlen)
{
	struct target_plan_req req = { rt->count, -1, NULL, TARGET_PLAN_WINDOW_NS };
	struct managed_irqs m = { 0 };
	struct cpuplan plan = CPUPLAN_INIT;
	char why[768];
	int e = target_plan(t, &req, &m, &plan, why, sizeof(why));

	if (e && e != -ENOMEM)
		snprintf(err, errlen, "%s auto: %s", rt->opt[0] ? rt->opt : "--rt-cpus", why);
	e = e ?: rtr_cpuset_copy(out, &plan.rt);
	cpuplan_free(&plan);
	managed_irqs_free(&m);
	return e;
}

/* The RT CPUs, the housekeeping CPUs and their lists, from the facts read. */
static int resolve(struct target *t, const struct rt_request *rt, char *err, size_t errlen)
{
	struct rtr_cpuset planned = RTR_CPUSET_INIT;
	const struct cpu_facts *c = &t->facts.cpu;
	const struct rtr_cpuset *given = NULL;
	int e = 0;

	if (rt && rt->kind == RT_REQUEST_AUTO) {
		e = plan_auto(t, rt, &planned, err, errlen);
		given = &planned;
	} else if (rt && rt->kind == RT_REQUEST_LIST) {
		given = &rt->cpus;
	}
	e = e ?: rtcpus_resolve_planned(c, given, rt && rt->kind == RT_REQUEST_AUTO, &t->rt);
	rtr_cpuset_free(&planned);
	if (e)
		return e;
	rtcpus_format(&t->rt, t->rt_list, sizeof(t->rt_list));
	if (c->online_err)
		return 0;
	rtr_cpuset_format_list(&c->online, t->online_list, sizeof(t->online_list));
	e = rtr_cpuset_copy(&t->housekeeping, &c->online);
	for (int cpu = -1; !e && (cpu = rtr_cpuset_next(&t->rt.cpus, cpu)) >= 0;)
		rtr_cpuset_unset(&t->housekeeping, cpu);
	return e;
}

int target_root(struct target *t, const char *root, char *err, size_t errlen)
{
	int e;

	memset(t, 0, sizeof(*t));
	t->rt = (struct rtcpus)RTCPUS_INIT;
	t->housekeeping = (struct rtr_cpuset)RTR_CPUSET_INIT;
	e = rootfs_open(&t->fs, root);
	if (e)
		snprintf(err, errlen, "cannot open root directory %s: %s", root, strerror(-e));
	return e;
}

int target_read(struct target *t, const struct rt_request *rt, unsigned int want, char *err,
		size_t errlen)
{
	bool topology = rt && rt->kind == RT_REQUEST_AUTO;
	int e = 0;

	t->want = want;
	if (want & TARGET_FACTS) {
		e = facts_gather(&t->fs, &t->facts);
	} else {
		struct kernel_facts *k = &t->facts.kernel;

		snprintf(t->facts.root, sizeof(t->facts.root), "%s", t->fs.path);
		t->facts.host = t->fs.host;
		k->release_err = rootfs_read_str(&t->fs, "/proc/sys/kernel/osrelease", k->release,
						 sizeof(k->release));
		if (k->release_err)
			k->release[0] = '\0';
		/* The planner of auto needs the topology and the IRQs' affinities. */
		if (topology) {
			probe_cpu(&t->fs, &t->facts.cpu);
			probe_irq_affinity(&t->fs, &t->facts.irq);
		} else {
			probe_cpu_sets(&t->fs, &t->facts.cpu);
		}
	}
	/* The UTS namespace's name, as gethostname() gives it; the root's under --root. */
	if (!e && rootfs_read_str(&t->fs, "/proc/sys/kernel/hostname", t->hostname,
				  sizeof(t->hostname)))
		t->hostname[0] = '\0';
	e = e ?: resolve(t, rt, err, errlen);
	if (e == -ENOMEM)
		snprintf(err, errlen, "%s", strerror(ENOMEM));
	return e;
}

int target_open(struct target *t, const char *root, const struct rt_request *rt,
		unsigned int want, char *err, size_t errlen)
{
	int e = target_root(t, root, err, errlen);

	if (e)
		return e;
	e = target_read(t, rt, want, err, errlen);
	if (e)
		target_close(t);
	return e;
}

void target_close(struct target *t)
{
	facts_free(&t->facts);
	rtcpus_free(&t->rt);
	rtr_cpuset_free(&t->housekeeping);
	rootfs_close(&t->fs);
}

int target_need_online(const struct target *t, char *err, size_t errlen)
{
	int e = t->facts.cpu.online_err;

	if (e)
		snprintf(err, errlen, "cannot read the online CPUs: %s", strerror(-e));
	return e;
}

int target_check_online(const struct target *t, const char *opt, const struct rtr_cpuset *set,
			char *err, size_t errlen)
{
	for (int cpu = -1; (cpu = rtr_cpuset_next(set, cpu)) >= 0;) {
		if (!rtr_cpuset_test(&t->facts.cpu.online, cpu)) {
			snprintf(err, errlen, "%s: CPU %d is not online (online: %s)", opt, cpu,
				 t->online_list);
			return -EINVAL;
		}
	}
	return 0;
}

int target_host_info(const struct target *t, struct host_info *out)
{
	const struct kernel_facts *k = &t->facts.kernel;
	int err = report_set_host(&out->kernel, k->release_err ? "" : k->release);

	err = err ?: report_set_host(&out->cpus_online, t->online_list);
	err = err ?: report_set_host(&out->rt_cpus, t->rt_list);
	return err ?: report_set_host(&out->root, t->fs.path);
}

int target_host_live(struct host_info *out)
{
	struct target *t = malloc(sizeof(*t));
	char err[256];
	int e;

	if (!t)
		return -ENOMEM;
	e = target_open(t, "/", NULL, TARGET_HOST, err, sizeof(err));
	if (e) {
		free(t);
		return e == -ENOMEM ? e : report_set_host(&out->root, "/");
	}
	/* What could not be read stays empty; only memory failures stop. */
	e = target_host_info(t, out);
	target_close(t);
	free(t);
	return e;
}
