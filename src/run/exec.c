// SPDX-License-Identifier: MIT
/* Finding, inspecting and starting the program of `rtready run`; see exec.h. */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "probe/rootfs.h"
#include "run/deadline.h"
#include "run/exec.h"
#include "run/run-config.h"
#include "run/symtab.h"
#include "util/clock.h"
#include "schedattr.h"	/* lib/: the kernel's struct sched_attr */

#define PRELOAD_NAME "librtready-check.so"

static bool executable_file(const char *path, int *err)
{
	struct stat st;

	if (stat(path, &st) < 0) {
		*err = -errno;
		return false;
	}
	if (!S_ISREG(st.st_mode)) {
		*err = -EACCES;
		return false;
	}
	if (access(path, X_OK) < 0) {
		*err = -errno;
		return false;
	}
	return true;
}

int run_find_program(const char *name, char *out, size_t len)
{
	const char *path = getenv("PATH");
	int err = -ENOENT, n;

	if (!*name)
		return -ENOENT;
	if (strchr(name, '/')) {
		n = snprintf(out, len, "%s", name);
		if (n < 0 || (size_t)n >= len)
			return -ENAMETOOLONG;
		return executable_file(out, &err) ? 0 : err;
	}
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	/* Like execvp: an empty element is the current directory; EACCES is kept if nothing else is found. */
	for (const char *p = path;; ) {
		const char *end = strchr(p, ':');
		size_t dl = end ? (size_t)(end - p) : strlen(p);
		int e = 0;

		n = snprintf(out, len, "%.*s%s%s", (int)dl, p, dl ? "/" : "", name);
		if (n >= 0 && (size_t)n < len) {
			if (executable_file(out, &e))
				return 0;
			if (e == -EACCES)
				err = e;
		}
		if (!end)
			break;
		p = end + 1;
	}
	return err;
}

void run_inspect_elf(const unsigned char *buf, size_t len, struct elf_facts *out)
{
	Elf64_Ehdr eh;

	out->elf = out->script = out->dynamic = false;
	if (len >= 2 && buf[0] == '#' && buf[1] == '!') {
		out->script = true;
		return;
	}
	if (len < EI_NIDENT || memcmp(buf, ELFMAG, SELFMAG) != 0)
		return;
	out->elf = true;
	/* Host byte order only: a foreign-endian program cannot run here anyway. */
	if (symtab_ehdr(buf, len, buf[EI_CLASS] != ELFCLASS64, &eh))
		return;
	if (eh.e_phentsize < 8 || eh.e_phnum > 4096)
		return;
	for (unsigned i = 0; i < eh.e_phnum; i++) {
		uint64_t at = eh.e_phoff + (uint64_t)i * eh.e_phentsize;
		uint32_t type;

		if (at > len || len - at < 4)
			break;
		memcpy(&type, buf + at, sizeof(type));
		if (type == PT_INTERP) {
			out->dynamic = true;
			break;
		}
	}
}

int run_inspect_program(const char *path, struct elf_facts *out)
{
	unsigned char buf[16384];
	struct stat st;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), err;

	memset(out, 0, sizeof(*out));
	if (fd < 0)
		return -errno;
	/* st_mode only once fstat filled it. */
	err = fstat(fd, &st) < 0 ? -errno : S_ISREG(st.st_mode) ? 0 : -EACCES;
	if (err) {
		close(fd);
		return err;
	}
	n = pread(fd, buf, sizeof(buf), 0);
	close(fd);
	if (n < 0)
		return -errno;
	run_inspect_elf(buf, (size_t)n, out);
	out->setid = (st.st_mode & (S_ISUID | S_ISGID)) != 0;
	return 0;
}

/* Copy @s into @out; Return: 0 or -ENAMETOOLONG. */
static int copy_str(char *out, size_t len, const char *s)
{
	size_t n = strlen(s);

	if (n >= len)
		return -ENAMETOOLONG;
	memcpy(out, s, n + 1);
	return 0;
}

static bool readable(const char *path)
{
	return access(path, R_OK) == 0;
}

/*
 * Where the checker may sit, relative to the directory of the running
 * binary. An unpacked release tarball and a moved `meson install` tree keep
 * bin/ and lib/ side by side, so no prefix is baked in: the configured
 * libdir (lib/<multiarch> on Debian) and plain lib/ first, then the build
 * tree (build/src/rtready beside build/preload/).
 */
static const char *const preload_rel[] = {
	"/../" RTR_LIBDIR_REL "/rtready/" PRELOAD_NAME,
	"/../lib/rtready/" PRELOAD_NAME,
	"/../preload/" PRELOAD_NAME,
};

