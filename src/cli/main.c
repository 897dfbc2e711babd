// SPDX-License-Identifier: MIT
/*
 * rtready: the realtime Linux checklist as one tool. main() only finds the
 * subcommand in the table of commands (exact names, no prefix matching) and hands
 * it argv; each subcommand lives in its own file.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/opt.h"

/* The commands, in the order of the help. */
static const struct cli_cmd *const cmds[] = {
	&check_cmd, &snapshot_cmd, &latency_cmd, &load_cmd, &inspect_cmd, &run_cmd, &noise_cmd,
	&pi_cmd, &plan_cmd, &tune_cmd, &verify_cmd, &report_cmd,
};

static void usage(FILE *out)
{
	fprintf(out, "Usage: rtready COMMAND [OPTIONS]\n"
		     "       rtready COMMAND --help\n\n"
		     "The realtime Linux developer's checklist: check a machine, measure it, prove it.\n\n"
		     "Commands:\n");
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		fprintf(out, "  %-10s %s\n", cmds[i]->name, cmds[i]->summary);
	fprintf(out, "\nExit status: 0 nothing failed, 1 a check or threshold failed,\n"
		     "2 usage error or the tool could not do its job.\n"
		     "See rtready(1) and rtready-COMMAND(1).\n");
}

/*
 * Output that never reached its file is a failure, as coreutils' close_stdout
 * has it: `rtready tune --emit-boot > /dev/full` must not exit 0. Called on
 * every return from main; a command that already failed keeps its own code.
 */
static int close_stdout(int code)
{
	int err;

	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout))
		return code;
	err = errno ? errno : EIO;
	fprintf(stderr, "rtready: write error on standard output: %s\n", strerror(err));
	return code == EXIT_OK || code == EXIT_FINDINGS ? EXIT_USAGE : code;
}

/*
 * For the bash completion (data/bash-completion/rtready): without a
 * command, the commands; with one, its options and what completes their
 * values, from the same table as its parser and --help.
 */
static int complete(int argc, char **argv)
{
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		if (argc < 3)
			printf("%s\n", cmds[i]->name);
		else if (strcmp(argv[2], cmds[i]->name) == 0)
			cli_complete(stdout, cmds[i]);
	}
	return EXIT_OK;
}

static int run(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		usage(stdout);
		return EXIT_OK;
	}
	if (strcmp(argv[1], "--complete") == 0)
		return complete(argc, argv);
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
		cli_version();
		return EXIT_OK;
	}
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (strcmp(argv[1], cmds[i]->name) == 0)
			return cli_main(cmds[i], argc - 1, argv + 1);
	fprintf(stderr, "rtready: '%s' is not a command; see 'rtready --help'\n", argv[1]);
	return EXIT_USAGE;
}

int main(int argc, char **argv)
{
	return close_stdout(run(argc, argv));
}
