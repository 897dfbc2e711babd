/* SPDX-License-Identifier: MIT */
/*
 * All facts `check` needs about one machine, gathered in one pass from a
 * root directory. Plain data: no file handles survive gathering, so checks
 * (pure functions of these structs) can be tested on hand-made facts. Each
 * area has its own probe and header; a field that could not be read
 * carries the negative errno that explains why, so a check can say "skip"
 * with a reason instead of guessing.
 */
#ifndef RTR_PROBE_FACTS_H
#define RTR_PROBE_FACTS_H

#include "probe/rootfs.h"
#include "probe/sched.h"

struct facts {
	char root[4096];	/* the root directory read, for evidence */
	bool host;		/* the live machine, not a snapshot */
	struct sched_facts sched;
};

/* Gather everything from @fs into @f. Return: 0 or -ENOMEM. */
int facts_gather(const struct rootfs *fs, struct facts *f);
void facts_free(struct facts *f);

#endif
