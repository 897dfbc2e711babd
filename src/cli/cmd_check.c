// SPDX-License-Identifier: MIT
/*
 * rtready check: the options. The run (facts under a root, the checklist,
 * the findings rendered) is src/job/check.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "checks/run.h"
#include "cli/cli.h"
#include "cli/opt.h"
#include "cli/cmd_check.h"

/* Keys of the options without a short letter. */
enum { OPT_ONLY = 256, OPT_SKIP };

static const struct cli_opt check_opts[] = {
	CLI_OPT_RT_CPUS(struct check_opts, rt, "rt-cpus", 'c', "LIST",
			"CPUs meant for realtime work (default: the isolated CPUs);\n"
			"auto or auto:N: the choice of rtready plan (N CPUs)"),
	CLI_OPT_ROOT(struct check_opts, "read DIR/proc, DIR/sys, ... instead of the live system"),
	CLI_OPT_FORMAT(struct check_opts, 'f'),
	CLI_OPT_OUTPUT(struct check_opts, 'o',
		       "write the result to FILE instead of standard output"),
	CLI_OPT_SET("strict", 's', struct check_opts, strict, "exit 1 on warnings too"),
	{ "only", OPT_ONLY, CLI_ARG, "AREA|ID",
	  "run only these checks (repeatable, or comma-separated)", "@check", CLI_OWN, 0 },
	{ "skip", OPT_SKIP, CLI_ARG, "ID|AREA",
	  "leave these checks out (repeatable, or comma-separated)", "@check", CLI_OWN, 0 },
	CLI_OPT_SET("verbose", 'v', struct check_opts, verbose,
		    "also show passing checks and all evidence"),
	CLI_OPT_SET("list", 'l', struct check_opts, list, "list the check ids and exit"),
};

void check_opts_free(void *opts)
{
	struct check_opts *o = opts;

	rt_request_free(&o->rt);
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

static int check_opt(struct cli_parse *p, int key, char *err, size_t errlen)
{
	struct check_opts *o = p->dst;

	if (key == OPT_ONLY)
		return add_selectors(o, "--only", p->arg, &o->only, &o->n_only, err, errlen);
	return add_selectors(o, "--skip", p->arg, &o->skip, &o->n_skip, err, errlen);
}

static void check_init(void *opts)
{
	((struct check_opts *)opts)->root = "/";
}

const struct cli_cmd check_cmd = {
	"check",
	"audit this machine (or a snapshot) against the checklist",
	"Usage: rtready check [OPTIONS]\n"
	"\n"
	"Audit this machine (or a snapshot under --root) against the realtime checklist.\n"
	"Every item says what was read, whether it is right, why it matters, and the fix.\n"
	"\n",
	CLI_CMD_OPTS(check_opts), 23,
	"\n"
	"Exit status: 0 nothing failed, 1 a check failed (or warned with --strict),\n"
	"2 usage error or the checks could not run.\n",
	CLI_NO_OPERANDS,
	CLI_CMD_STRUCT(struct check_opts), .init = check_init, .own = check_opt, .job = check_job_run,
	.release = check_opts_free,
};
