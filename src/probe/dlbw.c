// SPDX-License-Identifier: MIT
/* The SCHED_DEADLINE bandwidth in use; see dlbw.h. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "probe/dlbw.h"
#include "schedattr.h"	/* lib/: the kernel's struct sched_attr */
#include "util/parse.h"

/* The debug file: in debugfs since 5.13, in /proc before. */
static const char *const debug_paths[] = { "/sys/kernel/debug/sched/debug", "/proc/sched_debug" };

uint64_t dlbw_ratio(uint64_t period_ns, uint64_t runtime_ns)
{
	if (period_ns == 0)
		return 0;
	/* runtime < 2^44 ns (about 4.9 hours): runtime << 20 cannot overflow. */
	if (runtime_ns >= (1ULL << 44))
		return UINT64_MAX / 2;
	return (runtime_ns << 20) / period_ns;
}

int dlbw_getattr(int tid, int *policy, uint64_t *flags, uint64_t *runtime_ns,
		 uint64_t *deadline_ns, uint64_t *period_ns)
{
	struct rtr__sched_attr a;

	memset(&a, 0, sizeof(a));
	if (rtr__sched_getattr(tid, &a) != 0)
		return -errno;
	*policy = (int)a.sched_policy;
	*flags = a.sched_flags;
	*runtime_ns = a.sched_runtime;
	*deadline_ns = a.sched_deadline;
	*period_ns = a.sched_period;
	return 0;
}

/* "  .KEY   : VALUE": Return: true with *@v when @line is that key's line. */
static bool key_value(const char *line, size_t len, const char *key, int64_t *v, bool *bad)
{
	size_t klen = strlen(key);
	char num[32];
	const char *p = line, *end = line + len;

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p >= end || *p != '.' || (size_t)(end - p) <= klen || memcmp(p + 1, key, klen) != 0)
		return false;
	p += 1 + klen;
	if (*p != ' ' && *p != ':' && *p != '\t')
		return false;	/* a longer key with this one as prefix */
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p >= end || *p != ':')
		return false;
	p++;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if ((size_t)(end - p) == 0 || (size_t)(end - p) >= sizeof(num)) {
		*bad = true;
		return true;
	}
	memcpy(num, p, (size_t)(end - p));
	num[end - p] = '\0';
	if (parse_int64(num, INT64_MIN, INT64_MAX, v))
		*bad = true;
	return true;
}

int dlbw_parse_sched_debug(const char *text, struct dlbw_cpu **out, size_t *n)
{
	struct dlbw_cpu *cpus = NULL, *cur = NULL;
	size_t cap = 0, count = 0;
	bool have_bw = false, have_total = false, bad = false;

	*out = NULL;
	*n = 0;
	for (const char *line = text; *line;) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		int64_t v;

		if (len > 6 && strncmp(line, "dl_rq[", 6) == 0) {
			char num[16];
			const char *close = memchr(line, ']', len);
			int64_t cpu;

			if (cur && (!have_bw || !have_total))
				bad = true;
			if (!close || (size_t)(close - line - 6) >= sizeof(num) || close == line + 6)
				bad = true;
			if (bad)
				break;
			memcpy(num, line + 6, (size_t)(close - line - 6));
			num[close - line - 6] = '\0';
			if (parse_int64(num, 0, RTR_CPUSET_MAX_CPUS - 1, &cpu)) {
				bad = true;
				break;
			}
			if (count == cap) {
				size_t ncap = cap ? cap * 2 : 16;
				struct dlbw_cpu *p;

				if (ncap > RTR_CPUSET_MAX_CPUS) {
					bad = true;
					break;
				}
				p = realloc(cpus, ncap * sizeof(*p));
				if (!p) {
					free(cpus);
					return -ENOMEM;
				}
				cpus = p;
				cap = ncap;
			}
			cur = &cpus[count++];
			cur->cpu = (int)cpu;
			cur->bw = cur->total_bw = 0;
			have_bw = have_total = false;
		} else if (cur && len > 0 && line[0] != ' ' && line[0] != '\t') {
			/* The next section: this CPU's dl_rq is over. */
			if (!have_bw || !have_total)
				bad = true;
			if (bad)
				break;
			cur = NULL;
		} else if (cur && key_value(line, len, "dl_bw->bw", &v, &bad)) {
			cur->bw = v;
			have_bw = true;
		} else if (cur && key_value(line, len, "dl_bw->total_bw", &v, &bad)) {
			cur->total_bw = v;
			have_total = true;
		}
		if (bad)
			break;
		if (!nl)
			break;
		line = nl + 1;
	}
	if (!bad && cur && (!have_bw || !have_total))
		bad = true;
	if (bad || count == 0) {
		free(cpus);
		return bad ? -EINVAL : -ENOENT;
	}
	*out = cpus;
	*n = count;
	return 0;
}