/* Append @s to the list of places tried in @out (bounded, silently cut). */
static void note_tried(char *out, size_t len, const char *s)
{
	size_t n = strnlen(out, len);

	if (n + 1 < len)
		snprintf(out + n, len - n, "%s%s", n ? ", " : "", s);
}

int run_find_preload(char *out, size_t len, int *self_err)
{
	const char *env = getenv("RTREADY_PRELOAD");
	char self[PATH_MAX], cand[PATH_MAX], *slash = NULL;
	struct rootfs fs;
	size_t i;

	*self_err = 0;
	if (env && *env)
		return copy_str(out, len, env) == 0 && readable(out) ? 0 : -ENOENT;
	if (len == 0)
		return -ENOENT;
	out[0] = '\0';
	*self_err = rootfs_open(&fs, "/");
	if (*self_err == 0) {
		int rc = rootfs_readlink(&fs, "/proc/self/exe", self, sizeof(self));

		rootfs_close(&fs);
		*self_err = rc;
		slash = rc == 0 ? strrchr(self, '/') : NULL;
		if (slash)
			*slash = '\0';
	}
	for (i = 0; slash && i < sizeof(preload_rel) / sizeof(preload_rel[0]); i++) {
		if (i == 1 && strcmp(RTR_LIBDIR_REL, "lib") == 0)
			continue;	/* the same place as the first */
		if (snprintf(cand, sizeof(cand), "%s%s", self, preload_rel[i]) >= (int)sizeof(cand))
			continue;
		if (readable(cand))
			return copy_str(out, len, cand);
		note_tried(out, len, cand);
	}
	if (readable(RTR_PRELOAD_INSTALLED))
		return copy_str(out, len, RTR_PRELOAD_INSTALLED);
	note_tried(out, len, RTR_PRELOAD_INSTALLED);
	return -ENOENT;
}

/* The kernel's values (include/uapi/linux/sched.h); older C libraries lack them. */
#define RUN_SCHED_FLAG_RESET_ON_FORK 0x01

enum step {
	STEP_CGROUP, STEP_NICE, STEP_SCHED, STEP_AFFINITY, STEP_MEMLOCK, STEP_RTTIME, STEP_EXEC
};

struct child_error {
	int step;
	int err;	/* positive errno */
};

static int child_setup(const struct spawn_config *c, int *step)
{
	*step = STEP_CGROUP;
	if (c->cg && run_cgroup_join(c->cg) < 0)
		return -1;
	*step = STEP_NICE;
	if (c->nice_set && setpriority(PRIO_PROCESS, 0, c->nice) < 0)
		return -1;
	*step = STEP_SCHED;
	if (c->policy >= 0) {
		struct rtr__sched_attr a;

		memset(&a, 0, sizeof(a));
		a.sched_policy = (uint32_t)c->policy;
		a.sched_priority = (uint32_t)c->prio;
		a.sched_nice = c->nice_set ? c->nice : getpriority(PRIO_PROCESS, 0);
		if (c->policy == RUN_SCHED_DEADLINE) {
			a.sched_runtime = c->dl_runtime_ns;
			a.sched_deadline = c->dl_deadline_ns;
			a.sched_period = c->dl_period_ns;
			/*
			 * A DEADLINE task may not fork or make threads (EAGAIN) unless
			 * its children start as SCHED_OTHER: the program can then
			 * give its threads their own policies.
			 */
			a.sched_flags = RUN_SCHED_FLAG_RESET_ON_FORK;
		}
		if (rtr__sched_setattr(0, &a) < 0)
			return -1;
	}
	*step = STEP_AFFINITY;
	if (c->cpus) {
		cpu_set_t *set = NULL;
		size_t size = 0;
		int rc = rtr_cpuset_to_sched(c->cpus, &set, &size);

		if (rc) {
			errno = -rc;
			return -1;
		}
		rc = sched_setaffinity(0, size, set);
		free(set);
		if (rc < 0)
			return -1;
	}
	*step = STEP_MEMLOCK;
	if (c->memlock_set) {
		struct rlimit rl;

		rl.rlim_cur = rl.rlim_max =
			c->memlock_bytes == UINT64_MAX ? RLIM_INFINITY : (rlim_t)c->memlock_bytes;
		if (setrlimit(RLIMIT_MEMLOCK, &rl) < 0)
			return -1;
	} else if (c->memlock_raise) {
		struct rlimit rl;

		/* Best effort: without CAP_IPC_LOCK, mlockall() needs the room. */
		if (getrlimit(RLIMIT_MEMLOCK, &rl) == 0 && rl.rlim_cur != rl.rlim_max) {
			rl.rlim_cur = rl.rlim_max;
			(void)setrlimit(RLIMIT_MEMLOCK, &rl);
		}
	}
	*step = STEP_RTTIME;
	if (c->rttime_us) {
		/*
		 * The kernel sends SIGXCPU once a realtime task has run this long
		 * without a blocking call, and SIGKILL at the hard limit: one
		 * second later, time for a handler to put hardware in a safe state.
		 */
		struct rlimit rl = { (rlim_t)c->rttime_us, (rlim_t)(c->rttime_us + 1000000) };

		if (setrlimit(RLIMIT_RTTIME, &rl) < 0)
			return -1;
	}
	*step = STEP_EXEC;
	return 0;
}

