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

struct verb {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static const struct verb verbs[] = {
	{ "check", cmd_check, "audit this machine (or a snapshot) against the checklist" },
	{ "snapshot", cmd_snapshot, "capture the files check reads into a directory, for --root" },
	{ "latency", cmd_latency, "measure wake-up latency per CPU (cyclictest-class, with percentiles)" },
	{ "load", cmd_load, "generate messaging, CPU, memory and OOM load (hackbench-class)" },
	{ "inspect", cmd_inspect, "apply the checklist to running processes, thread by thread" },
	{ "run", cmd_run, "start a program with RT settings, a budget, and the runtime checker" },
	{ "noise", cmd_noise, "name the cause of every gap on CPUs that spin (oslat-class)" },
	{ "pi", cmd_pi, "prove that priority inheritance bounds lock waits on this system" },
	{ "plan", cmd_plan, "choose the RT CPUs from the topology and write the boot line" },
	{ "tune", cmd_tune, "apply the runtime fixes with a crash-safe revert; write boot files" },
	{ "verify", cmd_verify, "the main job: check, latency idle and under load, one verdict and report" },
	{ "report", cmd_report, "render results as one HTML page, JUnit XML and Prometheus text" },
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
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
		cli_version();
		return EXIT_OK;
	}
	for (size_t i = 0; i < sizeof(verbs) / sizeof(verbs[0]); i++)
		if (strcmp(argv[1], verbs[i].name) == 0)
			return verbs[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "rtready: '%s' is not a command; see 'rtready --help'\n", argv[1]);
	return EXIT_USAGE;
}

int main(int argc, char **argv)
{
	return close_stdout(run(argc, argv));
}