static void probe_debug(const struct rootfs *fs, struct dlbw_facts *f)
{
	char *buf = malloc(DLBW_DEBUG_CAP);

	f->debug_err = -ENOMEM;
	if (!buf)
		return;
	for (size_t i = 0; i < sizeof(debug_paths) / sizeof(debug_paths[0]); i++) {
		bool privately = false;
		int err;

		snprintf(f->debug_path, sizeof(f->debug_path), "%s", debug_paths[i]);
		if (i == 0)
			err = rootfs_read_debugfs(fs, debug_paths[i], buf, DLBW_DEBUG_CAP, &privately);
		else
			err = rootfs_read_str(fs, debug_paths[i], buf, DLBW_DEBUG_CAP);
		if (err) {
			/* Keep the first path's error unless the second file exists. */
			if (i == 0 || err != -ENOENT)
				f->debug_err = err;
			continue;
		}
		f->debug_err = dlbw_parse_sched_debug(buf, &f->cpus, &f->n_cpus);
		break;
	}
	if (f->debug_err)
		snprintf(f->debug_path, sizeof(f->debug_path), "%s", debug_paths[0]);
	free(buf);
}

static int add_task(struct dlbw_facts *f, int pid, int tid, const char *comm, uint64_t rt,
		    uint64_t dl, uint64_t per)
{
	if (!f->tasks) {
		f->tasks = calloc(DLBW_TASKS_MAX, sizeof(*f->tasks));
		if (!f->tasks)
			return -ENOMEM;
	}
	f->tasks_bw += dlbw_ratio(per, rt);
	if (f->n_tasks < DLBW_TASKS_MAX) {
		struct dlbw_task *d = &f->tasks[f->n_tasks];

		d->pid = pid;
		d->tid = tid;
		snprintf(d->comm, sizeof(d->comm), "%s", comm);
		d->runtime_ns = rt;
		d->deadline_ns = dl;
		d->period_ns = per;
	}
	f->n_tasks++;
	return 0;
}

static void probe_tasks_bw(const struct tasks_facts *t, struct dlbw_facts *f)
{
	for (size_t i = 0; i < t->n; i++) {
		const struct task_info *x = &t->tasks[i];
		uint64_t rt, dl, per, flags;
		int policy;

		if (x->policy != 6)
			continue;
		if (dlbw_getattr(x->tid, &policy, &flags, &rt, &dl, &per) || policy != 6) {
			f->unread++;	/* gone, or no longer DEADLINE */
			continue;
		}
		/* schedutil's threads: not in the kernel's admission sums (nor recorded). */
		if (flags & DLBW_FLAG_SUGOV) {
			f->sugov++;
			continue;
		}
		f->tasks_err = add_task(f, x->pid, x->tid, x->comm, rt, dl, per ? per : dl);
		if (f->tasks_err)
			return;
	}
}

int dlbw_parse_snapshot(const char *text, struct dlbw_facts *f)
{
	size_t lines = 0;

	for (const char *line = text; *line && lines++ < 1000000;) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		char buf[160];
		long long pid, tid;
		unsigned long long rt, dl, per;
		int used = 0, err;

		if (len && line[0] != '#') {
			if (len >= sizeof(buf))
				return -EINVAL;
			memcpy(buf, line, len);
			buf[len] = '\0';
			if (sscanf(buf, "%lld %lld %llu %llu %llu%n", &pid, &tid, &rt, &dl, &per,
				   &used) != 5 || buf[used] != '\0' || pid <= 0 || tid <= 0 ||
			    pid > INT32_MAX || tid > INT32_MAX || per == 0)
				return -EINVAL;
			err = add_task(f, (int)pid, (int)tid, "", rt, dl, per);
			if (err)
				return err;
		}
		if (!nl)
			break;
		line = nl + 1;
	}
	return 0;
}

