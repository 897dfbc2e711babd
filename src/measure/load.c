// SPDX-License-Identifier: MIT
/*
 * Orchestration of the load (see load.h): the caller's side (start, wait,
 * stop, stats) and the supervisor process that load_start() forks.
 *
 * The supervisor owns everything: it drops to SCHED_OTHER with the
 * requested nice value and CPUs (all load tasks inherit that), starts each
 * part as a child in its own process group, restarts messaging runs, and at
 * the end kills each group, reaps every task (it is a child subreaper, so
 * orphaned grandchildren come back to it) and removes the OOM cgroup. It
 * waits for SIGCHLD, SIGTERM, SIGINT and SIGHUP with sigtimedwait() on a
 * blocked mask: no signal handler runs in it at all.
 *
 * Nothing may depend on the supervisor winning the CPU from a machine full
 * of its own hogs, and yet it must: so it runs at a lower nice value than
 * its workers when it may; the parts it starts wait at a gate until all
 * are forked (start-up costs a fork each, not a turn of the run queue
 * each); every task stops by itself at the deadline (a SIGKILL timer of
 * its own) and dies with its parent (PR_SET_PDEATHSIG); and the number of
 * tasks is bounded per CPU (load_config_check()).
 *
 * The caller learns that the supervisor is gone from a pipe: the supervisor
 * holds the only write end, so the read end reports EOF when it exits, in
 * whatever way it exits.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "measure/load.h"
#include "measure/load_internal.h"
#include "util/clock.h"

/* How long load_stop() waits for the supervisor before SIGKILL. */
#define STOP_TIMEOUT_NS (20LL * 1000000000)
/* How long the supervisor waits for killed tasks to be reaped. */
#define REAP_TIMEOUT_NS (10LL * 1000000000)
/* Longest start-up: forking the parts (each waits at the gate) takes milliseconds. */
#define START_TIMEOUT_NS (5LL * 1000000000)

struct load {
	struct load_config cfg;
	struct load_shared *sh;
	pid_t pid;		/* the supervisor */
	int status_fd;		/* read end of the pipe only it writes to */
	bool reaped;
};

/* ---- shared helpers ---------------------------------------------------- */

void load_fail(struct load_shared *sh, int err, const char *fmt, ...)
{
	va_list ap;

	if (atomic_exchange(&sh->error_claimed, 1))
		return;
	va_start(ap, fmt);
	vsnprintf(sh->error_text, sizeof(sh->error_text), fmt, ap);
	va_end(ap);
	atomic_store(&sh->error, err < 0 ? err : -EIO);
}

/*
 * SIGKILL at the deadline, from the kernel: the task ends on time even if
 * no other task of the load gets the CPU to stop it. Posix timers are not
 * inherited by fork(), so every task arms its own. Return: 0 or -errno.
 */
static int arm_deadline(const struct load_shared *sh)
{
	struct sigevent sev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGKILL };
	struct itimerspec its = { { 0, 0 }, { 0, 0 } };
	timer_t timer;

	if (!sh->deadline_ns)
		return 0;
	if (mono_ns() >= sh->deadline_ns)
		return -ETIME;
	its.it_value.tv_sec = sh->deadline_ns / 1000000000;
	its.it_value.tv_nsec = sh->deadline_ns % 1000000000;
	if (timer_create(CLOCK_MONOTONIC, &sev, &timer) < 0)
		return -errno;
	if (timer_settime(timer, TIMER_ABSTIME, &its, NULL) < 0)
		return -errno;
	return 0;
}

int load_child_bind(const struct load_shared *sh, pid_t parent)
{
	int err;

	/* A load task must never outlive the task that started it... */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0)
		return -errno;
	/* ...which may have died before prctl(): we were reparented then. */
	if (getppid() != parent)
		return -ESRCH;
	/*
	 * ...nor its deadline. Only a deadline already past is fatal here: a
	 * timer refused (RLIMIT_SIGPENDING) leaves the supervisor and the
	 * parent-death signal to stop us.
	 */
	err = arm_deadline(sh);
	return err == -ETIME ? err : 0;
}

