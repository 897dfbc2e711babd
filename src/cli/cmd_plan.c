// SPDX-License-Identifier: MIT
/*
 * rtready plan: gather the facts under a root, plan the RT CPUs from the
 * topology (src/cpuplan), write the boot line and the tune commands, and run
 * the checklist on the machine as the boot line would leave it, to say what
 * check will still report. Options go into struct plan_opts by a parser
 * that never exits.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "checks/check.h"
#include "checks/run.h"
#include "cli/cli.h"
#include "cli/cmd_plan.h"
#include "probe/cpuload.h"
#include "probe/partition.h"
#include "render/json.h"
#include "render/plan.h"
#include "tune/boot.h"
#include "util/parse.h"
#include "util/strbuf.h"

static const char usage_text[] =
	"Usage: rtready plan [OPTIONS]\n"
	"\n"
	"Choose the CPUs to set apart for realtime work from the machine's topology (SMT\n"
	"siblings, L2 clusters, NUMA nodes, core speeds, the boot CPU, managed IRQs), and\n"
	"write the kernel command line and the rtready tune commands that set them up.\n"
	"Every choice comes with its reason.\n"
	"\n"
	"  -n, --rt N           plan N RT CPUs (default: as many as can be spared while\n"
	"                       the boot CPU's core and a core per NUMA node stay\n"
	"                       housekeeping; on mixed-speed machines the fast cores)\n"
	"      --node N         take the RT CPUs from NUMA node N\n"
	"      --near IFACE|IRQ take them from the node of a network interface (eth0) or\n"
	"                       of an IRQ number, where its device is\n"
	"      --window DURATION  on the live system, measure the load housekeeping\n"
	"                       carries over this time and keep enough housekeeping CPUs\n"
	"                       to stay under half busy (default 500ms; 0: do not)\n"
	"  -r, --root DIR       plan for a snapshot under DIR instead of the live system\n"
	"  -f, --format FMT     text (default) or json\n"
	"  -o, --output FILE    write the plan to FILE instead of standard output\n"
	"  -h, --help           show this help\n"
	"  -V, --version        show the version\n"
	"\n"
	"Exit status: 0 a plan was made, 2 usage error, or no plan keeps the rules (the\n"
	"message names the rule).\n";

int plan_opts_parse(int argc, char **argv, struct plan_opts *o, char *err, size_t errlen)
{
	enum { OPT_NODE = 256, OPT_NEAR, OPT_WINDOW };
	static const struct option longopts[] = {
		{ "rt", required_argument, NULL, 'n' },
		{ "node", required_argument, NULL, OPT_NODE },
		{ "near", required_argument, NULL, OPT_NEAR },
		{ "window", required_argument, NULL, OPT_WINDOW },
		{ "root", required_argument, NULL, 'r' },
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int64_t v;
	int c, rc = 0;

	memset(o, 0, sizeof(*o));
	o->root = "/";
	o->node = -1;
	o->window_ns = PLAN_WINDOW_DEFAULT_NS;
	optind = 0;
	opterr = 0;
	while (rc == 0 && (c = getopt_long(argc, argv, ":n:r:f:o:hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'n':
			rc = parse_int64(optarg, 1, RTR_CPUSET_MAX_CPUS, &v);
			if (rc)
				snprintf(err, errlen, "--rt: '%s' is not a CPU count (1 or more)",
					 optarg);
			else
				o->rt_count = (size_t)v;
			break;
		case OPT_NODE:
			rc = parse_int64(optarg, 0, CPU_MAX_NODES - 1, &v);
			if (rc)
				snprintf(err, errlen, "--node: '%s' is not a NUMA node number",
					 optarg);
			else
				o->node = (int)v;
			break;
		case OPT_NEAR:
			if (!*optarg) {
				snprintf(err, errlen, "--near: empty name");
				rc = -EINVAL;
			}
			o->near = optarg;
			break;
		case OPT_WINDOW:
			rc = parse_duration_ns(optarg, 1000000000, &o->window_ns);
			if (rc || o->window_ns < 0 || o->window_ns > 60LL * 1000000000) {
				snprintf(err, errlen, "--window: '%s' is not a duration from 0 to "
					 "60s (500ms, 2s; 0: do not measure)", optarg);
				rc = -EINVAL;
			}
			break;
		case 'r':
			rc = cli_parse_root(optarg, &o->root, err, errlen);
			break;
		case 'f':
			rc = cli_parse_format(optarg, &o->format, err, errlen);
			break;
		case 'o':
			o->output = optarg;
			break;
		case 'h':
			o->help = true;
			break;
		case 'V':
			o->version = true;
			break;
		case ':':
			snprintf(err, errlen, "option '%s' needs a value", argv[optind - 1]);
			rc = -EINVAL;
			break;
		default:
			snprintf(err, errlen, "unknown option '%s'", argv[optind - 1]);
			rc = -EINVAL;
			break;
		}
	}
	if (rc == 0 && optind < argc) {
		snprintf(err, errlen, "unexpected argument '%s'", argv[optind]);
		rc = -EINVAL;
	}
	if (rc == 0 && o->near && o->node >= 0) {
		snprintf(err, errlen, "--node and --near both name the node: give one");
		rc = -EINVAL;
	}
	return rc ? -EINVAL : 0;
}

/* The node of --near: an IRQ number, or a network interface. */
static int near_node(const struct rootfs *fs, const char *near, int *node, char *why,
		     size_t whylen, char *err, size_t errlen)
{
	int64_t irq;
	int e;

	if (parse_int64(near, 0, INT32_MAX, &irq) == 0) {
		e = probe_irq_node(fs, (int)irq, node);
		if (e == -EBADMSG) {
			snprintf(err, errlen, "--near %s: /proc/irq/%s/node is not a NUMA node "
				 "number (use --node)", near, near);
			return -EINVAL;
		}
		if (e) {
			snprintf(err, errlen, "--near %s: cannot read /proc/irq/%s/node: %s", near,
				 near, strerror(-e));
			return -EINVAL;
		}
		snprintf(why, whylen, "IRQ %s is on node %d (/proc/irq/%s/node)", near, *node,
			 near);
		return 0;
	}
	e = probe_net_node(fs, near, node);
	if (e == -EINVAL) {
		snprintf(err, errlen, "--near: '%s' is neither an IRQ number nor an interface name",
			 near);
		return -EINVAL;
	}
	if (e == -EBADMSG) {
		snprintf(err, errlen, "--near %s: /sys/class/net/%s/device/numa_node is not a "
			 "NUMA node number (use --node)", near, near);
		return -EINVAL;
	}
	if (e == -ENOENT) {
		snprintf(err, errlen,
			 "--near %s: cannot read /sys/class/net/%s/device/numa_node: %s (a virtual "
			 "interface has no device; use --node)", near, near, strerror(-e));
		return -EINVAL;
	}
	if (e) {
		snprintf(err, errlen, "--near %s: cannot read /sys/class/net/%s/device/numa_node: "
			 "%s (use --node)", near, near, strerror(-e));
		return -EINVAL;
	}
	snprintf(why, whylen, "%s is on node %d (its device's numa_node)", near, *node);
	return 0;
}

