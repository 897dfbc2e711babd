// SPDX-License-Identifier: MIT
/*
 * Boot persistence for rtready tune; see boot.h. The runtime values written
 * by --apply are lost at reboot; these files put them back early in boot,
 * and the command line sets what only the kernel's own start-up can
 * (isolation from the scheduler, the tick and RCU callbacks).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "probe/rootfs.h"
#include "tune/boot.h"
#include "tune/journal.h"
#include "tune/plan.h"
#include "util/fileio.h"
#include "util/utf8.h"

static void list(const struct rtr_cpuset *set, char *buf, size_t len)
{
	if (rtr_cpuset_format_list(set, buf, len) >= len && len)
		buf[0] = '\0';
}

void boot_cmdline(const struct boot_settings *s, struct strbuf *out)
{
	char rt[4096], nonrt[4096];

	list(s->rt, rt, sizeof(rt));
	list(s->nonrt, nonrt, sizeof(nonrt));
	/*
	 * isolcpus: no load balancing onto the RT CPUs, and managed IRQs
	 * kept off them where the driver allows; nohz_full: no tick while one
	 * task runs (needs CONFIG_NO_HZ_FULL); rcu_nocbs: RCU callbacks run on
	 * housekeeping CPUs; irqaffinity: the default for IRQs set up at boot.
	 */
	strbuf_printf(out,
		      "isolcpus=managed_irq,domain,%s nohz_full=%s rcu_nocbs=%s irqaffinity=%s", rt,
		      rt, rt, nonrt);
}

void boot_sysctl_conf(const struct boot_settings *s, struct strbuf *out)
{
	char nonrt[4096];

	list(s->nonrt, nonrt, sizeof(nonrt));
	strbuf_puts(out,
		    "# Written by rtready tune --emit-boot: the sysctls of the realtime tuning.\n"
		    "# Install into /etc/sysctl.d/ to apply them at every boot.\n");
	for (int id = 0; id < TUNE_COUNT; id++) {
		const struct tunable *t = tunable_get((enum tune_id)id);

		if (!s->enabled[id] || !t->sysctl)
			continue;
		strbuf_printf(out, "# %s (fixes %s)\n", t->what, t->check_id);
		switch (t->id) {
		case TUNE_RT_THROTTLING:
			strbuf_printf(out, "%s = -1\n", t->sysctl);
			break;
		case TUNE_TIMER_MIGRATION:
		case TUNE_HUNG_TASK:
		case TUNE_NUMA_BALANCING:
			strbuf_printf(out, "%s = 0\n", t->sysctl);
			break;
		case TUNE_WATCHDOG:
			strbuf_printf(out, "%s = %s\n", t->sysctl, nonrt);
			break;
		default:
			break;
		}
	}
}

int boot_self_binary(char *buf, size_t len)
{
	static const char deleted[] = " (deleted)";
	struct rootfs fs;
	size_t n;
	int err = rootfs_open(&fs, "/");

	if (err)
		return err;
	err = rootfs_readlink(&fs, "/proc/self/exe", buf, len);
	rootfs_close(&fs);
	if (err)
		return err;
	n = strlen(buf);
	if (n + 1 >= len)
		return -ENAMETOOLONG; /* readlink filled the buffer: maybe cut */
	/* The kernel marks a binary unlinked (or replaced by a package update) so. */
	if (buf[0] != '/' ||
	    (n >= sizeof(deleted) - 1 && strcmp(buf + n - (sizeof(deleted) - 1), deleted) == 0))
		return -ENOENT;
	return 0;
}

/*
 * One word of an ExecStart= line, as systemd splits and unescapes it: bare
 * when it has only characters that no rule touches, else in double quotes
 * with '\\' and '"' escaped by a backslash; '%' (a specifier) and '$' (an
 * environment variable) are doubled either way. Return: 0, or -EINVAL for
 * a control character or bytes that are not UTF-8.
 */
static int unit_word(struct strbuf *out, const char *s)
{
	static const char plain[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				    "0123456789/_.,:+=@-";
	size_t n = strlen(s);
	bool bare = n > 0 && strspn(s, plain) == n;

	for (size_t i = 0; i < n;) {
		uint32_t cp;
		size_t k = utf8_decode((const unsigned char *)s + i, n - i, &cp);

		if (k == 0 || cp < 0x20 || (cp >= 0x7f && cp < 0xa0))
			return -EINVAL;
		i += k;
	}
	if (!bare)
		strbuf_puts(out, "\"");
	for (const char *p = s; *p; p++) {
		if (*p == '%' || *p == '$')
			strbuf_add(out, p, 1); /* doubled */
		else if (*p == '\\' || *p == '"')
			strbuf_puts(out, "\\");
		strbuf_add(out, p, 1);
	}
	if (!bare)
		strbuf_puts(out, "\"");
	return 0;
}

/* Whether @path is @dir or below it (@dir without a trailing slash). */
static bool under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return strncmp(path, dir, n) == 0 && (path[n] == '/' || path[n] == '\0');
}

