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
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "checks/check.h"
#include "checks/run.h"
#include "cli/cli.h"
#include "cli/opt.h"
#include "cli/cmd_plan.h"
#include "cpuplan/cpuplan.h"
#include "probe/partition.h"
#include "probe/placement.h"
#include "render/json.h"
#include "render/plan.h"
#include "tune/boot.h"
#include "util/parse.h"
#include "util/strbuf.h"

/* Keys of the options without a short letter. */
enum { OPT_NODE = 256, OPT_NEAR, OPT_WINDOW };

static int plan_main(void *opts);

static const struct cli_opt plan_opts[] = {
	{ "rt", 'n', CLI_ARG, "N",
	  "plan N RT CPUs (default: as many as can be spared while\n"
	  "the boot CPU's core and a core per NUMA node stay\n"
	  "housekeeping; on mixed-speed machines the fast cores)", NULL, CLI_OWN, 0 },
	{ "node", OPT_NODE, CLI_ARG, "N",
	  "take the RT CPUs from NUMA node N", NULL, CLI_OWN, 0 },
	{ "near", OPT_NEAR, CLI_ARG, "IFACE|IRQ",
	  "take them from the node of a network interface (eth0) or\n"
	  "of an IRQ number, where its device is", "@iface", CLI_OWN, 0 },
	{ "window", OPT_WINDOW, CLI_ARG, "DURATION",
	  "on the live system, measure the load housekeeping\n"
	  "carries over this time and keep enough housekeeping CPUs\n"
	  "to stay under half busy (default 500ms; 0: do not)", NULL, CLI_OWN, 0 },
	CLI_OPT_ROOT("plan for a snapshot under DIR instead of the live system"),
	CLI_OPT_FORMAT('f'),
	CLI_OPT_OUTPUT('o',
		       "write the plan to FILE instead of standard output"),
	CLI_OPT_HELP('h'),
	CLI_OPT_VERSION,
};

const struct cli_cmd plan_cmd = {
	"plan",
	"Usage: rtready plan [OPTIONS]\n"
	"\n"
	"Choose the CPUs to set apart for realtime work from the machine's topology (SMT\n"
	"siblings, L2 clusters, NUMA nodes, core speeds, the boot CPU, managed IRQs), and\n"
	"write the kernel command line and the rtready tune commands that set them up.\n"
	"Every choice comes with its reason.\n"
	"\n",
	CLI_CMD_OPTS(plan_opts), 23,
	"\n"
	"Exit status: 0 a plan was made, 2 usage error, or no plan keeps the rules (the\n"
	"message names the rule).\n",
	CLI_NO_OPERANDS,
	CLI_CMD_STRUCT(struct plan_opts), plan_opts_parse, plan_main, NULL,
};

static int plan_opt(struct cli_parse *p, int key, char *err, size_t errlen)
{
	struct plan_opts *o = p->dst;
	int64_t v;

	switch (key) {
	case 'n':
		if (parse_int64(p->arg, 1, RTR_CPUSET_MAX_CPUS, &v) == 0) {
			o->rt_count = (size_t)v;
			return 0;
		}
		snprintf(err, errlen, "--rt: '%s' is not a CPU count (1 or more)", p->arg);
		return -EINVAL;
	case OPT_NODE:
		if (parse_int64(p->arg, 0, CPU_MAX_NODES - 1, &v) == 0) {
			o->node = (int)v;
			return 0;
		}
		snprintf(err, errlen, "--node: '%s' is not a NUMA node number", p->arg);
		return -EINVAL;
	case OPT_NEAR:
		o->near = p->arg;
		if (*p->arg)
			return 0;
		snprintf(err, errlen, "--near: empty name");
		return -EINVAL;
	case OPT_WINDOW:
		if (parse_duration_ns(p->arg, 1000000000, &o->window_ns) == 0 && o->window_ns >= 0 &&
		    o->window_ns <= 60LL * 1000000000)
			return 0;
		snprintf(err, errlen, "--window: '%s' is not a duration from 0 to 60s (500ms, 2s; "
			 "0: do not measure)", p->arg);
		return -EINVAL;
	}
	return 0;
}

int plan_opts_parse(int argc, char **argv, void *opts, char *err, size_t errlen)
{
	struct plan_opts *o = opts;
	const struct cli_common com = { &o->help, &o->version, &o->format, &o->output, &o->root, NULL };
	struct cli_parse p;
	int rc;

	memset(o, 0, sizeof(*o));
	o->root = "/";
	o->node = -1;
	o->window_ns = TARGET_PLAN_WINDOW_NS;
	cli_parse_begin(&p, &plan_cmd, &com, o, argc, argv);
	rc = cli_parse(&p, plan_opt, err, errlen);
	if (rc == 0 && o->near && o->node >= 0) {
		snprintf(err, errlen, "--node and --near both name the node: give one");
		rc = -EINVAL;
	}
	return rc ? -EINVAL : 0;
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
	struct output out;
	int err = output_open(&out, o->output);

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
	err = output_close(&out, err == 0) ?: err;
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
	struct read_log log;
	struct rootfs_recorder rec;
	struct report after;
	struct target t;
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
		if (!st->t.facts.kernel.release_err && strstr(st->t.facts.kernel.release, "-realtime")) {
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
	err = target_root(&st->t, o->root, st->msg, sizeof(st->msg));
	if (err) {
		cli_error("plan", "%s", st->msg);
		free(st);
		return err;
	}
	st->t.fs.rec = &st->rec;
	/* An output inside /proc or /sys is refused before any work; files read, once read. */
	if (output_guard(o, &st->t.fs, NULL)) {
		target_close(&st->t);
		free(st);
		return -EINVAL;
	}
	report_init(&st->after, "check");
	err = target_read(&st->t, NULL, TARGET_FACTS, st->msg, sizeof(st->msg));
	err = err ?: target_host_info(&st->t, &st->host);
	if (err) {
		cli_error("plan", "%s", err == -ENOMEM ? strerror(ENOMEM) : st->msg);
		goto out;
	}
	{
		struct target_plan_req req = { o->rt_count, o->node, o->near, o->window_ns };

		err = target_plan(&st->t, &req, &st->m, &st->plan, st->msg, sizeof(st->msg));
	}
	if (st->t.plan_warning[0])
		cli_warn("plan", "%s", st->t.plan_warning);
	if (err) {
		cli_error("plan", "%s", st->msg);
		goto out;
	}
	err = st->log.err;
	if (err) {
		cli_error("plan", "%s", strerror(-err));
		goto out;
	}
	err = output_guard(o, &st->t.fs, &st->log);
	if (err)
		goto out;
	err = plan_boot_line(st, &note);
	/* The path without a reboot: whether it can work on this machine, and why not. */
	if (!err && partition_obstacle(&st->t.fs, &st->t.facts.partition, &st->plan.rt,
				       "/rtready-isolated", (int)getpid(), st->isolate_why,
				       sizeof(st->isolate_why)) == -ENOMEM)
		err = -ENOMEM;
	err = err ?: checks_after(&st->t.facts, &st->plan, &st->after);
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
	host_info_free(&st->host);
	cpuplan_free(&st->plan);
	managed_irqs_free(&st->m);
	read_log_free(&st->log);
	target_close(&st->t);
	free(st);
	return err;
}

static int plan_main(void *opts)
{
	return plan_execute(opts) ? EXIT_USAGE : EXIT_OK;
}
