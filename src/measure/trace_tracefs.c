// SPDX-License-Identifier: MIT
/*
 * The --trace session on the live kernel, through libtracefs (set-up,
 * markers, reading the ring buffer) and libtraceevent (decoding records).
 * Compiled only when both libraries are found; trace_none.c stands in
 * otherwise.
 *
 * Everything happens in a tracing instance of our own, "rtready-<pid>", so
 * the top-level trace and whatever another tool does there stay untouched.
 * Its clock is "mono" (the kernel's CLOCK_MONOTONIC), so trace timestamps
 * compare directly with the deadlines of the measuring threads. The hit
 * path (trace_session_hit, called by the non-realtime main thread) is one
 * write to trace_marker and one to tracing_on, both opened beforehand.
 * trace_session_free() is the single place that undoes the set-up; it runs
 * on every path, SIGINT included (the caller holds the stop signals). For
 * the one path it cannot run on, SIGKILL, a guard process waits on a pipe
 * only we write to: we write one byte before we end it, so EOF without
 * that byte means we died, and the guard removes the instance.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/magic.h>
#include <tracefs.h>
#include <event-parse.h>

#include "measure/trace.h"
#include "util/clock.h"
#include "util/say.h"

#define DIR_LEN 64

/* Events recorded. @required: without it there is nothing to explain. */
struct ev_spec {
	const char *sys;
	const char *name;
	enum trace_ev_type type;
	bool required;
};

static const struct ev_spec ev_specs[] = {
	{ "sched", "sched_switch", TEV_SWITCH, true },
	{ "sched", "sched_waking", TEV_WAKING, false },
	{ "sched", "sched_wakeup", TEV_WAKING, false },
	{ "irq", "irq_handler_entry", TEV_IRQ_ENTRY, false },
	{ "irq", "irq_handler_exit", TEV_IRQ_EXIT, false },
	{ "irq", "softirq_entry", TEV_SOFTIRQ_ENTRY, false },
	{ "irq", "softirq_exit", TEV_SOFTIRQ_EXIT, false },
	{ "timer", "hrtimer_expire_entry", TEV_HRTIMER_ENTRY, false },
	{ "timer", "hrtimer_expire_exit", TEV_HRTIMER_EXIT, false },
	{ "power", "cpu_idle", TEV_IDLE, false },
	/* x86 system vectors: the local timer interrupt is not an irq_handler event there. */
	{ "irq_vectors", "local_timer_entry", TEV_VECTOR_ENTRY, false },
	{ "irq_vectors", "local_timer_exit", TEV_VECTOR_EXIT, false },
	{ "irq_vectors", "reschedule_entry", TEV_VECTOR_ENTRY, false },
	{ "irq_vectors", "reschedule_exit", TEV_VECTOR_EXIT, false },
	{ "irq_vectors", "call_function_entry", TEV_VECTOR_ENTRY, false },
	{ "irq_vectors", "call_function_exit", TEV_VECTOR_EXIT, false },
	{ "irq_vectors", "call_function_single_entry", TEV_VECTOR_ENTRY, false },
	{ "irq_vectors", "call_function_single_exit", TEV_VECTOR_EXIT, false },
	{ "irq_vectors", "irq_work_entry", TEV_VECTOR_ENTRY, false },
	{ "irq_vectors", "irq_work_exit", TEV_VECTOR_EXIT, false },
	/* x86 only: NMIs (perf, watchdog) are invisible to the other events. */
	{ "nmi", "nmi_handler", TEV_NMI, false },
};

#define N_SPECS (sizeof(ev_specs) / sizeof(ev_specs[0]))

/* Only these systems are parsed when reading back (parsing all of them takes long). */
static const char *const read_systems[] = {
	"sched", "irq", "timer", "power", "irq_vectors", "nmi", "ftrace", "osnoise", NULL,
};