void dlbw_drop_sugov(struct dlbw_facts *f, const struct tasks_facts *t)
{
	size_t kept = 0, n = f->n_tasks < DLBW_TASKS_MAX ? f->n_tasks : DLBW_TASKS_MAX;

	for (size_t i = 0; i < n; i++) {
		const struct dlbw_task *x = &f->tasks[i];
		bool sugov = false;

		for (size_t j = 0; j < t->n && !sugov; j++)
			sugov = t->tasks[j].tid == x->tid && dlbw_task_is_sugov(&t->tasks[j]);
		if (sugov) {
			f->tasks_bw -= dlbw_ratio(x->period_ns, x->runtime_ns);
			f->sugov++;
			continue;
		}
		f->tasks[kept++] = *x;
	}
	f->n_tasks -= n - kept;
}

/* Keep the tasks' parameters in a snapshot being recorded. */
static void record_tasks(const struct rootfs *fs, const struct dlbw_facts *f)
{
	char *text;
	size_t cap, len = 0;

	if (!fs->rec || !fs->rec->on_file || f->n_tasks > DLBW_TASKS_MAX)
		return;
	cap = 128 + f->n_tasks * 96;
	text = malloc(cap);
	if (!text)
		return;
	len += (size_t)snprintf(text, cap, "# rtready snapshot: sched_getattr(2) of each DEADLINE "
				"thread: pid tid runtime_ns deadline_ns period_ns\n");
	for (size_t i = 0; i < f->n_tasks && len < cap; i++) {
		const struct dlbw_task *t = &f->tasks[i];

		len += (size_t)snprintf(text + len, cap - len, "%d %d %llu %llu %llu\n", t->pid,
					t->tid, (unsigned long long)t->runtime_ns,
					(unsigned long long)t->deadline_ns,
					(unsigned long long)t->period_ns);
	}
	if (len < cap)
		fs->rec->on_file(fs->rec->ctx, DLBW_SNAPSHOT_FILE, text, len);
	free(text);
}

void probe_dlbw(const struct rootfs *fs, const struct tasks_facts *tasks, struct dlbw_facts *out)
{
	memset(out, 0, sizeof(*out));
	probe_debug(fs, out);
	if (!fs->host) {
		char *text = NULL;
		size_t len;

		out->tasks_err = rootfs_read(fs, DLBW_SNAPSHOT_FILE, 1u << 20, &text, &len);
		if (out->tasks_err == -ENOENT)
			out->tasks_err = -ENOTSUP;	/* not a snapshot of ours: nobody asked */
		if (!out->tasks_err)
			out->tasks_err = dlbw_parse_snapshot(text, out);
		if (!out->tasks_err && !tasks->err)
			dlbw_drop_sugov(out, tasks);
		free(text);
	} else if (tasks->err) {
		out->tasks_err = tasks->err;
	} else {
		probe_tasks_bw(tasks, out);
		if (!out->tasks_err)
			record_tasks(fs, out);
	}
}

void probe_dlbw_free(struct dlbw_facts *f)
{
	free(f->cpus);
	free(f->tasks);
	memset(f, 0, sizeof(*f));
}

/* The fair server's default reservation: 50 ms every second, per CPU. */
#define FAIR_DEFAULT_BW (DLBW_UNIT / 20)

/*
 * What the fair servers take of the admission limit. They came with 6.12,
 * whose dl_bw->total_bw leaves them out (Debian's 6.12 RT kernel, in the
 * kernel matrix); 6.18 admits as if each took its 5% (two DEADLINE tasks of
 * 92% each are refused on 2 CPUs, of 88% admitted). Counted after 6.12.
 */
static uint64_t fair_bw(const struct sched_facts *s, const struct kernel_facts *k,
			const struct rtr_cpuset *cpus, bool *assumed)
{
	struct rtr_cpuset both = RTR_CPUSET_INIT;
	size_t n;

	*assumed = false;
	if (k->major < 6 || (k->major == 6 && k->minor <= 12))
		return 0;
	if (s->fair_server_err || s->fair_period_ns <= 0) {
		*assumed = true;
		return FAIR_DEFAULT_BW * rtr_cpuset_count(cpus);
	}
	if (rtr_cpuset_copy(&both, &s->fair_reserving))
		return 0;
	rtr_cpuset_and(&both, cpus);
	n = rtr_cpuset_count(&both);
	rtr_cpuset_free(&both);
	return dlbw_ratio((uint64_t)s->fair_period_ns, (uint64_t)s->fair_runtime_max_ns) * n;
}

/*
 * The kernel's limit for a root domain: the per-CPU bandwidth @bw times
 * the CPUs, or on asymmetric CPUs cap_scale(bw, capacity) = bw * (sum of
 * cpu_capacity) >> SCHED_CAPACITY_SHIFT (kernel/sched/deadline.c).
 */
