/* SPDX-License-Identifier: MIT */
/*
 * The work of a command once its options are parsed (src/job): latency,
 * noise, pi and verify. A job takes the command's options struct, which
 * knows nothing of argv, opens its target, runs its measurements, renders
 * and decides the exit status. What belongs to the command line (its
 * message lines, colour on a terminal, the stop flag of SIGINT and
 * SIGTERM, the target and outputs opened with a message on failure) comes
 * in through struct job_ui, filled by src/cli (CLI_JOB_UI in cli.h).
 */
#ifndef RTR_JOB_JOB_H
#define RTR_JOB_JOB_H

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>

#include "target/target.h"
#include "util/output.h"
#include "util/say.h"

/* The exit codes of docs/CONTRACTS.md (cli.h's EXIT_OK, EXIT_FINDINGS, EXIT_USAGE). */
enum { JOB_OK = 0, JOB_FINDINGS = 1, JOB_FAILED = 2 };

struct cli_stop;

/*
 * The command line's services, each as src/cli/cli.h describes its cli_*
 * twin. A job says its errors and warnings through @say (util/say.h), as
 * the steps of run, tune, plan and snapshot do: the printer adds
 * "rtready: CMD: ".
 */
struct job_ui {
	struct say say;
	bool (*use_color)(FILE *fp);
	const volatile sig_atomic_t *(*stop_catch)(struct cli_stop *saved);
	void (*stop_release)(const struct cli_stop *saved);
	struct cli_stop *stop_saved;	/* where stop_catch() keeps the handlers it replaced */
};

/*
 * The command's target (src/target/target.h), on the heap: a target is tens
 * of KiB and rtready runs with ulimit -s 32. The planner's warning is said.
 * Return: the target (job_target_free() it), or NULL after saying why.
 */
struct target *job_target(const struct job_ui *ui, const char *root,
			  const struct rt_request *rt, unsigned int want);
void job_target_free(struct target *t);

/*
 * Before anything is written: output_collisions() (src/util/output.h), its
 * refusal said as CMD's error. Return: 0 or -EINVAL.
 */
int job_collisions(const struct job_ui *ui, const struct output_file *outs,
		   size_t n_outs, const struct output_file *ins, size_t n_ins);

/*
 * output_reserve(), output_ready() and output_close() (src/util/output.h)
 * that say "cannot write PATH: why" as CMD's error on failure. A failed
 * close of an output that was @written sets *@rc to JOB_FAILED.
 */
int job_out_reserve(const struct job_ui *ui, struct output *o, const char *path);
int job_out_ready(const struct job_ui *ui, struct output *o, const char *path);
void job_out_close(const struct job_ui *ui, struct output *o, const char *path,
		   bool written, int *rc);

/*
 * Write a command's result to @path (NULL or "-": standard output) through
 * @fn, the file replaced only once all of it was written
 * (src/util/output.h); a failure is said through @ui as "cannot write ...".
 * Return: 0 or -errno.
 */
typedef int job_write_fn(FILE *fp, const void *ctx);
int job_write(const struct job_ui *ui, const char *path, job_write_fn *fn,
	      const void *ctx);

/*
 * Remove the tracing instances a killed rtready left (their tracing would
 * cost the measurement), with a warning for each.
 */
void job_remove_stale_trace(const struct job_ui *ui);

/*
 * The target of a command that measures on the CPUs of @cpus (-a): auto or
 * auto:N are planned and become the RT CPUs of the report; a list only
 * chooses where to measure. With the target, @host gets the report's
 * host block (host_info_free() it). Return: the target (job_target_free()
 * it), or NULL after printing why.
 */
struct target *job_target_measure(const struct job_ui *ui, const struct rt_request *cpus,
				  struct host_info *host);

#endif