int load_child_init(const struct load_shared *sh, pid_t parent)
{
	struct sigaction sa = { .sa_handler = SIG_DFL };
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGCHLD, SIGPIPE, SIGUSR1, SIGUSR2 };
	sigset_t none;
	int err = load_child_bind(sh, parent);

	if (err)
		return err;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	/* Up from the supervisor's value: always allowed. */
	if (getpriority(PRIO_PROCESS, 0) != sh->worker_nice &&
	    setpriority(PRIO_PROCESS, 0, sh->worker_nice) < 0)
		return -errno;
	return 0;
}

/* ---- configuration ------------------------------------------------------ */

void load_config_init(struct load_config *c)
{
	memset(c, 0, sizeof(*c));
	c->groups = LOAD_DEFAULT_GROUPS;
	c->fds = LOAD_DEFAULT_FDS;
	c->loops = LOAD_DEFAULT_LOOPS;
	c->datasize = LOAD_DEFAULT_DATASIZE;
	c->runs = 1;
	c->oom_limit_bytes = LOAD_DEFAULT_OOM_LIMIT;
}

void load_config_free(struct load_config *c)
{
	rtr_cpuset_free(&c->cpus);
}

uint64_t load_messages_per_run(const struct load_config *c)
{
	return (uint64_t)c->groups * c->fds * c->fds * c->loops;
}

unsigned int load_cpu_count(const struct load_config *c)
{
	struct rtr_cpuset allowed = RTR_CPUSET_INIT;
	size_t n;

	if (rtr_cpuset_get_affinity(&allowed) == 0) {
		if (!rtr_cpuset_is_empty(&c->cpus))
			rtr_cpuset_and(&allowed, &c->cpus);
		n = rtr_cpuset_count(&allowed);
	} else {
		/* Only as the fallback: glibc reads /sys/devices/system/cpu/online for it. */
		long online = sysconf(_SC_NPROCESSORS_ONLN);

		n = online > 0 ? (size_t)online : 1;
		if (!rtr_cpuset_is_empty(&c->cpus) && rtr_cpuset_count(&c->cpus) < n)
			n = rtr_cpuset_count(&c->cpus);
	}
	rtr_cpuset_free(&allowed);
	if (n > LOAD_MAX_CPU_HOGS)
		n = LOAD_MAX_CPU_HOGS;
	return n ? (unsigned int)n : 1;
}

/* The per-CPU bounds of load.h, on the CPUs of the load. */
static int check_task_counts(const struct load_config *c, char *err, size_t errlen)
{
	unsigned int ncpus = load_cpu_count(c);
	uint64_t hogs_max = (uint64_t)LOAD_CPU_HOGS_PER_CPU * ncpus;
	uint64_t msg_max = (uint64_t)LOAD_MSG_TASKS_PER_CPU * ncpus;
	uint64_t msg = (uint64_t)c->groups * c->fds * 2;

	if (msg_max < (uint64_t)LOAD_DEFAULT_GROUPS * LOAD_DEFAULT_FDS * 2)
		msg_max = (uint64_t)LOAD_DEFAULT_GROUPS * LOAD_DEFAULT_FDS * 2;

	if (c->cpu_hogs > hogs_max) {
		snprintf(err, errlen,
			 "%u CPU hogs is more than %llu (%u per CPU, %u CPU%s for the load): more "
			 "add no load, only minutes to start and stop them",
			 c->cpu_hogs, (unsigned long long)hogs_max, LOAD_CPU_HOGS_PER_CPU, ncpus,
			 ncpus == 1 ? "" : "s");
		return -EINVAL;
	}
	if (c->groups && msg > msg_max) {
		snprintf(err, errlen,
			 "%u groups of %u+%u messaging tasks is more than %llu tasks (%u per CPU, "
			 "%u CPU%s for the load): more add no load, only minutes to start and "
			 "stop them", c->groups, c->fds, c->fds, (unsigned long long)msg_max,
			 LOAD_MSG_TASKS_PER_CPU, ncpus, ncpus == 1 ? "" : "s");
		return -EINVAL;
	}
	return 0;
}