static uint64_t domain_limit(uint64_t bw, size_t n, uint64_t capacity)
{
	if (capacity)
		return bw * capacity / CPU_CAPACITY_SCALE;
	return bw * n;
}

int dlbw_usage(const struct dlbw_facts *d, const struct sched_facts *s,
	       const struct kernel_facts *k, const struct tasks_facts *t,
	       const struct cpu_facts *c, const struct rtr_cpuset *cpus, struct dlbw_usage *u)
{
	size_t n = rtr_cpuset_count(cpus);

	memset(u, 0, sizeof(*u));
	u->debug_cpu = -1;
	if (cpu_capacity_sum(c, cpus, &u->capacity))
		u->capacity = 0;
	u->limit = domain_limit(dlbw_ratio((uint64_t)s->rt_period_us, (uint64_t)s->rt_runtime_us),
				n, u->capacity);
	for (size_t i = 0; !d->debug_err && i < d->n_cpus; i++) {
		if (!rtr_cpuset_test(cpus, d->cpus[i].cpu))
			continue;
		u->used = (uint64_t)(d->cpus[i].total_bw > 0 ? d->cpus[i].total_bw : 0);
		if (d->cpus[i].bw >= 0)
			u->limit = domain_limit((uint64_t)d->cpus[i].bw, n, u->capacity);
		u->from_debug = true;
		u->debug_cpu = d->cpus[i].cpu;
		break;
	}
	if (!d->tasks_err) {
		for (size_t i = 0; i < d->n_tasks && i < DLBW_TASKS_MAX; i++) {
			const struct dlbw_task *x = &d->tasks[i];
			const struct task_info *ti = NULL;

			for (size_t j = 0; j < t->n && !ti; j++)
				if (t->tasks[j].tid == x->tid)
					ti = &t->tasks[j];
			/* A DEADLINE task's affinity spans its root domain. */
			if (ti && !ti->allowed_err && !rtr_cpuset_intersects(&ti->allowed, cpus))
				continue;
			u->tasks += dlbw_ratio(x->period_ns, x->runtime_ns);
			u->n_tasks++;
		}
		u->fair = fair_bw(s, k, cpus, &u->fair_assumed);
		u->have_tasks = true;
		if (!u->from_debug) {
			u->used = u->tasks + u->fair;
			u->ns_only = tasks_pidns_only(t);
		}
	}
	return u->from_debug || u->have_tasks ? 0 : -ENODATA;
}

/* Append a domain named @name of the CPUs @cpus (empty: none added). Return: 0, -ENOMEM. */
static int add_domain(struct dlbw_domains *out, const char *name, const struct rtr_cpuset *cpus)
{
	struct dlbw_domain *d;

	if (rtr_cpuset_is_empty(cpus))
		return 0;
	d = realloc(out->d, (out->n + 1) * sizeof(*d));
	if (!d)
		return -ENOMEM;
	out->d = d;
	d = &out->d[out->n];
	snprintf(d->name, sizeof(d->name), "%s", name);
	d->cpus = (struct rtr_cpuset)RTR_CPUSET_INIT;
	if (rtr_cpuset_copy(&d->cpus, cpus))
		return -ENOMEM;
	out->n++;
	return 0;
}

/* A valid partition of @p whose CPUs are known, or NULL (noting why in @out). */
static const struct partition_group *usable_group(const struct partition_facts *p, size_t i,
						  struct dlbw_domains *out)
{
	const struct partition_group *g = &p->groups[i];

	if (p->hier != PARTITION_HIER_V2 || !g->valid)
		return NULL;	/* an invalid partition is a member again */
	out->partitions = true;
	if (rtr_cpuset_is_empty(&g->cpus)) {
		snprintf(out->unmapped, sizeof(out->unmapped), "the CPUs of the cpuset partition "
			 "%.200s (its cpuset.cpus.effective) could not be read", g->path);
		return NULL;
	}
	return g;
}

int dlbw_domains(const struct cpu_facts *c, const struct partition_facts *p,
		 struct dlbw_domains *out)
{
	struct rtr_cpuset main_cpus = RTR_CPUSET_INIT, def = RTR_CPUSET_INIT;
	bool isolcpus, iso_parts = false;
	char name[300];
	int err;

