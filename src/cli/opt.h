/* SPDX-License-Identifier: MIT */
/*
 * The one option layer of the commands. Each command describes its options
 * once, in a table: the name, the short letter, whether it takes a value,
 * the help text and what completes its value. From that table come the
 * getopt parsing with its error messages ("option '-x' needs a value",
 * "unknown option", "unexpected argument"), the --help text, and the
 * option lists that the bash completion asks for (`rtready --complete CMD`),
 * so help, parser and completion cannot drift apart.
 */
#ifndef RTR_CLI_OPT_H
#define RTR_CLI_OPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cli/cli.h"

/* A value of has_arg: none, required, or optional (attached only: -t4, --threads=4). */
enum cli_arg { CLI_NOARG, CLI_ARG, CLI_OPTARG };

/*
 * The options every command spells the same way, parsed by cli_next()
 * itself into the command's own fields (struct cli_common) and never
 * returned to the command's switch.
 */
enum cli_shared {
	CLI_OWN,		/* the command's own option */
	CLI_SH_HELP, CLI_SH_VERSION, CLI_SH_FORMAT, CLI_SH_OUTPUT, CLI_SH_ROOT, CLI_SH_RT_CPUS,
};

/* Keys of the shared options that have no short letter in some command. */
enum { CLI_KEY_HELP = 0x2000, CLI_KEY_FORMAT, CLI_KEY_OUTPUT };

/*
 * One option. A row with a NULL name and a NULL key is a heading (@help
 * printed as is, between groups of options).
 */
struct cli_opt {
	const char *name;	/* the long name, without "--" */
	int key;		/* the short letter, or a value >= 256 for a long-only option */
	enum cli_arg arg;
	const char *metavar;	/* what --help shows for the value ("LIST"); NULL: none */
	const char *help;	/* the description, '\n' starts an indented line; NULL: hidden */
	/*
	 * What completes the value: a list of words ("text json"), or one of
	 * "@file", "@dir", "@cpus", "@pid", "@iface", "@check" (check ids and
	 * areas); NULL: nothing to offer.
	 */
	const char *complete;
	enum cli_shared shared;
};

/* The shared rows, worded alike in every command. */
#define CLI_OPT_HELP(key) { "help", (key), CLI_NOARG, NULL, "show this help", NULL, CLI_SH_HELP }
#define CLI_OPT_VERSION \
	{ "version", 'V', CLI_NOARG, NULL, "show the version", NULL, CLI_SH_VERSION }
#define CLI_OPT_FORMAT(key) \
	{ "format", (key), CLI_ARG, "FMT", "text (default) or json", "text json", CLI_SH_FORMAT }
#define CLI_OPT_OUTPUT(key, help) { "output", (key), CLI_ARG, "FILE", (help), "@file", CLI_SH_OUTPUT }
#define CLI_OPT_ROOT(help) { "root", 'r', CLI_ARG, "DIR", (help), "@dir", CLI_SH_ROOT }
#define CLI_OPT_RT_CPUS(name, key, metavar, help) \
	{ (name), (key), CLI_ARG, (metavar), (help), "@cpus", CLI_SH_RT_CPUS }

/* Where cli_next() puts the shared options; NULL members: the command has none. */
struct cli_common {
	bool *help, *version;
	enum output_format *format;
	const char **output;
	const char **root;
	struct rt_request *rt;
};

enum cli_operands {
	CLI_NO_OPERANDS,	/* options only */
	CLI_OPERANDS,		/* operands anywhere between the options (report FILE...) */
	CLI_COMMAND,		/* the first operand starts a command line of its own (run) */
};

struct cli_cmd {
	const char *name;		/* "check" */
	const char *intro;		/* "Usage: ...\n\n...\n\n", printed before the options */
	const struct cli_opt *opts;
	size_t n_opts;
	int column;			/* where the descriptions start */
	const char *outro;		/* printed after the options ("\nExit status: ...") */
	enum cli_operands operands;	/* what may follow the options */
};

#define CLI_CMD_OPTS(table) (table), (sizeof(table) / sizeof((table)[0]))

/* A parse in progress: cli_next() until it returns 0. */
struct cli_parse {
	const struct cli_cmd *cmd;
	const struct cli_common *common;
	int argc;
	char **argv;
	const char *arg;	/* the value of the option cli_next() returned (NULL: none) */
	const char *name;	/* its long name when it was given long, else NULL */
	int operand;		/* after the loop: the index of the first operand */
};

/* Start parsing @argv (argv[0] is the command's name); shared options go to @common. */
void cli_parse_begin(struct cli_parse *p, const struct cli_cmd *cmd, const struct cli_common *common,
		     int argc, char **argv);

/*
 * The next option's key (its value in p->arg), after the shared ones were
 * stored; 0 at the end, where an operand of a command that takes none is
 * refused; or -EINVAL with "option '-x' needs a value", "unknown option
 * '--y'", "unexpected argument 'z'" or the shared option's own complaint
 * in @err (-ENOMEM likewise).
 */
int cli_next(struct cli_parse *p, char *err, size_t errlen);

/* The help of @cmd, from its table. */
void cli_usage(FILE *fp, const struct cli_cmd *cmd);

/*
 * For the bash completion: every option of @cmd, one per line, as
 * "OPTION\tVALUE" where VALUE is "-" for an option without a value, else
 * what completes it ("@file", "text json", or "" for nothing to offer).
 */
void cli_complete(FILE *fp, const struct cli_cmd *cmd);

#endif
