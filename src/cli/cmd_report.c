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
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "cli/cmd_report.h"
#include "render/html.h"
#include "render/junit.h"
#include "render/prometheus.h"
#include "util/parse.h"

static const char usage_text[] =
	"Usage: rtready report RESULT.json... [OPTIONS]\n"
	"\n"
	"Render results of 'rtready check', 'rtready latency' and 'rtready verify'\n"
	"(written with --format json) as one self-contained HTML page, JUnit XML and\n"
	"Prometheus text. Files in a row that complement each other (a check, an idle\n"
	"and a loaded latency run of one host) form one result; such files of two hosts\n"
	"(kernel, online CPUs, root or hostname differ) are refused. Other results are\n"
	"shown side by side in the order given (e.g. before and after tuning). '-' reads\n"
	"a result from standard input.\n"
	"\n"
	"  -o, --output FILE      the HTML page (default: report.html when no other\n"
	"                         output is asked for; '-' for standard output)\n"
	"  -j, --junit FILE       JUnit XML: one test case per check and latency threshold\n"
	"  -p, --prometheus FILE  Prometheus text exposition (node exporter textfile)\n"
	"  -m, --max-latency US   judge every measured CPU against this limit (in us;\n"
	"                         units like 100us or 1ms are accepted)\n"
	"  -s, --strict           warnings fail too (JUnit failures, exit status 1)\n"
	"  -h, --help             show this help\n"
	"  -V, --version          show the version\n"
	"\n"
	"Exit status: 0 no result failed, 1 a result failed (or warned with --strict),\n"
	"2 usage error, unreadable or invalid result file, or an output not written.\n";