struct trace_session {
	struct tracefs_instance *inst;
	char name[32];
	char dir[DIR_LEN];
	char file[4096];
	bool mounted;		/* we mounted tracefs, and unmount it at the end */
	bool dir_set;		/* libtracefs was pointed at dir */
	bool print_open;	/* trace_marker is open (tracefs_print_init) */
	int on_fd;		/* the instance's tracing_on, open for a fast stop */
	bool stopped;
	bool hit;
	struct latency_hit first;
	int64_t marker_ns;	/* when the hit was marked (CLOCK_MONOTONIC) */
	pid_t guard;		/* removes the instance if we are killed; 0: none */
	int guard_fd;		/* the write end of its pipe */
	bool enabled[N_SPECS];
	bool timerlat;
	bool osnoise;
	char missing[160];
	struct tep_handle *tep;	/* trace_session_drain(): formats, loaded once */
	bool whole_run;		/* trace_session_start_run(): no window file */
	unsigned int buffer_kb;	/* per CPU; 0: TRACE_BUFFER_KB */
};

bool trace_supported(void)
{
	return true;
}

static bool is_tracefs(const char *dir)
{
	struct statfs st;

	return statfs(dir, &st) == 0 && st.f_type == TRACEFS_MAGIC;
}

/* Mount tracefs at its usual place when it is not there (the kernel has it since 4.1). */
static int ensure_mounted(struct trace_session *s, char *why, size_t len)
{
	struct stat st;

	snprintf(s->dir, sizeof(s->dir), "%s", TRACE_TRACEFS_DIR);
	if (is_tracefs(s->dir))
		return 0;
	if (stat(s->dir, &st) < 0 || !S_ISDIR(st.st_mode))
		return say_why(why, len, -ENOTSUP,
			       "%s does not exist: this kernel has no tracefs (CONFIG_TRACING)",
			       s->dir);
	if (mount("nodev", s->dir, "tracefs", 0, NULL) < 0) {
		int err = -errno;

		if (err == -EPERM || err == -EACCES)
			return say_why(why, len, err,
				       "tracefs is not mounted and mounting it at %s needs root "
				       "(CAP_SYS_ADMIN)",
				       s->dir);
		if (err == -ENODEV)
			return say_why(why, len, -ENOTSUP,
				       "this kernel has no tracefs (CONFIG_TRACING is off)");
		return say_why(why, len, err, "cannot mount tracefs at %s: %s", s->dir,
			       strerror(-err));
	}
	s->mounted = true;
	return 0;
}

static void note_missing(struct trace_session *s, const char *name)
{
	size_t used = strlen(s->missing);

	snprintf(s->missing + used, sizeof(s->missing) - used, "%s%s", used ? " " : "", name);
}

static int enable_events(struct trace_session *s, char *why, size_t len)
{
	bool waking = false;

	for (size_t i = 0; i < N_SPECS; i++) {
		const struct ev_spec *e = &ev_specs[i];

		/* Written directly: tracefs_event_enable() scans every event directory (slow). */
		if (tracefs_event_file_write(s->inst, e->sys, e->name, "enable", "1") > 0) {
			s->enabled[i] = true;
			if (e->type == TEV_WAKING)
				waking = true;
			continue;
		}
		if (e->required)
			return say_why(why, len, -ENOTSUP,
				       "cannot enable the %s:%s event in %s/instances/%s", e->sys,
				       e->name, s->dir, s->name);
		/* irq_vectors and nmi exist on x86 only: not missing elsewhere. */
		if (strcmp(e->sys, "irq_vectors") && strcmp(e->sys, "nmi"))
			note_missing(s, e->name);
	}
	if (!waking)
		return say_why(why, len, -ENOTSUP,
			       "this kernel has neither sched_waking nor sched_wakeup events");
	/*
	 * The osnoise/timerlat tracers' own events (irq_noise, thread_noise, ...)
	 * are recorded when the kernel has them; they only fire while such a
	 * tracer runs. We do not start timerlat ourselves: its threads (FIFO 95
	 * on every CPU) would compete with the measuring threads.
	 */
	s->timerlat = tracefs_tracer_available(s->dir, "timerlat");
	s->osnoise = tracefs_tracer_available(s->dir, "osnoise");
	if (s->osnoise)
		tracefs_instance_file_write(s->inst, "events/osnoise/enable", "1");
	return 0;
}

