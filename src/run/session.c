// SPDX-License-Identifier: MIT
/* One `rtready run` from start to end; see session.h. */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "run/isolate.h"
#include "run/reportfile.h"
#include "run/session.h"
#include "run/table.h"
#include "target/target.h"
#include "util/fileio.h"
#include "util/output.h"
#include "util/parse.h"

extern char **environ;

#define REPORT_CAP (64u << 20)

/* LD_PRELOAD, RTREADY_CHECK_REPORT, _TABLE and RTREADY_MLOCKALL over a copy of environ. */
static int build_env(struct run_session *st, const struct run_request *rq)
{
	const char *old = getenv("LD_PRELOAD");
	size_t n = 0, k = 0;
	char **env;

	while (environ[n])
		n++;
	env = calloc(n + 5, sizeof(*env));
	if (!env)
		return -ENOMEM;
	st->envp = env;
	for (size_t i = 0; i < n; i++)
		if (strncmp(environ[i], "LD_PRELOAD=", 11) && strncmp(environ[i], "RTREADY_", 8))
			env[k++] = strdup(environ[i]);
	/* Ours first, so that it sees the calls before any other preloaded allocator. */
	if (asprintf(&env[k++], "LD_PRELOAD=%s%s%s", st->preload, old && *old ? ":" : "",
		     old ? old : "") < 0)
		env[k - 1] = NULL;
	if (rq->check && asprintf(&env[k++], "RTREADY_CHECK_REPORT=%s", st->report_file) < 0)
		env[k - 1] = NULL;
	if (rq->check && asprintf(&env[k++], "%s=%s", run_table_env, st->table_path) < 0)
		env[k - 1] = NULL;
	if (rq->mlock)
		env[k++] = strdup("RTREADY_MLOCKALL=1");
	for (size_t i = 0; i < k; i++)
		if (!env[i])
			return -ENOMEM;
	return 0;
}

static void free_env(char **env)
{
	for (size_t i = 0; env && env[i]; i++)
		free(env[i]);
	free(env);
}

/* A record file that a killed rtready left: say it is gone. */
static void note_stale_file(void *ctx, const char *path, long pid, int err)
{
	if (err)
		say(ctx, true, "cannot remove %s, left by rtready pid %ld, which has ended: %s",
		    path, pid, strerror(-err));
}

static int make_report_file(struct run_session *st)
{
	int from_env, rc;
	const char *dir = run_report_file_dir(&from_env);

	/* Before ours is made: a killed rtready may have left some behind. */
	run_report_file_clean_stale(dir, note_stale_file, (void *)st->say);
	rc = run_report_file_create(dir, st->report_file, sizeof(st->report_file),
				    &st->report_fd);
	if (rc) {
		say(st->say, false, "cannot create the checker's report file in %s%s: %s", dir,
		    from_env ? " (from TMPDIR)" : "", strerror(-rc));
		return rc;
	}
	rc = run_table_create(&st->table_fd, st->table_path, sizeof(st->table_path));
	if (rc)
		say(st->say, false, "cannot create the checker's shared record table (memfd): %s",
		    strerror(-rc));
	return rc;
}

/* The report must not replace the program it reports on, or the checker library. */
static int check_collisions(const struct run_request *rq, const struct run_session *st)
{
	const struct output_file out = { "--report", rq->report };
	const struct output_file ins[] = {
		{ "the program", st->path },
		{ "the checker library", st->preload[0] ? st->preload : NULL },
	};
	char err[8400];
	int e = output_collisions(&out, 1, ins, 2, err, sizeof(err));

	if (e)
		st->say->line(st->say->ctx, false, err);
	return e;
}