int report_opts_parse(int argc, char **argv, struct report_opts *o, char *err, size_t errlen)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "junit", required_argument, NULL, 'j' },
		{ "prometheus", required_argument, NULL, 'p' },
		{ "max-latency", required_argument, NULL, 'm' },
		{ "strict", no_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int64_t ns;
	int c, rc = 0;

	memset(o, 0, sizeof(*o));
	optind = 0;
	opterr = 0;
	while (rc == 0 && (c = getopt_long(argc, argv, ":o:j:p:m:shV", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			o->html = optarg;
			break;
		case 'j':
			o->junit = optarg;
			break;
		case 'p':
			o->prometheus = optarg;
			break;
		case 'm':
			if (parse_duration_ns(optarg, 1000, &ns) || ns <= 0 ||
			    ns > 3600LL * 1000000000LL) {
				snprintf(err, errlen, "--max-latency: '%s' is not a latency "
					 "(like 100 or 100us, up to 1h)", optarg);
				rc = -EINVAL;
			}
			o->max_latency_us = rc ? 0 : (double)ns / 1000.0;
			break;
		case 's':
			o->strict = true;
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
	if (rc || o->help || o->version)
		return rc;
	for (int i = optind; i < argc; i++) {
		if (o->n_inputs == REPORT_MAX_INPUTS) {
			snprintf(err, errlen, "at most %d result files side by side",
				 REPORT_MAX_INPUTS);
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
	{
		const char *outs[] = { o->html, o->junit, o->prometheus };

		for (int a = 0; a < 3; a++)
			for (int b = a + 1; b < 3; b++)
				if (outs[a] && outs[b] && strcmp(outs[a], outs[b]) == 0) {
					snprintf(err, errlen, "'%s' is named for two outputs",
						 outs[a]);
					return -EINVAL;
				}
	}
	return 0;
}

enum kind { KIND_HTML, KIND_JUNIT, KIND_PROM };

static int write_one(const char *cmd, const char *path, enum kind k, bool strict,
		     const struct result *const *rs, size_t n)
{
	char stamp[32] = "";
	struct junit_style st = { strict, stamp };
	time_t now = time(NULL);
	struct tm tm;

	if (localtime_r(&now, &tm))
		strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%S", &tm);
	struct cli_output out;
	int err = cli_output_open(&out, path);

	if (err) {
		cli_error(cmd, "cannot write %s: %s", path, strerror(-err));
		return err;
	}
	switch (k) {
	case KIND_HTML:
		err = html_write(out.fp, rs, n);
		break;
	case KIND_JUNIT:
		err = junit_write(out.fp, rs, n, &st);
		break;
	case KIND_PROM:
		err = prom_write(out.fp, rs, n);
		break;
	}
	err = cli_output_close(&out, err == 0) ?: err;
	if (err)
		cli_error(cmd, "cannot write %s: %s", path, strerror(-err));
	return err;
}

int report_render(const char *cmd, const struct report_opts *o, const struct result *const *rs,
		  size_t n)
{
	int err = 0;

	if (o->html)
		err = write_one(cmd, o->html, KIND_HTML, o->strict, rs, n);
	if (!err && o->junit)
		err = write_one(cmd, o->junit, KIND_JUNIT, o->strict, rs, n);
	if (!err && o->prometheus)
		err = write_one(cmd, o->prometheus, KIND_PROM, o->strict, rs, n);
	return err;
}

int report_results_exit(const struct result *const *rs, size_t n, bool strict)
{
	for (size_t i = 0; i < n; i++) {
		enum rtr_status s = rs[i]->verdict.status;

		if (s == RTR_FAIL || (strict && s == RTR_WARN))
			return EXIT_FINDINGS;
	}
	return EXIT_OK;
}

/*
 * Load the inputs into @res; complementary files in a row (check, idle and
 * loaded latency of one host) become one result. Return: how many results,
 * or -1 after printing why a file was refused.
 */
static int load_all(const struct report_opts *o, struct result *res)
{
	char err[1536] = "";
	int n = 0;

	for (size_t i = 0; i < o->n_inputs; i++) {
		struct result r;
		int e = result_load_file(o->inputs[i], &r, err, sizeof(err));

		if (e) {
			cli_error("report", "%s", err);
			result_free(&r);
			goto fail;
		}
		e = n ? result_merge(&res[n - 1], &r, err, sizeof(err)) : -EEXIST;
		if (e == -EEXIST) {
			res[n++] = r;
			continue;
		}
		result_free(&r);
		if (e) {
			cli_error("report", "%s", e == -EXDEV ? err : strerror(-e));
			goto fail;
		}
	}
	/* Files without a verdict (check, latency) are judged here, as verify would. */
	for (int i = 0; i < n; i++) {
		int e = 0;

		if (!res[i].verdict.present || o->max_latency_us > 0)
			e = result_judge(&res[i], o->max_latency_us, &res[i].verdict);
		if (e) {
			cli_error("report", "%s", strerror(-e));
			goto fail;
		}
	}
	return n;
fail:
	for (int i = 0; i < n; i++)
		result_free(&res[i]);
	return -1;
}

/*
 * Before anything is read: an output must not be one of the inputs (that
 * would replace a result with its own report), and every output must be
 * writable. Return: 0, or -1 after printing why.
 */
static int check_outputs(const struct report_opts *o)
{
	const char *outs[] = { o->html, o->junit, o->prometheus };

	for (int a = 0; a < 3; a++) {
		int err;

		if (!outs[a])
			continue;
		for (size_t i = 0; i < o->n_inputs; i++) {
			if (cli_output_is_input(outs[a], o->inputs[i])) {
				cli_error("report", "'%s' is the result file '%s': the report "
					  "would replace it; name another output", outs[a],
					  o->inputs[i]);
				return -1;
			}
		}
		err = cli_output_check(outs[a]);
		if (err) {
			cli_error("report", "cannot write %s: %s", outs[a], strerror(-err));
			return -1;
		}
	}
	return 0;
}

int cmd_report(int argc, char **argv)
{
	struct result res[REPORT_MAX_INPUTS];
	const struct result *rp[REPORT_MAX_INPUTS];
	struct report_opts o;
	char err[512] = "";
	int n, rc = EXIT_USAGE;

	if (report_opts_parse(argc, argv, &o, err, sizeof(err))) {
		cli_error("report", "%s", err);
		fputs("Try 'rtready report --help'.\n", stderr);
		return EXIT_USAGE;
	}
	if (o.help) {
		fputs(usage_text, stdout);
		return EXIT_OK;
	}
	if (o.version) {
		cli_version();
		return EXIT_OK;
	}
	if (check_outputs(&o))
		return EXIT_USAGE;
	n = load_all(&o, res);
	if (n < 0)
		return EXIT_USAGE;
	for (int i = 0; i < n; i++)
		rp[i] = &res[i];
	if (report_render("report", &o, rp, (size_t)n) == 0)
		rc = report_results_exit(rp, (size_t)n, o.strict);
	for (int i = 0; i < n; i++)
		result_free(&res[i]);
	return rc;
}
