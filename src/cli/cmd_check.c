// SPDX-License-Identifier: MIT
/*
 * rtready check: gather the facts under a root, run the checklist, render
 * the findings. Options are parsed into struct check_opts by a function
 * that never exits, so the parser is unit-tested.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "checks/run.h"
#include "cli/cli.h"
#include "cli/cmd_check.h"
#include "probe/facts.h"
#include "probe/rtcpus.h"
#include "render/json.h"
#include "render/text.h"

static const char usage_text[] =
	"Usage: rtready check [OPTIONS]\n"
	"\n"
	"Audit this machine (or a snapshot under --root) against the realtime checklist.\n"
	"Every item says what was read, whether it is right, why it matters, and the fix.\n"
	"\n"
	"  -c, --rt-cpus LIST   CPUs meant for realtime work (default: the isolated CPUs);\n"
	"                       auto or auto:N: the choice of rtready plan (N CPUs)\n"
	"  -r, --root DIR       read DIR/proc, DIR/sys, ... instead of the live system\n"
	"  -f, --format FMT     text (default) or json\n"
	"  -o, --output FILE    write the result to FILE instead of standard output\n"
	"  -s, --strict         exit 1 on warnings too\n"
	"      --only AREA|ID   run only these checks (repeatable, or comma-separated)\n"
	"      --skip ID|AREA   leave these checks out (repeatable, or comma-separated)\n"
	"  -v, --verbose        also show passing checks and all evidence\n"
	"  -l, --list           list the check ids and exit\n"
	"  -h, --help           show this help\n"
	"  -V, --version        show the version\n"
	"\n"
	"Exit status: 0 nothing failed, 1 a check failed (or warned with --strict),\n"
	"2 usage error or the checks could not run.\n";

void check_opts_free(struct check_opts *o)
{
	rtr_cpuset_free(&o->rt_cpus);
	free(o->only);
	free(o->skip);
	for (size_t i = 0; i < o->n_sel_storage; i++)
		free(o->sel_storage[i]);
	free(o->sel_storage);
	memset(o, 0, sizeof(*o));
}

/* Split "a,b" and append each part to *list; an empty part is an error. */
static int add_selectors(struct check_opts *o, const char *opt, const char *arg,
			 const char ***list, size_t *n, char *err, size_t errlen)
{
	char *copy = strdup(arg), *rest, *t, **storage;
	size_t ns = o->n_sel_storage;

	if (!copy)
		return -ENOMEM;
	storage = realloc(o->sel_storage, (ns + 1) * sizeof(*storage));
	if (!storage) {
		free(copy);
		return -ENOMEM;
	}
	o->sel_storage = storage;
	o->sel_storage[o->n_sel_storage++] = copy;
	rest = copy;
	while ((t = strsep(&rest, ","))) {
		const char **l;

		if (!*t) {
			snprintf(err, errlen, "%s: '%s' has an empty check id or area", opt, arg);
			return -EINVAL;
		}
		if (!checks_selector_valid(t)) {
			snprintf(err, errlen, "'%s' is neither a check id nor an area (see --list)", t);
			return -EINVAL;
		}
		l = realloc(*list, (*n + 1) * sizeof(*l));
		if (!l)
			return -ENOMEM;
		*list = l;
		(*list)[(*n)++] = t;
	}
	return 0;
}

