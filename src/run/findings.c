// SPDX-License-Identifier: MIT
/*
 * From the checker's JSON lines to findings; see findings.h. The table
 * below is the one place that says, for each finding id, its status, its
 * title, why it matters and how to fix it (docs/checks/app.*.md explain
 * each at length).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>

#include "run/findings.h"
#include "run/symtab.h"
#include "util/grow.h"
#include "util/strbuf.h"

struct app_kind {
	const char *id;
	enum rtr_status status;
	const char *title;
	const char *why;
	const char *fix;
};

static const struct app_kind kinds[] = {
	{ "app.mutex_no_pi", RTR_FAIL, "RT thread locks a mutex without priority inheritance",
	  "A pthread mutex has no priority inheritance unless it is asked for, on PREEMPT_RT "
	  "too. While a low-priority owner of the mutex is kept off the CPU by a "
	  "medium-priority task, the realtime thread waiting for it waits without bound.",
	  "Create the mutex from an attribute with pthread_mutexattr_setprotocol(&attr, "
	  "PTHREAD_PRIO_INHERIT) (rtr_mutex_init_pi() in librtready); a statically "
	  "initialised mutex never has it." },
	{ "app.alloc_in_rt", RTR_FAIL, "RT thread allocates or frees memory in its periodic work",
	  "malloc(), free(), mmap() and munmap() can take allocator locks, enter the kernel and "
	  "touch pages that are not mapped yet: their duration has no upper bound.",
	  "Allocate everything before the loop starts (buffers, pools, thread stacks) and "
	  "reuse it; move allocations that must happen to a non-RT thread." },
	{ "app.page_fault_in_rt", RTR_FAIL, "RT thread takes page faults in its periodic work",
	  "A page fault makes the kernel find, clear and map a page, or read it back from "
	  "disk: from microseconds to milliseconds, on any access to memory not touched "
	  "before, including new stack pages and code.",
	  "Lock memory with mlockall(MCL_CURRENT | MCL_FUTURE) and prefault the heap and the "
	  "stack before the loop (rtr_mem_setup() in librtready, or rtready run --mlock)." },
	{ "app.relative_sleep", RTR_WARN, "RT thread sleeps for a relative time",
	  "A relative sleep starts when the work of the period ends, so every period is "
	  "stretched by the work's own duration and by each wake-up latency, and the loop "
	  "drifts.",
	  "Keep an absolute deadline, add the period to it each time, and sleep with "
	  "clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, NULL) (rtr_period_wait() "
	  "in librtready)." },
	{ "app.realtime_clock", RTR_WARN, "RT thread sleeps on CLOCK_REALTIME",
	  "The wall clock is stepped by NTP, by an administrator or at boot; every deadline "
	  "computed on it moves with it, early or late.",
	  "Compute deadlines and sleep on CLOCK_MONOTONIC." },
	{ "app.signal", RTR_WARN, "A signal reaches an RT thread, or the app signals itself",
	  "A signal handler runs in the middle of whatever the thread was doing, in a context "
	  "where little is allowed, and delivery to a realtime thread delays its work.",
	  "Wake threads with a condition variable on a PI mutex; block signals in RT threads "
	  "(pthread_sigmask) and handle the ones the process must take in a non-RT thread "
	  "with sigwaitinfo() or a signalfd." },
	{ "app.prio99", RTR_FAIL, "Priority 99 requested",
	  "Priority 99 belongs to the kernel's own critical threads (watchdogs, migration, "
	  "timers on some systems); an application at 99 can delay them, and nothing can ever "
	  "preempt it to fix a runaway loop.",
	  "Use 98 or below; leave 99 to the kernel." },
	{ "app.no_mlockall", RTR_FAIL, "RT work started without memory locked",
	  "Without mlockall(MCL_CURRENT | MCL_FUTURE), the kernel may reclaim any page of the "
	  "process when memory runs short, program text included, and the next access faults "
	  "it back in from disk.",
	  "Call mlockall(MCL_CURRENT | MCL_FUTURE) before the realtime threads start, or start "
	  "the program with rtready run --mlock." },
	{ "app.no_mallopt", RTR_WARN, "RT work started without the malloc settings",
	  "Without mallopt(M_MMAP_MAX, 0), large allocations get their own mappings that free() "
	  "returns to the kernel; without mallopt(M_TRIM_THRESHOLD, -1), free() trims the top "
	  "of the heap. Memory given back faults again when it is reused.",
	  "Call mallopt(M_MMAP_MAX, 0) and mallopt(M_TRIM_THRESHOLD, -1) first thing in main() "
	  "(rtr_mem_mallopt() in librtready)." },
	{ "app.cond_realtime_clock", RTR_WARN, "RT thread waits on a condvar that uses CLOCK_REALTIME",
	  "A condition variable measures pthread_cond_timedwait() deadlines on the clock of its "
	  "attribute, CLOCK_REALTIME unless set otherwise. The wall clock is stepped by NTP, by "
	  "an administrator or at boot, and every deadline on it moves with it.",
	  "Create the condvar from an attribute with pthread_condattr_setclock(&attr, "
	  "CLOCK_MONOTONIC) and compute deadlines on CLOCK_MONOTONIC (rtr_cond_init_monotonic() "
	  "in librtready), or wait with pthread_cond_clockwait(..., CLOCK_MONOTONIC, ...)." },
	{ "app.sem_timedwait", RTR_WARN, "RT thread uses sem_timedwait (CLOCK_REALTIME)",
	  "sem_timedwait() takes its deadline on CLOCK_REALTIME, always: when the wall clock is "
	  "set, the wait ends early or late.",
	  "Use sem_clockwait(sem, CLOCK_MONOTONIC, &deadline) (glibc 2.30 and later), with the "
	  "deadline computed on CLOCK_MONOTONIC." },
	{ "app.realtime_timer", RTR_WARN, "RT thread uses a timer on CLOCK_REALTIME",
	  "A timerfd or POSIX timer on CLOCK_REALTIME expires by the wall clock: when the time "
	  "is set, an absolute expiry moves with it, and the loop it paces wakes early or late.",
	  "Create the timer on CLOCK_MONOTONIC: timerfd_create(CLOCK_MONOTONIC, ...) or "
	  "timer_create(CLOCK_MONOTONIC, ...)." },
	{ "app.relative_timer", RTR_WARN, "RT thread re-arms a timer with a relative time",
	  "A timer armed with a relative time inside the loop counts each period from the moment "
	  "of the call, after the work and the wake-up latency: the loop drifts as with a "
	  "relative sleep.",
	  "Arm the timer once, before the loop, with it_interval set to the period (the kernel "
	  "then keeps the phase), or re-arm it with an absolute expiry (TFD_TIMER_ABSTIME, "
	  "TIMER_ABSTIME) advanced by the period each time." },
	{ "app.rwlock_no_pi", RTR_FAIL, "RT thread takes a reader-writer lock",
	  "A pthread rwlock has no priority inheritance (POSIX defines no protocol for it, and "
	  "neither glibc nor musl boosts its holders): a realtime thread waiting for it waits "
	  "for every lower-priority holder, and for whatever preempts them.",
	  "Use a mutex with PTHREAD_PRIO_INHERIT (rtr_mutex_init_pi() in librtready), or a "
	  "lock-free scheme (a double buffer or a sequence counter) for data read by the RT "
	  "thread." },
	{ "app.sem_shared", RTR_FAIL, "Semaphore waited on by RT and non-RT threads",
	  "A semaphore has no owner, so nothing can inherit a waiter's priority. Waited on by a "
	  "realtime thread and by lower-priority threads, it works as a lock between them, with "
	  "priority inversion that has no bound.",
	  "Guard the shared data with a mutex with PTHREAD_PRIO_INHERIT (rtr_mutex_init_pi() in "
	  "librtready); keep semaphores for events that one side posts and the other waits "
	  "for." },
	{ "app.mtx_no_pi", RTR_FAIL, "RT thread locks a C11 mtx_t (no priority inheritance)",
	  "A C11 mutex is a pthread mutex without priority inheritance, and mtx_init() has no "
	  "way to ask for it: a realtime thread waiting for it waits for the lower-priority "
	  "owner and for whatever preempts that one.",
	  "Use a pthread mutex created with pthread_mutexattr_setprotocol(&attr, "
	  "PTHREAD_PRIO_INHERIT) (rtr_mutex_init_pi() in librtready) for data that a realtime "
	  "thread shares." },
	{ "app.stdio_in_rt", RTR_FAIL, "RT thread uses stdio or syslog in its periodic work",
	  "Each FILE has a lock without priority inheritance, a stream allocates its buffer at "
	  "first use and printf for some conversions, and a full buffer is written out to a "
	  "pipe, terminal or disk that can block. syslog() takes a process-wide lock and writes "
	  "to a socket.",
	  "Format into preallocated memory (snprintf into a ring buffer) and let a non-RT "
	  "thread print or log it." },
	{ "app.checker", RTR_SKIP, "Runtime checker could not watch the program",
	  "Findings come from a library preloaded into the program; where it was not loaded, or "
	  "could not write its records, an empty list would prove nothing.",
	  "Run a dynamically linked build of the program, without the set-user-ID bit, and let "
	  "it exit normally (exit() or return from main)." },
};

const char *const app_finding_ids[] = {
	"app.mutex_no_pi", "app.alloc_in_rt", "app.page_fault_in_rt", "app.relative_sleep",
	"app.realtime_clock", "app.signal", "app.prio99", "app.no_mlockall", "app.no_mallopt",
	"app.cond_realtime_clock", "app.sem_timedwait", "app.realtime_timer", "app.relative_timer",
	"app.rwlock_no_pi", "app.sem_shared", "app.mtx_no_pi", "app.stdio_in_rt", "app.checker",
	NULL,
};

static const struct app_kind *kind_of(const char *id)
{
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (strcmp(kinds[i].id, id) == 0)
			return &kinds[i];
	return NULL;
}

static char *dup_str(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return strdup(s ? s : "");
}

static long get_long(json_t *o, const char *key)
{
	return (long)json_integer_value(json_object_get(o, key));
}

struct app_process *app_check_proc(const struct app_check *c, long pid)
{
	for (size_t i = 0; i < c->n_procs; i++)
		if (c->procs[i].pid == pid)
			return &c->procs[i];
	return NULL;
}

static int add_hello(struct app_check *c, json_t *o)
{
	long pid = get_long(o, "pid");
	struct app_process *p = app_check_proc(c, pid);
	char *exe = dup_str(o, "exe");

	if (!exe)
		return -ENOMEM;
	if (!p) {
		if (grow_array((void **)&c->procs, &c->cap_procs, c->n_procs, sizeof(*p),
			       SIZE_MAX / sizeof(*p))) {
			free(exe);
			return -ENOMEM;
		}
		p = &c->procs[c->n_procs++];
		memset(p, 0, sizeof(*p));
		p->pid = pid;
	}
	/*
	 * A second hello for a pid is the image it exec'd: that one reports
	 * now. The others' lines keep their order (module_at takes the last).
	 */
	size_t kept = 0;

	for (size_t i = 0; i < c->n_modules; i++) {
		if (c->modules[i].pid == pid)
			free(c->modules[i].obj);
		else
			c->modules[kept++] = c->modules[i];
	}
	c->n_modules = kept;
	free(p->exe);
	free(p->why);
	p->why = NULL;
	p->exe = exe;
	p->ppid = get_long(o, "ppid");
	p->bye = false;
	p->mlock_by_rtready = json_is_true(json_object_get(o, "mlock_by_rtready"));
	p->table_entry = json_is_integer(json_object_get(o, "table_entry")) ?
			 get_long(o, "table_entry") : -1;
	p->table_seen = false;
	return 0;
}