/* Why the online CPUs are unknown, as check says it of the file. */
static void online_unknown(const struct cpu_facts *cpu, char *err, size_t errlen)
{
	struct strbuf sb = STRBUF_INIT;

	check_put_read_err(&sb, "/sys/devices/system/cpu/online",
			   cpu->online_err ? cpu->online_err : -ENODATA);
	snprintf(err, errlen, "%s; the online CPUs are unknown, so no plan is made",
		 sb.err ? "cannot read /sys/devices/system/cpu/online" : strbuf_str(&sb));
	strbuf_free(&sb);
}

/*
 * The load housekeeping carries now: the busy time of the CPUs that are not
 * isolated (isolated ones run RT work) and the device interrupts, over
 * @window_ns. Fills @in's min_housekeeping and housekeeping_why (in @why).
 * A load that cannot be read leaves the plan structural, with a warning.
 */
static int measure_load(const struct rootfs *fs, const struct cpu_facts *cpu, int64_t window_ns,
			struct cpuplan_input *in, char *why, size_t whylen)
{
	const struct rtr_cpuset *rt = !cpu->isolated_err && !rtr_cpuset_is_empty(&cpu->isolated) ?
					      &cpu->isolated : NULL;
	struct timespec ts = { window_ns / 1000000000, window_ns % 1000000000 }, t0, t1;
	struct cpuload_sample a, b;
	struct cpuload l;
	char irqs[64] = "";
	int e = cpuload_sample(fs, rt, &a);

	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (!e && nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
	e = e ?: cpuload_sample(fs, rt, &b);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	/* The rate over the time that passed between the samples, not the one asked for. */
	e = e ?: cpuload_between(&a, &b, (t1.tv_sec - t0.tv_sec) * 1000000000LL +
						 (t1.tv_nsec - t0.tv_nsec), &l);
	if (e == -ENOMEM)
		return e;
	if (e) {
		cli_warn("plan", "the load was not measured (/proc/stat: %s): housekeeping is "
			 "sized by the topology alone", strerror(-e));
		return 0;
	}
	if (l.irq_per_s >= 0)
		snprintf(irqs, sizeof(irqs), " and %.0f device interrupts/s", l.irq_per_s);
	snprintf(why, whylen, "%.2f CPUs busy%s%s over %lld ms (/proc/stat, /proc/interrupts)",
		 l.busy_cpus, rt ? " outside the isolated CPUs" : "", irqs,
		 (long long)(window_ns / 1000000));
	in->min_housekeeping = l.housekeeping;
	in->housekeeping_why = why;
	return 0;
}

int plan_run(const struct rootfs *fs, const struct cpu_facts *cpu, const struct irq_facts *irq,
	     size_t rt_count, int node, const char *near, int64_t window_ns,
	     struct managed_irqs *managed, struct cpuplan *plan, char *err, size_t errlen)
{
	char why[160] = "", load_why[192] = "";
	struct cpuplan_input in = { cpu, managed, rt_count, node, NULL, 0, NULL };
	int e;

