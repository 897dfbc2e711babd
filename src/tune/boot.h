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
	const char *binary;	     /* the rtready to run at boot */
};

/* The kernel command-line parameters, space separated. */
void boot_cmdline(const struct boot_settings *s, struct strbuf *out);

/* The content of 90-rtready.conf (sysctl.d). */
void boot_sysctl_conf(const struct boot_settings *s, struct strbuf *out);

/* The content of rtready-tune.service. */
void boot_unit(const struct boot_settings *s, struct strbuf *out);

/*
 * Write @text to @dir/@name atomically (temp file, fsync, rename), mode 0644.
 * Return: 0 or -errno.
 */
int boot_write_file(const char *dir, const char *name, const char *text)
    __attribute__((warn_unused_result));

#endif
