// SPDX-License-Identifier: MIT
/*
 * rtready: the realtime Linux checklist as one tool. main() only finds the
 * subcommand in the verb table (exact names, no prefix matching) and hands
 * it argv; each subcommand lives in its own file.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/opt.h"

struct verb {
	const char *name;
	const struct cli_cmd *cmd;
	const char *summary;
};

static const struct verb verbs[] = {
	{ "check", &check_cmd, "audit this machine (or a snapshot) against the checklist" },
	{ "snapshot", &snapshot_cmd, "capture the files check reads into a directory, for --root" },
	{ "latency", &latency_cmd, "measure wake-up latency per CPU (cyclictest-class, with percentiles)" },
	{ "load", &load_cmd, "generate messaging, CPU, memory and OOM load (hackbench-class)" },
	{ "inspect", &inspect_cmd, "apply the checklist to running processes, thread by thread" },
	{ "run", &run_cmd, "start a program with RT settings, a budget, and the runtime checker" },
	{ "noise", &noise_cmd, "name the cause of every gap on CPUs that spin (oslat-class)" },
	{ "pi", &pi_cmd, "prove that priority inheritance bounds lock waits on this system" },
	{ "plan", &plan_cmd, "choose the RT CPUs from the topology and write the boot line" },
	{ "tune", &tune_cmd, "apply the runtime fixes with a crash-safe revert; write boot files" },
	{ "verify", &verify_cmd, "the main job: check, latency idle and under load, one verdict and report" },
	{ "report", &report_cmd, "render results as one HTML page, JUnit XML and Prometheus text" },
};

static void usage(FILE *out)
{
	fprintf(out, "Usage: rtready COMMAND [OPTIONS]\n"
		     "       rtready COMMAND --help\n\n"
		     "The realtime Linux developer's checklist: check a machine, measure it, prove it.\n\n"
		     "Commands:\n");
	for (size_t i = 0; i < sizeof(verbs) / sizeof(verbs[0]); i++)
		fprintf(out, "  %-10s %s\n", verbs[i].name, verbs[i].summary);
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
	for (size_t i = 0; i < sizeof(verbs) / sizeof(verbs[0]); i++) {
		if (argc < 3)
			printf("%s\n", verbs[i].name);
		else if (strcmp(argv[2], verbs[i].name) == 0)
			cli_complete(stdout, verbs[i].cmd);
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
	for (size_t i = 0; i < sizeof(verbs) / sizeof(verbs[0]); i++)
		if (strcmp(argv[1], verbs[i].name) == 0)
			return cli_main(verbs[i].cmd, argc - 1, argv + 1);
	fprintf(stderr, "rtready: '%s' is not a command; see 'rtready --help'\n", argv[1]);
	return EXIT_USAGE;
}

int main(int argc, char **argv)
{
	return close_stdout(run(argc, argv));
}