int load_config_check(const struct load_config *c, char *err, size_t errlen)
{
	long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
	uint64_t ram = pages > 0 && psize > 0 ? (uint64_t)pages * (uint64_t)psize : 0;

	if (c->groups > LOAD_MAX_GROUPS) {
		snprintf(err, errlen, "%u groups is more than %u", c->groups, LOAD_MAX_GROUPS);
		return -EINVAL;
	}
	if (c->groups && (c->fds < 1 || c->fds > LOAD_MAX_FDS)) {
		snprintf(err, errlen, "file descriptors per group must be 1..%u", LOAD_MAX_FDS);
		return -EINVAL;
	}
	if (c->groups && (c->datasize < 1 || c->datasize > LOAD_MAX_DATASIZE)) {
		snprintf(err, errlen, "message size must be 1..%u bytes", LOAD_MAX_DATASIZE);
		return -EINVAL;
	}
	/* A run's bytes are counted in a uint64_t: keep them far below its limit. */
	if (c->groups && (c->loops < 1 || c->loops > (UINT64_MAX / 4) / ((uint64_t)c->groups *
								   c->fds * c->fds * c->datasize))) {
		snprintf(err, errlen, "loops must be at least 1, and a run below 2^62 bytes");
		return -EINVAL;
	}
	if (c->cpu_hogs > LOAD_MAX_CPU_HOGS) {
		snprintf(err, errlen, "%u CPU hogs is more than %u", c->cpu_hogs,
			 LOAD_MAX_CPU_HOGS);
		return -EINVAL;
	}
	if (ram && c->memory_bytes > ram) {
		snprintf(err, errlen, "memory churn of %llu bytes is more than this machine's RAM",
			 (unsigned long long)c->memory_bytes);
		return -EINVAL;
	}
	if (c->oom && (c->oom_limit_bytes < (1u << 20) || (ram && c->oom_limit_bytes > ram / 2))) {
		snprintf(err, errlen, "the OOM cgroup limit must be between 1 MiB and half the RAM");
		return -EINVAL;
	}
	if (c->duration_ns < 0) {
		snprintf(err, errlen, "negative duration");
		return -EINVAL;
	}
	if (c->nice < -20 || c->nice > 19) {
		snprintf(err, errlen, "nice value %d is outside -20..19", c->nice);
		return -EINVAL;
	}
	if (!c->groups && !c->cpu_hogs && !c->memory_bytes && !c->oom) {
		snprintf(err, errlen, "no load selected");
		return -EINVAL;
	}
	return check_task_counts(c, err, errlen);
}

/* ---- the supervisor ------------------------------------------------------ */

enum part { PART_RUN, PART_CPU, PART_MEMORY, PART_OOM };

static const char *const part_names[] = {
	[PART_RUN] = "messaging",
	[PART_CPU] = "CPU hog",
	[PART_MEMORY] = "memory churn",
	[PART_OOM] = "OOM",
};

/* Task names (at most 15 characters) that say in ps/top what each task is. */
static const char *const part_comms[] = {
	[PART_RUN] = "rtr-load-msg",
	[PART_CPU] = "rtr-load-cpu",
	[PART_MEMORY] = "rtr-load-mem",
	[PART_OOM] = "rtr-load-oom",
};

struct kid {
	pid_t pid;		/* also its process group */
	enum part part;
};

struct supervisor {
	const struct load_config *c;
	struct load_shared *sh;
	int status_fd;		/* write end, closed in every task we fork */
	int gate[2];		/* start gate: parts wait for EOF on gate[0]; -1 once open */
	pid_t parent;		/* the caller */
	struct kid *kids;
	size_t n_kids;
	struct load_cgroup cg;
	bool stop;
};