/*
 * Trace the measured CPUs only: the others (where a --load may run) pay
 * nothing, and only the measured CPUs get the larger buffer (best effort:
 * the default size holds a few ms around a spike too).
 */
static int limit_cpus(struct trace_session *s, const struct trace_options *opt, char *why,
		      size_t len)
{
	char mask[1024];
	size_t need;
	int cpu = -1, last = -1;
	unsigned int kb = s->buffer_kb ? s->buffer_kb : TRACE_BUFFER_KB;

	if (!opt || !opt->cpus || rtr_cpuset_is_empty(opt->cpus)) {
		tracefs_instance_set_buffer_size(s->inst, kb, -1);
		return 0;
	}
	while ((cpu = rtr_cpuset_next(opt->cpus, cpu)) >= 0) {
		tracefs_instance_set_buffer_size(s->inst, kb, cpu);
		last = cpu;
	}
	need = rtr_cpuset_format_mask(opt->cpus, (size_t)last + 1, mask, sizeof(mask));
	if (need >= sizeof(mask) ||
	    tracefs_instance_file_write(s->inst, "tracing_cpumask", mask) < 0)
		return say_why(why, len, -EIO, "cannot limit the trace of %s to the measured CPUs",
			       s->name);
	return 0;
}

/*
 * Fork the guard of the instance named in @s. Forked before the instance
 * exists, so that it holds none of its files open (an open file keeps an
 * instance from being removed). Best effort: without it, the next start
 * removes what a kill -9 left (trace_remove_stale()).
 */
static void guard_start(struct trace_session *s)
{
	struct timespec pause = { 0, 10 * 1000000 };
	pid_t pid;
	int p[2];

	if (pipe2(p, O_CLOEXEC) < 0)
		return;
	pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return;
	}
	if (pid == 0) {
		ssize_t n;
		char b;

		close(p[1]);
		prctl(PR_SET_NAME, "rtr-trace-guard");
		while ((n = read(p[0], &b, 1)) < 0 && errno == EINTR)
			;
		/* EOF: rtready died. Its files of the instance close as it exits: retry a while. */
		for (int i = 0; n == 0 && i < 200 && trace_instance_remove(s->name) == -EBUSY; i++)
			nanosleep(&pause, NULL);
		/* As trace_session_free() would: busy (used by another) means it stays. */
		if (n == 0 && s->mounted)
			umount2(s->dir, 0);
		_exit(0);
	}
	close(p[0]);
	s->guard = pid;
	s->guard_fd = p[1];
}

/* Tell the guard that we cleaned up ourselves, and reap it. */
static void guard_stop(struct trace_session *s)
{
	if (!s->guard)
		return;
	(void)!write(s->guard_fd, "x", 1);
	close(s->guard_fd);
	while (waitpid(s->guard, NULL, 0) < 0 && errno == EINTR)
		;
	s->guard = 0;
}

static int setup_instance(struct trace_session *s, const struct trace_options *opt, char *why,
			  size_t len)
{
	char *clock;
	int err;

	snprintf(s->name, sizeof(s->name), TRACE_INSTANCE_PREFIX "%d", (int)getpid());
	guard_start(s);
	s->inst = tracefs_instance_create(s->name);
	if (!s->inst) {
		err = errno ? -errno : -EIO;
		return say_why(why, len, err,
			       "cannot create the tracing instance %s/instances/%s: %s%s", s->dir,
			       s->name, strerror(-err),
			       err == -EACCES || err == -EPERM ? " (needs root)" : "");
	}
	/* Quiet while it is set up; nothing recorded yet. */
	tracefs_trace_off(s->inst);
	if (tracefs_instance_file_write(s->inst, "trace_clock", "mono") < 0)
		return say_why(
		    why, len, -ENOTSUP,
		    "this kernel has no 'mono' trace clock: trace times could not be compared "
		    "with CLOCK_MONOTONIC");
	clock = tracefs_get_clock(s->inst);
	err = clock && !strcmp(clock, "mono") ? 0 : -ENOTSUP;
	free(clock);
	if (err)
		return say_why(why, len, err, "the trace clock of %s did not switch to 'mono'",
			       s->name);
	err = limit_cpus(s, opt, why, len);
	if (err)
		return err;
	err = enable_events(s, why, len);
	if (err)
		return err;
	if (tracefs_print_init(s->inst) == 0)
		s->print_open = true;
	s->on_fd = tracefs_trace_on_get_fd(s->inst);
	if (s->on_fd < 0)
		return say_why(why, len, -EIO, "cannot open tracing_on of %s: %s", s->name,
			       strerror(errno));
	if (tracefs_trace_on(s->inst) < 0)
		return say_why(why, len, -EIO, "cannot start tracing in %s: %s", s->name,
			       strerror(errno));
	return 0;
}