static int add_bye(struct app_check *c, json_t *o)
{
	struct app_process *p = app_check_proc(c, get_long(o, "pid"));

	if (!p)
		return 0;	/* a bye without hello: a truncated file */
	free(p->why);
	p->why = dup_str(o, "why");
	if (!p->why)
		return -ENOMEM;
	p->bye = true;
	p->dropped += get_long(o, "dropped");
	p->rt_untracked += get_long(o, "rt_threads_untracked");
	return 0;
}

static void rec_free(struct app_record *r)
{
	free(r->id);
	free(r->thread);
	free(r->detail);
	json_decref(r->frames);
}

static int fill_rec(struct app_record *r, json_t *o)
{
	json_t *frames = json_object_get(o, "frames");

	r->pid = get_long(o, "pid");
	r->tid = get_long(o, "tid");
	r->site = get_long(o, "site");
	r->count = get_long(o, "count");
	r->total = get_long(o, "total");
	r->arg = get_long(o, "arg");
	r->in_signal_handler = json_is_true(json_object_get(o, "in_signal_handler"));
	r->id = dup_str(o, "id");
	r->thread = dup_str(o, "thread");
	r->detail = dup_str(o, "detail");
	r->frames = json_is_array(frames) ? json_incref(frames) : json_array();
	return r->id && r->thread && r->detail && r->frames ? 0 : -ENOMEM;
}