/*
 * @dir as one word of ReadWritePaths=, prefixed "-" (a missing directory is
 * skipped, and tune then says it cannot write there). That list is split on
 * spaces and quotes, not read like a command line: a path with a quote, a
 * backslash or '%' is not written there. Return: whether it was.
 */
static bool rw_word(struct strbuf *out, const char *dir)
{
	static const char plain[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				    "0123456789/_.,:+=@-";
	size_t n = strlen(dir);

	if (dir[0] != '/' || strpbrk(dir, "\"'\\%"))
		return false;
	if (strspn(dir, plain) == n)
		strbuf_printf(out, "-%s", dir);
	else
		strbuf_printf(out, "\"-%s\"", dir);
	return true;
}

/* Paths of the user's that the sandbox must leave where they are. */
static bool in_home(const char *p)
{
	return under(p, "/home") || under(p, "/root") || under(p, "/run/user");
}

static bool in_tmp(const char *p)
{
	return under(p, "/tmp") || under(p, "/var/tmp");
}

/*
 * The [Service] sandbox of the unit. `systemd-analyze security` rates it
 * below 2 (tests/integration/test-systemd-units.sh holds it to 4.0).
 * tune writes /proc/sys, /proc/irq, /sys (CPU, workqueue, debugfs), its
 * state directory and irqbalance's environment file, and moves tasks.
 */
static void unit_sandbox(const struct boot_settings *s, const char *state, struct strbuf *out)
{
	struct strbuf rw = STRBUF_INIT;
	bool strict = true;

	strbuf_puts(out,
		    "\n# The sandbox. Not ProtectKernelTunables=: tune writes /proc/sys, /proc/irq\n"
		    "# and /sys, which it would make read-only. CAP_SYS_NICE moves other users'\n"
		    "# tasks off the RT CPUs; CAP_SYS_ADMIN is what the kernel asks to switch\n"
		    "# kernel.numa_balancing; CAP_DAC_OVERRIDE opens the affinity file of an IRQ\n"
		    "# the kernel will not move (mode 0444), so that the kernel's own refusal\n"
		    "# (EPERM) is what tune reports, as it does outside the unit.\n"
		    "CapabilityBoundingSet=CAP_SYS_NICE CAP_SYS_ADMIN CAP_DAC_OVERRIDE\n"
		    "NoNewPrivileges=yes\n");
	if (state) {
		strict = rw_word(&rw, s->state_dir);
	} else {
		/* 0700: the mode tune gives the directory when it makes it. */
		strbuf_puts(out, "StateDirectory=rtready\nStateDirectoryMode=0700\n");
	}
	if (s->enabled[TUNE_IRQBALANCE]) {
		/* Replaced atomically: a temporary file beside it, then rename. */
		strbuf_puts(&rw, rw.len ? " " : "");
		strbuf_puts(&rw, "-/etc/default -/etc/sysconfig");
	}
	if (strict) {
		strbuf_puts(out, "# Read-only but for the journal and irqbalance's environment file.\n"
				 "ProtectSystem=strict\n");
		if (rw.len)
			strbuf_printf(out, "ReadWritePaths=%s\n", strbuf_str(&rw));
	} else {
		strbuf_puts(out, "# full, not strict: the state directory cannot be written in\n"
				 "# ReadWritePaths= (a quote, a backslash or '%' in its path).\n"
				 "ProtectSystem=full\n");
		if (s->enabled[TUNE_IRQBALANCE])
			strbuf_puts(out, "ReadWritePaths=-/etc/default -/etc/sysconfig\n");
	}
	if (rw.err && !out->err)
		out->err = rw.err;
	strbuf_free(&rw);
	/* The binary or the journal under a home or /tmp must stay where they are. */
	strbuf_puts(out, in_home(s->binary) || (state && in_home(s->state_dir))
				 ? "ProtectHome=read-only\n"
				 : "ProtectHome=yes\n");
	if (!in_tmp(s->binary) && !(state && in_tmp(s->state_dir)))
		strbuf_puts(out, "PrivateTmp=yes\n");
	strbuf_puts(out,
		    "PrivateDevices=yes\n"
		    "PrivateMounts=yes\n"
		    "PrivateNetwork=yes\n"
		    "ProtectKernelModules=yes\n"
		    "ProtectKernelLogs=yes\n");
	/* --isolate makes a cgroup: the unit must be able to write /sys/fs/cgroup. */
	strbuf_puts(out, s->enabled[TUNE_ISO_FIRST]
				 ? "# Not ProtectControlGroups=: --isolate makes its partition there.\n"
				 : "ProtectControlGroups=yes\n");
	strbuf_puts(out,
		    "ProtectClock=yes\n"
		    "ProtectHostname=yes\n"
		    "# Local sockets: systemctl asks for irqbalance's restart.\n"
		    "RestrictAddressFamilies=AF_UNIX\n"
		    "IPAddressDeny=any\n"
		    "RestrictNamespaces=yes\n"
		    "RestrictRealtime=yes\n"
		    "LockPersonality=yes\n"
		    "MemoryDenyWriteExecute=yes\n"
		    "RestrictSUIDSGID=yes\n"
		    "SystemCallArchitectures=native\n"
		    "SystemCallFilter=@system-service\n"
		    "SystemCallFilter=~@privileged @mount\n"
		    "SystemCallErrorNumber=EPERM\n");
}

int boot_unit(const struct boot_settings *s, struct strbuf *out, const char **bad)
{
	char rt[4096];
	struct strbuf args = STRBUF_INIT, state = STRBUF_INIT, bin = STRBUF_INIT;
	bool custom = s->state_dir && strcmp(s->state_dir, TUNE_STATE_DIR_DEFAULT) != 0;
	int err = 0;

	*bad = NULL;
	list(s->rt, rt, sizeof(rt));
	strbuf_printf(&args, "--rt-cpus %s", rt);
	for (int id = 0; id < TUNE_COUNT; id++) {
		const struct tunable *t = tunable_get((enum tune_id)id);

		/* --isolate switches its rows on, once. */
		if (tune_is_isolate(t->id)) {
			if (t->id == TUNE_ISO_FIRST && s->enabled[id])
				strbuf_printf(&args, " %s", t->switch_opt);
			continue;
		}
		/* Two rows (IRQ default and IRQs) share --no-irqs: name it once. */
		if (!s->enabled[id] &&
		    !(id > 0 && !s->enabled[id - 1] &&
		      strcmp(tunable_get((enum tune_id)(id - 1))->switch_opt, t->switch_opt) == 0))
			strbuf_printf(&args, " %s", t->switch_opt);
	}
	if (s->idle_max_latency_us != TUNE_IDLE_MAX_LATENCY_US_DEFAULT)
		strbuf_printf(&args, " --idle-max-latency %lld", (long long)s->idle_max_latency_us);
	if (unit_word(&bin, s->binary)) {
		*bad = "binary";
		err = -EINVAL;
		goto out;
	}
	if (custom) {
		strbuf_puts(&state, " --state-dir ");
		if (unit_word(&state, s->state_dir)) {
			*bad = "--state-dir";
			err = -EINVAL;
			goto out;
		}
	}
	strbuf_printf(out,
		      "# Written by rtready tune --emit-boot.\n"
		      "# Install into /etc/systemd/system/ and run: systemctl enable %s\n"
		      "[Unit]\n"
		      "Description=Realtime tuning by rtready (RT CPUs %s)\n"
		      "Documentation=man:rtready-tune(1)\n"
		      "DefaultDependencies=no\n"
		      "# debugfs: the fair server's runtime (6.12+) is set there.\n"
		      "After=systemd-sysctl.service systemd-modules-load.service local-fs.target "
		      "sys-kernel-debug.mount\n"
		      "Before=sysinit.target shutdown.target\n"
		      "Conflicts=shutdown.target\n"
		      "\n"
		      "[Service]\n"
		      "Type=oneshot\n"
		      "RemainAfterExit=yes\n"
		      "ExecStart=%s tune --apply %s%s\n"
		      "ExecStop=%s tune --revert%s\n",
		      BOOT_UNIT_NAME, rt, strbuf_str(&bin), strbuf_str(&args), strbuf_str(&state),
		      strbuf_str(&bin), strbuf_str(&state));
	unit_sandbox(s, custom ? s->state_dir : NULL, out);
	strbuf_puts(out, "\n"
			 "[Install]\n"
			 "WantedBy=sysinit.target\n");
out:
	if (!err && (args.err || state.err || bin.err || out->err))
		err = -ENOMEM;
	strbuf_free(&args);
	strbuf_free(&state);
	strbuf_free(&bin);
	return err;
}

int boot_write_file(const char *dir, const char *name, const char *text)
{
	char *path = NULL, *tmp = NULL;
	int err;

	if (asprintf(&path, "%s/%s", dir, name) < 0)
		return -ENOMEM;
	if (asprintf(&tmp, "%s/.%s.tmp", dir, name) < 0) {
		free(path);
		return -ENOMEM;
	}
	err = fileio_replace_at(AT_FDCWD, path, tmp, 0644, text, strlen(text));
	free(path);
	free(tmp);
	return err;
}
