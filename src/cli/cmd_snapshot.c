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
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <dirent.h>

#include "cli/cli.h"
#include "cli/opt.h"
#include "cli/cmd_snapshot.h"
#include "probe/facts.h"
#include "probe/snapshot.h"
#include "render/json.h"

#define META_NAME SNAPSHOT_META_NAME

static int snapshot_main(void *opts);

static const struct cli_opt snapshot_opts[] = {
	{ "root", 'r', CLI_ARG, "SRC",
	  "capture the tree under SRC instead of the live system", "@dir", CLI_SH_ROOT, 0 },
	CLI_OPT_SET("force", 'f', struct snapshot_opts, force,
		    "write into DIR even when it is not empty"),
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
	CLI_CMD_STRUCT(struct snapshot_opts), snapshot_opts_parse, snapshot_main, NULL,
};

int snapshot_opts_parse(int argc, char **argv, void *opts, char *err, size_t errlen)
{
	struct snapshot_opts *o = opts;
	const struct cli_common com = { &o->help, &o->version, NULL, NULL, &o->root, NULL };
	struct cli_parse p;
	int rc, first;

	memset(o, 0, sizeof(*o));
	o->root = "/";
	cli_parse_begin(&p, &snapshot_cmd, &com, o, argc, argv);
	rc = cli_parse(&p, NULL, err, errlen);
	if (rc)
		return rc;
	first = p.operand;
	if (o->help || o->version)
		return 0;
	if (first >= argc) {
		snprintf(err, errlen, "missing the directory to write (rtready snapshot DIR)");
		return -EINVAL;
	}
	if (first + 1 < argc) {
		snprintf(err, errlen, "unexpected argument '%s'", argv[first + 1]);
		return -EINVAL;
	}
	o->dir = argv[first];
	if (!*o->dir) {
		snprintf(err, errlen, "the directory name is empty");
		return -EINVAL;
	}
	return 0;
}

/* Create DIR (one level) or accept it empty, or non-empty with --force. */
static int open_target(const struct snapshot_opts *o)
{
	struct dirent *de;
	bool empty = true;
	DIR *d;
	int fd;

	if (mkdir(o->dir, 0755) < 0 && errno != EEXIST) {
		cli_error("snapshot", "cannot create %s: %s", o->dir, strerror(errno));
		return -errno;
	}
	fd = open(o->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		int err = -errno;

		cli_error("snapshot", "cannot open %s: %s", o->dir, strerror(-err));
		return err;
	}
	d = fdopendir(dup(fd));
	while (d && (de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			empty = false;
	if (d)
		closedir(d);
	if (!empty && !o->force) {
		cli_error("snapshot", "%s is not empty (use --force to write into it)", o->dir);
		close(fd);
		return -EEXIST;
	}
	return fd;
}

static void iso_date(char *buf, size_t len)
{
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static int write_meta(int top, const struct snapshot_opts *o, const struct rootfs *fs,
		      const struct facts *f, const struct snapshot *s)
{
	char hostname[256] = "", date[32], online[4096];
	struct host_info host = { 0 };
	json_t *j, *left;
	char *text, *line;
	size_t len;
	int err;

	/* Read outside the recording: it describes the capture, check never reads it. */
	if (rootfs_read_str(fs, "/proc/sys/kernel/hostname", hostname, sizeof(hostname)))
		hostname[0] = '\0';
	iso_date(date, sizeof(date));
	rtr_cpuset_format_list(&f->cpu.online, online, sizeof(online));
	host.kernel = (char *)f->kernel.release;
	host.cpus_online = online;
	host.rt_cpus = "";
	host.root = (char *)o->root;
	j = json_envelope("snapshot", &host);
	if (!j)
		return -ENOMEM;
	json_object_set_new(j, "hostname", json_text(hostname));
	json_object_set_new(j, "date", json_text(date));
	json_object_set_new(j, "files", json_integer((json_int_t)s->files));
	json_object_set_new(j, "links", json_integer((json_int_t)s->links));
	/* What check would have read but the capture refused, so --root shows why it skips. */
	left = json_array();
	for (size_t i = 0; left && i < s->n_left; i++)
		json_array_append_new(left, json_pack("{s:o, s:s}", "path",
						      json_text(s->left[i].path), "reason",
						      snapshot_left_reason(s->left[i].err)));
	json_object_set_new(j, "left_out", left);
	text = json_dumps(j, JSON_INDENT(2));
	json_decref(j);
	if (!text)
		return -ENOMEM;
	line = malloc(strlen(text) + 2);
	if (!line) {
		free(text);
		return -ENOMEM;
	}
	len = (size_t)sprintf(line, "%s\n", text);
	err = snapshot_write_file(top, "/" META_NAME, line, len);
	free(line);
	free(text);
	return err;
}

static int snapshot_run(const struct snapshot_opts *o)
{
	/* On the heap: the facts are tens of KiB (ulimit -s 32). */
	struct target *t = malloc(sizeof(*t));
	struct snapshot snap;
	const char *failed;
	char msg[4200];
	int top, err;

	err = t ? target_root(t, o->root, msg, sizeof(msg)) : -ENOMEM;
	if (err) {
		cli_error("snapshot", "%s", t ? msg : strerror(ENOMEM));
		free(t);
		return err;
	}
	top = open_target(o);
	if (top < 0) {
		target_close(t);
		free(t);
		return top;
	}
	err = snapshot_record(&t->fs, &snap, &t->facts);
	if (err) {
		cli_error("snapshot", "cannot gather and record the facts: %s", strerror(-err));
		goto out;
	}
	err = snapshot_write(top, &snap, &failed);
	if (err)
		cli_error("snapshot", "cannot write %s%s: %s", o->dir, failed, strerror(-err));
	if (!err) {
		err = write_meta(top, o, &t->fs, &t->facts, &snap);
		if (err)
			cli_error("snapshot", "cannot write %s/" META_NAME ": %s", o->dir,
				  strerror(-err));
	}
	if (!err) {
		printf("%zu files and %zu links from %s written to %s\n", snap.files, snap.links,
		       o->root, o->dir);
		if (snap.unsafe)
			cli_warn("snapshot", "%zu paths with unsafe names were left out",
				 snap.unsafe);
		for (size_t i = 0; i < snap.n_left; i++)
			cli_warn("snapshot", "not captured: %s%s: %s", strcmp(o->root, "/") ?
				 o->root : "", snap.left[i].path,
				 snapshot_left_reason(snap.left[i].err));
	}
out:
	close(top);
	target_close(t);
	free(t);
	snapshot_free(&snap);
	return err;
}

static int snapshot_main(void *opts)
{
	return snapshot_run(opts) ? EXIT_USAGE : EXIT_OK;
}
