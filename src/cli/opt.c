// SPDX-License-Identifier: MIT
/* The option layer of the commands: parsing, help and completion from one table; see opt.h. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/opt.h"
#include "target/target.h"
#include "util/parse.h"

/* The longest table (tune's) has 36 options; room to grow without a heap. */
#define CLI_MAX_OPTS 96

static bool is_heading(const struct cli_opt *o)
{
	return !o->name && !o->key;
}

/* An alias kept for the habits of another tool (cyclictest's --prio): parsed, never shown. */
static bool is_hidden(const struct cli_opt *o)
{
	return !is_heading(o) && !o->help;
}

/*
 * Every command answers --help and --version, so no table spells them: the
 * parser, the help and the completion see them as two more rows after the
 * table's own. Help's short letter is -h, unless the command gives -h a
 * meaning of its own (latency's -h is cyclictest's histogram): then it has none.
 */
static size_t n_rows(const struct cli_cmd *cmd)
{
	return cmd->n_opts + 2;
}

/* Row @i of @cmd; the --help and --version rows are made in @buf. */
static const struct cli_opt *row(const struct cli_cmd *cmd, size_t i, struct cli_opt *buf)
{
	int help_key = 'h';

	if (i < cmd->n_opts)
		return &cmd->opts[i];
	if (i > cmd->n_opts) {
		*buf = (struct cli_opt){ "version", 'V', CLI_NOARG, NULL, "show the version", NULL,
					 CLI_SET, cmd->version_at };
		return buf;
	}
	for (size_t k = 0; k < cmd->n_opts; k++)
		if (cmd->opts[k].key == 'h')
			help_key = CLI_KEY_HELP;
	*buf = (struct cli_opt){ "help", help_key, CLI_NOARG, NULL, "show this help", NULL, CLI_SET,
				 cmd->help_at };
	return buf;
}

/*
 * getopt_long's tables from @cmd: ":" first so that a missing value is
 * told apart from an unknown option; "+" for a command whose first operand
 * starts a program's own command line (run), which stops the parse.
 */
static void tables(const struct cli_cmd *cmd, struct option *lo, char *sh, size_t shlen)
{
	size_t n = 0, k = 0;

	if (cmd->operands == CLI_COMMAND)
		sh[k++] = '+';
	sh[k++] = ':';
	for (size_t i = 0; i < n_rows(cmd) && n < CLI_MAX_OPTS; i++) {
		struct cli_opt buf;
		const struct cli_opt *o = row(cmd, i, &buf);
		int has = o->arg == CLI_ARG ? required_argument :
			  o->arg == CLI_OPTARG ? optional_argument : no_argument;

		if (is_heading(o))
			continue;
		if (o->name)
			lo[n++] = (struct option){ o->name, has, NULL, o->key };
		if (o->key > 0 && o->key < 256 && k + 4 < shlen) {
			sh[k++] = (char)o->key;
			if (o->arg != CLI_NOARG)
				sh[k++] = ':';
			if (o->arg == CLI_OPTARG)
				sh[k++] = ':';
		}
	}
	lo[n] = (struct option){ NULL, 0, NULL, 0 };
	sh[k] = '\0';
}


/* The row of the option getopt returned as @c (by its long name when given long), made in @buf. */
static const struct cli_opt *row_of(const struct cli_parse *p, int c, struct cli_opt *buf)
{
	for (size_t i = 0; i < n_rows(p->cmd); i++) {
		const struct cli_opt *o = row(p->cmd, i, buf);

		if (is_heading(o))
			continue;
		if (p->name ? o->name && strcmp(o->name, p->name) == 0 : o->key == c)
			return o;
	}
	return NULL;
}

/* Store a row that is not the command's own at its place in p->dst. Return: 0 or -errno. */
static int store(const struct cli_parse *p, const struct cli_opt *o, char *err, size_t errlen)
{
	void *field = (char *)p->dst + o->at;
	char opt[64];

	snprintf(opt, sizeof(opt), "--%s", o->name);
	switch (o->act) {
	case CLI_SET:
		*(bool *)field = true;
		return 0;
	case CLI_STR:
		*(const char **)field = p->arg;
		return 0;
	case CLI_FORMAT:
		return cli_parse_format(p->arg, field, err, errlen);
	case CLI_ROOT:
		return cli_parse_root(p->arg, field, err, errlen);
	case CLI_RT_CPUS:
		return rt_request_parse(opt, p->arg, field, err, errlen);
	case CLI_OWN:
		break;
	}
	return 0;
}

int cli_next(struct cli_parse *p, char *err, size_t errlen)
{
	struct option lo[CLI_MAX_OPTS + 1];
	char sh[2 * CLI_MAX_OPTS + 3];
	const struct cli_opt *o;
	struct cli_opt buf;
	int c, e, idx;

again:
	idx = -1;
	tables(p->cmd, lo, sh, sizeof(sh));
	c = getopt_long(p->argc, p->argv, sh, lo, &idx);
	p->arg = optarg;
	p->name = idx >= 0 ? lo[idx].name : NULL;
	if (c == ':') {
		snprintf(err, errlen, "option '%s' needs a value", p->argv[optind - 1]);
		return -EINVAL;
	}
	if (c == '?') {
		snprintf(err, errlen, "unknown option '%s'", p->argv[optind - 1]);
		return -EINVAL;
	}
	if (c != -1) {
		o = row_of(p, c, &buf);
		if (!o || o->act == CLI_OWN)
			return c;
		e = store(p, o, err, errlen);
		if (e)
			return e == -ENOMEM ? e : -EINVAL;
		goto again;
	}
	p->operand = optind;
	if (p->cmd->operands == CLI_NO_OPERANDS && optind < p->argc) {
		snprintf(err, errlen, "unexpected argument '%s'", p->argv[optind]);
		return -EINVAL;
	}
	return 0;
}

