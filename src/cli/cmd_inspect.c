// SPDX-License-Identifier: MIT
/*
 * rtready inspect: is a running realtime application following the
 * checklist? Collect two snapshots of its threads a window apart (with perf
 * counters in between), judge them, render.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "checks/run.h"
#include "cli/cmd_inspect.h"
#include "inspect/inspect.h"
#include "probe/facts.h"
#include "render/inspect.h"
#include "render/json.h"
#include "util/parse.h"

static const char usage_text[] =
	"Usage: rtready inspect [OPTIONS] PID...\n"
	"       rtready inspect [OPTIONS] --all | --name COMM\n"
	"\n"
	"Apply the realtime checklist to running processes, thread by thread: policy and\n"
	"priority, affinity, locked memory, page faults, context switches and perf counters\n"
	"measured over a window. Works without root for your own processes.\n"
	"With --root, judge the processes of a snapshot tree in one look (no window,\n"
	"no perf counters: a tree does not run).\n"
	"\n"
	"  -a, --all              every user process (those with RT threads are judged)\n"
	"  -n, --name COMM        the processes whose name is COMM\n"
	"  -w, --window DURATION  measure deltas over this time (default 1s; 0: one look)\n"
	"  -c, --rt-cpus LIST     CPUs meant for realtime work (default: the isolated CPUs);\n"
	"                         auto or auto:N: the choice of rtready plan (N CPUs)\n"
	"  -r, --root DIR         read DIR/proc and DIR/sys instead of the live system\n"
	"      --no-perf          do not open perf counters\n"
	"  -f, --format FMT       text (default) or json\n"
	"  -o, --output FILE      write the result to FILE\n"
	"  -s, --strict           exit 1 on warnings too\n"
	"  -v, --verbose          show passing findings and processes without RT threads\n"
	"  -h, --help             show this help\n"
	"  -V, --version          show the version\n"
	"\n"
	"Exit status: 0 nothing failed, 1 a finding failed (or warned with --strict),\n"
	"2 usage error, no such process, or /proc could not be read.\n";

void inspect_opts_free(struct inspect_opts *o)
{
	rtr_cpuset_free(&o->rt_cpus);
}

static int add_pid(struct inspect_opts *o, const char *arg, char *err, size_t errlen)
{
	int64_t v;

	if (parse_int64(arg, 1, 0x3fffffff, &v)) {
		snprintf(err, errlen, "'%s' is not a process id", arg);
		return -EINVAL;
	}
	if (o->n_pids == INSPECT_MAX_PIDS) {
		snprintf(err, errlen, "at most %d PIDs", INSPECT_MAX_PIDS);
		return -EINVAL;
	}
	o->pids[o->n_pids++] = (int)v;
	return 0;
}

int inspect_opts_parse(int argc, char **argv, struct inspect_opts *o, char *err, size_t errlen)
{
	enum { OPT_NO_PERF = 256 };
	static const struct option longopts[] = {
		{ "all", no_argument, NULL, 'a' },
		{ "name", required_argument, NULL, 'n' },
		{ "window", required_argument, NULL, 'w' },
		{ "rt-cpus", required_argument, NULL, 'c' },
		{ "root", required_argument, NULL, 'r' },
		{ "no-perf", no_argument, NULL, OPT_NO_PERF },
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "strict", no_argument, NULL, 's' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int c, rc = 0;

	memset(o, 0, sizeof(*o));
	o->window_ns = 1000000000;
	o->perf = true;
	o->root = "/";
	optind = 0;
	opterr = 0;
	while (rc == 0 && (c = getopt_long(argc, argv, ":an:w:c:r:f:o:svhV", longopts, NULL)) != -1) {
		switch (c) {
		case 'a':
			o->all = true;
			break;
		case 'n':
			if (!*optarg) {
				snprintf(err, errlen, "--name: empty name");
				rc = -EINVAL;
			}
			o->name = optarg;
			break;
		case 'w':
			rc = parse_duration_ns(optarg, 1000000000, &o->window_ns);
			if (rc == 0 && o->window_ns > 3600LL * 1000000000) {
				rc = -ERANGE;
			}
			if (rc) {
				snprintf(err, errlen, "--window: '%s' is not a duration from 0 to 1h "
					 "(like 500ms, 2s)", optarg);
				rc = -EINVAL;
			}
			o->window_given = true;
			break;
		case 'r':
			rc = cli_parse_root(optarg, &o->root, err, errlen);
			break;
		case 'c':
			rc = cli_parse_rt_cpus("--rt-cpus", optarg, &o->rt_cpus, &o->rt_auto, err,
					       errlen);
			o->rt_cpus_given = true;
			break;
		case OPT_NO_PERF:
			o->perf = false;
			break;
		case 'f':
			rc = cli_parse_format(optarg, &o->format, err, errlen);
			break;
		case 'o':
			o->output = optarg;
			break;
		case 's':
			o->strict = true;
			break;
		case 'v':
			o->verbose = true;
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
	for (int i = optind; rc == 0 && i < argc; i++)
		rc = add_pid(o, argv[i], err, errlen);
	if (rc || o->help || o->version)
		return rc;
	if ((o->n_pids > 0) + o->all + (o->name != NULL) != 1) {
		snprintf(err, errlen, "name the processes: PID..., --all or --name COMM (one of them)");
		return -EINVAL;
	}
	if (strcmp(o->root, "/") != 0) {
		/* A tree is one moment: deltas over a window of it would all be zero. */
		if (o->window_given && o->window_ns > 0) {
			snprintf(err, errlen, "--window needs the live system: a tree under --root "
				 "does not change (use --window 0, the default with --root)");
			return -EINVAL;
		}
		o->window_ns = 0;
		o->perf = false;
	}
	return 0;
}