/* The trace file goes where the user can read it; test the directory before the run. */
static int check_file(struct trace_session *s, const struct trace_options *opt, char *why,
		      size_t len)
{
	char dir[4096];
	const char *slash;

	if (snprintf(s->file, sizeof(s->file), "%s", opt && opt->file ? opt->file :
		     TRACE_DEFAULT_FILE) >= (int)sizeof(s->file))
		return say_why(why, len, -ENAMETOOLONG, "--trace-file: the name is too long");
	slash = strrchr(s->file, '/');
	if (slash == s->file)
		snprintf(dir, sizeof(dir), "/");
	else if (slash)
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - s->file), s->file);
	else
		snprintf(dir, sizeof(dir), ".");
	if (access(dir, W_OK | X_OK) < 0)
		return say_why(why, len, -errno, "--trace-file: cannot write in %s: %s", dir,
			       strerror(errno));
	return 0;
}

static int start(const struct trace_options *opt, bool whole_run, unsigned int buffer_kb,
		 struct trace_session **out, char *why, size_t whylen)
{
	struct trace_session *s;
	int err;

	*out = NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->on_fd = -1;
	s->whole_run = whole_run;
	s->buffer_kb = buffer_kb;
	/* libtracefs and libtraceevent print their own warnings otherwise. */
	tracefs_set_loglevel(TEP_LOG_NONE);
	tep_set_loglevel(TEP_LOG_NONE);
	err = whole_run ? 0 : check_file(s, opt, why, whylen);
	if (!err && geteuid() != 0)
		err = say_why(why, whylen, -EPERM,
			      "--trace needs root: kernel tracing (tracefs at %s) is for "
			      "CAP_SYS_ADMIN only",
			      TRACE_TRACEFS_DIR);
	if (!err)
		err = ensure_mounted(s, why, whylen);
	if (!err) {
		/* Point libtracefs at our mount: it would mount one of its own otherwise. */
		if (tracefs_set_tracing_dir(s->dir) < 0)
			err = say_why(why, whylen, -ENOMEM, "out of memory");
		else
			s->dir_set = true;
	}
	if (!err) {
		/* Instances of rtready processes killed with SIGKILL: stop and remove them. */
		trace_remove_stale(NULL, NULL);
		err = setup_instance(s, opt, why, whylen);
	}
	if (err) {
		trace_session_free(s);
		return err;
	}
	*out = s;
	return 0;
}

int trace_session_start(const struct trace_options *opt, struct trace_session **out, char *why,
			size_t whylen)
{
	return start(opt, false, 0, out, why, whylen);
}

int trace_session_start_run(const struct rtr_cpuset *cpus, unsigned int buffer_kb,
			    struct trace_session **out, char *why, size_t whylen)
{
	struct trace_options opt = { .file = NULL, .cpus = cpus };

	return start(&opt, true, buffer_kb, out, why, whylen);
}

void trace_session_hit(void *session, const struct latency_hit *hit)
{
	struct trace_session *s = session;

	if (!s || s->hit)
		return;
	s->hit = true;
	s->first = *hit;
	s->marker_ns = mono_ns();
	if (s->print_open)
		tracefs_printf(s->inst,
			       "rtready: threshold hit cpu=%d tid=%d late_ns=%llu expected_ns=%lld "
			       "woken_ns=%lld\n",
			       hit->cpu, (int)hit->tid, (unsigned long long)hit->late_ns,
			       (long long)hit->expected_ns, (long long)hit->woken_ns);
	tracefs_trace_off_fd(s->on_fd);
	s->stopped = true;
}

