// SPDX-License-Identifier: MIT
/* Helpers shared by the subcommands; see cli.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/opt.h"
#include "job/job.h"
#include "util/fileio.h"
#include "util/parse.h"

__attribute__((format(printf, 3, 0)))
static void vmsg(const char *kind, const char *cmd, const char *fmt, va_list ap)
{
	fputs("rtready: ", stderr);
	if (cmd)
		fprintf(stderr, "%s: ", cmd);
	if (kind)
		fputs(kind, stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void cli_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(NULL, cmd, fmt, ap);
	va_end(ap);
}

void cli_warn(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("warning: ", cmd, fmt, ap);
	va_end(ap);
}

void cli_say_line(void *cmd, bool warning, const char *line)
{
	(warning ? cli_warn : cli_error)(cmd, "%s", line);
}

void cli_version(void)
{
	printf("rtready %s\n", RTR_VERSION);
}

int cli_main(const struct cli_cmd *c, int argc, char **argv)
{
	/* On the heap: rtready runs under ulimit -s 32, and some options structs are large. */
	char *o = calloc(1, c->size), err[1024] = "";
	int rc;

	if (!o) {
		cli_error(c->name, "%s", strerror(ENOMEM));
		return EXIT_USAGE;
	}
	rc = cli_parse_cmd(c, argc, argv, o, err, sizeof(err));
	if (rc) {
		cli_error(c->name, "%s", err);
		fprintf(stderr, "Try 'rtready %s --help'.\n", c->name);
		rc = EXIT_USAGE;
	} else if (*(bool *)(o + c->help_at)) {
		cli_usage(stdout, c);
	} else if (*(bool *)(o + c->version_at)) {
		cli_version();
	} else if (c->job) {
		struct cli_stop saved;

		rc = c->job(o, &(const struct job_ui)CLI_JOB_UI(c->name, &saved));
	} else {
		rc = c->run(o);
	}
	if (c->release)
		c->release(o);
	free(o);
	return rc;
}

int cli_parse_format(const char *arg, enum output_format *out, char *err, size_t errlen)
{
	if (strcmp(arg, "text") == 0)
		*out = FORMAT_TEXT;
	else if (strcmp(arg, "json") == 0)
		*out = FORMAT_JSON;
	else {
		snprintf(err, errlen, "--format: '%s' is not one of text, json", arg);
		return -EINVAL;
	}
	return 0;
}

int cli_parse_root(const char *arg, const char **out, char *err, size_t errlen)
{
	/* An empty name would resolve to the working directory or, worse, to "/". */
	if (!*arg) {
		snprintf(err, errlen, "--root: empty directory name (use --root / for this machine)");
		return -EINVAL;
	}
	*out = arg;
	return 0;
}

int cli_parse_policy(const char *arg, unsigned int allowed, const char *names,
		     enum rtr_policy *out, char *err, size_t errlen)
{
	enum rtr_policy p;

	if (rtr_policy_from_name(arg, &p) || !(allowed & 1u << p)) {
		snprintf(err, errlen, "--policy: '%s' is not %s", arg, names);
		return -EINVAL;
	}
	*out = p;
	return 0;
}

int cli_nonempty(const char *opt, const char *arg, char *err, size_t errlen)
{
	if (*arg)
		return 0;
	snprintf(err, errlen, "%s: the name is empty", opt);
	return -EINVAL;
}

bool cli_use_color(FILE *fp)
{
	const char *nc = getenv("NO_COLOR");
	const char *term = getenv("TERM");

	if (nc && *nc)
		return false;
	if (term && strcmp(term, "dumb") == 0)
		return false;
	return isatty(fileno(fp));
}

/*
 * The only mutable state at file scope in src/cli (docs/ARCHITECTURE.md):
 * a signal handler is called with no context, so the flag it sets cannot be
 * handed to it, and each command runs once per process.
 */
static volatile sig_atomic_t stop_signal;

static void on_stop_signal(int sig)
{
	stop_signal = sig;
}

const volatile sig_atomic_t *cli_stop_catch(struct cli_stop *saved)
{
	struct sigaction sa = { .sa_handler = on_stop_signal };

	stop_signal = 0;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, saved ? &saved->old_int : NULL);
	sigaction(SIGTERM, &sa, saved ? &saved->old_term : NULL);
	return &stop_signal;
}

void cli_stop_release(const struct cli_stop *saved)
{
	sigaction(SIGINT, &saved->old_int, NULL);
	sigaction(SIGTERM, &saved->old_term, NULL);
}