	if (node >= 0) {
		snprintf(why, sizeof(why), "--node %d", node);
		in.node_why = why;
	}
	if (near) {
		e = near_node(fs, near, &in.node, why, sizeof(why), err, errlen);
		if (e)
			return e;
		in.node_why = why;
		if (in.node < 0) {
			cli_warn("plan", "--near %s: its device is on no NUMA node; the planner "
				 "chooses", near);
			in.node_why = NULL;
		}
	}
	e = probe_managed_irqs(irq, managed);
	if (e)
		return e;
	if (fs->host && window_ns > 0) {
		e = measure_load(fs, cpu, window_ns, &in, load_why, sizeof(load_why));
		if (e)
			return e;
	}
	e = cpuplan_make(&in, plan);
	if (e == -EDOM)
		snprintf(err, errlen, "no plan: %s (rule %s)", plan->refusal,
			 cpuplan_rule_name(plan->refused_rule));
	else if (e == -ENODATA)
		online_unknown(cpu, err, errlen);
	else if (e)
		snprintf(err, errlen, "%s", strerror(-e));
	return e;
}

int plan_auto_rt_cpus(const char *root, size_t n, struct rtr_cpuset *out, char *err,
		      size_t errlen)
{
	/* On the heap: the root's path and the facts are KiBs (small stacks, see plan_state). */
	struct auto_state {
		struct managed_irqs m;
		struct cpuplan plan;
		struct cpu_facts cpu;
		struct irq_facts irq;
		struct rootfs fs;
	} *st = calloc(1, sizeof(*st));
	int e;

	if (!st) {
		snprintf(err, errlen, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	e = rootfs_open(&st->fs, root);
	if (e) {
		snprintf(err, errlen, "cannot open root directory %s: %s", root, strerror(-e));
		free(st);
		return e;
	}
	st->plan = (struct cpuplan)CPUPLAN_INIT;
	probe_cpu(&st->fs, &st->cpu);
	probe_irq_affinity(&st->fs, &st->irq);
	e = plan_run(&st->fs, &st->cpu, &st->irq, n, -1, NULL, PLAN_WINDOW_DEFAULT_NS, &st->m,
		     &st->plan, err, errlen);
	e = e ?: rtr_cpuset_copy(out, &st->plan.rt);
	cpuplan_free(&st->plan);
	managed_irqs_free(&st->m);
	probe_irq_free(&st->irq);
	probe_cpu_free(&st->cpu);
	rootfs_close(&st->fs);
	free(st);
	return e;
}

/* The checklist on the machine as the boot line leaves it. */
static int checks_after(struct facts *f, const struct cpuplan *p, struct report *r)
{
	struct check_filter flt = { 0 };
	struct check_ctx ctx = { f, &p->rt, "planned" };
	int err = cpuplan_simulate_boot(p, &f->cpu);

	err = err ?: checks_run(&ctx, &flt, r);
	if (!err)
		report_sort(r);
	return err;
}

/*
 * The files plan read outside /proc and /sys (a config under /boot, the
 * irqbalance file under /etc, ...), as on the target: an output must not
 * be one of them. /proc and /sys are refused whole (output_guard()).
 */
struct read_log {
	char **paths;
	size_t n;
	int err;
};

static void log_file(void *ctx, const char *path, const char *data, size_t len)
{
	struct read_log *l = ctx;
	char **p;

	(void)data;
	(void)len;
	if (l->err || strncmp(path, "/proc/", 6) == 0 || strncmp(path, "/sys/", 5) == 0)
		return;
	p = realloc(l->paths, (l->n + 1) * sizeof(*p));
	if (!p || !(p[l->n] = strdup(path))) {
		if (p)
			l->paths = p;
		l->err = -ENOMEM;
		return;
	}
	l->paths = p;
	l->n++;
}

static void read_log_free(struct read_log *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->paths[i]);
	free(l->paths);
}

static bool same_inode(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* A new file's @path with its directory resolved; NULL when it cannot be. */
static char *resolve_output(const char *path)
{
	char *d = strdup(path), *b = strdup(path), *dir = NULL, *out = NULL;

	if (d && b && (dir = realpath(dirname(d), NULL)) &&
	    asprintf(&out, "%s/%s", strcmp(dir, "/") ? dir : "", basename(b)) < 0)
		out = NULL;
	free(dir);
	free(d);
	free(b);
	return out;
}

/*
 * Refuse an output that would overwrite what plan reads: anything under the
 * root's /proc and /sys (and, in a snapshot, its /etc, /boot, /lib and /dev,
 * which are the snapshot itself), and any file plan read. Compared by device
 * and inode, so links and bind mounts do not hide a match. Standard output
 * named as a file (/dev/stdout) is always allowed. Return: 0, or -EINVAL
 * after printing why.
 */
static int output_guard(const struct plan_opts *o, const struct rootfs *fs,
			const struct read_log *log)
{
	static const char *const whole[] = { "proc", "sys", "etc", "boot", "lib", "dev" };
	size_t n_whole = fs->host ? 2 : sizeof(whole) / sizeof(whole[0]);
	struct stat so, st, top[sizeof(whole) / sizeof(whole[0])];
	bool have[sizeof(whole) / sizeof(whole[0])] = { false };
	bool exists;
	char *real, *cut;
	int err = 0;

	if (!o->output || strcmp(o->output, "-") == 0)
		return 0;
	exists = stat(o->output, &so) == 0;
	if (exists && fstat(STDOUT_FILENO, &st) == 0 && same_inode(&so, &st))
		return 0;
	for (size_t i = 0; i < n_whole; i++)
		have[i] = fstatat(fs->dirfd, whole[i], &top[i], 0) == 0 && S_ISDIR(top[i].st_mode);
	real = exists ? realpath(o->output, NULL) : resolve_output(o->output);
	/* The output and each directory above it, up to /. */
	for (cut = real ? real + strlen(real) : NULL; cut && !err;) {
		*cut = '\0';
		if (stat(*real ? real : "/", &st) == 0)
			for (size_t i = 0; i < n_whole && !err; i++)
				if (have[i] && same_inode(&st, &top[i])) {
					cli_error("plan", "--output %s is inside %s%s%s, which plan "
						  "reads: write the plan outside it", o->output,
						  fs->path, fs->path[0] && fs->path[strlen(fs->path) - 1] ==
						  '/' ? "" : "/", whole[i]);
					err = -EINVAL;
				}
		cut = *real ? strrchr(real, '/') : NULL;
	}
	free(real);
	for (size_t i = 0; exists && log && i < log->n && !err; i++) {
		int fd = rootfs_open_file(fs, log->paths[i]);

		if (fd < 0)
			continue;
		if (fstat(fd, &st) == 0 && same_inode(&st, &so)) {
			cli_error("plan", "--output %s is %s of the root %s, which plan reads: write "
				  "the plan elsewhere", o->output, log->paths[i], fs->path);
			err = -EINVAL;
		}
		close(fd);
	}
	return err;
}

static int render(const struct plan_opts *o, const struct plan_view *v)
{
	struct cli_output out;
	int err = cli_output_open(&out, o->output);

	if (err) {
		cli_error("plan", "cannot write %s: %s", o->output, strerror(-err));
		return err;
	}
	if (o->format == FORMAT_JSON) {
		json_t *j = plan_to_json(v);

		err = j ? json_write(out.fp, j) : -ENOMEM;
		json_decref(j);
	} else {
		err = plan_text_write(out.fp, v);
	}
	err = cli_output_close(&out, err == 0) ?: err;
	if (err)
		cli_error("plan", "cannot write the plan: %s", strerror(-err));
	return err;
}

/* A CPU list in a new string (NULL: out of memory); lists of 8,192 CPUs are long. */
static char *list_text(const struct rtr_cpuset *set)
{
	size_t n = rtr_cpuset_format_list(set, NULL, 0) + 1;
	char *buf = malloc(n);

	if (buf)
		rtr_cpuset_format_list(set, buf, n);
	return buf;
}

/*
 * Everything plan holds while it works, on the heap: the facts, the root's
 * path and the check report are tens of KiB, and plan must run in a small
 * stack (ulimit -s 32).
 */
struct plan_state {
	struct managed_irqs m;
	struct cpuplan plan;
	struct strbuf cmdline, apply, emit, isolate;
	char isolate_why[1024];		/* why a partition cannot be made here; "" when it can */
	struct host_info host;
	struct host_facts hf;
	struct read_log log;
	struct rootfs_recorder rec;
	struct report after;
	struct rootfs fs;
	struct facts f;
	char msg[768];
};

static int plan_boot_line(struct plan_state *st, const char **note)
{
	struct boot_settings bs = { .rt = &st->plan.rt, .nonrt = &st->plan.housekeeping };
	char *rt = list_text(&st->plan.rt), *hk = list_text(&st->plan.housekeeping);
	int err = rt && hk ? 0 : -ENOMEM;

	if (!err) {
		boot_cmdline(&bs, &st->cmdline);
		/* kthread_cpus= is a Real-time Ubuntu parameter ("-realtime" kernels). */
		if (!st->f.kernel.release_err && strstr(st->f.kernel.release, "-realtime")) {
			strbuf_printf(&st->cmdline, " kthread_cpus=%s", hk);
			*note = "kthread_cpus= keeps kernel threads on the housekeeping CPUs; "
				"Real-time Ubuntu kernels (-realtime) have it";
		} else {
			*note = "no kthread_cpus=: only Real-time Ubuntu kernels (-realtime) have "
				"it; on this kernel nohz_full= keeps unbound kernel threads on the "
				"housekeeping CPUs";
		}
		strbuf_printf(&st->apply, "rtready tune --rt-cpus %s --apply", rt);
		strbuf_printf(&st->emit, "rtready tune --rt-cpus %s --emit-boot DIR", rt);
		strbuf_printf(&st->isolate, "rtready tune --rt-cpus %s --isolate --apply", rt);
		err = st->cmdline.err ?: st->apply.err ?: st->emit.err ?: st->isolate.err;
	}
	free(rt);
	free(hk);
	return err;
}

static int plan_execute(const struct plan_opts *o)
{
	struct plan_state *st = calloc(1, sizeof(*st));
	const char *note = NULL;
	int err;

	if (!st) {
		cli_error("plan", "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	st->plan = (struct cpuplan)CPUPLAN_INIT;
	st->cmdline = st->apply = st->emit = st->isolate = (struct strbuf)STRBUF_INIT;
	st->rec = (struct rootfs_recorder){ log_file, NULL, NULL, &st->log };
	err = rootfs_open(&st->fs, o->root);
	if (err) {
		cli_error("plan", "cannot open root directory %s: %s", o->root, strerror(-err));
		free(st);
		return err;
	}
	st->fs.rec = &st->rec;
	/* An output inside /proc or /sys is refused before any work; files read, once read. */
	if (output_guard(o, &st->fs, NULL)) {
		rootfs_close(&st->fs);
		free(st);
		return -EINVAL;
	}
	report_init(&st->after, "check");
	err = facts_gather(&st->fs, &st->f);
	if (err) {
		cli_error("plan", "cannot gather facts: %s", strerror(-err));
		read_log_free(&st->log);
		rootfs_close(&st->fs);
		free(st);
		return err;
	}
	err = probe_host(&st->fs, NULL, &st->hf);
	if (err == -ENOMEM || (!err && (err = cli_host_info(&st->hf, o->root, &st->host)))) {
		cli_error("plan", "%s", strerror(-err));
		goto out;
	}
	err = plan_run(&st->fs, &st->f.cpu, &st->f.irq, o->rt_count, o->node, o->near,
		       o->window_ns, &st->m, &st->plan, st->msg, sizeof(st->msg));
	if (err) {
		cli_error("plan", "%s", st->msg);
		goto out;
	}
	err = st->log.err;
	if (err) {
		cli_error("plan", "%s", strerror(-err));
		goto out;
	}
	err = output_guard(o, &st->fs, &st->log);
	if (err)
		goto out;
	err = plan_boot_line(st, &note);
	/* The path without a reboot: whether it can work on this machine, and why not. */
	if (!err && partition_obstacle(&st->fs, &st->f.partition, &st->plan.rt, "/rtready-isolated",
				       (int)getpid(), st->isolate_why, sizeof(st->isolate_why)) ==
			    -ENOMEM)
		err = -ENOMEM;
	err = err ?: checks_after(&st->f, &st->plan, &st->after);
	if (err) {
		cli_error("plan", "%s", strerror(-err));
		goto out;
	}
	{
		struct plan_view v = { &st->plan, rtr_cpuset_count(&st->plan.rt) +
							  rtr_cpuset_count(&st->plan.housekeeping),
				       strbuf_str(&st->cmdline), note, strbuf_str(&st->apply),
				       strbuf_str(&st->emit), &st->after, &st->host,
				       strbuf_str(&st->isolate), st->isolate_why };

		err = render(o, &v);
	}
out:
	strbuf_free(&st->cmdline);
	strbuf_free(&st->apply);
	strbuf_free(&st->emit);
	strbuf_free(&st->isolate);
	report_free(&st->after);
	free(st->host.kernel);
	free(st->host.cpus_online);
	free(st->host.rt_cpus);
	free(st->host.root);
	probe_host_free(&st->hf);
	cpuplan_free(&st->plan);
	managed_irqs_free(&st->m);
	facts_free(&st->f);
	read_log_free(&st->log);
	rootfs_close(&st->fs);
	free(st);
	return err;
}

int cmd_plan(int argc, char **argv)
{
	struct plan_opts o;
	char err[512] = "";
	int rc = plan_opts_parse(argc, argv, &o, err, sizeof(err));

	rc = cli_parsed("plan", rc, err, o.help, o.version, usage_text);
	if (rc >= 0)
		return rc;
	return plan_execute(&o) ? EXIT_USAGE : EXIT_OK;
}