/*
 * A frame of @now that could not be named (its library was unloaded since)
 * takes the names of the same address in @before, written while it was mapped.
 */
static void keep_names(json_t *now, json_t *before)
{
	for (size_t i = 0; i < json_array_size(now) && i < json_array_size(before); i++) {
		json_t *n = json_array_get(now, i), *b = json_array_get(before, i);
		const char *na = json_string_value(json_object_get(n, "addr"));
		const char *ba = json_string_value(json_object_get(b, "addr"));

		if (na && ba && strcmp(na, ba) == 0 && !json_object_get(n, "obj") &&
		    json_object_get(b, "obj"))
			json_array_set(now, i, b);
	}
}

static int add_finding(struct app_check *c, json_t *o)
{
	const char *id = json_string_value(json_object_get(o, "id"));
	long pid = get_long(o, "pid"), tid = get_long(o, "tid"), site = get_long(o, "site");
	struct app_record *r;

	if (!id || !kind_of(id)) {
		c->bad_lines++;
		return 0;
	}
	for (size_t i = 0; i < c->n_recs; i++) {
		r = &c->recs[i];
		if (r->pid == pid && r->tid == tid && r->site == site && strcmp(r->id, id) == 0) {
			/* Written again (dlclose, a failed exec, then exit): keep the later counts. */
			if (get_long(o, "count") > r->count) {
				json_t *old = json_incref(r->frames);
				int rc;

				rec_free(r);
				memset(r, 0, sizeof(*r));
				rc = fill_rec(r, o);
				if (!rc)
					keep_names(r->frames, old);
				json_decref(old);
				return rc;
			}
			return 0;
		}
	}
	if (grow_array((void **)&c->recs, &c->cap_recs, c->n_recs, sizeof(*r),
		       SIZE_MAX / sizeof(*r)))
		return -ENOMEM;
	r = &c->recs[c->n_recs++];
	memset(r, 0, sizeof(*r));
	return fill_rec(r, o);
}

