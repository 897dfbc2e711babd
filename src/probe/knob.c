// SPDX-License-Identifier: MIT
/* Integer tunables and sysfs choice files; see knob.h. */
#include <errno.h>
#include <string.h>

#include "probe/knob.h"

void knob_read(const struct rootfs *fs, const char *path, struct knob *k)
{
	k->value = 0;
	k->err = rootfs_read_int64(fs, path, &k->value);
}

int knob_active_choice(const char *s, char open, char close, char *out, size_t len)
{
	const char *o = strchr(s, open), *c;
	size_t n;

	if (!o || !(c = strchr(o + 1, close)) || c == o + 1)
		return -EINVAL;
	if (strchr(c + 1, open) || memchr(o + 1, open, (size_t)(c - o - 1)))
		return -EINVAL;	/* two marked words: which one is active? */
	n = (size_t)(c - o - 1);
	if (memchr(o + 1, ' ', n))
		return -EINVAL;
	if (n >= len)
		return -ENAMETOOLONG;
	memcpy(out, o + 1, n);
	out[n] = '\0';
	return 0;
}

void knob_sanitize(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			*s = '?';
}