	memset(out, 0, sizeof(*out));
	err = rtr_cpuset_copy(&main_cpus, c->online_err ? &c->present : &c->online);
	if (!err && !c->isolated_err)
		err = rtr_cpuset_copy(&def, &c->isolated);
	if (err)
		goto out;
	rtr_cpuset_and(&def, &main_cpus);
	rtr_cpuset_andnot(&main_cpus, &def);
	isolcpus = !rtr_cpuset_is_empty(&def);
	if (p->hier == PARTITION_HIER_V1 && p->v1_balance == 0)
		snprintf(out->unmapped, sizeof(out->unmapped), "the cpuset v1 root (%.100s) has "
			 "sched_load_balance 0, so the root domains are those of its load-balanced "
			 "cpu_exclusive groups, which rtready does not map", p->v1_cpuset);
	else if (p->hier == PARTITION_HIER_V2 && p->truncated)
		snprintf(out->unmapped, sizeof(out->unmapped), "the cgroup tree under %.100s was "
			 "too large to look through for cpuset partitions", p->mount);
	/* Partitions leave the main domain; isolated ones join the default domain. */
	for (size_t i = 0; i < p->n_groups && !err; i++) {
		const struct partition_group *g = usable_group(p, i, out);

		if (!g)
			continue;
		rtr_cpuset_andnot(&main_cpus, &g->cpus);
		if (strcmp(g->type, "isolated") == 0) {
			iso_parts = true;
			err = rtr_cpuset_or(&def, &g->cpus);
		}
	}
	err = err ?: add_domain(out, "main", &main_cpus);
	err = err ?: add_domain(out, isolcpus && iso_parts ? "default (isolcpus and isolated "
				"partitions)" : iso_parts ? "default (isolated partitions)" :
				"isolcpus", &def);
	for (size_t i = 0; i < p->n_groups && !err; i++) {
		const struct partition_group *g = usable_group(p, i, out);

		if (!g || strcmp(g->type, "root") != 0)
			continue;
		snprintf(name, sizeof(name), "cpuset partition %.256s", g->path);
		err = add_domain(out, name, &g->cpus);
	}
out:
	rtr_cpuset_free(&main_cpus);
	rtr_cpuset_free(&def);
	return err;
}

void dlbw_domains_free(struct dlbw_domains *out)
{
	for (size_t i = 0; i < out->n; i++)
		rtr_cpuset_free(&out->d[i].cpus);
	free(out->d);
	memset(out, 0, sizeof(*out));
}

int dlbw_parse_proc_sched(const char *text, struct dlbw_sched_fields *out)
{
	size_t lines = 0;

	memset(out, 0, sizeof(*out));
	for (const char *line = text; *line && lines++ < 100000;) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);

		/* "dl.runtime                                   :               175624" */
		if (len > 3 && strncmp(line, "dl.", 3) == 0) {
			const char *colon = memchr(line, ':', len);
			size_t klen = colon ? (size_t)(colon - line) : 0;
			char num[32];
			size_t vlen;
			const char *v;

			while (klen && (line[klen - 1] == ' ' || line[klen - 1] == '\t'))
				klen--;
			if (!colon || klen == 0 || klen >= sizeof(out->key[0]))
				return -EINVAL;
			v = colon + 1;
			while (v < line + len && (*v == ' ' || *v == '\t'))
				v++;
			vlen = (size_t)(line + len - v);
			if (vlen == 0 || vlen >= sizeof(num))
				return -EINVAL;
			memcpy(num, v, vlen);
			num[vlen] = '\0';
			if (out->n < DLBW_SCHED_FIELDS) {
				if (parse_int64(num, INT64_MIN, INT64_MAX, &out->value[out->n]))
					return -EINVAL;
				memcpy(out->key[out->n], line, klen);
				out->key[out->n][klen] = '\0';
				out->n++;
			}
		}
		if (!nl)
			break;
		line = nl + 1;
	}
	return 0;
}

void probe_dlbw_thread(const struct rootfs *fs, int pid, int tid, struct dlbw_thread *out)
{
	char path[96], *text = NULL;
	size_t len;
	int policy;

	memset(out, 0, sizeof(*out));
	out->attr_err = -ENOTSUP;
	if (fs->host) {
		uint64_t flags;

		out->attr_err = dlbw_getattr(tid, &policy, &flags, &out->runtime_ns,
					     &out->deadline_ns, &out->period_ns);
		if (!out->attr_err && policy != 6)
			out->attr_err = -ESRCH;	/* no longer DEADLINE */
	}
	snprintf(path, sizeof(path), "/proc/%d/task/%d/sched", pid, tid);
	out->sched_err = rootfs_read(fs, path, 64u << 10, &text, &len);
	if (!out->sched_err)
		out->sched_err = dlbw_parse_proc_sched(text, &out->sched);
	free(text);
}
