// SPDX-License-Identifier: MIT
/* Readers and parsers of mountinfo and /proc/PID/cgroup; see cgroupfs.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "probe/cgroupfs.h"

#define MAX_LINES 100000

/* mountinfo escapes blanks and backslashes in paths as \ooo. */
static void unescape_octal(char *s)
{
	char *w = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*w++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*w++ = *s;
		}
	}
	*w = '\0';
}

bool cgroupfs_list_has(const char *list, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = list; p && *p;) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);

		if (len == n && strncmp(p, word, n) == 0)
			return true;
		p = end ? end + 1 : NULL;
	}
	return false;
}

static void copy_path(char *dst, const char *src)
{
	snprintf(dst, PATH_MAX, "%s", src);
	unescape_octal(dst);
}

/*
 * One mountinfo line, e.g.
 *   31 30 0:28 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu
 *   40 30 0:37 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw
 * fields: id parent dev root mountpoint options [optional...] - type source superoptions
 */
static bool parse_mount_line(char *line, struct cgroup_mounts *out)
{
	char *tok[64], *save = NULL;
	int n = 0, dash = -1;

	for (char *t = strtok_r(line, " ", &save); t && n < 64; t = strtok_r(NULL, " ", &save)) {
		if (dash < 0 && n >= 6 && strcmp(t, "-") == 0)
			dash = n;
		tok[n++] = t;
	}
	if (dash < 0 || n < dash + 4)
		return false;
	if (strcmp(tok[dash + 1], "cgroup2") == 0) {
		if (!out->v2[0]) {
			copy_path(out->v2, tok[4]);
			copy_path(out->v2_root, tok[3]);
		}
	} else if (strcmp(tok[dash + 1], "cgroup") == 0) {
		const char *opts = tok[dash + 3];

		if (cgroupfs_list_has(opts, "cpu") && !out->v1_cpu[0]) {
			copy_path(out->v1_cpu, tok[4]);
			copy_path(out->v1_cpu_root, tok[3]);
		}
		if (cgroupfs_list_has(opts, "cpuset") && !out->v1_cpuset[0])
			copy_path(out->v1_cpuset, tok[4]);
		if (cgroupfs_list_has(opts, "memory") && !out->v1_memory[0]) {
			copy_path(out->v1_memory, tok[4]);
			copy_path(out->v1_memory_root, tok[3]);
		}
	}
	return true;
}

/*
 * Call @fn on each line of a copy of @text.
 * Return: 0 when @fn took a line, -EINVAL when it took none, -ENOMEM.
 */
static int parse_lines(const char *text, bool (*fn)(char *, void *), void *ctx)
{
	char *copy = strdup(text), *save = NULL;
	int parsed = 0, lines = 0;

	if (!copy)
		return -ENOMEM;
	for (char *l = strtok_r(copy, "\n", &save); l && lines < MAX_LINES;
	     l = strtok_r(NULL, "\n", &save), lines++)
		if (fn(l, ctx))
			parsed++;
	free(copy);
	return parsed > 0 ? 0 : -EINVAL;
}

static bool mount_cb(char *line, void *ctx)
{
	return parse_mount_line(line, ctx);
}

int cgroup_parse_mountinfo(const char *text, struct cgroup_mounts *out)
{
	memset(out, 0, sizeof(*out));
	return parse_lines(text, mount_cb, out);
}

int cgroup_parse_mounts(const char *text, size_t len, struct cgroup_mounts *out)
{
	const char *p = text, *end = text + len;
	unsigned int lines = 0, parsed = 0;

	memset(out, 0, sizeof(*out));
	while (p < end && lines++ < MAX_LINES) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p);
		char line[1024], dev[256], mnt[256], type[64], opts[512];

		if (n < sizeof(line) && !memchr(p, '\0', n)) {
			memcpy(line, p, n);
			line[n] = '\0';
			if (sscanf(line, "%255s %255s %63s %511s", dev, mnt, type, opts) == 4) {
				char rebuilt[1700];

				/* Rebuild it as a mountinfo line: one reading of the fields. */
				snprintf(rebuilt, sizeof(rebuilt), "0 0 0:0 / %s %s - %s %s %s", mnt,
					 opts, type, dev, opts);
				if (parse_mount_line(rebuilt, out))
					parsed++;
			}
		}
		if (!nl)
			break;
		p = nl + 1;
	}
	return parsed ? 0 : -EINVAL;
}

/*
 * One /proc/self/cgroup line: "0::/user.slice/x.scope" (v2) or
 * "4:memory:/process_api/ae06" and "2:cpu,cpuacct:/" (v1).
 */
static bool self_cb(char *line, void *ctx)
{
	struct cgroup_self *out = ctx;
	char *c1 = strchr(line, ':'), *c2;

	if (!c1)
		return false;
	c2 = strchr(c1 + 1, ':');
	if (!c2 || c2[1] != '/')
		return false;
	*c1 = *c2 = '\0';
	if (strcmp(line, "0") == 0 && c1 + 1 == c2) {
		copy_path(out->v2, c2 + 1);
		return true;
	}
	if (cgroupfs_list_has(c1 + 1, "cpu"))
		copy_path(out->v1_cpu, c2 + 1);
	if (cgroupfs_list_has(c1 + 1, "memory"))
		copy_path(out->v1_memory, c2 + 1);
	return true;
}

