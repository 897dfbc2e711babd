// SPDX-License-Identifier: MIT
/* One `rtready snapshot`; see snapshot.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "target/snapshot.h"
#include "target/target.h"

/* The tree and then the metadata file under @top (@dir). Return: 0 or -errno (said). */
static int write_all(int top, const char *dir, const char *root, struct target *t,
		     struct snapshot *snap,
		     char *(*meta_text)(const struct snapshot_meta *m, const struct snapshot *s),
		     const struct say *s)
{
	struct snapshot_meta *m;
	const char *failed;
	char *text;
	int err = snapshot_write(top, snap, &failed);

	if (err) {
		say(s, false, "cannot write %s%s: %s", dir, failed, strerror(-err));
		return err;
	}
	m = calloc(1, sizeof(*m));
	if (m)
		snapshot_meta_read(&t->fs, &t->facts, root, m);
	text = m ? meta_text(m, snap) : NULL;
	err = text ? snapshot_write_file(top, "/" SNAPSHOT_META_NAME, text, strlen(text))
		   : -ENOMEM;
	if (err)
		say(s, false, "cannot write %s/" SNAPSHOT_META_NAME ": %s", dir,
		    strerror(-err));
	free(text);
	free(m);
	return err;
}

int target_snapshot(const char *dir, const char *root, bool force,
		    char *(*meta_text)(const struct snapshot_meta *m, const struct snapshot *s),
		    const struct say *s, struct snapshot *snap)
{
	/* On the heap: the facts are tens of KiB (ulimit -s 32). */
	struct target *t = malloc(sizeof(*t));
	char msg[4200];
	int top, err;

	memset(snap, 0, sizeof(*snap));
	err = t ? target_root(t, root, msg, sizeof(msg)) : -ENOMEM;
	if (err) {
		say(s, false, "%s", t ? msg : strerror(ENOMEM));
		free(t);
		return err;
	}
	top = snapshot_dir_open(dir, force, msg, sizeof(msg));
	if (top < 0) {
		s->line(s->ctx, false, msg);
		target_close(t);
		free(t);
		return top;
	}
	err = snapshot_record(&t->fs, snap, &t->facts);
	if (err)
		say(s, false, "cannot gather and record the facts: %s", strerror(-err));
	else
		err = write_all(top, dir, root, t, snap, meta_text, s);
	close(top);
	target_close(t);
	free(t);
	return err;
}

void target_snapshot_left(const char *root, const struct snapshot *snap, const struct say *s)
{
	if (snap->unsafe)
		say(s, true, "%zu paths with unsafe names were left out", snap->unsafe);
	for (size_t i = 0; i < snap->n_left; i++)
		say(s, true, "not captured: %s%s: %s", strcmp(root, "/") ? root : "",
		    snap->left[i].path, snapshot_left_reason(snap->left[i].err));
}
