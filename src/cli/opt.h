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
#include <stdint.h>
#include <stdio.h>

#include "cli/cli.h"

/* A value of has_arg: none, required, or optional (attached only: -t4, --threads=4). */
enum cli_arg { CLI_NOARG, CLI_ARG, CLI_OPTARG };

/*
 * What the parser does with an option: every row but a CLI_OWN one is
 * stored by the parser itself, at its offset (.at) in the command's
 * options struct. Only CLI_OWN options reach the command's own handler.
 */
enum cli_act {
	CLI_OWN,		/* the command's own option */
	CLI_SET,		/* set the bool at .at */
	CLI_STR,		/* point the const char * at .at to the value */
	CLI_FORMAT,		/* --format: text or json, an enum output_format */
	CLI_ROOT,		/* --root: a directory name, never empty */
	CLI_RT_CPUS,		/* a CPU list, auto or auto:N: a struct rt_request */
};

/*
 * Keys of the shared options that have no short letter in some command
 * (--help where -h is the command's own).
 */
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
	enum cli_act act;
	size_t at;		/* all but CLI_OWN: the field's offset in the options struct */
};

/*
 * The shared rows, worded alike in every command (@type: its options struct).
 * --help and --version are in no table: the parser, the help and the
 * completion add them to every command, last (see struct cli_cmd).
 */
#define CLI_OPT_FORMAT(type, key) { "format", (key), CLI_ARG, "FMT", "text (default) or json", \
	"text json", CLI_FORMAT, offsetof(type, format) }
#define CLI_OPT_OUTPUT(type, key, help) \
	{ "output", (key), CLI_ARG, "FILE", (help), "@file", CLI_STR, offsetof(type, output) }
#define CLI_OPT_ROOT(type, help) \
	{ "root", 'r', CLI_ARG, "DIR", (help), "@dir", CLI_ROOT, offsetof(type, root) }
#define CLI_OPT_RT_CPUS(type, field, name, key, metavar, help) \
	{ (name), (key), CLI_ARG, (metavar), (help), "@cpus", CLI_RT_CPUS, offsetof(type, field) }

/* A switch that sets the bool @field of @type, and an option whose value is kept as given. */
#define CLI_OPT_SET(name, key, type, field, help) \
	{ (name), (key), CLI_NOARG, NULL, (help), NULL, CLI_SET, offsetof(type, field) }
#define CLI_OPT_STR(name, key, metavar, type, field, complete, help) \
	{ (name), (key), CLI_ARG, (metavar), (help), (complete), CLI_STR, offsetof(type, field) }

/*
 * cli_time() - the value @arg of the time option @opt: a number with a
 * unit (500us, 2ms, 1.5s, 2m, 1h) or a bare number in @unit_ns (1: ns,
 * 1000: us, 1000000000: s), from @min_ns to @max_ns (INT64_MAX: no upper
 * bound). Return: 0 with *@out in ns, or -EINVAL with "OPT: 'ARG' is not
 * a time from MIN to MAX (a bare number is in UNIT, like ...)" in @err.
 */
int cli_time(const char *opt, const char *arg, int64_t unit_ns, int64_t min_ns, int64_t max_ns,
	     int64_t *out, char *err, size_t errlen);

enum cli_operands {
	CLI_NO_OPERANDS,	/* options only */
	CLI_OPERANDS,		/* operands anywhere between the options (report FILE...) */
	CLI_COMMAND,		/* the first operand starts a command line of its own (run) */
};

struct cli_parse;
struct job_ui;

/* A command's handler of its CLI_OWN options: the option's value is p->arg. */
typedef int cli_own_fn(struct cli_parse *p, int key, char *err, size_t errlen);

/*
 * A command: its help and options, and how it runs. cli_main() allocates
 * its options struct (@size bytes, zeroed), fills it (cli_parse_cmd()),
 * answers --help (-h, unless a row of @opts has the key 'h') and
 * --version (-V), which every command has after its own options and which
 * set the bools at @help_at and @version_at,
 * runs @run or @job and releases the struct with @release, whatever happened.
 */
struct cli_cmd {
	const char *name;		/* "check" */
	const char *summary;		/* its line in `rtready --help` */
	const char *intro;		/* "Usage: ...\n\n...\n\n", printed before the options */
	const struct cli_opt *opts;
	size_t n_opts;
	int column;			/* where the descriptions start */
	const char *outro;		/* printed after the options ("\nExit status: ...") */
	enum cli_operands operands;	/* what may follow the options */
	size_t size, help_at, version_at;
	void (*init)(void *opts);	/* the defaults (NULL: all zero) */
	cli_own_fn *own;		/* the CLI_OWN options (NULL: none) */
	/*
	 * After the options (not for --help or --version): the operands
	 * argv[@first..] and the rules between options (NULL: none).
	 * Return: 0, or -errno with a message in @err.
	 */
	int (*done)(void *opts, int argc, char **argv, int first, char *err, size_t errlen);
	int (*run)(void *opts);		/* Return: the exit code */
	/* Or the command's job (src/job/), handed the command line's services. */
	int (*job)(void *opts, const struct job_ui *ui);
	void (*release)(void *opts);	/* NULL: nothing to release */
};

#define CLI_CMD_OPTS(table) (table), (sizeof(table) / sizeof((table)[0]))
/* The size and the --help and --version fields of the options struct @type. */
#define CLI_CMD_STRUCT(type) \
	.size = sizeof(type), .help_at = offsetof(type, help), .version_at = offsetof(type, version)

/* A parse in progress: cli_next() until it returns 0, or cli_parse(). */
struct cli_parse {
	const struct cli_cmd *cmd;
	void *dst;		/* the command's options struct */
	int argc;
	char **argv;
	const char *arg;	/* the value of the option cli_next() returned (NULL: none) */
	const char *name;	/* its long name when it was given long, else NULL */
	int operand;		/* after the loop: the index of the first operand */
};

/*
 * The next CLI_OWN option's key (its value in p->arg), after the other
 * rows were stored into p->dst; 0 at the end, where an operand of a command that takes none is
 * refused; or -EINVAL with "option '-x' needs a value", "unknown option
 * '--y'", "unexpected argument 'z'" or the shared option's own complaint
 * in @err (-ENOMEM likewise).
 */
int cli_next(struct cli_parse *p, char *err, size_t errlen);

/*
 * Parse @argv (argv[0] is the command's name) into @opts as @cmd says:
 * zeroed, its defaults (init), every option (CLI_OWN ones handed to own),
 * then done. Never prints or exits. Return: 0, or -EINVAL or -ENOMEM with
 * the message in @err ("out of memory" for -ENOMEM).
 */
int cli_parse_cmd(const struct cli_cmd *cmd, int argc, char **argv, void *opts, char *err,
		  size_t errlen);

/*
 * Run the command @cmd on @argv (argv[0] is its name): parse, answer a
 * parse error ("rtready: CMD: why" and a hint, exit 2), --help or
 * --version, else run. Return: the exit code.
 */
int cli_main(const struct cli_cmd *cmd, int argc, char **argv);

/* The help of @cmd, from its table. */
void cli_usage(FILE *fp, const struct cli_cmd *cmd);

/*
 * For the bash completion: every option of @cmd, one per line, as
 * "OPTION\tVALUE" where VALUE is "-" for an option without a value, else
 * what completes it ("@file", "text json", or "" for nothing to offer).
 */
void cli_complete(FILE *fp, const struct cli_cmd *cmd);

#endif