static unsigned long long get_hex(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? strtoull(s, NULL, 16) : 0;
}

static int add_module(struct app_check *c, json_t *o)
{
	struct app_module *m;

	if (!json_is_string(json_object_get(o, "obj"))) {
		c->bad_lines++;
		return 0;
	}
	if (grow_array((void **)&c->modules, &c->cap_modules, c->n_modules, sizeof(*m),
		       SIZE_MAX / sizeof(*m)))
		return -ENOMEM;
	m = &c->modules[c->n_modules];
	m->pid = get_long(o, "pid");
	m->base = get_hex(o, "base");
	m->start = get_hex(o, "start");
	m->end = get_hex(o, "end");
	m->obj = dup_str(o, "obj");
	if (!m->obj)
		return -ENOMEM;
	c->n_modules++;
	return 0;
}

static int add_unjudged(struct app_check *c, json_t *o)
{
	long pid = get_long(o, "pid"), tid = get_long(o, "tid");
	struct app_unjudged *u;

	for (size_t i = 0; i < c->n_unjudged; i++)
		if (c->unjudged[i].pid == pid && c->unjudged[i].tid == tid)
			return 0;	/* written again (a failed exec, then exit) */
	if (grow_array((void **)&c->unjudged, &c->cap_unjudged, c->n_unjudged, sizeof(*u),
		       SIZE_MAX / sizeof(*u)))
		return -ENOMEM;
	u = &c->unjudged[c->n_unjudged];
	u->pid = pid;
	u->tid = tid;
	u->thread = dup_str(o, "thread");
	if (!u->thread)
		return -ENOMEM;
	c->n_unjudged++;
	return 0;
}

int app_check_add(struct app_check *c, json_t *o)
{
	const char *type = json_string_value(json_object_get(o, "type"));

	if (!type)
		c->bad_lines++;
	else if (strcmp(type, "hello") == 0)
		return add_hello(c, o);
	else if (strcmp(type, "bye") == 0)
		return add_bye(c, o);
	else if (strcmp(type, "finding") == 0)
		return add_finding(c, o);
	else if (strcmp(type, "unjudged") == 0)
		return add_unjudged(c, o);
	else if (strcmp(type, "module") == 0)
		return add_module(c, o);
	else
		c->bad_lines++;
	return 0;
}

int app_check_parse(const char *text, size_t len, struct app_check *out)
{
	size_t pos = 0;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	while (pos < len && rc == 0) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t ll = nl ? (size_t)(nl - (text + pos)) : len - pos;
		json_t *o = json_loadb(text + pos, ll, JSON_REJECT_DUPLICATES, NULL);

		if (!o)
			out->bad_lines += ll > 0;
		else
			rc = app_check_add(out, o);
		json_decref(o);
		pos += ll + 1;
	}
	if (rc)
		app_check_free(out);
	return rc;
}

void app_check_free(struct app_check *c)
{
	for (size_t i = 0; i < c->n_procs; i++) {
		free(c->procs[i].exe);
		free(c->procs[i].why);
	}
	for (size_t i = 0; i < c->n_recs; i++)
		rec_free(&c->recs[i]);
	for (size_t i = 0; i < c->n_unjudged; i++)
		free(c->unjudged[i].thread);
	for (size_t i = 0; i < c->n_modules; i++)
		free(c->modules[i].obj);
	free(c->modules);
	free(c->unjudged);
	free(c->procs);
	free(c->recs);
	memset(c, 0, sizeof(*c));
}

