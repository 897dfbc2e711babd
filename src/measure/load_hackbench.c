// SPDX-License-Identifier: MIT
/*
 * One messaging run, with hackbench's semantics so that its numbers compare:
 * each group has FDS receivers, each reading from its own AF_UNIX stream
 * socket pair (or pipe), and FDS senders, each writing LOOPS messages of
 * DATASIZE bytes to every receiver of its group. A run moves
 * groups x FDS x FDS x LOOPS messages; its time runs from the moment every
 * task is ready until the last one has been reaped (or joined).
 *
 * Start gate: every task writes one byte to a "ready" pipe and then blocks
 * reading a "go" pipe. When all ready bytes are in, the runner closes the
 * only remaining write end of "go", and every blocked read returns 0 at
 * once. Receivers read one message at a time (a read never crosses a
 * message boundary), so the system-call pattern is hackbench's.
 *
 * The runner is a child of the supervisor in its own process group. A task
 * that meets an error records it and kills that whole group (itself, the
 * runner and the other workers): a receiver waiting for a dead sender
 * would otherwise block for ever.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "measure/load_internal.h"
#include "util/clock.h"

/* Workers use little stack: their buffer is on the heap. */
#define WORKER_STACK (64u << 10)

struct hb_task {
	struct load_shared *sh;
	const struct load_config *c;
	bool sender;
	int in_fd;		/* receiver: its read end */
	const int *out_fds;	/* sender: write ends of the group's receivers */
	int ready_fd, go_fd;
	char *buf;		/* thread mode: allocated by the runner */
};

static void __attribute__((noreturn)) hb_abort(struct load_shared *sh, int err, const char *what)
{
	load_fail(sh, err, "messaging: %s: %s", what, strerror(-err));
	kill(0, SIGKILL);
	_exit(1);
}

/* Announce readiness, then block until the runner opens the gate. */
static void hb_gate(const struct hb_task *t)
{
	char b = 'r';
	ssize_t n;

	while ((n = write(t->ready_fd, &b, 1)) < 0 && errno == EINTR)
		;
	if (n != 1)
		hb_abort(t->sh, n < 0 ? -errno : -EIO, "ready pipe");
	while ((n = read(t->go_fd, &b, 1)) < 0 && errno == EINTR)
		;
	if (n != 0)
		hb_abort(t->sh, n < 0 ? -errno : -EPROTO, "start gate");
}

static void hb_send(const struct hb_task *t, const char *buf)
{
	const struct load_config *c = t->c;

	for (uint64_t l = 0; l < c->loops; l++) {
		for (unsigned int r = 0; r < c->fds; r++) {
			size_t done = 0;

			while (done < c->datasize) {
				ssize_t n = write(t->out_fds[r], buf + done, c->datasize - done);

				if (n < 0 && errno == EINTR)
					continue;
				if (n <= 0)
					hb_abort(t->sh, n < 0 ? -errno : -EIO, "send");
				done += (size_t)n;
			}
		}
	}
}

static void hb_receive(const struct hb_task *t, char *buf)
{
	const struct load_config *c = t->c;
	uint64_t total = (uint64_t)c->fds * c->loops * c->datasize, got = 0;
	size_t in_msg = 0;	/* bytes of the current message already read */

	while (got < total) {
		ssize_t n = read(t->in_fd, buf, c->datasize - in_msg);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			hb_abort(t->sh, n < 0 ? -errno : -EPIPE, "receive");
		got += (uint64_t)n;
		in_msg += (size_t)n;
		if (in_msg == c->datasize)
			in_msg = 0;
	}
	atomic_fetch_add(&t->sh->cur_bytes, got);
}

static void *hb_task_main(void *arg)
{
	const struct hb_task *t = arg;
	char *buf = t->buf ? t->buf : malloc(t->c->datasize);

	if (!buf)
		hb_abort(t->sh, -ENOMEM, "message buffer");
	memset(buf, 'm', t->c->datasize);
	hb_gate(t);
	if (t->sender)
		hb_send(t, buf);
	else
		hb_receive(t, buf);
	if (!t->buf)
		free(buf);
	return NULL;
}

struct hb_run {
	const struct load_config *c;
	struct load_shared *sh;
	struct hb_task *tasks;	/* groups x 2 x fds */
	int *fds;		/* per group: fds read ends, then fds write ends */
	pthread_t *threads;
	size_t n_started;
	int ready[2], go[2];
};

static int fd_pair(const struct load_config *c, int fds[2])
{
	int rc = c->pipes ? pipe(fds) : socketpair(AF_UNIX, SOCK_STREAM, 0, fds);

	return rc < 0 ? -errno : 0;
}

/*
 * In thread mode all groups' descriptors are open at once: make sure the
 * limit allows it, raising the soft limit up to the hard one if needed.
 */
static int check_fd_limit(const struct load_config *c, struct load_shared *sh)
{
	uint64_t need = (uint64_t)c->groups * c->fds * 2 + 16;
	struct rlimit rl;

	if (!c->threads)
		need = (uint64_t)c->fds * 2 + 16;
	if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
		return -errno;
	if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < need) {
		if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < need) {
			load_fail(sh, -EMFILE,
				  "messaging: needs %llu open files, the limit is %llu (ulimit -n)",
				  (unsigned long long)need, (unsigned long long)rl.rlim_max);
			return -EMFILE;
		}
		rl.rlim_cur = need;
		if (setrlimit(RLIMIT_NOFILE, &rl) < 0)
			return -errno;
	}
	return 0;
}