int cli_parse_cmd(const struct cli_cmd *cmd, int argc, char **argv, void *opts, char *err,
		  size_t errlen)
{
	struct cli_parse p = { .cmd = cmd, .dst = opts, .argc = argc, .argv = argv, .operand = argc };
	int c, rc = 0;

	memset(opts, 0, cmd->size);
	if (cmd->init)
		cmd->init(opts);
	optind = 0;
	opterr = 0;
	while (rc == 0 && (c = cli_next(&p, err, errlen)) > 0)
		rc = cmd->own ? cmd->own(&p, c, err, errlen) : 0;
	if (rc == 0 && c < 0)
		rc = c;
	if (rc == 0 && cmd->done && !*(bool *)((char *)opts + cmd->help_at) &&
	    !*(bool *)((char *)opts + cmd->version_at))
		rc = cmd->done(opts, argc, argv, p.operand, err, errlen);
	if (rc == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	return rc == 0 || rc == -ENOMEM ? rc : -EINVAL;
}

/* "  -c, --rt-cpus LIST" or "      --only AREA|ID", as the help's left column. */
static int left_column(const struct cli_opt *o, char *buf, size_t len)
{
	char sh[8] = "    ";

	if (o->key > 0 && o->key < 256)
		snprintf(sh, sizeof(sh), "-%c, ", o->key);
	return snprintf(buf, len, "  %s--%s%s%s%s%s", sh, o->name ? o->name : "",
			o->metavar && o->arg == CLI_OPTARG ? " [" : o->metavar ? " " : "",
			o->metavar ? o->metavar : "", o->metavar && o->arg == CLI_OPTARG ? "]" : "",
			"");
}

void cli_usage(FILE *fp, const struct cli_cmd *cmd)
{
	fputs(cmd->intro, fp);
	for (size_t i = 0; i < n_rows(cmd); i++) {
		struct cli_opt buf;
		const struct cli_opt *o = row(cmd, i, &buf);
		const char *line = o->help, *nl;
		char left[128];
		int n;

		if (is_heading(o)) {
			fputs(o->help, fp);
			continue;
		}
		if (is_hidden(o))
			continue;
		n = left_column(o, left, sizeof(left));
		/* A long left column pushes its description two spaces further. */
		fprintf(fp, "%s%*s", left, n < cmd->column ? cmd->column - n : 2, "");
		for (;;) {
			nl = strchr(line, '\n');
			fprintf(fp, "%.*s\n", nl ? (int)(nl - line) : (int)strlen(line), line);
			if (!nl)
				break;
			line = nl + 1;
			fprintf(fp, "%*s", cmd->column, "");
		}
	}
	fputs(cmd->outro, fp);
}

void cli_complete(FILE *fp, const struct cli_cmd *cmd)
{
	for (size_t i = 0; i < n_rows(cmd); i++) {
		struct cli_opt buf;
		const struct cli_opt *o = row(cmd, i, &buf);
		const char *value = o->arg == CLI_NOARG ? "-" : o->complete ? o->complete : "";

		if (is_heading(o) || is_hidden(o))
			continue;
		if (o->key > 0 && o->key < 256)
			fprintf(fp, "-%c\t%s\n", o->key, o->arg == CLI_OPTARG ? "-" : value);
		if (o->name)
			fprintf(fp, "--%s\t%s\n", o->name, o->arg == CLI_OPTARG ? "-" : value);
	}
}

/* @ns in the largest unit that holds it whole: "0", "500us", "10s", "1h". */
static void whole_time(int64_t ns, char *buf, size_t len)
{
	static const struct {
		int64_t ns;
		const char *unit;
	} units[] = { { 3600000000000LL, "h" }, { 60000000000LL, "m" }, { 1000000000, "s" },
		      { 1000000, "ms" }, { 1000, "us" }, { 1, "ns" } };
	size_t i = 0;

	while (ns && ns % units[i].ns)
		i++;
	if (!ns)
		snprintf(buf, len, "0");
	else
		snprintf(buf, len, "%lld%s", (long long)(ns / units[i].ns), units[i].unit);
}

int cli_time(const char *opt, const char *arg, int64_t unit_ns, int64_t min_ns, int64_t max_ns,
	     int64_t *out, char *err, size_t errlen)
{
	const char *like = unit_ns == 1 ? "ns, like 500 or 2us" :
			   unit_ns == 1000 ? "us, like 500 or 2ms" : "s, like 10 or 500ms";
	char lo[32], hi[32];
	int64_t v;

	if (parse_duration_ns(arg, unit_ns, &v) == 0 && v >= min_ns && v <= max_ns) {
		*out = v;
		return 0;
	}
	whole_time(min_ns, lo, sizeof(lo));
	whole_time(max_ns, hi, sizeof(hi));
	if (max_ns == INT64_MAX && min_ns <= 0)
		snprintf(err, errlen, "%s: '%s' is not a time (a bare number is in %s)", opt, arg, like);
	else if (max_ns == INT64_MAX && min_ns == 1)
		snprintf(err, errlen, "%s: '%s' is not a time longer than 0 (a bare number is in %s)",
			 opt, arg, like);
	else if (max_ns == INT64_MAX)
		snprintf(err, errlen, "%s: '%s' is not a time of %s or more (a bare number is in %s)",
			 opt, arg, lo, like);
	else
		snprintf(err, errlen, "%s: '%s' is not a time from %s to %s (a bare number is in %s)",
			 opt, arg, lo, hi, like);
	return -EINVAL;
}