/* The module of process @pid, or of the parents it was forked from, holding @addr. */
static const struct app_module *module_at(const struct app_check *c, long pid,
					  unsigned long long addr)
{
	/* A bounded walk up the fork tree: a cycle of bad pids cannot hang it. */
	for (size_t depth = 0; pid > 0 && depth < 64; depth++) {
		const struct app_process *p = NULL;
		const struct app_module *found = NULL;
		bool any = false;

		/* The last line wins: an object loaded after a dlclose() may reuse a range. */
		for (size_t i = 0; i < c->n_modules; i++) {
			const struct app_module *m = &c->modules[i];

			if (m->pid != pid)
				continue;
			any = true;
			if (addr > m->start && addr <= m->end)	/* a return address follows its call */
				found = m;
		}
		if (any)
			return found;	/* its own image: a parent's map is not this one */
		for (size_t i = 0; i < c->n_procs; i++)
			if (c->procs[i].pid == pid)
				p = &c->procs[i];
		pid = p ? p->ppid : 0;
	}
	return NULL;
}

/* Raw frames of the shared table: their object and offset, from the modules. */
static void place_frames(const struct app_check *c, const struct app_record *r)
{
	for (size_t k = 0; k < json_array_size(r->frames); k++) {
		json_t *f = json_array_get(r->frames, k);
		const char *addr = json_string_value(json_object_get(f, "addr"));
		unsigned long long a = addr ? strtoull(addr, NULL, 16) : 0;
		const struct app_module *m;
		char hex[32];

		if (!a || json_object_get(f, "obj"))
			continue;
		m = module_at(c, r->pid, json_is_true(json_object_get(f, "exact")) ? a + 1 : a);
		if (!m)
			continue;
		snprintf(hex, sizeof(hex), "%#llx", a - m->base);
		json_object_set_new(f, "obj", json_string(m->obj));
		json_object_set_new(f, "off", json_string(hex));
	}
}

void app_check_symbolize(struct app_check *c)
{
	for (size_t i = 0; i < c->n_recs; i++) {
		json_t *frames = c->recs[i].frames;

		place_frames(c, &c->recs[i]);
		for (size_t k = 0; k < json_array_size(frames); k++) {
			json_t *f = json_array_get(frames, k);
			const char *obj = json_string_value(json_object_get(f, "obj"));
			const char *off = json_string_value(json_object_get(f, "off"));
			/* A handler's own address is exact; a return address follows its call. */
			unsigned back = json_is_true(json_object_get(f, "exact")) ? 0 : 1;
			char name[256], hex[32];
			uint64_t symoff;

			if (json_object_get(f, "sym") || !obj || !off)
				continue;
			if (symtab_lookup(obj, strtoull(off, NULL, 16) - back, name, sizeof(name),
					  &symoff) != 0)
				continue;
			snprintf(hex, sizeof(hex), "%#llx", (unsigned long long)symoff + back);
			json_object_set_new(f, "sym", json_string(name));
			json_object_set_new(f, "symoff", json_string(hex));
		}
	}
}

bool app_check_attached(const struct app_check *c, long pid)
{
	return app_check_proc(c, pid) != NULL;
}

void app_frame_text(const json_t *f, char *buf, size_t len)
{
	const char *addr = json_string_value(json_object_get(f, "addr"));
	const char *obj = json_string_value(json_object_get(f, "obj"));
	const char *off = json_string_value(json_object_get(f, "off"));
	const char *sym = json_string_value(json_object_get(f, "sym"));
	const char *symoff = json_string_value(json_object_get(f, "symoff"));

	if (sym && obj)
		snprintf(buf, len, "%s+%s (%s+%s)", sym, symoff ? symoff : "0x0", obj,
			 off ? off : "?");
	else if (obj)
		snprintf(buf, len, "%s (%s+%s)", addr ? addr : "?", obj, off ? off : "?");
	else
		snprintf(buf, len, "%s", addr ? addr : "?");
}

