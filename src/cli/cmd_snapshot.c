// SPDX-License-Identifier: MIT
/*
 * rtready snapshot DIR: capture exactly the files `check` reads, so that
 * `rtready check --root DIR` on another machine audits this one. The facts
 * are gathered once with a recorder on the root (every successful read
 * reports its path and bytes); the recorded files are then written under
 * DIR with their own paths, plus DIR/rtready-snapshot.json describing the
 * capture. Writing never leaves DIR: each path is checked, directories are
 * walked with O_NOFOLLOW, and files are created without following links.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/opt.h"
#include "cli/cmd_snapshot.h"
#include "render/snapshot.h"
#include "target/snapshot.h"

static const struct cli_opt snapshot_opts[] = {
	{ "root", 'r', CLI_ARG, "SRC",
	  "capture the tree under SRC instead of the live system", "@dir", CLI_SH_ROOT },
	{ "force", 'f', CLI_NOARG, NULL,
	  "write into DIR even when it is not empty", NULL, CLI_OWN },
	CLI_OPT_HELP('h'),
	CLI_OPT_VERSION,
};

const struct cli_cmd snapshot_cmd = {
	"snapshot",
	"Usage: rtready snapshot [OPTIONS] DIR\n"
	"\n"
	"Copy every file that 'rtready check' reads (under /proc, /sys, /etc, /boot)\n"
	"into DIR, keeping their paths, so that 'rtready check --root DIR' audits this\n"
	"machine from anywhere. DIR/rtready-snapshot.json records the host, date, version\n"
	"and file count.\n"
	"\n",
	CLI_CMD_OPTS(snapshot_opts), 19,
	"\n"
	"Exit status: 0 written, 2 usage error or the snapshot could not be written.\n",
	CLI_OPERANDS,
};

int snapshot_opts_parse(int argc, char **argv, struct snapshot_opts *o, char *err, size_t errlen)
{
	struct cli_parse p;
	const struct cli_common com = { &o->help, &o->version, NULL, NULL, &o->root, NULL };
	int c;

	memset(o, 0, sizeof(*o));
	o->root = "/";
	cli_parse_begin(&p, &snapshot_cmd, &com, argc, argv);
	while ((c = cli_next(&p, err, errlen)) > 0) {
		switch (c) {
		case 'f':
			o->force = true;
			break;
		}
	}
	if (c < 0)
		return c;
	if (o->help || o->version)
		return 0;
	if (optind >= argc) {
		snprintf(err, errlen, "missing the directory to write (rtready snapshot DIR)");
		return -EINVAL;
	}
	if (optind + 1 < argc) {
		snprintf(err, errlen, "unexpected argument '%s'", argv[optind + 1]);
		return -EINVAL;
	}
	o->dir = argv[optind];
	if (!*o->dir) {
		snprintf(err, errlen, "the directory name is empty");
		return -EINVAL;
	}
	return 0;
}

static void say_line(void *cmd, bool warning, const char *line)
{
	(warning ? cli_warn : cli_error)(cmd, "%s", line);
}

/* The snapshot (src/target/snapshot.c), then what it wrote and left out. */
static int snapshot_run(const struct snapshot_opts *o)
{
	const struct say say = { say_line, "snapshot" };
	struct snapshot snap;
	int err = target_snapshot(o->dir, o->root, o->force, snapshot_meta_text, &say, &snap);

	if (!err) {
		printf("%zu files and %zu links from %s written to %s\n", snap.files, snap.links,
		       o->root, o->dir);
		target_snapshot_left(o->root, &snap, &say);
	}
	snapshot_free(&snap);
	return err;
}

int cmd_snapshot(int argc, char **argv)
{
	struct snapshot_opts o;
	char err[512] = "";
	int rc = snapshot_opts_parse(argc, argv, &o, err, sizeof(err));

	rc = cli_parsed(&snapshot_cmd, rc, err, o.help, o.version);
	if (rc >= 0)
		return rc;
	return snapshot_run(&o) ? EXIT_USAGE : EXIT_OK;
}