/* Every fd the caller had open (a /dev/cpu_dma_latency handle, sockets...) but @keep. */
static void close_inherited_fds(int keep)
{
	struct rlimit rl;
	long max = 65536;
	bool done;

	/* close_range() (Linux 5.9) in one or two calls; else one by one. */
	if (keep < 3)
		done = syscall(SYS_close_range, 3, ~0U, 0) == 0;
	else
		done = (keep == 3 || syscall(SYS_close_range, 3, keep - 1, 0) == 0) &&
		       syscall(SYS_close_range, keep + 1, ~0U, 0) == 0;
	if (done)
		return;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    (long)rl.rlim_cur < max)
		max = (long)rl.rlim_cur;
	for (int fd = 3; fd < max; fd++)
		if (fd != keep)
			close(fd);
}

/*
 * Put the supervisor below its workers' nice value, as far as it may: -20
 * with CAP_SYS_NICE, else down to what RLIMIT_NICE allows (20 - limit).
 * Best effort: without either it shares their value, and the bounds on the
 * task count keep its turns short.
 */
static void supervisor_nice(int worker_nice)
{
	struct rlimit rl;
	int floor = -20;

	if (worker_nice <= floor || setpriority(PRIO_PROCESS, 0, floor) == 0)
		return;
	if (getrlimit(RLIMIT_NICE, &rl) < 0 || rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > 40)
		return;
	floor = 20 - (int)rl.rlim_cur;
	if (floor < worker_nice)
		(void)setpriority(PRIO_PROCESS, 0, floor);
}

/*
 * SCHED_OTHER, nice and CPUs for the supervisor; every load task inherits
 * them, and its nice value from load_shared.worker_nice.
 */
static int set_sched(const struct load_config *c, struct load_shared *sh)
{
	struct sched_param sp = { .sched_priority = 0 };
	cpu_set_t *set;
	size_t size;
	int err;

	/* The caller may be realtime: the load must never run with its priority. */
	err = pthread_setschedparam(pthread_self(), SCHED_OTHER, &sp);
	if (err) {
		load_fail(sh, -err, "cannot switch the load to SCHED_OTHER: %s", strerror(err));
		return -err;
	}
	/* Tried first on ourselves: a refusal is the user's error, said as such. */
	if (c->nice && setpriority(PRIO_PROCESS, 0, c->nice) < 0) {
		err = -errno;
		load_fail(sh, err, "cannot set nice %d: %s%s", c->nice, strerror(-err),
			  err == -EACCES || err == -EPERM ? " (needs CAP_SYS_NICE)" : "");
		return err;
	}
	errno = 0;
	sh->worker_nice = getpriority(PRIO_PROCESS, 0);
	if (errno)
		sh->worker_nice = c->nice;
	supervisor_nice(sh->worker_nice);
	if (rtr_cpuset_is_empty(&c->cpus))
		return 0;
	err = rtr_cpuset_to_sched(&c->cpus, &set, &size);
	if (err) {
		load_fail(sh, err, "cannot build the CPU mask: %s", strerror(-err));
		return err;
	}
	if (sched_setaffinity(0, size, set) < 0) {
		char list[256];

		err = -errno;
		rtr_cpuset_format_list(&c->cpus, list, sizeof(list));
		if (err == -EINVAL)
			load_fail(sh, err, "cannot run on CPUs %s: none of them is online and "
				  "allowed to this process", list);
		else
			load_fail(sh, err, "cannot run on CPUs %s: %s", list, strerror(-err));
	}
	CPU_FREE(set);
	return err;
}

static int part_main(struct supervisor *sv, enum part part)
{
	switch (part) {
	case PART_RUN:
		return load_hackbench_run(sv->c, sv->sh);
	case PART_CPU:
		load_cpu_hog(sv->sh);
	case PART_MEMORY:
		load_oom_prefer_self();
		return load_memory_churn(sv->c->memory_bytes, sv->sh);
	case PART_OOM:
		return load_oom_loop(sv->c, &sv->cg, sv->sh);
	}
	return -EINVAL;
}

