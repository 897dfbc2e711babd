/* SPDX-License-Identifier: MIT */
/*
 * What must happen at boot for the tuning to last: kernel command-line
 * parameters (only the boot loader can set them), a sysctl.d file for the
 * sysctls, and a systemd unit that runs `rtready tune --apply` with the same
 * choices for everything else. Files go to a directory the user names,
 * never silently into /etc.
 */
#ifndef RTR_TUNE_BOOT_H
#define RTR_TUNE_BOOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rtready/cpuset.h"
#include "tune/tune.h"
#include "util/strbuf.h"

#define BOOT_SYSCTL_NAME "90-rtready.conf"
#define BOOT_UNIT_NAME	 "rtready-tune.service"

struct boot_settings {
	const struct rtr_cpuset *rt;
	const struct rtr_cpuset *nonrt;
	const bool *enabled;	     /* [TUNE_COUNT] */
	int64_t idle_max_latency_us; /* passed on when not the default */
	const char *state_dir;	     /* passed on when not the default */
	const char *binary;	     /* the rtready to run at boot (boot_self_binary()) */
};

/*
 * The path of the running rtready (/proc/self/exe, resolved by the
 * kernel), for the unit to run at boot: a tarball unpacked anywhere names
 * itself, not the prefix it was built for.
 * Return: 0, -ENOENT when the binary was deleted or replaced since it
 * started, -ENAMETOOLONG, or the -errno of reading the link.
 */
int boot_self_binary(char *buf, size_t len) __attribute__((warn_unused_result));

/* The kernel command-line parameters, space separated. */
void boot_cmdline(const struct boot_settings *s, struct strbuf *out);

/* The content of 90-rtready.conf (sysctl.d). */
void boot_sysctl_conf(const struct boot_settings *s, struct strbuf *out);

/*
 * The content of rtready-tune.service. The binary and the state directory
 * are quoted and escaped as systemd.syntax(7) and systemd.service(5) read
 * a command line (quotes, backslash, "%%" for a specifier, "$$" for an
 * environment variable). A newline or another control character, or bytes
 * that are not UTF-8, cannot be carried in a unit line: such a path is
 * refused, and *@bad says which one ("--state-dir", "binary").
 * Return: 0, -EINVAL (refused) or -ENOMEM.
 */
int boot_unit(const struct boot_settings *s, struct strbuf *out, const char **bad)
	__attribute__((warn_unused_result));

/*
 * Write @text to @dir/@name atomically and durably (temp file, fsync, rename,
 * fsync of @dir), mode 0644.
 * Return: 0 or -errno.
 */
int boot_write_file(const char *dir, const char *name, const char *text)
    __attribute__((warn_unused_result));

#endif
