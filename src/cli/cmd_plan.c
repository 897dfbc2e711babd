// SPDX-License-Identifier: MIT
/*
 * rtready plan: gather the facts under a root, plan the RT CPUs from the
 * topology (src/cpuplan), write the boot line and the tune commands, and run
 * the checklist on the machine as the boot line would leave it, to say what
 * check will still report. Options go into struct plan_opts by a parser
 * that never exits.
 */
#include <errno.h>
#include <limits.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/opt.h"
#include "cli/cmd_plan.h"
#include "plan/session.h"
#include "render/plan.h"
#include "util/parse.h"

/* Keys of the options without a short letter. */
enum { OPT_NODE = 256, OPT_NEAR, OPT_WINDOW };

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
	CLI_OPT_ROOT(struct plan_opts, "plan for a snapshot under DIR instead of the live system"),
	CLI_OPT_FORMAT(struct plan_opts, 'f'),
	CLI_OPT_OUTPUT(struct plan_opts, 'o',
		       "write the plan to FILE instead of standard output"),
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
		return cli_time("--window", p->arg, 1000000000, 0, 60LL * 1000000000, &o->window_ns,
				err, errlen);
	}
	return 0;
}

static void plan_init(void *opts)
{
	struct plan_opts *o = opts;

	o->root = "/";
	o->node = -1;
	o->window_ns = TARGET_PLAN_WINDOW_NS;
}

static int plan_done(void *opts, int argc, char **argv, int first, char *err, size_t errlen)
{
	const struct plan_opts *o = opts;

	if (!o->near || o->node < 0)
		return 0;
	snprintf(err, errlen, "--node and --near both name the node: give one");
	return -EINVAL;
}

/* Plan (src/plan/session.c), then write it (render/plan.c). A failure is printed. */
static int plan_main(void *opts)
{
	const struct plan_opts *o = opts;
	const struct plan_request rq = { o->rt_count, o->node, o->near, o->window_ns, o->root,
					 o->output };
	const struct say say = CLI_SAY("plan");
	const struct plan_view *v = NULL;
	struct plan_session *s;
	char msg[PATH_MAX + 64];
	int err = plan_session_run(&rq, &say, &s, &v);

	if (!err && (err = plan_render(o->output, v, o->format == FORMAT_JSON, msg,
				       sizeof(msg))) != 0)
		cli_error("plan", "%s", msg);
	plan_session_free(s);
	return err ? EXIT_USAGE : EXIT_OK;
}

const struct cli_cmd plan_cmd = {
	"plan",
	"choose the RT CPUs from the topology and write the boot line",
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
	CLI_CMD_STRUCT(struct plan_opts), .init = plan_init, .own = plan_opt, .done = plan_done,
	.run = plan_main,
};