/*
 * In a part just forked: wait until the supervisor has forked them all
 * and closes its end of the gate (EOF), so that running hogs do not slow
 * the forks that follow. Return: 0, or -ESRCH when the supervisor died.
 */
static int wait_gate(struct supervisor *sv, pid_t supervisor)
{
	char b;

	if (sv->gate[0] < 0)
		return 0;
	close(sv->gate[1]);
	while (read(sv->gate[0], &b, 1) < 0 && errno == EINTR)
		;
	close(sv->gate[0]);
	/* EOF also comes when the supervisor dies: do not start then. */
	return getppid() == supervisor ? 0 : -ESRCH;
}

/* Fork one part in its own process group. Return: 0 or -errno. */
static int spawn(struct supervisor *sv, enum part part)
{
	pid_t self = getpid(), pid;

	if (part == PART_RUN) {
		atomic_store(&sv->sh->cur_bytes, 0);
		atomic_store(&sv->sh->cur_ns, 0);
	}
	pid = fork();
	if (pid < 0) {
		int err = -errno;

		load_fail(sv->sh, err, "cannot start the %s task: %s", part_names[part],
			  strerror(-err));
		return err;
	}
	if (pid == 0) {
		close(sv->status_fd);
		setpgid(0, 0);
		prctl(PR_SET_NAME, part_comms[part]);
		if (load_child_init(sv->sh, self) || wait_gate(sv, self))
			_exit(1);
		_exit(part_main(sv, part) ? 1 : 0);
	}
	/* Also here, so that the group exists before we may kill it. */
	setpgid(pid, pid);
	sv->kids[sv->n_kids++] = (struct kid){ pid, part };
	return 0;
}

static void forget(struct supervisor *sv, size_t i)
{
	sv->kids[i] = sv->kids[--sv->n_kids];
}

/* A messaging run ended with @status: account for it, and start the next one. */
static void run_ended(struct supervisor *sv, int status)
{
	const struct load_config *c = sv->c;
	struct load_shared *sh = sv->sh;
	uint64_t want = load_messages_per_run(c), got;

	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		if (WIFSIGNALED(status))
			load_fail(sh, -EIO, "a messaging run was killed by signal %d",
				  WTERMSIG(status));
		else
			load_fail(sh, -EIO, "a messaging run failed");
		sv->stop = true;
		return;
	}
	got = atomic_load(&sh->cur_bytes) / c->datasize;
	if (got != want) {
		load_fail(sh, -EIO, "a messaging run delivered %llu of %llu messages",
			  (unsigned long long)got, (unsigned long long)want);
		sv->stop = true;
		return;
	}
	atomic_fetch_add(&sh->messages, got);
	atomic_fetch_add(&sh->run_ns, atomic_load(&sh->cur_ns));
	atomic_store(&sh->last_run_ns, atomic_load(&sh->cur_ns));
	/* runs last: a reader that sees N runs sees their messages too. */
	atomic_fetch_add(&sh->runs, 1);
	if (c->runs && atomic_load(&sh->runs) >= c->runs)
		sv->stop = true;
	else if (!sv->stop && spawn(sv, PART_RUN))
		sv->stop = true;
}

static bool past_deadline(const struct supervisor *sv)
{
	return sv->sh->deadline_ns && mono_ns() >= sv->sh->deadline_ns;
}

static void reap(struct supervisor *sv)
{
	int status;
	pid_t pid;

	while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
		for (size_t i = 0; i < sv->n_kids; i++) {
			enum part part = sv->kids[i].part;

			if (sv->kids[i].pid != pid)
				continue;
			forget(sv, i);
			if (past_deadline(sv)) {
				/*
				 * Its own timer ended it (or we are about to): the load
				 * is over. A run that completed still counts.
				 */
				sv->stop = true;
				if (part == PART_RUN && WIFEXITED(status) && !WEXITSTATUS(status))
					run_ended(sv, status);
			} else if (part == PART_RUN) {
				run_ended(sv, status);
			} else if (!sv->stop) {
				/* These run until killed: any other end is a failure. */
				load_fail(sv->sh, -EIO, "the %s task ended unexpectedly (%s %d)",
					  part_names[part],
					  WIFSIGNALED(status) ? "signal" : "status",
					  WIFSIGNALED(status) ? WTERMSIG(status)
							      : WEXITSTATUS(status));
				sv->stop = true;
			}
			break;
		}
		/* Not ours: an orphaned grandchild handed to us as subreaper. */
	}
}

