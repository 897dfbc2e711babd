/* SPDX-License-Identifier: MIT */
/*
 * What the subcommands share: their entry points (one file each), the exit
 * codes of docs/CONTRACTS.md, and small helpers to report errors and open outputs.
 * Each subcommand parses argv into its own options struct with a parse
 * function that never exits, then runs on the struct.
 */
#ifndef RTR_CLI_CLI_H
#define RTR_CLI_CLI_H

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>

#include "core/report.h"
#include "probe/host.h"
#include "rtready/cpuset.h"

enum {
	EXIT_OK = 0,
	EXIT_FINDINGS = 1,	/* a check, threshold or finding failed */
	EXIT_USAGE = 2,		/* bad usage, or the tool could not do its job */
};

enum output_format { FORMAT_TEXT, FORMAT_JSON };

/* Subcommand entry points: argv[0] is the subcommand name. */
int cmd_check(int argc, char **argv);
int cmd_snapshot(int argc, char **argv);
int cmd_latency(int argc, char **argv);
int cmd_load(int argc, char **argv);
int cmd_inspect(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_tune(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_pi(int argc, char **argv);
int cmd_noise(int argc, char **argv);
int cmd_plan(int argc, char **argv);

/* "rtready: CMD: message" on stderr. */
void cli_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void cli_warn(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Print "rtready VERSION" for --version. */
void cli_version(void);

/*
 * The common end of option parsing: on a parse error (@parse_rc != 0)
 * print "rtready: CMD: @err" and a hint, and return EXIT_USAGE; for --help
 * print @usage, for --version the version, and return EXIT_OK. Return: -1
 * when the command should run.
 */
int cli_parsed(const char *cmd, int parse_rc, const char *err, bool help, bool version,
	       const char *usage);

/*
 * Option helpers: fill *out from @arg, or write a message into @err
 * (size @errlen) and return -EINVAL. They never print or exit.
 */
int cli_parse_format(const char *arg, enum output_format *out, char *err, size_t errlen);
int cli_parse_root(const char *arg, const char **out, char *err, size_t errlen);
int cli_parse_cpulist(const char *opt, const char *arg, struct rtr_cpuset *out, char *err,
		      size_t errlen);
/*
 * --rt-cpus (and latency's --affinity): a CPU list, or "auto" / "auto:N" for
 * the choice of `rtready plan` (N CPUs; without N, all it can spare). *@auto_n
 * is 0 for a list and N + 1 for auto; the plan itself is made later, under
 * the command's root, by cli_resolve_rt_cpus().
 */
int cli_parse_rt_cpus(const char *opt, const char *arg, struct rtr_cpuset *out, size_t *auto_n,
		      char *err, size_t errlen);
/*
 * With @auto_n set, plan the RT CPUs under @root into @cpus (no-op
 * otherwise); a plan that cannot be made is printed as
 * "rtready: CMD: OPT auto: why". Return: 0 or -errno.
 */
int cli_resolve_rt_cpus(const char *cmd, const char *opt, const char *root, size_t auto_n,
			struct rtr_cpuset *cpus);

/*
 * Output files (--output, --histfile, --report, ...). NULL, "-", and the
 * file that standard output already is, go to stdout. A device, a FIFO or a
 * file reached through /proc is written in place and never replaced. A
 * regular file or a new name is written to a temporary file beside it and
 * renamed over it by cli_output_close(), keeping the old mode and owner, so
 * an error half way never leaves a truncated result and a link stays a link.
 */
struct cli_output {
	FILE *fp;
	char *path;	/* final name (links resolved); NULL when not renamed */
	char *tmp;	/* temporary name */
	bool in_place;	/* fp is our own stream on a device, FIFO or /proc file */
	char *pending;	/* cli_output_reserve(): the name, until cli_output_ready() */
};
/* Return: 0 or -errno. */
int cli_output_open(struct cli_output *o, const char *path);
/*
 * For a result that takes long to make: standard output and outputs written
 * in place are opened now (as cli_output_open()); for a file to be replaced
 * or created, only check that it can be written (cli_output_check()) and
 * leave fp NULL, so that no temporary file waits beside it for the whole
 * run (a kill -9 would leave it behind). cli_output_ready() then opens it.
 * cli_output_close() of an output never made ready is a no-op.
 * Return: 0 or -errno.
 */
int cli_output_reserve(struct cli_output *o, const char *path);
/* Open what cli_output_reserve() put off (no-op when open). Return: 0 or -errno. */
int cli_output_ready(struct cli_output *o);
/* Return: 0 or -errno; with @ok false the temporary file is removed. */
int cli_output_close(struct cli_output *o, bool ok);
/*
 * Would cli_output_open(@path) work? Checked before a long job starts, so
 * that an hour of measurement is not lost to an unwritable path at its end.
 * Leaves nothing behind. Return: 0 or -errno.
 */
int cli_output_check(const char *path);
/* True when @out names the same file as the existing input @in. */
int cli_output_is_input(const char *out, const char *in);

/*
 * A file a command reads or writes, for cli_check_collisions(): @what names
 * it in a message ("--json", "the program"), @path as the user gave it (NULL
 * when not used).
 */
struct cli_file {
	const char *what;
	const char *path;
};

/*
 * Before anything is written: refuse an output that names one of the inputs
 * (the result would replace it) or the same file as another output (only the
 * last one written would be kept). Names are compared after resolution: the
 * same inode where the file exists (links, "./x" and "x"), else the same
 * real directory and name. Standard output ("-", NULL) and outputs written
 * in place (devices, FIFOs, /proc files) take any number of writers and are
 * left out. Return: 0, or -EINVAL after printing the two names
 * ("rtready: CMD: ...").
 */
int cli_check_collisions(const char *cmd, const struct cli_file *outs, size_t n_outs,
			 const struct cli_file *ins, size_t n_ins);

/*
 * Fill a report's host block from the host facts (@root as given).
 * Return: 0 or -ENOMEM.
 */
int cli_host_info(const struct host_facts *h, const char *root, struct host_info *out)
	__attribute__((warn_unused_result));

/*
 * The host block of a command that runs on this machine and has no other use
 * for the host facts (pi, load, run): probed under "/". Unread facts are left
 * empty. Return: 0 or -ENOMEM.
 */
int cli_host_live(struct host_info *out) __attribute__((warn_unused_result));

/* Colour on a terminal only, never with NO_COLOR set. */
bool cli_use_color(FILE *fp);

/* The handlers cli_stop_catch() replaced, for cli_stop_release(). */
struct cli_stop {
	struct sigaction old_int, old_term;
};

/*
 * Catch SIGINT and SIGTERM (without SA_RESTART, so that a wait is cut
 * short) into the one stop flag of the command, cleared first; @saved (if
 * not NULL) keeps the handlers it replaced. Return: the flag, which holds
 * the number of the signal once one came, else 0.
 */
const volatile sig_atomic_t *cli_stop_catch(struct cli_stop *saved);

/* Put back the handlers cli_stop_catch() saved in @saved. */
void cli_stop_release(const struct cli_stop *saved);

#endif