/*
 * The host facts of the report, and the RT CPUs when --rt-cpus was not
 * given (the isolated CPUs: the same rule as check).
 */
static int host_facts(const struct inspect_opts *o, struct rtr_cpuset *rt, struct report *r)
{
	/* Some 10 KiB: on the heap, so that a small stack (ulimit -s 32) does. */
	struct host_facts *h = malloc(sizeof(*h));
	struct rootfs fs;
	int err = h ? rootfs_open(&fs, o->root) : -ENOMEM;

	if (err) {
		free(h);
		return err;
	}
	err = probe_host_rt(&fs, o->rt_cpus_given ? &o->rt_cpus : NULL, o->rt_auto != 0, h);
	/* Unread online CPUs leave the list empty; inspect can still judge threads. */
	if (err == h->cpu.online_err)
		err = 0;
	err = err ?: rtr_cpuset_copy(rt, &h->rt.cpus);
	err = err ?: cli_host_info(h, o->root, &r->host);
	probe_host_free(h);
	free(h);
	rootfs_close(&fs);
	return err;
}

static int render(const struct inspect_opts *o, const struct inspect_result *res,
		  const struct report *r)
{
	struct cli_output out;
	int err = cli_output_open(&out, o->output);

	if (err) {
		cli_error("inspect", "cannot write %s: %s", o->output, strerror(-err));
		return err;
	}
	if (o->format == FORMAT_JSON) {
		err = inspect_write_json(out.fp, res, r);
	} else {
		struct text_style st = { cli_use_color(out.fp), o->verbose };

		err = inspect_write_text(out.fp, res, r, &st);
	}
	err = cli_output_close(&out, err == 0) ?: err;
	if (err)
		cli_error("inspect", "cannot write the result: %s", strerror(-err));
	return err;
}

static int run(const struct inspect_opts *o)
{
	struct inspect_request req = { o->root, o->pids, o->n_pids, o->name,
				       o->all, o->window_ns, o->perf };
	struct rtr_cpuset rt = RTR_CPUSET_INIT;
	const volatile sig_atomic_t *stop = cli_stop_catch(NULL);
	struct inspect_result res;
	struct inspect_env env;
	struct report r;
	int bad = 0, err, rc = EXIT_USAGE;

	report_init(&r, "inspect");
	err = host_facts(o, &rt, &r);
	if (err) {
		if (strcmp(o->root, "/") != 0)
			cli_error("inspect", "cannot read %s: %s", o->root, strerror(-err));
		else
			cli_error("inspect", "cannot tell the RT CPUs: %s", strerror(-err));
		report_free(&r);
		rtr_cpuset_free(&rt);
		return EXIT_USAGE;
	}
	err = inspect_collect(&req, &res, stop, &bad);
	if (err == -ENODATA && strcmp(o->root, "/") == 0)
		cli_error("inspect", "no process found under /proc: /proc is unreadable (empty, "
				     "not procfs: is procfs mounted there?)");
	else if (err == -ENODATA)
		cli_error("inspect", "no process found under %s%sproc: it is empty or unreadable",
			  o->root, o->root[strlen(o->root) - 1] == '/' ? "" : "/");
	else if (err == -ESRCH)
		cli_error("inspect", "no process with PID %d", bad);
	else if (err == -ENOENT && o->name)
		cli_error("inspect", "no process named '%s'", o->name);
	else if (err == -ENOENT)
		cli_error("inspect", "no process found under %s%sproc", o->root,
			  o->root[strlen(o->root) - 1] == '/' ? "" : "/");
	else if (err)
		cli_error("inspect", "cannot read the processes: %s", strerror(-err));
	if (err) {
		inspect_result_free(&res);
		report_free(&r);
		rtr_cpuset_free(&rt);
		return EXIT_USAGE;
	}
	env = (struct inspect_env){ &rt, o->verbose || !o->all };
	err = inspect_judge(&res, &env, &r);
	if (err)
		cli_error("inspect", "%s", strerror(-err));
	else if (!render(o, &res, &r))
		rc = report_exit_code(&r, o->strict);
	report_free(&r);
	inspect_result_free(&res);
	rtr_cpuset_free(&rt);
	return rc;
}

int cmd_inspect(int argc, char **argv)
{
	struct inspect_opts o;
	char err[512] = "";
	int rc;

	rc = inspect_opts_parse(argc, argv, &o, err, sizeof(err));
	rc = cli_parsed("inspect", rc, err, o.help, o.version, usage_text);
	if (rc >= 0) {
		inspect_opts_free(&o);
		return rc;
	}
	if (cli_resolve_rt_cpus("inspect", "--rt-cpus", o.root, o.rt_auto, &o.rt_cpus)) {
		inspect_opts_free(&o);
		return EXIT_USAGE;
	}
	rc = run(&o);
	inspect_opts_free(&o);
	return rc;
}