/* Everything before fork: find the program and the library, make the cgroup. */
static int prepare(struct run_session *st, const struct run_request *rq)
{
	char err[PATH_MAX + 256];
	const char *cmd = rq->spawn.argv[0];
	int rc = run_find_program(cmd, st->path, sizeof(st->path));

	if (rc == -ENOENT) {
		say(st->say, false, "'%s': command not found", cmd);
		return rc;
	}
	if (rc) {
		say(st->say, false, "'%s': cannot execute: %s", cmd, strerror(-rc));
		return rc;
	}
	rc = run_inspect_program(st->path, &st->elf);
	if (rc) {
		say(st->say, false, "cannot read %s: %s", st->path, strerror(-rc));
		return rc;
	}
	/* The report's path first: findings that cannot be written are lost findings. */
	if (rq->report && check_collisions(rq, st))
		return -EINVAL;
	if (rq->report && (rc = output_check(rq->report)) != 0) {
		say(st->say, false, "cannot write %s: %s", rq->report, strerror(-rc));
		return rc;
	}
	if (rq->mlock && st->elf.elf && !st->elf.dynamic) {
		say(st->say, false, "--mlock works through a preloaded library, which a statically "
			"linked program (%s) never loads; call mlockall() in it", st->path);
		return -EINVAL;
	}
	if (rq->check || rq->mlock) {
		int self_err;

		if (run_find_preload(st->preload, sizeof(st->preload), &self_err)) {
			if (self_err)
				say(st->say, false, "cannot find the checker library: /proc is "
				    "unreadable (/proc/self/exe: %s; is procfs mounted?), so the "
				    "places beside rtready were not tried; tried %s; set "
				    "RTREADY_PRELOAD", strerror(-self_err), st->preload);
			else
				say(st->say, false, "cannot find the checker library (tried %s; set "
				    "RTREADY_PRELOAD)", st->preload);
			return -ENOENT;
		}
		if (strpbrk(st->preload, ": ")) {
			say(st->say, false, "the checker library path '%s' holds ':' or a blank, "
			    "which LD_PRELOAD cannot carry", st->preload);
			return -EINVAL;
		}
		if (rq->report && check_collisions(rq, st))
			return -EINVAL;
	}
	if (rq->check && (rc = make_report_file(st)) != 0)
		return rc;
	if (rq->cpu_max_pct || rq->memory_max_bytes) {
		struct cgroup_limits lim = { rq->cpu_max_pct, rq->memory_max_bytes,
					     rq->spawn.policy == SCHED_FIFO ||
					     rq->spawn.policy == SCHED_RR };
		char name[64];

		snprintf(name, sizeof(name), RUN_CGROUP_PREFIX "%ld", (long)getpid());
		rc = run_cgroup_create(&st->cg, &lim, name, err, sizeof(err));
		if (rc) {
			say(st->say, false, "cannot make the budget cgroup: %s", err);
			return rc;
		}
		if (run_cgroup_rt_refused(&st->cg) == 1)
			say(st->say, true, "in its --cpu-max cgroup %s the program cannot switch a "
			    "thread to SCHED_FIFO/RR (EPERM): RT group scheduling gives the group "
			    "no RT budget%s; see `rtready check --only sched.rt_group`",
			    st->cg.dirs[0], st->cg.version == 2 ? ", and cgroup v2 cannot give "
			    "it one" : "");
		rc = 0;
	}
	if (rq->isolate) {
		rc = run_isolate_create(&st->cg, rq->spawn.cpus, false, err, sizeof(err));
		if (rc) {
			say(st->say, false, "--isolate: %s", err);
			return rc;
		}
	}
	if (rq->check || rq->mlock)
		return build_env(st, rq);
	st->envp = NULL;
	return 0;
}

static int start(struct run_session *st, const struct run_request *rq)
{
	struct spawn_config sc = rq->spawn;
	char err[PATH_MAX + 256];
	int rc;

	sc.path = st->path;
	sc.envp = st->envp ? st->envp : environ;
	sc.cg = st->cg.n_procs ? &st->cg : NULL;
	sc.elf = st->elf.elf;
	sc.own_group = spawn_wants_own_group();
	rc = spawn_start(&sc, &st->pid, err, sizeof(err));
	st->own_group = sc.own_group;
	if (rc)
		st->say->line(st->say->ctx, false, err);
	return rc;
}

/* Read the checker's records into findings. Return: 0 or -errno (said). */
static int read_records(struct run_session *st)
{
	struct app_context ctx = { st->pid, st->path, st->elf.elf && !st->elf.dynamic,
				   st->elf.setid, st->elf.script, st->status };
	char *text = NULL;
	size_t len = 0;
	int rc;

	st->extras = json_array();
	/*
	 * Through our own descriptor: the name in $TMPDIR could be replaced
	 * meanwhile. Past the cap, what was read is parsed.
	 */
	rc = lseek(st->report_fd, 0, SEEK_SET) < 0 ? -errno :
	     fileio_read_all(st->report_fd, REPORT_CAP, FILEIO_HEAD, &text, &len);
	rc = rc ? rc : app_check_parse(text, len, &st->ac);
	/* The table after the lines: it adds what killed processes could not write. */
	if (!rc) {
		free(text);
		text = NULL;
		rc = lseek(st->table_fd, 0, SEEK_SET) < 0 ? -errno :
		     fileio_read_all(st->table_fd, REPORT_CAP, 0, &text, &len);
		rc = rc ? rc : run_table_merge(text, len, &st->ac);
	}
	if (!rc)
		app_check_symbolize(&st->ac);
	rc = rc ? rc : (st->extras ? app_check_to_report(&st->ac, &ctx, &st->report, st->extras)
				   : -ENOMEM);
	rc = rc ? rc : target_host_live(&st->report.host);
	free(text);
	if (rc) {
		say(st->say, false, "cannot read the checker's records: %s", strerror(-rc));
		return rc;
	}
	{
		struct summary s = report_summary(&st->report);

		st->findings = s.fail || s.warn || s.skip;
	}
	return 0;
}

/*
 * A budget cgroup of an rtready that has ended (killed, or its program
 * left processes behind then): say what was done with it.
 */