/* execvp(3)'s shell for a file the kernel does not run (see shell_argv()). */
#define SPAWN_SHELL "/bin/sh"

static void describe(const struct spawn_config *c, const struct child_error *ce, char *err,
		     size_t errlen)
{
	const char *why = strerror(ce->err);
	bool perm = ce->err == EPERM || ce->err == EACCES;

	switch (ce->step) {
	case STEP_CGROUP:
		snprintf(err, errlen, "cannot move the program into its cgroup (%s): %s",
			 c->cg && c->cg->n_procs ? c->cg->procs[0] : "?", why);
		break;
	case STEP_NICE:
		snprintf(err, errlen, "cannot set nice %d: %s%s", c->nice, why,
			 perm ? " (a negative nice needs CAP_SYS_NICE or RLIMIT_NICE)" : "");
		break;
	case STEP_SCHED:
		if (c->policy == RUN_SCHED_DEADLINE && ce->err == EBUSY) {
			run_deadline_admission(c->dl_runtime_ns, c->dl_period_ns, err, errlen);
			break;
		}
		if (c->policy == RUN_SCHED_DEADLINE) {
			snprintf(err, errlen, "cannot set SCHED_DEADLINE runtime/deadline/period "
				 "%llu/%llu/%llu ns: %s%s", (unsigned long long)c->dl_runtime_ns,
				 (unsigned long long)c->dl_deadline_ns,
				 (unsigned long long)c->dl_period_ns, why,
				 perm ? " (needs CAP_SYS_NICE; RLIMIT_RTPRIO does not allow "
					"DEADLINE; and the task's affinity must span its root domain)"
				 : ce->err == EINVAL ? " (the kernel takes periods of "
					"/proc/sys/kernel/sched_deadline_period_min_us.."
					"sched_deadline_period_max_us only)" : "");
			break;
		}
		snprintf(err, errlen, "cannot set policy %d priority %d: %s%s", c->policy, c->prio,
			 why,
			 perm ? " (needs CAP_SYS_NICE or RLIMIT_RTPRIO >= the priority; as root, "
				"RT group scheduling refuses it in a cgroup without an RT budget: "
				"see `rtready check --only sched.rt_group`)"
			      : "");
		break;
	case STEP_AFFINITY:
		snprintf(err, errlen, "cannot set the CPU affinity: %s%s", why,
			 ce->err == EINVAL ? " (none of these CPUs is online and allowed)" : "");
		break;
	case STEP_MEMLOCK:
		snprintf(err, errlen, "cannot set RLIMIT_MEMLOCK: %s%s", why,
			 perm ? " (raising it needs CAP_SYS_RESOURCE)" : "");
		break;
	case STEP_RTTIME:
		snprintf(err, errlen, "cannot set RLIMIT_RTTIME: %s%s", why,
			 perm ? " (raising its hard limit needs CAP_SYS_RESOURCE)" : "");
		break;
	default:
		snprintf(err, errlen, "cannot execute %s: %s%s", c->path, why,
			 ce->err != ENOEXEC ? ""
			 : c->elf ? " (an ELF file this kernel does not run: another machine's?)"
			 : " (the kernel does not run it, and " SPAWN_SHELL " could not run it as "
			   "a script)");
		break;
	}
}

/*
 * What execvp(3) runs when the kernel refuses a file as not executable
 * (ENOEXEC: a script without "#!"): the shell, with the file as its script
 * and the same arguments (POSIX execvp; glibc does it, musl does not, so
 * rtready does it itself). Made before fork: the child must not allocate.
 */
static char **shell_argv(const struct spawn_config *c)
{
	size_t n = 0;
	char **v;

	while (c->argv[n])
		n++;
	v = calloc(n + 2, sizeof(*v));
	if (!v)
		return NULL;
	v[0] = (char *)SPAWN_SHELL;
	v[1] = (char *)c->path;
	for (size_t i = 1; i < n; i++)
		v[i + 1] = c->argv[i];
	return v;
}

/* The signals spawn_wait() forwards to the child (and waits for: SIGCHLD). */
static void forwarded_signals(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGHUP);
	sigaddset(set, SIGQUIT);
	sigaddset(set, SIGCHLD);
}