int check_opts_parse(int argc, char **argv, struct check_opts *o, char *err, size_t errlen)
{
	enum { OPT_ONLY = 256, OPT_SKIP };
	static const struct option longopts[] = {
		{ "rt-cpus", required_argument, NULL, 'c' },
		{ "root", required_argument, NULL, 'r' },
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "strict", no_argument, NULL, 's' },
		{ "only", required_argument, NULL, OPT_ONLY },
		{ "skip", required_argument, NULL, OPT_SKIP },
		{ "verbose", no_argument, NULL, 'v' },
		{ "list", no_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int c, rc = 0;

	memset(o, 0, sizeof(*o));
	o->root = "/";
	optind = 0;
	opterr = 0;
	while (rc == 0 && (c = getopt_long(argc, argv, ":c:r:f:o:svlhV", longopts, NULL)) != -1) {
		switch (c) {
		case 'c':
			rc = cli_parse_rt_cpus("--rt-cpus", optarg, &o->rt_cpus, &o->rt_auto, err,
					       errlen);
			o->rt_cpus_given = true;
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
		case 's':
			o->strict = true;
			break;
		case OPT_ONLY:
			rc = add_selectors(o, "--only", optarg, &o->only, &o->n_only, err, errlen);
			break;
		case OPT_SKIP:
			rc = add_selectors(o, "--skip", optarg, &o->skip, &o->n_skip, err, errlen);
			break;
		case 'v':
			o->verbose = true;
			break;
		case 'l':
			o->list = true;
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
	if (rc == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	return rc;
}

static void list_checks(FILE *out)
{
	for (size_t i = 0; i < checks_count(); i++) {
		const struct check *c = checks_at(i);

		fprintf(out, "%-26s %s\n", c->id, c->title);
	}
}

static int fill_host(struct report *r, const struct facts *f, const struct rtcpus *rt)
{
	char list[4096], online[4096] = "";
	int err = 0;

	rtcpus_format(rt, list, sizeof(list));
	if (!f->cpu.online_err)
		rtr_cpuset_format_list(&f->cpu.online, online, sizeof(online));
	err = err ? err : report_set_host(&r->host.rt_cpus, list);
	err = err ? err : report_set_host(&r->host.root, f->root);
	err = err ? err : report_set_host(&r->host.kernel,
					  f->kernel.release_err ? "" : f->kernel.release);
	err = err ? err : report_set_host(&r->host.cpus_online, online);
	return err;
}

static int render(const struct check_opts *o, struct report *r)
{
	struct cli_output out;
	int err = cli_output_open(&out, o->output);

	if (err) {
		cli_error("check", "cannot write %s: %s", o->output, strerror(-err));
		return err;
	}
	if (o->format == FORMAT_JSON) {
		json_t *j = report_to_json(r, "checks");

		err = j ? json_write(out.fp, j) : -ENOMEM;
		json_decref(j);
	} else {
		struct text_style st = { cli_use_color(out.fp), o->verbose };

		err = text_write_findings(out.fp, r, &st);
	}
	err = cli_output_close(&out, err == 0) ?: err;
	if (err)
		cli_error("check", "cannot write the result: %s", strerror(-err));
	return err;
}

/*
 * The facts under @root. On the heap, as the root's handle while they are
 * read: together some 28 KiB, and rtready must run with a small stack
 * (ulimit -s 32). Return: 0 with *@out set, or -errno after printing why.
 */
static int gather(const char *root, struct facts **out)
{
	struct facts *f = malloc(sizeof(*f));
	struct rootfs *fs = malloc(sizeof(*fs));
	int err = f && fs ? 0 : -ENOMEM;

	if (err) {
		cli_error("check", "out of memory");
		goto fail;
	}
	err = rootfs_open(fs, root);
	if (err) {
		cli_error("check", "cannot open root directory %s: %s", root, strerror(-err));
		goto fail;
	}
	err = facts_gather(fs, f);
	rootfs_close(fs);
	if (err) {
		cli_error("check", "cannot gather facts: %s", strerror(-err));
		facts_free(f);
		goto fail;
	}
	free(fs);
	*out = f;
	return 0;
fail:
	free(fs);
	free(f);
	*out = NULL;
	return err;
}

int check_execute(const struct check_opts *o, struct report *r)
{
	struct check_filter flt = { o->only, o->n_only, o->skip, o->n_skip };
	struct rtr_cpuset planned = RTR_CPUSET_INIT;
	struct rtcpus rt = RTCPUS_INIT;
	struct check_ctx ctx;
	struct facts *fp;
	int err = gather(o->root, &fp);

	if (err)
		return err;
	/* --rt-cpus auto: planned here, unless the caller (verify) already did. */
	if (o->rt_auto && rtr_cpuset_is_empty(&o->rt_cpus)) {
		err = cli_resolve_rt_cpus("check", "--rt-cpus", o->root, o->rt_auto, &planned);
		if (err) {
			facts_free(fp);
			free(fp);
			return err;
		}
	} else {
		err = rtr_cpuset_copy(&planned, &o->rt_cpus);
	}
	err = err ?: rtcpus_resolve_planned(&fp->cpu, o->rt_cpus_given ? &planned : NULL,
					    o->rt_auto != 0, &rt);
	ctx = (struct check_ctx){ fp, &rt.cpus, rtcpus_source_name(rt.source) };
	err = err ? err : checks_run(&ctx, &flt, r);
	err = err ? err : fill_host(r, fp, &rt);
	if (err)
		cli_error("check", "%s", strerror(-err));
	rtcpus_free(&rt);
	rtr_cpuset_free(&planned);
	facts_free(fp);
	free(fp);
	return err;
}

int cmd_check(int argc, char **argv)
{
	struct check_opts o;
	struct report r;
	char err[512] = "";
	int rc;

	if (check_opts_parse(argc, argv, &o, err, sizeof(err))) {
		cli_error("check", "%s", err);
		fputs("Try 'rtready check --help'.\n", stderr);
		check_opts_free(&o);
		return EXIT_USAGE;
	}
	if (o.help || o.version || o.list) {
		if (o.help)
			fputs(usage_text, stdout);
		else if (o.version)
			cli_version();
		else
			list_checks(stdout);
		check_opts_free(&o);
		return EXIT_OK;
	}
	report_init(&r, "check");
	if (check_execute(&o, &r) || render(&o, &r))
		rc = EXIT_USAGE;
	else
		rc = report_exit_code(&r, o.strict);
	report_free(&r);
	check_opts_free(&o);
	return rc;
}
