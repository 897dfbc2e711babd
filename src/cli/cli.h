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
#include "render/format.h"
#include "target/target.h"
#include "util/output.h"
#include "rtready/cpuset.h"
#include "rtready/thread.h"

enum {
	EXIT_OK = 0,
	EXIT_FINDINGS = 1,	/* a check, threshold or finding failed */
	EXIT_USAGE = 2,		/* bad usage, or the tool could not do its job */
};


/* Each subcommand: its options, help, completion and entry (src/cli/opt.h, cli_main()). */
struct cli_cmd;
extern const struct cli_cmd check_cmd, snapshot_cmd, latency_cmd, load_cmd, inspect_cmd,
	run_cmd, tune_cmd, report_cmd, verify_cmd, pi_cmd, plan_cmd, noise_cmd;

/* "rtready: CMD: message" on stderr. */
void cli_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void cli_warn(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Print "rtready VERSION" for --version. */
void cli_version(void);

/*
 * Option helpers: fill *out from @arg, or write a message into @err
 * (size @errlen) and return -EINVAL. They never print or exit.
 */
int cli_parse_format(const char *arg, enum output_format *out, char *err, size_t errlen);
int cli_parse_root(const char *arg, const char **out, char *err, size_t errlen);
/*
 * --policy: a name rtr_policy_from_name() knows ("fifo", "SCHED_RR", ...)
 * of a policy in @allowed (a bit 1u << policy each); else "--policy: 'ARG'
 * is not @names".
 */
int cli_parse_policy(const char *arg, unsigned int allowed, const char *names,
		     enum rtr_policy *out, char *err, size_t errlen);
/* Refuse an empty file name: "@opt: the name is empty". */
int cli_nonempty(const char *opt, const char *arg, char *err, size_t errlen);

/*
 * The printer of the steps below cli (src/util/say.h): each line they hand
 * it is printed as "rtready: CMD: line", a warning with "warning: ".
 */
void cli_say_line(void *cmd, bool warning, const char *line);
#define CLI_SAY(cmd) { cli_say_line, (void *)(cmd) }

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

/*
 * The services above, for a job of src/job (struct job_ui, src/job/job.h)
 * of command @cmd; @saved: where cli_stop_catch() keeps the handlers it
 * replaces.
 */
#define CLI_JOB_UI(cmd, saved) { CLI_SAY(cmd), cli_use_color, cli_stop_catch, cli_stop_release, \
	(saved) }

#endif