/* Start one task as a thread or a forked process. */
static int start_task(struct hb_run *r, struct hb_task *t)
{
	pthread_attr_t attr;
	pid_t self, pid;
	int err;

	if (r->c->threads) {
		/*
		 * The runner allocates: a first malloc() in each new thread would
		 * make glibc set up a new arena (a 64 MiB mapping) for it.
		 */
		t->buf = malloc(r->c->datasize);
		if (!t->buf)
			return -ENOMEM;
		pthread_attr_init(&attr);
		pthread_attr_setstacksize(&attr, WORKER_STACK);
		err = pthread_create(&r->threads[r->n_started], &attr, hb_task_main, t);
		pthread_attr_destroy(&attr);
		if (err)
			return -err;
		r->n_started++;
		return 0;
	}
	self = getpid();
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		const int *group_fds = t->out_fds - r->c->fds;	/* rd[] then wr[] */

		/* Only the runner may hold the gate's write end. */
		close(r->go[1]);
		close(r->ready[0]);
		/*
		 * Keep only what this task uses (a sender the write ends, a
		 * receiver its read end), so exits release no more than needed.
		 */
		for (unsigned int k = 0; k < 2 * r->c->fds; k++)
			if (t->sender ? k < r->c->fds : group_fds[k] != t->in_fd)
				close(group_fds[k]);
		if (load_child_bind(r->sh, self))
			_exit(1);
		hb_task_main(t);
		_exit(0);
	}
	r->n_started++;
	return 0;
}

static int start_group(struct hb_run *r, unsigned int g)
{
	const struct load_config *c = r->c;
	struct hb_task *tasks = r->tasks + (size_t)g * 2 * c->fds;
	int *rd = r->fds + (size_t)g * 2 * c->fds, *wr = rd + c->fds;
	int err = 0;

	for (unsigned int i = 0; i < c->fds; i++) {
		int p[2];

		err = fd_pair(c, p);
		if (err) {
			for (unsigned int k = 0; k < i; k++) {
				close(rd[k]);
				close(wr[k]);
			}
			return err;
		}
		rd[i] = p[0];
		wr[i] = p[1];
	}
	for (unsigned int i = 0; i < 2 * c->fds; i++) {
		struct hb_task *t = &tasks[i];

		*t = (struct hb_task){ .sh = r->sh, .c = c, .sender = i >= c->fds,
				       .in_fd = i < c->fds ? rd[i] : -1, .out_fds = wr,
				       .ready_fd = r->ready[1], .go_fd = r->go[0] };
		err = start_task(r, t);
		if (err)
			break;
	}
	/* Processes have their copies now; threads share ours. rd[] runs into wr[]. */
	if (!c->threads)
		for (unsigned int i = 0; i < 2 * c->fds; i++)
			close(rd[i]);
	return err;
}

static int wait_ready(struct hb_run *r)
{
	size_t want = r->n_started, got = 0;
	char buf[256];

	while (got < want) {
		size_t ask = want - got < sizeof(buf) ? want - got : sizeof(buf);
		ssize_t n = read(r->ready[0], buf, ask);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EPIPE;
		got += (size_t)n;
	}
	return 0;
}

/* Wait for every task; any abnormal end fails the run. */
static int wait_done(struct hb_run *r)
{
	int err = 0;

	for (size_t i = 0; i < r->n_started; i++) {
		int status;

		if (r->c->threads) {
			pthread_join(r->threads[i], NULL);
			continue;
		}
		if (wait(&status) < 0) {
			if (errno == EINTR) {
				i--;
				continue;
			}
			return -errno;
		}
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
			err = -EIO;
	}
	return err;
}

static int hb_prepare(struct hb_run *r)
{
	const struct load_config *c = r->c;
	size_t n = (size_t)c->groups * 2 * c->fds;

	r->ready[0] = r->ready[1] = r->go[0] = r->go[1] = -1;
	r->tasks = calloc(n, sizeof(*r->tasks));
	r->fds = calloc(n, sizeof(*r->fds));
	r->threads = c->threads ? calloc(n, sizeof(*r->threads)) : NULL;
	if (!r->tasks || !r->fds || (c->threads && !r->threads))
		return -ENOMEM;
	if (pipe(r->ready) < 0 || pipe(r->go) < 0)
		return -errno;
	return check_fd_limit(c, r->sh);
}

int load_hackbench_run(const struct load_config *c, struct load_shared *sh)
{
	struct hb_run r = { .c = c, .sh = sh };
	int64_t t0;
	int err;

	err = hb_prepare(&r);
	for (unsigned int g = 0; !err && g < c->groups; g++)
		err = start_group(&r, g);
	if (!err) {
		/*
		 * Without our copy, a process dying before it is ready gives EOF,
		 * not a hang. Threads share our descriptors: theirs must stay open.
		 */
		if (!c->threads)
			close(r.ready[1]);
		err = wait_ready(&r);
	}
	if (err) {
		/* Tasks already started are blocked at the gate: take them down with us. */
		load_fail(sh, err, "messaging: cannot start %u groups of %u+%u tasks: %s",
			  c->groups, c->fds, c->fds, strerror(-err));
		kill(0, SIGKILL);
		return err;
	}
	t0 = mono_ns();
	close(r.go[1]);
	err = wait_done(&r);
	atomic_store(&sh->cur_ns, mono_ns() - t0);
	if (err)
		load_fail(sh, err, "messaging: a task ended abnormally");
	for (size_t i = 0; c->threads && i < r.n_started; i++)
		free(r.tasks[i].buf);
	free(r.tasks);
	free(r.fds);
	free(r.threads);
	return err;
}