int cgroup_parse_self(const char *text, struct cgroup_self *out)
{
	memset(out, 0, sizeof(*out));
	return parse_lines(text, self_cb, out);
}

/*
 * The directory of cgroup @path (as /proc/self/cgroup names it) in a
 * hierarchy mounted at @mnt whose root is @mroot. A path outside the
 * mount's root (another namespace's view) falls back to the mount itself.
 */
int cgroup_read_mounts(const struct rootfs *fs, struct cgroup_mounts *out)
{
	char *text = NULL;
	size_t len;
	int err = rootfs_read(fs, "/proc/self/mountinfo", ROOTFS_CAP_LARGE, &text, &len);

	if (!err) {
		err = cgroup_parse_mountinfo(text, out);
		free(text);
		return err;
	}
	/* "cgroup /sys/fs/cgroup/cpu cgroup rw,cpu 0 0": mount point, type, options. */
	if (rootfs_read(fs, "/proc/self/mounts", ROOTFS_CAP_LARGE, &text, &len))
		return err;
	err = cgroup_parse_mounts(text, len, out);
	free(text);
	return err;
}

int cgroup_read_self(const struct rootfs *fs, struct cgroup_self *out)
{
	char *text = NULL;
	size_t len;
	int err = rootfs_read(fs, "/proc/self/cgroup", ROOTFS_CAP_DEFAULT, &text, &len);

	if (err)
		return err;
	err = cgroup_parse_self(text, out);
	free(text);
	return err;
}

int cgroupfs_dir(char *out, size_t len, const char *mnt, const char *mroot, const char *path)
{
	size_t rl = strlen(mroot);
	const char *rest = path;
	int n;

	if (strcmp(mroot, "/") != 0) {
		if (strncmp(path, mroot, rl) == 0 && (path[rl] == '/' || path[rl] == '\0'))
			rest = path + rl;
		else
			rest = "";
	}
	if (strcmp(rest, "/") == 0)
		rest = "";
	n = snprintf(out, len, "%s%s", mnt, rest);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int cgroupfs_lists(const struct rootfs *fs, const char *dir, const char *file,
		   const char *const *names)
{
	char buf[512];
	int err = cgroupfs_read(fs, dir, file, buf, sizeof(buf));

	if (err)
		return err;
	for (char *p = buf; *p; p++)
		if (*p == ' ')
			*p = ',';
	for (; *names; names++)
		if (!cgroupfs_list_has(buf, *names))
			return 0;
	return 1;
}

int cgroupfs_parse_key(const char *text, const char *key, uint64_t *value)
{
	size_t kl = strlen(key);

	/* Lines of "key value", as in memory.events: "low 0\nhigh 0\nmax 12\noom 1\noom_kill 1\n". */
	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		unsigned long long v;
		char *end;

		if (strncmp(p, key, kl) != 0 || p[kl] != ' ')
			continue;
		errno = 0;
		v = strtoull(p + kl + 1, &end, 10);
		if (end == p + kl + 1 || errno || (*end && *end != '\n'))
			return -EINVAL;
		*value = v;
		return 0;
	}
	return -ENOENT;
}

/* ---- the live hierarchy ---- */

static int join(char *out, size_t len, const char *dir, const char *file)
{
	int n = snprintf(out, len, "%s/%s", dir, file);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int cgroupfs_write(const struct rootfs *fs, const char *dir, const char *file, const char *text)
{
	char path[PATH_MAX + 64];
	int err = join(path, sizeof(path), dir, file);

	return err ? err : rootfs_write(fs, path, text, strlen(text));
}

int cgroupfs_move_thread(const struct rootfs *fs, const char *dir, long tid)
{
	char num[24];

	if (tid <= 0 || tid > INT32_MAX)
		return -EINVAL;
	snprintf(num, sizeof(num), "%ld", tid);
	return cgroupfs_write(fs, dir, "cgroup.threads", num);
}

int cgroupfs_read(const struct rootfs *fs, const char *dir, const char *file, char *buf,
		  size_t len)
{
	char path[PATH_MAX + 64];
	int err = join(path, sizeof(path), dir, file);

	return err ? err : rootfs_read_str(fs, path, buf, len);
}

int cgroupfs_mkdir_fresh(const struct rootfs *fs, const char *dir)
{
	int err = rootfs_mkdir(fs, dir, 0755);

	/* A leftover of an earlier run with the same name: empty, so removable. */
	if (err == -EEXIST && rootfs_rmdir(fs, dir) == 0)
		err = rootfs_mkdir(fs, dir, 0755);
	return err;
}

int cgroupfs_rmdir_wait(const struct rootfs *fs, const char *dir, int tries, long pause_ns)
{
	struct timespec pause = { pause_ns / 1000000000L, pause_ns % 1000000000L };
	int err;

	for (int i = 0;; i++) {
		err = rootfs_rmdir(fs, dir);
		if (err == -ENOENT)
			return 0;
		if (err != -EBUSY || i + 1 >= tries)
			return err;
		nanosleep(&pause, NULL);
	}
}
