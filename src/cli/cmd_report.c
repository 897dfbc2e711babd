// SPDX-License-Identifier: MIT
/*
 * rtready report: read result files of check, latency and verify, and
 * render them as one HTML page (several results side by side), JUnit XML
 * for CI servers and Prometheus text for the node exporter. Each output is
 * written to a temporary file and renamed, so a failure never leaves half a
 * report behind. A file that is not a valid result stops everything with
 * exit 2 before anything is written.
 */
#include <errno.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/opt.h"
#include "cli/cmd_report.h"
#include "util/parse.h"

static const struct cli_opt report_opts[] = {
	CLI_OPT_STR("output", 'o', "FILE", struct report_opts, html, "@file",
		    "the HTML page (default: report.html when no other\n"
		    "output is asked for; '-' for standard output)"),
	CLI_OPT_STR("junit", 'j', "FILE", struct report_opts, junit, "@file",
		    "JUnit XML: one test case per check and latency threshold"),
	CLI_OPT_STR("prometheus", 'p', "FILE", struct report_opts, prometheus, "@file",
		    "Prometheus text exposition (node exporter textfile)"),
	{ "max-latency", 'm', CLI_ARG, "US",
	  "judge every measured CPU against this limit (in us;\n"
	  "units like 100us or 1ms are accepted)", NULL, CLI_OWN, 0 },
	CLI_OPT_SET("strict", 's', struct report_opts, strict,
		    "warnings fail too (JUnit failures, exit status 1)"),
};

/* --max-latency, the one option with a value to check. */
static int report_opt(struct cli_parse *p, int key, char *err, size_t errlen)
{
	struct report_opts *o = p->dst;
	int64_t ns;

	(void)key;
	if (cli_time("--max-latency", p->arg, 1000, 1000, 3600LL * 1000000000, &ns, err, errlen))
		return -EINVAL;
	o->max_latency_us = (double)ns / 1000.0;
	return 0;
}

static int report_done(void *opts, int argc, char **argv, int first, char *err, size_t errlen)
{
	struct report_opts *o = opts;
	const char *outs[3];

	for (int i = first; i < argc; i++) {
		if (o->n_inputs == REPORT_MAX_INPUTS) {
			snprintf(err, errlen, "at most %d result files side by side", REPORT_MAX_INPUTS);
			return -EINVAL;
		}
		o->inputs[o->n_inputs++] = argv[i];
	}
	if (!o->n_inputs) {
		snprintf(err, errlen, "no result file given");
		return -EINVAL;
	}
	if (!o->html && !o->junit && !o->prometheus)
		o->html = "report.html";
	/* Two outputs on one file would leave only the last one; refuse it. */
	outs[0] = o->html;
	outs[1] = o->junit;
	outs[2] = o->prometheus;
	for (int a = 0; a < 3; a++)
		for (int b = a + 1; b < 3; b++)
			if (outs[a] && outs[b] && strcmp(outs[a], outs[b]) == 0) {
				snprintf(err, errlen, "'%s' is named for two outputs", outs[a]);
				return -EINVAL;
			}
	return 0;
}

const struct cli_cmd report_cmd = {
	"report",
	"render results as one HTML page, JUnit XML and Prometheus text",
	"Usage: rtready report RESULT.json... [OPTIONS]\n"
	"\n"
	"Render results of 'rtready check', 'rtready latency' and 'rtready verify'\n"
	"(written with --format json) as one self-contained HTML page, JUnit XML and\n"
	"Prometheus text. Files in a row that complement each other (a check, an idle\n"
	"and a loaded latency run of one host) form one result; such files of two hosts\n"
	"(kernel, online CPUs, root or hostname differ) are refused. Other results are\n"
	"shown side by side in the order given (e.g. before and after tuning). '-' reads\n"
	"a result from standard input.\n"
	"\n",
	CLI_CMD_OPTS(report_opts), 25,
	"\n"
	"Exit status: 0 no result failed, 1 a result failed (or warned with --strict),\n"
	"2 usage error, unreadable or invalid result file, or an output not written.\n",
	CLI_OPERANDS,
	CLI_CMD_STRUCT(struct report_opts), .own = report_opt, .done = report_done,
	.job = report_job_run,
};