/* ---- reading back ---- */

struct spec_ev {
	struct tep_event *ev;
	const struct ev_spec *spec;
	char vector[TRACE_NAME_LEN];	/* for irq_vectors: the name without _entry/_exit */
};

struct reader {
	struct trace_session *s;
	struct spec_ev map[N_SPECS];
	size_t n_map;
	int cpu;
	int64_t from_ns;	/* the window saved and analysed */
	int64_t to_ns;
	int64_t expected_ns;
	int64_t woken_ns;
	struct trace_ev *ev;
	size_t n;
	struct trace_ev before;
	bool have_before;
	uint64_t lost;
	FILE *fp;
	struct trace_seq seq;
	bool marked_deadline;
	bool marked_woken;
	size_t printed;
};

static long long num(struct tep_event *ev, const char *name, struct tep_record *rec)
{
	struct tep_format_field *f = tep_find_field(ev, name);
	unsigned long long v = 0;

	if (!f || tep_read_number_field(f, rec->data, &v) < 0)
		return -1;
	/* Fields are up to 64 bits; sign-extend the 32-bit signed ones (pid, prio). */
	if (f->size == 4 && (f->flags & TEP_FIELD_IS_SIGNED))
		return (long long)(int)(unsigned int)v;
	return (long long)v;
}

static void str(struct tep_event *ev, const char *name, struct tep_record *rec, char *buf,
		size_t len)
{
	int n = 0;
	const char *p = tep_get_field_raw(NULL, ev, name, rec, &n, 0);

	buf[0] = '\0';
	if (!p || n <= 0)
		return;
	snprintf(buf, len, "%.*s", n, p);
}

static void decode(const struct spec_ev *m, struct tep_record *rec, struct trace_ev *out)
{
	struct tep_event *ev = m->ev;
	const char *fn;

	memset(out, 0, sizeof(*out));
	out->ts_ns = (int64_t)rec->ts;
	out->type = m->spec->type;
	switch (out->type) {
	case TEV_SWITCH:
		out->pid = (int)num(ev, "next_pid", rec);
		out->prio = (int)num(ev, "next_prio", rec);
		str(ev, "next_comm", rec, out->comm, sizeof(out->comm));
		out->prev_pid = (int)num(ev, "prev_pid", rec);
		out->prev_prio = (int)num(ev, "prev_prio", rec);
		str(ev, "prev_comm", rec, out->prev_comm, sizeof(out->prev_comm));
		break;
	case TEV_WAKING:
		out->pid = (int)num(ev, "pid", rec);
		out->prio = (int)num(ev, "prio", rec);
		str(ev, "comm", rec, out->comm, sizeof(out->comm));
		break;
	case TEV_IRQ_ENTRY:
		out->num = (int)num(ev, "irq", rec);
		str(ev, "name", rec, out->name, sizeof(out->name));
		break;
	case TEV_IRQ_EXIT:
		out->num = (int)num(ev, "irq", rec);
		break;
	case TEV_SOFTIRQ_ENTRY:
	case TEV_SOFTIRQ_EXIT:
		out->num = (int)num(ev, "vec", rec);
		break;
	case TEV_HRTIMER_ENTRY:
		out->ptr = (uint64_t)num(ev, "hrtimer", rec);
		/* The callback's name, from kallsyms (loaded with the event formats). */
		fn = tep_find_function(ev->tep, (unsigned long long)num(ev, "function", rec));
		snprintf(out->name, sizeof(out->name), "%s", fn ? fn : "");
		break;
	case TEV_HRTIMER_EXIT:
		out->ptr = (uint64_t)num(ev, "hrtimer", rec);
		break;
	case TEV_VECTOR_ENTRY:
	case TEV_VECTOR_EXIT:
		snprintf(out->name, sizeof(out->name), "%s", m->vector);
		break;
	case TEV_IDLE:
		/* PWR_EVENT_EXIT is (u32)-1: leaving idle. */
		out->num = (int)num(ev, "state", rec);
		if ((unsigned int)out->num == 0xffffffffu)
			out->num = -1;
		break;
	case TEV_NMI:
		out->ptr = (uint64_t)num(ev, "delta_ns", rec);
		out->num = (int)num(ev, "handled", rec);
		break;
	}
}