int spawn_start(const struct spawn_config *c, pid_t *pid, char *err, size_t errlen)
{
	struct child_error ce = { 0, 0 };
	pid_t self = getpid();
	sigset_t fwd, old;
	char **sh_argv;
	int pfd[2], rc;
	ssize_t n;

	if (pipe2(pfd, O_CLOEXEC) < 0) {
		rc = -errno;
		snprintf(err, errlen, "pipe: %s", strerror(-rc));
		return rc;
	}
	sh_argv = shell_argv(c);
	if (!sh_argv) {
		close(pfd[0]);
		close(pfd[1]);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	/*
	 * Block what spawn_wait() forwards before forking, so that none is lost
	 * (or kills rtready, leaving its cgroup) in between; the child restores
	 * the mask it had.
	 */
	forwarded_signals(&fwd);
	sigprocmask(SIG_BLOCK, &fwd, &old);
	*pid = fork();
	if (*pid < 0) {
		int e = errno;

		sigprocmask(SIG_SETMASK, &old, NULL);
		close(pfd[0]);
		close(pfd[1]);
		free(sh_argv);
		snprintf(err, errlen, "fork: %s", strerror(e));
		return -e;
	}
	if (*pid == 0) {
		close(pfd[0]);
		/*
		 * If rtready dies (kill -9), the program gets the SIGTERM that
		 * rtready would have passed on, rather than run on unseen in its
		 * budget cgroup. It survives exec (not for set-ID programs). If
		 * rtready is already gone, the program never starts.
		 */
		if (prctl(PR_SET_PDEATHSIG, SIGTERM) < 0 || getppid() != self)
			_exit(127);
		if (c->own_group)
			(void)setpgid(0, 0);
		sigprocmask(SIG_SETMASK, &old, NULL);
		if (child_setup(c, &ce.step) == 0) {
			execve(c->path, c->argv, c->envp);
			if (errno == ENOEXEC && !c->elf) {
				execve(SPAWN_SHELL, sh_argv, c->envp);
				errno = ENOEXEC;	/* the file's fault, not the shell's */
			}
		}
		ce.err = errno;
		n = write(pfd[1], &ce, sizeof(ce));
		(void)n;
		_exit(127);
	}
	close(pfd[1]);
	free(sh_argv);
	/* Both sides set the group, so neither order of the two races matters. */
	if (c->own_group)
		(void)setpgid(*pid, *pid);
	do
		n = read(pfd[0], &ce, sizeof(ce));
	while (n < 0 && errno == EINTR);
	close(pfd[0]);
	if (n == 0)
		return 0;	/* the pipe closed on exec: the program runs */
	while (waitpid(*pid, NULL, 0) < 0 && errno == EINTR)
		;
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (n != (ssize_t)sizeof(ce)) {
		snprintf(err, errlen, "the child failed before exec");
		return -EIO;
	}
	describe(c, &ce, err, errlen);
	return -ce.err;
}

bool spawn_wants_own_group(void)
{
	pid_t fg;

	if (!isatty(STDIN_FILENO))
		return true;
	fg = tcgetpgrp(STDIN_FILENO);
	return fg < 0 || fg != getpgrp();
}

/* Monotonic time in ns. */
/*
 * Within this time, the same signal from the same sender is one event sent
 * twice: timeout(1) signals rtready itself and then its whole process group,
 * which rtready is in. Passing both on would deliver it twice.
 */
#define DUPLICATE_NS 100000000

int spawn_wait(pid_t pid, bool own_group, int *status)
{
	struct timespec tick = { 1, 0 };
	int64_t last_ns = 0;
	pid_t last_pid = 0;
	int last_sig = 0;
	sigset_t fwd;
	int rc = 0;

	forwarded_signals(&fwd);
	for (;;) {
		siginfo_t si;
		pid_t w = waitpid(pid, status, WNOHANG);
		int sig;

		if (w == pid)
			break;
		if (w < 0 && errno != EINTR) {
			rc = -errno;
			break;
		}
		/* The 1 s tick only bounds a lost wake-up; SIGCHLD ends the wait. */
		sig = sigtimedwait(&fwd, &si, &tick);
		/*
		 * A terminal's signal already went to the whole process group,
		 * the program's too unless it has one of its own.
		 */
		if (sig > 0 && sig != SIGCHLD && (own_group || si.si_code != SI_KERNEL)) {
			int64_t t = mono_ns();

			if (sig == last_sig && si.si_pid == last_pid && t - last_ns < DUPLICATE_NS)
				continue;
			last_sig = sig;
			last_pid = si.si_pid;
			last_ns = t;
			kill(pid, sig);
		}
	}
	/*
	 * The signals stay blocked: rtready only cleans up and reports from
	 * here on, and a SIGTERM arriving now must not cut that short.
	 */
	return rc;
}

int spawn_exit_code(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return 1;
}
