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
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/opt.h"
#include "cli/cmd_snapshot.h"
#include "render/snapshot.h"
#include "target/snapshot.h"

static const struct cli_opt snapshot_opts[] = {
	{ "root", 'r', CLI_ARG, "SRC",
	  "capture the tree under SRC instead of the live system", "@dir", CLI_ROOT, offsetof(struct snapshot_opts, root) },
	CLI_OPT_SET("force", 'f', struct snapshot_opts, force,
		    "write into DIR even when it is not empty"),
};

static void snapshot_init(void *opts)
{
	((struct snapshot_opts *)opts)->root = "/";
}

static int snapshot_done(void *opts, int argc, char **argv, int first, char *err, size_t errlen)
{
	struct snapshot_opts *o = opts;

	if (first >= argc) {
		snprintf(err, errlen, "missing the directory to write (rtready snapshot DIR)");
		return -EINVAL;
	}
	if (first + 1 < argc) {
		snprintf(err, errlen, "unexpected argument '%s'", argv[first + 1]);
		return -EINVAL;
	}
	o->dir = argv[first];
	if (*o->dir)
		return 0;
	snprintf(err, errlen, "the directory name is empty");
	return -EINVAL;
}

/* The snapshot (src/target/snapshot.c), then what it wrote and left out. */
static int snapshot_main(void *opts)
{
	const struct snapshot_opts *o = opts;
	const struct say say = CLI_SAY("snapshot");
	struct snapshot snap;
	int err = target_snapshot(o->dir, o->root, o->force, snapshot_meta_text, &say, &snap);

	if (!err) {
		printf("%zu files and %zu links from %s written to %s\n", snap.files, snap.links,
		       o->root, o->dir);
		target_snapshot_left(o->root, &snap, &say);
	}
	snapshot_free(&snap);
	return err ? EXIT_USAGE : EXIT_OK;
}

const struct cli_cmd snapshot_cmd = {
	"snapshot",
	"capture the files check reads into a directory, for --root",
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
	CLI_CMD_STRUCT(struct snapshot_opts), .init = snapshot_init, .done = snapshot_done,
	.run = snapshot_main,
};