static const struct spec_ev *lookup(const struct reader *r, const struct tep_event *ev)
{
	for (size_t i = 0; i < r->n_map; i++)
		if (r->map[i].ev == ev)
			return &r->map[i];
	return NULL;
}

static void print_line(struct reader *r, struct tep_event *ev, struct tep_record *rec, int cpu)
{
	struct tep_handle *tep = ev->tep;
	int64_t ts = (int64_t)rec->ts;

	if (!r->fp)
		return;
	if (!r->marked_deadline && ts >= r->expected_ns) {
		fprintf(r->fp, "#### deadline of the late wake-up (CPU %d): %lld.%09lld\n", r->cpu,
			(long long)(r->expected_ns / 1000000000), (long long)(r->expected_ns % 1000000000));
		r->marked_deadline = true;
	}
	if (!r->marked_woken && ts > r->woken_ns) {
		fprintf(r->fp, "#### the measuring thread read the clock: %lld.%09lld\n",
			(long long)(r->woken_ns / 1000000000), (long long)(r->woken_ns % 1000000000));
		r->marked_woken = true;
	}
	trace_seq_reset(&r->seq);
	tep_print_event(tep, &r->seq, rec, "%16s-%-7d [%03d] ", TEP_PRINT_COMM, TEP_PRINT_PID,
			TEP_PRINT_CPU);
	trace_seq_printf(&r->seq, "%lld.%09lld: ", (long long)(ts / 1000000000),
			 (long long)(ts % 1000000000));
	tep_print_event(tep, &r->seq, rec, "%s: %s", TEP_PRINT_NAME, TEP_PRINT_INFO);
	trace_seq_terminate(&r->seq);
	fprintf(r->fp, "%s%s\n", r->seq.buffer, cpu == r->cpu ? "" : "  (other CPU)");
	r->printed++;
}

static int on_record(struct tep_event *ev, struct tep_record *rec, int cpu, void *ctx)
{
	struct reader *r = ctx;
	const struct spec_ev *m;
	int64_t ts = (int64_t)rec->ts;

	if (ts > r->to_ns)
		return 0;	/* other CPUs may still have earlier records */
	m = lookup(r, ev);
	if (ts < r->from_ns) {
		/* Before the window: only the task running on our CPU matters. */
		if (m && cpu == r->cpu && m->spec->type == TEV_SWITCH) {
			decode(m, rec, &r->before);
			r->have_before = true;
		}
		return 0;
	}
	print_line(r, ev, rec, cpu);
	if (cpu != r->cpu || !m)
		return 0;
	if (rec->missed_events > 0)
		r->lost += (uint64_t)rec->missed_events;
	if (r->n < TRACE_MAX_EVENTS)
		decode(m, rec, &r->ev[r->n++]);
	return 0;
}

static void map_events(const struct trace_session *s, struct spec_ev *map, size_t *n_map,
		       struct tep_handle *tep)
{
	for (size_t i = 0; i < N_SPECS; i++) {
		const struct ev_spec *sp = &ev_specs[i];
		struct tep_event *ev;
		struct spec_ev *m;
		size_t len;

		if (!s->enabled[i])
			continue;
		ev = tep_find_event_by_name(tep, sp->sys, sp->name);
		if (!ev)
			continue;
		m = &map[(*n_map)++];
		m->ev = ev;
		m->spec = sp;
		len = strlen(sp->name);
		if (sp->type == TEV_VECTOR_ENTRY)
			len -= strlen("_entry");
		else if (sp->type == TEV_VECTOR_EXIT)
			len -= strlen("_exit");
		snprintf(m->vector, sizeof(m->vector), "%.*s", (int)len, sp->name);
	}
}

