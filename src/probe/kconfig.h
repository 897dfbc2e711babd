/* SPDX-License-Identifier: MIT */
/*
 * A parser of kernel configuration text (/proc/config.gz once inflated,
 * /boot/config-RELEASE, a build tree's .config). Pure: it turns a buffer
 * into a sorted table of options that checks can query. Lines look like
 *   CONFIG_PREEMPT_RT=y
 *   CONFIG_HZ=1000
 *   CONFIG_LOCALVERSION="-rt"
 *   # CONFIG_KASAN is not set
 * Anything else (comments, blank lines, garbage) is ignored; an option that
 * appears twice keeps its last value, as Kconfig itself does.
 */
#ifndef RTR_PROBE_KCONFIG_H
#define RTR_PROBE_KCONFIG_H

#include <stddef.h>

/* Largest config text accepted (real ones are 100-300 KiB). */
#define KCONFIG_TEXT_MAX (8u << 20)
/* Most options kept; a real config has about 10,000 lines. */
#define KCONFIG_OPTIONS_MAX 100000

struct kconfig_opt {
	const char *name;	/* "CONFIG_HZ", into the owned text */
	const char *value;	/* "y", "m", "1000", "\"-rt\"", or "n" for "is not set" */
};

struct kconfig {
	char *text;		/* owned copy of the input, NUL-split */
	struct kconfig_opt *opts;	/* sorted by name, names unique */
	size_t n;
};

enum kconfig_tristate {
	KCONFIG_ABSENT,		/* not in the file at all */
	KCONFIG_NO,		/* "# CONFIG_X is not set" or =n */
	KCONFIG_MODULE,		/* =m */
	KCONFIG_YES,		/* =y */
	KCONFIG_OTHER,		/* a number or string value */
};

/*
 * Parse @len bytes of config text into @out (free with kconfig_free()).
 * Return: 0, -EINVAL when not one option line was found, -EFBIG past
 * KCONFIG_TEXT_MAX, -ENOMEM.
 */
int kconfig_parse(const char *buf, size_t len, struct kconfig *out)
	__attribute__((warn_unused_result));
void kconfig_free(struct kconfig *kc);

/* The value of @name ("CONFIG_HZ"), or NULL when absent. */
const char *kconfig_get(const struct kconfig *kc, const char *name);

/* @name as a tristate (an empty kconfig gives KCONFIG_ABSENT). */
enum kconfig_tristate kconfig_tristate(const struct kconfig *kc, const char *name);

/* Whether @name is =y or =m. */
static inline int kconfig_enabled(const struct kconfig *kc, const char *name)
{
	enum kconfig_tristate t = kconfig_tristate(kc, name);

	return t == KCONFIG_YES || t == KCONFIG_MODULE;
}

#endif
