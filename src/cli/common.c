// SPDX-License-Identifier: MIT
/* Helpers shared by the subcommands; see cli.h. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"

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

void cli_version(void)
{
	printf("rtready %s\n", RTR_VERSION);
}

int cli_parsed(const char *cmd, int parse_rc, const char *err, bool help, bool version,
	       const char *usage)
{
	if (parse_rc) {
		cli_error(cmd, "%s", err);
		fprintf(stderr, "Try 'rtready %s --help'.\n", cmd);
		return EXIT_USAGE;
	}
	if (help) {
		fputs(usage, stdout);
		return EXIT_OK;
	}
	if (version) {
		cli_version();
		return EXIT_OK;
	}
	return -1;
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

int cli_parse_cpulist(const char *opt, const char *arg, struct rtr_cpuset *out, char *err,
		      size_t errlen)
{
	int rc = rtr_cpuset_parse_list(out, arg);

	if (rc == -ERANGE) {
		snprintf(err, errlen, "%s: '%s': CPU number too large", opt, arg);
		return -EINVAL;
	}
	if (rc) {
		snprintf(err, errlen, "%s: '%s' is not a CPU list (like 0-3,8,10-11)", opt, arg);
		return -EINVAL;
	}
	if (rtr_cpuset_is_empty(out)) {
		snprintf(err, errlen, "%s: empty CPU list", opt);
		return -EINVAL;
	}
	return 0;
}

int cli_output_open(struct cli_output *o, const char *path)
{
	int fd;

	memset(o, 0, sizeof(*o));
	if (!path || strcmp(path, "-") == 0) {
		o->fp = stdout;
		return 0;
	}
	o->path = strdup(path);
	if (!o->path || asprintf(&o->tmp, "%s.tmp.XXXXXX", path) < 0) {
		free(o->path);
		o->path = NULL;
		o->tmp = NULL;
		return -ENOMEM;
	}
	fd = mkstemp(o->tmp);
	if (fd < 0) {
		int err = -errno;

		free(o->path);
		free(o->tmp);
		memset(o, 0, sizeof(*o));
		return err;
	}
	o->fp = fdopen(fd, "w");
	if (!o->fp) {
		int err = -errno;

		close(fd);
		unlink(o->tmp);
		free(o->path);
		free(o->tmp);
		memset(o, 0, sizeof(*o));
		return err;
	}
	return 0;
}

int cli_output_close(struct cli_output *o, bool ok)
{
	int err = 0;

	if (!o->fp)
		return 0;
	if (!o->path) {
		if (fflush(o->fp) == EOF)
			err = -errno;
		o->fp = NULL;
		return err;
	}
	if (fflush(o->fp) == EOF || fsync(fileno(o->fp)) < 0)
		err = -errno;
	if (fclose(o->fp) == EOF && !err)
		err = -errno;
	o->fp = NULL;
	if (ok && !err) {
		if (chmod(o->tmp, 0644) < 0 || rename(o->tmp, o->path) < 0)
			err = -errno;
	}
	if (!ok || err)
		unlink(o->tmp);
	free(o->path);
	free(o->tmp);
	o->path = o->tmp = NULL;
	return err;
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
