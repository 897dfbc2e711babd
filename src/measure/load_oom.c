// SPDX-License-Identifier: MIT
/*
 * OOM load: again and again, start a child that moves itself into the
 * load's memory cgroup and allocates until the kernel's OOM killer ends it.
 * The cgroup's limit makes the OOM local to it, so nothing outside the
 * child is ever chosen; the child also makes itself the first choice of a
 * system-wide OOM killer, in case the limit cannot hold (it cannot, for
 * instance, if the administrator gave the cgroup more than the RAM).
 *
 * What the realtime side feels is the OOM path itself: direct reclaim,
 * the killer's scan and its report (which can be slow on a serial
 * console), and the victim's teardown.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "measure/load_internal.h"

#define CHUNK (1u << 20)
/* Victim exit codes that mean the set-up did not do its job. */
#define VICTIM_NO_CGROUP 2
#define VICTIM_NOT_KILLED 3
#define VICTIM_NO_MEMORY 4
/* Pause between victims, to leave the machine a moment between OOM reports. */
#define PAUSE_NS (10 * 1000000)

static void __attribute__((noreturn)) victim(const struct load_cgroup *cg, uint64_t limit)
{
	long psize = sysconf(_SC_PAGESIZE);
	size_t page = psize > 0 ? (size_t)psize : 4096;
	/* Far past the limit: if the kernel has not killed us by then, it will not. */
	uint64_t cap = limit * 4 + (64u << 20), done = 0;

	load_oom_prefer_self();
	if (load_cgroup_enter(cg))
		_exit(VICTIM_NO_CGROUP);
	while (done < cap) {
		volatile char *p = mmap(NULL, CHUNK, PROT_READ | PROT_WRITE,
					MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED)
			_exit(VICTIM_NO_MEMORY);
		for (size_t off = 0; off < CHUNK; off += page)
			p[off] = 1;
		done += CHUNK;
	}
	_exit(VICTIM_NOT_KILLED);
}

static const char *victim_problem(int code)
{
	switch (code) {
	case VICTIM_NO_CGROUP:
		return "the child could not enter the cgroup";
	case VICTIM_NOT_KILLED:
		return "the cgroup's memory limit did not stop the child";
	case VICTIM_NO_MEMORY:
		return "the child's allocation failed instead of an OOM kill";
	default:
		return "the child failed";
	}
}

int load_oom_loop(const struct load_config *c, const struct load_cgroup *cg,
		  struct load_shared *sh)
{
	const struct timespec pause = { 0, PAUSE_NS };
	pid_t self = getpid();

	for (;;) {
		uint64_t kills;
		int status;
		pid_t pid = fork();

		if (pid < 0) {
			int err = -errno;

			load_fail(sh, err, "--oom: cannot fork: %s", strerror(-err));
			return err;
		}
		if (pid == 0) {
			prctl(PR_SET_NAME, "rtr-load-victim");
			if (load_child_bind(sh, self))
				_exit(1);
			victim(cg, c->oom_limit_bytes);
		}
		atomic_fetch_add(&sh->oom_children, 1);
		while (waitpid(pid, &status, 0) < 0)
			if (errno != EINTR)
				return -errno;
		if (WIFEXITED(status)) {
			load_fail(sh, -EIO, "--oom: %s (in %s)", victim_problem(WEXITSTATUS(status)),
				  cg->dir);
			return -EIO;
		}
		/* The cgroup's own count is the evidence; a kill by someone else is not one. */
		if (load_cgroup_oom_kills(cg, &kills) == 0)
			atomic_store(&sh->oom_kills, kills);
		nanosleep(&pause, NULL);
	}
}