static void write_header(struct reader *r, const struct trace_session *s, pid_t tid)
{
	fprintf(r->fp,
		"# rtready latency --trace: the kernel trace around a late wake-up\n"
		"# instance %s, trace clock mono (CLOCK_MONOTONIC), times in seconds\n"
		"# CPU %d, measuring thread %d, deadline %lld ns, clock read %lld ns, %lld ns late\n"
		"# window: %lld ns before the deadline to %lld ns after the wake-up\n",
		s->name, r->cpu, (int)tid, (long long)r->expected_ns, (long long)r->woken_ns,
		(long long)(r->woken_ns - r->expected_ns), (long long)TRACE_WINDOW_BEFORE_NS,
		(long long)TRACE_WINDOW_AFTER_NS);
}

static pid_t hit_tid(const struct latency_result *res)
{
	if (res->hit_tid)
		return res->hit_tid;	/* a DEADLINE thread is not tied to the CPU */
	for (size_t i = 0; i < res->n_cpus; i++)
		if (res->cpus[i].cpu == res->hit_cpu)
			return res->cpus[i].tid;
	return 0;
}

/* Read the instance's buffers, save the window and decode our CPU's events. */
static int read_window(struct trace_session *s, struct reader *r, pid_t tid,
		       struct trace_result *out)
{
	struct tep_handle *tep;
	int err = 0;

	tep = tracefs_local_events_system(NULL, read_systems);
	if (!tep) {
		snprintf(out->error, sizeof(out->error), "cannot read the event formats in %s",
			 s->dir);
		return -EIO;
	}
	tracefs_load_cmdlines(NULL, tep);
	map_events(s, r->map, &r->n_map, tep);
	trace_seq_init(&r->seq);
	snprintf(out->file, sizeof(out->file), "%s", s->file);
	r->fp = fopen(s->file, "w");
	if (!r->fp)
		snprintf(out->file_error, sizeof(out->file_error), "%s", strerror(errno));
	else
		write_header(r, s, tid);
	if (tracefs_iterate_raw_events(tep, s->inst, NULL, 0, on_record, r) < 0) {
		snprintf(out->error, sizeof(out->error), "cannot read the trace of %s: %s",
			 s->name, strerror(errno));
		err = -EIO;
	}
	if (r->fp) {
		if (!r->printed)
			fprintf(r->fp, "# (no event in the window)\n");
		if (fclose(r->fp) != 0)
			snprintf(out->file_error, sizeof(out->file_error), "%s", strerror(errno));
		else
			out->file_saved = true;
		r->fp = NULL;
	}
	trace_seq_destroy(&r->seq);
	tep_free(tep);
	return err;
}

int trace_session_collect(struct trace_session *s, const struct latency_result *res,
			  struct trace_result **out)
{
	struct trace_result *tr = calloc(1, sizeof(*tr));
	struct reader *r = NULL;
	struct trace_window w;
	pid_t tid;