static void note_stale(void *ctx, const char *dir, long pid, int err)
{
	if (!err)
		say(ctx, true, "removed the empty cgroup %s, left by rtready pid %ld, which has "
		    "ended", dir, pid);
	else if (err == -EBUSY)
		say(ctx, true, "cgroup %s, left by rtready pid %ld, which has ended, still holds "
		    "processes of its program; left in place (end them, then rmdir it)", dir, pid);
	else
		say(ctx, true, "cannot remove cgroup %s left by rtready pid %ld: %s", dir, pid,
		    strerror(-err));
}

/* The kernel threads a dead rtready's partition reset, not all put back. */
static void note_affinity(void *ctx, long pid, const char *why)
{
	say(ctx, true, "the partition of rtready pid %ld, which has ended: %s", pid, why);
}

/*
 * After the program: if the OOM killer struck in its cgroup, say so (the
 * exit status alone, 137, looks like any SIGKILL).
 */
static void report_oom(const struct run_request *rq, const struct run_session *st)
{
	const char *cmd = rq->spawn.argv[0];
	uint64_t kills = 0;
	char size[32];

	if (!rq->memory_max_bytes || run_cgroup_oom_kills(&st->cg, &kills) || !kills)
		return;
	format_size(rq->memory_max_bytes, size, sizeof(size));
	if (WIFSIGNALED(st->status) && WTERMSIG(st->status) == SIGKILL)
		say(st->say, false, "%s was killed by the OOM killer: it needs more memory than "
		    "--memory-max %s (%llu OOM kill%s in %s)", cmd, size,
		    (unsigned long long)kills, kills == 1 ? "" : "s",
		    st->cg.dirs[st->cg.memory_dir]);
	else
		say(st->say, false, "the OOM killer killed %llu process%s of %s in its cgroup %s: "
		    "%s more memory than --memory-max %s",
		    (unsigned long long)kills, kills == 1 ? "" : "es", cmd,
		    st->cg.dirs[st->cg.memory_dir], kills == 1 ? "it needs" : "they need", size);
}

/* The --rttime guard's signals: say what they likely mean. */
static void report_rttime(const struct run_request *rq, const struct run_session *st)
{
	int sig = WIFSIGNALED(st->status) ? WTERMSIG(st->status) : 0;

	if (!rq->spawn.rttime_us || (sig != SIGXCPU && sig != SIGKILL))
		return;
	say(st->say, true, "%s was killed by %s%s: a realtime thread may have run --rttime %llu "
	    "us without blocking (RLIMIT_RTTIME)", rq->spawn.argv[0],
	    sig == SIGXCPU ? "SIGXCPU" : "SIGKILL",
	    sig == SIGKILL ? " (1 s after SIGXCPU, or someone else's)" : "",
	    (unsigned long long)rq->spawn.rttime_us);
}

int run_session_exec(const struct run_request *rq, const struct say *to,
		     struct run_session **out)
{
	struct run_session *st = calloc(1, sizeof(*st));
	char err[PATH_MAX + 256];
	int rc, code = -1;

	*out = st;
	if (!st) {
		to->line(to->ctx, false, "out of memory");
		return -ENOMEM;
	}
	st->say = to;
	st->report_fd = -1;
	st->table_fd = -1;
	report_init(&st->report, "run");
	/* Before ours is made: a killed rtready may have left some behind. */
	run_cgroup_clean_stale(note_stale, (void *)to);
	run_isolate_clean_stale(&(struct run_isolate_notes){ note_stale, note_affinity, (void *)to });
	rc = prepare(st, rq);
	if (rc == -ENOMEM)
		to->line(to->ctx, false, "out of memory");
	if (!rc && (rc = start(st, rq)) == 0) {
		rc = spawn_wait(st->pid, st->own_group, &st->status);
		if (rc) {
			say(to, false, "waiting for pid %ld: %s", (long)st->pid, strerror(-rc));
		} else {
			code = spawn_exit_code(st->status);
			report_oom(rq, st);
			report_rttime(rq, st);
		}
	}
	if (st->cg.n_dirs && (rq->isolate ? run_isolate_remove(&st->cg, err, sizeof(err))
					  : run_cgroup_remove(&st->cg, err, sizeof(err))))
		to->line(to->ctx, true, err);
	/* Findings that were not read must not look like a clean run to CI. */
	if (!rc && rq->check)
		rc = read_records(st);
	return rc ? rc : code;
}

void run_session_free(struct run_session *s)
{
	if (!s)
		return;
	if (s->report_file[0])
		unlink(s->report_file);
	if (s->report_fd >= 0)
		close(s->report_fd);
	if (s->table_fd >= 0)
		close(s->table_fd);
	free_env(s->envp);
	json_decref(s->extras);
	app_check_free(&s->ac);
	report_free(&s->report);
	free(s);
}
