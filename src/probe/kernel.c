// SPDX-License-Identifier: MIT
/*
 * The kernel probe; see kernel.h. The configuration is looked for where
 * distributions and build systems leave it: /proc/config.gz (CONFIG_IKCONFIG_PROC),
 * /boot/config-RELEASE (Debian, Fedora, ...), and the module build tree.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "probe/kernel.h"

int kernel_gunzip(const void *in, size_t in_len, size_t cap, char **out, size_t *out_len)
{
	z_stream zs;
	size_t size = 64u << 10, len = 0;
	char *buf = NULL, *nbuf;
	int zr, err = 0;

	*out = NULL;
	if (in_len > UINT32_MAX)
		return -EFBIG;
	memset(&zs, 0, sizeof(zs));
	/* 15 + 32: a zlib or gzip header, detected automatically. */
	if (inflateInit2(&zs, 15 + 32) != Z_OK)
		return -ENOMEM;
	zs.next_in = (Bytef *)in;
	zs.avail_in = (uInt)in_len;
	for (;;) {
		if (!buf || len + 1 >= size) {
			if (buf) {
				if (size > cap) {
					err = -EFBIG;
					break;
				}
				size *= 2;
			}
			nbuf = realloc(buf, size + 1);
			if (!nbuf) {
				err = -ENOMEM;
				break;
			}
			buf = nbuf;
		}
		zs.next_out = (Bytef *)buf + len;
		zs.avail_out = (uInt)(size - len);
		zr = inflate(&zs, Z_NO_FLUSH);
		len = size - zs.avail_out;
		if (len > cap) {
			err = -EFBIG;
			break;
		}
		if (zr == Z_STREAM_END)
			break;
		if (zr == Z_MEM_ERROR) {
			err = -ENOMEM;
			break;
		}
		if (zr != Z_OK) {
			err = -EINVAL;	/* corrupt, or Z_BUF_ERROR: truncated input */
			break;
		}
	}
	inflateEnd(&zs);
	if (err) {
		free(buf);
		return err;
	}
	buf[len] = '\0';
	*out = buf;
	*out_len = len;
	return 0;
}

int kernel_parse_release(const char *release, int *major, int *minor)
{
	char *end;
	long a, b;

	if (release[0] < '0' || release[0] > '9')
		return -EINVAL;
	a = strtol(release, &end, 10);
	if (*end != '.' || end[1] < '0' || end[1] > '9' || a > 1000)
		return -EINVAL;
	b = strtol(end + 1, &end, 10);
	if (b > 1000)
		return -EINVAL;
	*major = (int)a;
	*minor = (int)b;
	return 0;
}

static void tried(struct kernel_facts *k, const char *path, int err)
{
	size_t n = strlen(k->config_tried);

	snprintf(k->config_tried + n, sizeof(k->config_tried) - n, "%s%s: %s", n ? "; " : "",
		 path, strerror(-err));
	k->config_err = err;
}

static int try_config(const struct rootfs *fs, struct kernel_facts *k, const char *path,
		      bool gz)
{
	char *raw = NULL, *text = NULL;
	size_t len = 0, tlen = 0;
	int err;

	err = rootfs_read(fs, path, gz ? KERNEL_CONFIG_GZ_MAX : KCONFIG_TEXT_MAX, &raw, &len);
	if (!err && gz) {
		err = kernel_gunzip(raw, len, KCONFIG_TEXT_MAX, &text, &tlen);
		free(raw);
		raw = NULL;
	} else {
		text = raw;
		tlen = len;
	}
	if (!err)
		err = kconfig_parse(text, tlen, &k->config);
	free(text);
	if (err) {
		tried(k, path, err);
		return err;
	}
	snprintf(k->config_path, sizeof(k->config_path), "%s", path);
	k->config_err = 0;
	return 0;
}