static const char *signal_name(long sig, char *buf, size_t len)
{
	static const char *const names[] = {
		[SIGHUP] = "SIGHUP",	 [SIGINT] = "SIGINT",	  [SIGQUIT] = "SIGQUIT",
		[SIGILL] = "SIGILL",	 [SIGTRAP] = "SIGTRAP",	  [SIGABRT] = "SIGABRT",
		[SIGBUS] = "SIGBUS",	 [SIGFPE] = "SIGFPE",	  [SIGKILL] = "SIGKILL",
		[SIGUSR1] = "SIGUSR1",	 [SIGSEGV] = "SIGSEGV",	  [SIGUSR2] = "SIGUSR2",
		[SIGPIPE] = "SIGPIPE",	 [SIGALRM] = "SIGALRM",	  [SIGTERM] = "SIGTERM",
		[SIGCHLD] = "SIGCHLD",	 [SIGCONT] = "SIGCONT",	  [SIGSTOP] = "SIGSTOP",
		[SIGTSTP] = "SIGTSTP",	 [SIGTTIN] = "SIGTTIN",	  [SIGTTOU] = "SIGTTOU",
		[SIGURG] = "SIGURG",	 [SIGXCPU] = "SIGXCPU",	  [SIGXFSZ] = "SIGXFSZ",
		[SIGVTALRM] = "SIGVTALRM", [SIGPROF] = "SIGPROF", [SIGWINCH] = "SIGWINCH",
		[SIGIO] = "SIGIO",	 [SIGSYS] = "SIGSYS",
	};

	if (sig > 0 && (size_t)sig < sizeof(names) / sizeof(names[0]) && names[sig])
		return names[sig];
	if (sig >= SIGRTMIN && sig <= SIGRTMAX)
		snprintf(buf, len, "SIGRTMIN+%ld", sig - SIGRTMIN);
	else
		snprintf(buf, len, "signal %ld", sig);
	return buf;
}

static void describe(struct strbuf *sb, const struct app_record *r)
{
	char sig[32];

	if (strcmp(r->id, "app.mutex_no_pi") == 0)
		strbuf_printf(sb, "%s() on mutex %#lx, which has no priority inheritance",
			      r->detail, (unsigned long)r->arg);
	else if (strcmp(r->id, "app.alloc_in_rt") == 0)
		strbuf_printf(sb, strcmp(r->detail, "free") == 0 ? "%s()" : "%s(%ld bytes)",
			      r->detail, r->arg);
	else if (strcmp(r->id, "app.page_fault_in_rt") == 0)
		strbuf_printf(sb, "%ld page fault%s during %ld period%s of its work", r->total,
			      r->total == 1 ? "" : "s", r->count, r->count == 1 ? "" : "s");
	else if (strcmp(r->id, "app.relative_sleep") == 0)
		strbuf_printf(sb, "%s() with a relative timeout", r->detail);
	else if (strcmp(r->id, "app.realtime_clock") == 0 ||
		 strcmp(r->id, "app.cond_realtime_clock") == 0 ||
		 strcmp(r->id, "app.sem_timedwait") == 0)
		strbuf_printf(sb, "%s() on clock %ld (%s)", r->detail, r->arg,
			      r->arg == CLOCK_TAI ? "CLOCK_TAI" : "CLOCK_REALTIME");
	else if (strcmp(r->id, "app.realtime_timer") == 0)
		strbuf_printf(sb, "%s() on a timer that follows CLOCK_REALTIME", r->detail);
	else if (strcmp(r->id, "app.relative_timer") == 0)
		strbuf_printf(sb, "%s() with a relative expiry after the periodic work began",
			      r->detail);
	else if (strcmp(r->id, "app.rwlock_no_pi") == 0)
		strbuf_printf(sb, "%s() on rwlock %#lx", r->detail, (unsigned long)r->arg);
	else if (strcmp(r->id, "app.sem_shared") == 0)
		strbuf_printf(sb, "%s() on semaphore %#lx, which non-RT threads wait on too",
			      r->detail, (unsigned long)r->arg);
	else if (strcmp(r->id, "app.mtx_no_pi") == 0)
		strbuf_printf(sb, "%s() on C11 mutex %#lx, which has no priority inheritance",
			      r->detail, (unsigned long)r->arg);
	else if (strcmp(r->id, "app.stdio_in_rt") == 0)
		strbuf_printf(sb, "%s() in the periodic work", r->detail);
	else if (strcmp(r->id, "app.signal") == 0 && r->in_signal_handler)
		strbuf_printf(sb, "a handler for %s ran on an RT thread (the signal came %s)",
			      signal_name(r->arg, sig, sizeof(sig)),
			      strncmp(r->detail, "handler", 7) == 0 ? "from an unknown sender" :
			      r->detail);
	else if (strcmp(r->id, "app.signal") == 0)
		strbuf_printf(sb, "%s() sent %s to the app itself", r->detail,
			      signal_name(r->arg, sig, sizeof(sig)));
	else if (strcmp(r->id, "app.prio99") == 0)
		strbuf_printf(sb, "%s() asked for priority %ld", r->detail, r->arg);
	else if (strcmp(r->id, "app.no_mlockall") == 0 && r->arg == 0)
		strbuf_puts(sb, "an RT thread began its periodic work (first wait) and mlockall() "
				"was never called");
	else if (strcmp(r->id, "app.no_mlockall") == 0)
		strbuf_printf(sb, "an RT thread began its periodic work with mlockall(%s) only",
			      r->arg & MCL_CURRENT ? "MCL_CURRENT" : "MCL_FUTURE");
	else if (strcmp(r->id, "app.no_mallopt") == 0)
		strbuf_printf(sb, "an RT thread began its periodic work without %s%s%s",
			      r->arg & 1 ? "mallopt(M_MMAP_MAX, 0)" : "",
			      (r->arg & 3) == 3 ? " and " : "",
			      r->arg & 2 ? "mallopt(M_TRIM_THRESHOLD, -1)" : "");
	else
		strbuf_puts(sb, r->detail);
}