/*
 * Whether start-up must end early: a stop signal is pending (the caller
 * stopped us, or died), the caller is gone, the deadline has passed, or
 * start-up takes too long (a machine so busy that the bounds did not help).
 */
static bool start_interrupted(struct supervisor *sv, size_t started)
{
	static const int stop_sigs[] = { SIGTERM, SIGINT, SIGHUP };
	sigset_t pending;
	int64_t now = mono_ns();

	/* Left pending: wait_loop() takes them. A SIGCHLD is for reap(), later. */
	if (sigpending(&pending) == 0)
		for (size_t i = 0; i < sizeof(stop_sigs) / sizeof(stop_sigs[0]); i++)
			if (sigismember(&pending, stop_sigs[i]) == 1)
				return true;
	if (getppid() != sv->parent || past_deadline(sv))
		return true;
	if (now - sv->sh->start_ns > START_TIMEOUT_NS) {
		load_fail(sv->sh, -ETIMEDOUT, "the load did not start within %lld s (%zu tasks "
			  "started): the machine is too busy", START_TIMEOUT_NS / 1000000000,
			  started);
		return true;
	}
	return false;
}

/* Fork every part, each waiting at the gate, then open the gate. */
static void start_parts(struct supervisor *sv)
{
	const struct load_config *c = sv->c;
	char err[160] = "";
	int rc;

	if (c->oom) {
		rc = load_cgroup_create(&sv->cg, c->oom_limit_bytes, err, sizeof(err));
		if (rc) {
			load_fail(sv->sh, rc, "--oom: %s", err);
			sv->stop = true;
			return;
		}
	}
	if (pipe2(sv->gate, O_CLOEXEC) < 0) {
		rc = -errno;
		load_fail(sv->sh, rc, "cannot make the start gate: %s", strerror(-rc));
		sv->stop = true;
		return;
	}
	for (unsigned int i = 0; !sv->stop && i < c->cpu_hogs; i++)
		sv->stop = start_interrupted(sv, sv->n_kids) || spawn(sv, PART_CPU) != 0;
	if (!sv->stop && c->memory_bytes)
		sv->stop = spawn(sv, PART_MEMORY) != 0;
	if (!sv->stop && c->oom)
		sv->stop = spawn(sv, PART_OOM) != 0;
	if (!sv->stop && c->groups)
		sv->stop = spawn(sv, PART_RUN) != 0;
	/* Open the gate (on a stop too: the parts are killed, not left waiting). */
	close(sv->gate[1]);
	close(sv->gate[0]);
	sv->gate[0] = sv->gate[1] = -1;
}

static void wait_loop(struct supervisor *sv, const sigset_t *set)
{
	int64_t deadline = sv->sh->deadline_ns;

	while (!sv->stop) {
		struct timespec ts, *tsp = NULL;
		int sig;

		if (deadline) {
			int64_t left = deadline - mono_ns();

			if (left <= 0)
				break;
			ts.tv_sec = left / 1000000000;
			ts.tv_nsec = left % 1000000000;
			tsp = &ts;
		}
		sig = sigtimedwait(set, NULL, tsp);
		if (sig == SIGCHLD)
			reap(sv);
		else if (sig > 0)
			sv->stop = true;
	}
}