static void probe_config(const struct rootfs *fs, struct kernel_facts *k)
{
	char path[256];

	if (try_config(fs, k, "/proc/config.gz", true) == 0)
		return;
	if (k->release_err) {
		/* Without the release the per-release paths cannot be named. */
		return;
	}
	if (rootfs_path(path, sizeof(path), "/boot/config-%s", k->release) == 0 &&
	    try_config(fs, k, path, false) == 0)
		return;
	if (rootfs_path(path, sizeof(path), "/lib/modules/%s/build/.config", k->release) == 0)
		try_config(fs, k, path, false);
}

static void probe_preempt(const struct rootfs *fs, struct kernel_facts *k)
{
	k->preempt_err = rootfs_read_debugfs(fs, "/sys/kernel/debug/sched/preempt",
					     k->preempt_modes, sizeof(k->preempt_modes),
					     &k->preempt_private);
	knob_sanitize(k->preempt_modes);
	if (k->preempt_err)
		k->preempt_modes[0] = '\0';
	else
		k->preempt_err = knob_active_choice(k->preempt_modes, '(', ')', k->preempt_active,
						    sizeof(k->preempt_active));
}

static void probe_cmdline(const struct rootfs *fs, struct kernel_facts *k)
{
	char *buf = NULL;
	size_t len = 0;

	k->cmdline_err = rootfs_read(fs, "/proc/cmdline", CMDLINE_TEXT_MAX, &buf, &len);
	if (!k->cmdline_err)
		k->cmdline_err = cmdline_parse(buf, len, &k->cmdline);
	free(buf);
}

/* A cpu list file (possibly empty, meaning no CPU) into @set. */
static int read_cpulist(const struct rootfs *fs, const char *path, struct rtr_cpuset *set)
{
	char *buf = NULL;
	size_t len;
	int err = rootfs_read(fs, path, ROOTFS_CAP_DEFAULT, &buf, &len);

	if (!err)
		err = memchr(buf, '\0', len) ? -EINVAL : rtr_cpuset_parse_list(set, buf);
	free(buf);
	return err;
}

void probe_kernel(const struct rootfs *fs, struct kernel_facts *k)
{
	memset(k, 0, sizeof(*k));
	k->major = k->minor = -1;
	k->release_err = rootfs_read_text(fs, "/proc/sys/kernel/osrelease", k->release,
					 sizeof(k->release));
	if (!k->release_err && kernel_parse_release(k->release, &k->major, &k->minor))
		k->major = k->minor = -1;
	if (!k->release_err && strchr(k->release, '/'))
		k->release_err = -EINVAL;	/* it becomes part of paths below */
	k->version_err = rootfs_read_text(fs, "/proc/sys/kernel/version", k->version,
					 sizeof(k->version));
	knob_sanitize(k->release);
	knob_sanitize(k->version);
	knob_read(fs, "/sys/kernel/realtime", &k->realtime);
	probe_preempt(fs, k);
	probe_cmdline(fs, k);
	probe_config(fs, k);

	knob_read(fs, "/proc/sys/kernel/watchdog", &k->watchdog);
	knob_read(fs, "/proc/sys/kernel/nmi_watchdog", &k->nmi_watchdog);
	knob_read(fs, "/proc/sys/kernel/soft_watchdog", &k->soft_watchdog);
	knob_read(fs, "/proc/sys/kernel/watchdog_thresh", &k->watchdog_thresh);
	k->watchdog_cpumask_err = read_cpulist(fs, "/proc/sys/kernel/watchdog_cpumask",
					       &k->watchdog_cpumask);
	knob_read(fs, "/proc/sys/kernel/hung_task_timeout_secs", &k->hung_task_timeout);
	k->nohz_full_err = read_cpulist(fs, "/sys/devices/system/cpu/nohz_full", &k->nohz_full);
}

void probe_kernel_free(struct kernel_facts *k)
{
	kconfig_free(&k->config);
	cmdline_free(&k->cmdline);
	rtr_cpuset_free(&k->watchdog_cpumask);
	rtr_cpuset_free(&k->nohz_full);
}