	*out = NULL;
	if (!tr)
		return -ENOMEM;
	tr->cpu = -1;
	tr->kernel_prio = -1;
	tr->timer_ns = tr->waking_ns = tr->switch_ns = -1;
	tr->timer_late_ns = tr->wait_ns = tr->resume_ns = -1;
	tr->idle_state = -1;
	tr->stop_delay_ns = s->hit ? s->marker_ns - res->hit_woken_ns : -1;
	tr->timerlat_available = s->timerlat;
	tr->osnoise_available = s->osnoise;
	snprintf(tr->missing_events, sizeof(tr->missing_events), "%s", s->missing);
	if (!s->stopped) {
		tracefs_trace_off_fd(s->on_fd);
		s->stopped = true;
	}
	if (res->stop != LATENCY_STOP_THRESHOLD) {
		snprintf(tr->error, sizeof(tr->error),
			 "no wake-up passed the threshold: nothing to explain");
		*out = tr;
		return 0;
	}
	tid = hit_tid(res);
	r = calloc(1, sizeof(*r));
	if (r)
		r->ev = calloc(TRACE_MAX_EVENTS, sizeof(*r->ev));
	if (!r || !r->ev) {
		free(r);
		free(tr);
		return -ENOMEM;
	}
	r->s = s;
	r->cpu = res->hit_cpu;
	r->expected_ns = res->hit_expected_ns;
	r->woken_ns = res->hit_woken_ns;
	r->from_ns = r->expected_ns - TRACE_WINDOW_BEFORE_NS;
	r->to_ns = r->woken_ns + TRACE_WINDOW_AFTER_NS;
	/* Keep our marker in the file, unless the main thread came very late. */
	if (s->hit && s->marker_ns > r->to_ns && s->marker_ns < r->woken_ns + 50 * 1000000LL)
		r->to_ns = s->marker_ns + 100000;
	if (read_window(s, r, tid, tr) == 0) {
		memset(&w, 0, sizeof(w));
		w.cpu = r->cpu;
		w.tid = tid;
		w.expected_ns = r->expected_ns;
		w.woken_ns = r->woken_ns;
		w.ev = r->ev;
		w.n = r->n;
		w.before = r->have_before ? &r->before : NULL;
		w.lost_events = r->lost;
		trace_analyze(&w, tr);
		if (!r->n)
			snprintf(tr->error, sizeof(tr->error),
				 "the trace holds no event of CPU %d around the spike", r->cpu);
	}
	free(r->ev);
	free(r);
	*out = tr;
	return 0;
}

/* ---- the whole run (`rtready noise`) ---- */

struct drainer {
	struct spec_ev map[N_SPECS];
	size_t n_map;
	void (*fn)(void *ctx, int cpu, const struct trace_ev *ev, long long missed);
	void *ctx;
};

static int on_drain(struct tep_event *ev, struct tep_record *rec, int cpu, void *ctx)
{
	struct drainer *d = ctx;
	struct trace_ev e;

	for (size_t i = 0; i < d->n_map; i++) {
		if (d->map[i].ev != ev)
			continue;
		decode(&d->map[i], rec, &e);
		d->fn(d->ctx, cpu, &e, (long long)rec->missed_events);
		break;
	}
	return 0;
}

int trace_session_drain(struct trace_session *s,
			void (*fn)(void *ctx, int cpu, const struct trace_ev *ev, long long missed),
			void *ctx)
{
	struct drainer *d;
	int err = 0;

	if (!s->tep) {
		s->tep = tracefs_local_events_system(NULL, read_systems);
		if (!s->tep)
			return -EIO;
		tracefs_load_cmdlines(NULL, s->tep);
	}
	d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	map_events(s, d->map, &d->n_map, s->tep);
	d->fn = fn;
	d->ctx = ctx;
	/* Reads trace_pipe_raw: what is read is consumed, so each event comes once. */
	if (tracefs_iterate_raw_events(s->tep, s->inst, NULL, 0, on_drain, d) < 0)
		err = -EIO;
	free(d);
	return err;
}

void trace_session_stop(struct trace_session *s)
{
	if (s && !s->stopped && s->on_fd >= 0) {
		tracefs_trace_off_fd(s->on_fd);
		s->stopped = true;
	}
}

void trace_session_free(struct trace_session *s)
{
	if (!s)
		return;
	if (s->tep)
		tep_free(s->tep);
	if (s->inst) {
		/* Open files keep the instance busy: close them before removing it. */
		if (s->print_open)
			tracefs_print_close(s->inst);
		if (s->on_fd >= 0) {
			tracefs_trace_off_fd(s->on_fd);
			close(s->on_fd);
		}
		tracefs_instance_file_write(s->inst, "events/enable", "0");
		tracefs_instance_destroy(s->inst);
		tracefs_instance_free(s->inst);
	}
	/* After the removal: a kill -9 before it still leaves the guard to do it. */
	guard_stop(s);
	if (s->dir_set)
		tracefs_set_tracing_dir(NULL);
	/* Busy (another process uses it): then it stays, as it would for anyone else. */
	if (s->mounted)
		umount2(s->dir, 0);
	free(s);
}