/* Kill every part's process group and reap until no child is left. */
static void shutdown_parts(struct supervisor *sv, const sigset_t *set)
{
	int64_t end = mono_ns() + REAP_TIMEOUT_NS;
	uint64_t kills;
	int err;

	sv->stop = true;
	for (size_t i = 0; i < sv->n_kids; i++)
		kill(-sv->kids[i].pid, SIGKILL);
	for (;;) {
		struct timespec ts = { 0, 50 * 1000000 };
		pid_t pid;

		while ((pid = waitpid(-1, NULL, WNOHANG)) > 0)
			;
		if (pid < 0 && errno == ECHILD)
			break;
		if (mono_ns() > end) {
			load_fail(sv->sh, -ETIMEDOUT, "some load tasks did not exit");
			break;
		}
		/* Still-live grandchildren of a killed group get the same fate. */
		for (size_t i = 0; i < sv->n_kids; i++)
			kill(-sv->kids[i].pid, SIGKILL);
		sigtimedwait(set, NULL, &ts);
	}
	if (sv->cg.dir[0]) {
		if (load_cgroup_oom_kills(&sv->cg, &kills) == 0 &&
		    kills > atomic_load(&sv->sh->oom_kills))
			atomic_store(&sv->sh->oom_kills, kills);
		err = load_cgroup_remove(&sv->cg);
		if (err)
			load_fail(sv->sh, err, "cannot remove the cgroup %s: %s", sv->cg.dir,
				  strerror(-err));
	}
}

static void __attribute__((noreturn))
supervisor_main(const struct load_config *c, struct load_shared *sh, pid_t parent, int status_fd)
{
	struct supervisor sv = { .c = c, .sh = sh, .status_fd = status_fd, .gate = { -1, -1 },
				 .parent = parent };
	size_t max_kids = (size_t)c->cpu_hogs + 4;
	sigset_t set;

	/* Only these signals matter, and only through sigtimedwait(). */
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	sigprocmask(SIG_SETMASK, &set, NULL);
	/* Our own group: a terminal's ^C goes to the caller, who stops us. */
	setpgid(0, 0);
	prctl(PR_SET_NAME, "rtr-load");
	/* If the caller dies, clean up as for load_stop(). */
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() != parent)
		sv.stop = true;
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	close_inherited_fds(status_fd);

	sv.kids = calloc(max_kids, sizeof(*sv.kids));
	if (!sv.kids) {
		load_fail(sh, -ENOMEM, "out of memory");
		sv.stop = true;
	}
	if (!sv.stop && set_sched(c, sh))
		sv.stop = true;
	if (!sv.stop)
		start_parts(&sv);
	wait_loop(&sv, &set);
	shutdown_parts(&sv, &set);
	sh->end_ns = mono_ns();
	atomic_store(&sh->finished, true);
	_exit(0);
}

/* ---- the caller's side ---------------------------------------------------- */