static const char *proc_name(const struct app_check *c, long pid)
{
	for (size_t i = 0; i < c->n_procs; i++)
		if (c->procs[i].pid == pid) {
			const char *s = strrchr(c->procs[i].exe, '/');

			return s ? s + 1 : c->procs[i].exe;
		}
	return "?";
}

static char *evidence(const struct app_check *c, const struct app_record *r, long top)
{
	struct strbuf sb = STRBUF_INIT;
	size_t nf = json_array_size(r->frames), shown = 0;

	describe(&sb, r);
	strbuf_printf(&sb, "; thread '%s' (tid %ld)", r->thread, r->tid);
	if (r->pid != top)
		strbuf_printf(&sb, " of child process %ld (%s)", r->pid, proc_name(c, r->pid));
	if (r->count > 1 && strcmp(r->id, "app.page_fault_in_rt") != 0)
		strbuf_printf(&sb, "; %ld times", r->count);
	if (r->in_signal_handler && strcmp(r->id, "app.signal") != 0)
		strbuf_puts(&sb, "; inside a signal handler");
	if (nf)
		strbuf_puts(&sb, r->in_signal_handler ? "\nhandler:" : "\nfirst occurrence:");
	for (size_t i = 0; i < nf && shown < 8; i++, shown++) {
		char fr[512];

		app_frame_text(json_array_get(r->frames, i), fr, sizeof(fr));
		strbuf_printf(&sb, "\n  #%zu %s", i, fr);
	}
	if (nf > shown)
		strbuf_printf(&sb, "\n  ... %zu more", nf - shown);
	return strbuf_take(&sb);
}

static int sev(enum rtr_status s)
{
	return s == RTR_FAIL ? 0 : s == RTR_WARN ? 1 : 2;
}

static int cmp_rec(const void *a, const void *b)
{
	const struct app_record *x = *(const struct app_record *const *)a;
	const struct app_record *y = *(const struct app_record *const *)b;
	int d = sev(kind_of(x->id)->status) - sev(kind_of(y->id)->status);

	if (d)
		return d;
	d = strcmp(x->id, y->id);
	if (d)
		return d;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return (x->tid > y->tid) - (x->tid < y->tid);
}

static json_t *extra_of(const struct app_record *r)
{
	return json_pack("{s:I, s:s, s:I, s:I, s:I, s:b, s:O}", "pid", (json_int_t)r->pid,
			 "thread", r->thread, "site", (json_int_t)r->site, "count",
			 (json_int_t)r->count, "total", (json_int_t)r->total, "in_signal_handler",
			 r->in_signal_handler, "backtrace", r->frames);
}

/* Why the checker has nothing to say about the program, or NULL when it has. */
static char *checker_gap(const struct app_check *c, const struct app_context *ctx)
{
	const struct app_process *p = NULL;
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < c->n_procs; i++)
		if (c->procs[i].pid == ctx->pid)
			p = &c->procs[i];
	if (!p) {
		strbuf_printf(&sb, "not attached: %s sent no hello record", ctx->program);
		if (ctx->is_static)
			strbuf_puts(&sb, "; it is statically linked, and the loader that honours "
					 "LD_PRELOAD never runs for it");
		else if (ctx->is_setid)
			strbuf_puts(&sb, "; it is set-user-ID or set-group-ID, and the loader "
					 "ignores LD_PRELOAD for it");
		else
			strbuf_puts(&sb, "; the loader may have refused the library (see the "
					 "program's error output), or the program cleared its "
					 "environment");
		return strbuf_take(&sb);
	}
	if (!p->bye && !p->table_seen) {
		strbuf_puts(&sb, "attached, but the program ended before writing its records");
		if (WIFSIGNALED(ctx->wait_status))
			strbuf_printf(&sb, " (killed by signal %d)", WTERMSIG(ctx->wait_status));
		strbuf_puts(&sb, ": findings of its last process image are missing");
		return strbuf_take(&sb);
	}
	return NULL;
}

/* A gap of process @p other than the program itself, or NULL. */
static char *process_gap(const struct app_process *p)
{
	struct strbuf sb = STRBUF_INIT;

	if (!p->bye && !p->table_seen)
		strbuf_printf(&sb, "process %ld (%s, child of %ld) ended before writing its records "
			      "(killed, e.g. by SIGKILL, which cannot be caught), and the shared "
			      "record table had no entry for it: its findings are missing", p->pid,
			      p->exe ? p->exe : "?", p->ppid);
	else if (!p->bye && p->table_refused)
		strbuf_printf(&sb, "process %ld (%s) was killed before writing its records, and %ld "
			      "of them found the shared record table full: those findings are "
			      "missing", p->pid, p->exe ? p->exe : "?", p->table_refused);
	else if (p->dropped)
		strbuf_printf(&sb, "attached, but %ld occurrences in process %ld found the record "
			      "table full and are not listed", p->dropped, p->pid);
	else if (p->rt_untracked)
		strbuf_printf(&sb, "%ld realtime threads of process %ld came after the checker's "
			      "table of threads was full: whether they were judged is not known",
			      p->rt_untracked, p->pid);
	else
		return NULL;
	return strbuf_take(&sb);
}

static int add_gap(struct report *r, json_t *extras, char *text, long tid)
{
	const struct app_kind *k = kind_of("app.checker");
	int rc;

	if (!text)
		return -ENOMEM;
	rc = report_add(r, k->id, "app", k->status, tid, k->title, text, k->why, k->fix);
	if (!rc && json_array_append_new(extras, json_object()) < 0)
		rc = -ENOMEM;
	free(text);
	return rc;
}

/* Every way the checker's view is incomplete, one app.checker finding each. */
static int add_gaps(const struct app_check *c, const struct app_context *ctx, struct report *r,
		    json_t *extras)
{
	char *gap = checker_gap(c, ctx);
	int rc = 0;

	if (gap)
		rc = add_gap(r, extras, gap, 0);
	for (size_t i = 0; i < c->n_procs && !rc; i++) {
		/* The program's own missing records are the gap above. */
		if (c->procs[i].pid == ctx->pid && !c->procs[i].bye && !c->procs[i].table_seen)
			continue;
		gap = process_gap(&c->procs[i]);
		if (gap)
			rc = add_gap(r, extras, gap, 0);
	}
	for (size_t i = 0; i < c->n_unjudged && !rc; i++) {
		const struct app_unjudged *u = &c->unjudged[i];
		struct strbuf sb = STRBUF_INIT;

		strbuf_printf(&sb, "realtime thread '%s' (tid %ld", u->thread, u->tid);
		if (u->pid != ctx->pid)
			strbuf_printf(&sb, " of child process %ld (%s)", u->pid,
				      proc_name(c, u->pid));
		strbuf_puts(&sb, ") ran, but never waited in a call the checker knows (a sleep, "
				 "a condvar, semaphore, barrier or futex wait, a signal wait, the "
				 "poll family, a read of a pipe, socket or timerfd): its work was "
				 "not judged, and no finding of it means nothing");
		rc = add_gap(r, extras, strbuf_take(&sb), u->tid);
	}
	return rc;
}

int app_check_to_report(const struct app_check *c, const struct app_context *ctx,
			struct report *r, json_t *extras)
{
	const struct app_record **order = calloc(c->n_recs + 1, sizeof(*order));
	int rc = 0;

	if (!order)
		return -ENOMEM;
	for (size_t i = 0; i < c->n_recs; i++)
		order[i] = &c->recs[i];
	qsort(order, c->n_recs, sizeof(*order), cmp_rec);
	for (size_t i = 0; i < c->n_recs && !rc; i++) {
		const struct app_kind *ki = kind_of(order[i]->id);
		char *ev = evidence(c, order[i], ctx->pid);

		rc = ev ? report_add(r, ki->id, "app", ki->status, order[i]->tid, ki->title, ev,
				     ki->why, ki->fix)
			: -ENOMEM;
		if (!rc && json_array_append_new(extras, extra_of(order[i])) < 0)
			rc = -ENOMEM;
		free(ev);
	}
	if (!rc)
		rc = add_gaps(c, ctx, r, extras);
	free(order);
	return rc;
}