int load_start(const struct load_config *c, struct load **out)
{
	char err[160];
	struct load *l;
	int pfd[2], rc;
	pid_t self = getpid();

	*out = NULL;
	rc = load_config_check(c, err, sizeof(err));
	if (rc)
		return rc;
	l = calloc(1, sizeof(*l));
	if (!l)
		return -ENOMEM;
	l->cfg = *c;
	l->cfg.cpus = (struct rtr_cpuset)RTR_CPUSET_INIT;
	l->status_fd = -1;
	rc = rtr_cpuset_copy(&l->cfg.cpus, &c->cpus);
	if (rc)
		goto fail;
	l->sh = mmap(NULL, sizeof(*l->sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		     -1, 0);
	if (l->sh == MAP_FAILED) {
		l->sh = NULL;
		rc = -errno;
		goto fail;
	}
	if (pipe2(pfd, O_CLOEXEC) < 0) {
		rc = -errno;
		goto fail;
	}
	l->sh->start_ns = mono_ns();
	if (c->duration_ns > 0)
		l->sh->deadline_ns = l->sh->start_ns + c->duration_ns;
	l->pid = fork();
	if (l->pid < 0) {
		rc = -errno;
		close(pfd[0]);
		close(pfd[1]);
		goto fail;
	}
	if (l->pid == 0) {
		close(pfd[0]);
		supervisor_main(&l->cfg, l->sh, self, pfd[1]);
	}
	close(pfd[1]);
	l->status_fd = pfd[0];
	*out = l;
	return 0;
fail:
	if (l->sh)
		munmap(l->sh, sizeof(*l->sh));
	rtr_cpuset_free(&l->cfg.cpus);
	free(l);
	return rc;
}

/* The supervisor has gone: reap it, and note if it died without finishing. */
static void reap_supervisor(struct load *l)
{
	int status = 0;

	/* ECHILD when the caller ignores SIGCHLD (auto-reaping): then "finished" tells. */
	while (waitpid(l->pid, &status, 0) < 0 && errno == EINTR)
		;
	l->reaped = true;
	if (!atomic_load(&l->sh->finished)) {
		load_fail(l->sh, -EIO, "the load supervisor died (%s %d); load tasks may remain",
			  WIFSIGNALED(status) ? "signal" : "status",
			  WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
		l->sh->end_ns = mono_ns();
		atomic_store(&l->sh->finished, true);
	}
}

int load_wait(struct load *l, int64_t timeout_ns)
{
	struct pollfd p = { .fd = l->status_fd, .events = POLLIN };
	struct timespec ts, *tsp = NULL;
	int rc;

	if (l->reaped)
		return 1;
	if (timeout_ns >= 0) {
		ts.tv_sec = timeout_ns / 1000000000;
		ts.tv_nsec = timeout_ns % 1000000000;
		tsp = &ts;
	}
	rc = ppoll(&p, 1, tsp, NULL);
	if (rc < 0)
		return errno == EINTR ? 0 : -errno;
	if (rc == 0)
		return 0;
	reap_supervisor(l);
	return 1;
}

int load_stop(struct load *l)
{
	int64_t end = mono_ns() + STOP_TIMEOUT_NS;

	if (!l->reaped) {
		kill(l->pid, SIGTERM);
		while (!l->reaped) {
			int64_t left = end - mono_ns();

			if (left <= 0) {
				/* Its tasks die with it (PR_SET_PDEATHSIG). */
				kill(l->pid, SIGKILL);
				reap_supervisor(l);
				break;
			}
			if (load_wait(l, left) < 0)
				reap_supervisor(l);
		}
	}
	return atomic_load(&l->sh->error);
}

void load_stats(const struct load *l, struct load_stats *st)
{
	const struct load_shared *sh = l->sh;
	bool finished = atomic_load(&sh->finished);

	memset(st, 0, sizeof(*st));
	st->running = !finished;
	st->error = atomic_load(&sh->error);
	if (st->error)
		snprintf(st->error_text, sizeof(st->error_text), "%s", sh->error_text);
	st->elapsed_ns = (finished ? sh->end_ns : mono_ns()) - sh->start_ns;
	st->runs = atomic_load(&sh->runs);
	st->messages = atomic_load(&sh->messages);
	st->run_ns = atomic_load(&sh->run_ns);
	st->last_run_ns = atomic_load(&sh->last_run_ns);
	st->cpu_loops = atomic_load(&sh->cpu_loops);
	st->memory_cycles = atomic_load(&sh->memory_cycles);
	st->memory_pages = atomic_load(&sh->memory_pages);
	st->oom_children = atomic_load(&sh->oom_children);
	st->oom_kills = atomic_load(&sh->oom_kills);
}

void load_free(struct load *l)
{
	if (!l)
		return;
	load_stop(l);
	close(l->status_fd);
	munmap(l->sh, sizeof(*l->sh));
	rtr_cpuset_free(&l->cfg.cpus);
	free(l);
}

int load_run(const struct load_config *c, const volatile sig_atomic_t *stop,
	     struct load_stats *st, bool *interrupted)
{
	const int64_t poll_ns = 100 * 1000000LL;
	struct load *l;
	int rc = load_start(c, &l);

	if (rc)
		return rc;
	while ((rc = load_wait(l, poll_ns)) == 0 && !*stop)
		;
	*interrupted = *stop != 0;
	load_stop(l);
	load_stats(l, st);
	load_free(l);
	return rc < 0 ? rc : 0;
}
