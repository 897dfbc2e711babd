// SPDX-License-Identifier: MIT
/*
 * The checker's records and the report channel.
 *
 * A record is one (thread, kind) pair: the first occurrence fills a slot of
 * a fixed table with the thread id and name, a short detail and the raw
 * return addresses of the stack; later occurrences only bump its counters,
 * through an index cached in the thread's TLS, so a repeated offence costs
 * two atomic adds. Nothing is written while the program runs.
 *
 * At exit (destructor), before exec and in _exit the table is written as
 * JSON lines, with write(2) from a stack buffer, to the file named by
 * RTREADY_CHECK_REPORT (opened O_APPEND at each write, so the processes of
 * a fork tree share it and an app that closes every descriptor does not
 * break it). Addresses are symbolised there with dladdr(), outside any
 * hook. `rtready run` reads the lines back and keeps, for each record, the
 * line with the largest count (a process that flushes before an exec that
 * fails flushes again at exit).
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>
#include <unwind.h>

#include "internal.h"

#define PL_SLOTS 1024
#define PL_FRAMES 16
#define PL_LINE 8192

struct pl_slot {
	_Atomic int state;	/* 0 free, 1 being filled, 2 ready */
	enum pl_kind kind;
	pid_t tid;
	bool from_signal;	/* recorded inside a signal handler: one frame only */
	_Atomic long count;
	_Atomic long total;
	long arg;
	int nframes;
	char thread[16];
	char detail[64];
	void *frames[PL_FRAMES];
};

static struct pl_slot slots[PL_SLOTS];
static _Atomic unsigned n_slots;
static _Atomic unsigned long dropped;
static char report_path[4096];

static const char *const kind_ids[PL_KIND_COUNT] = {
	[PL_MUTEX_NO_PI] = "app.mutex_no_pi",
	[PL_ALLOC_IN_RT] = "app.alloc_in_rt",
	[PL_PAGE_FAULT_IN_RT] = "app.page_fault_in_rt",
	[PL_RELATIVE_SLEEP] = "app.relative_sleep",
	[PL_REALTIME_CLOCK] = "app.realtime_clock",
	[PL_SIGNAL] = "app.signal",
	[PL_PRIO99] = "app.prio99",
	[PL_NO_MLOCKALL] = "app.no_mlockall",
	[PL_NO_MALLOPT] = "app.no_mallopt",
	[PL_COND_REALTIME] = "app.cond_realtime_clock",
	[PL_SEM_TIMEDWAIT] = "app.sem_timedwait",
	[PL_REALTIME_TIMER] = "app.realtime_timer",
	[PL_RELATIVE_TIMER] = "app.relative_timer",
	[PL_RWLOCK] = "app.rwlock_no_pi",
	[PL_SEM_SHARED] = "app.sem_shared",
	[PL_MTX_NO_PI] = "app.mtx_no_pi",
	[PL_STDIO_IN_RT] = "app.stdio_in_rt",
};

const char *pl_kind_id(enum pl_kind k)
{
	return (unsigned)k < PL_KIND_COUNT ? kind_ids[k] : "app.unknown";
}

/* ---- formatting without stdio ---- */

void pl_strlcpy(char *dst, const char *s, size_t n)
{
	size_t i = 0;

	if (!n)
		return;
	for (; s && s[i] && i + 1 < n; i++)
		dst[i] = s[i];
	dst[i] = '\0';
}

static void put_char(struct pl_buf *b, char c)
{
	if (b->len + 1 < b->cap)
		b->p[b->len++] = c;
	b->p[b->len] = '\0';
}

void pl_put(struct pl_buf *b, const char *s)
{
	while (s && *s)
		put_char(b, *s++);
}

void pl_put_json_str(struct pl_buf *b, const char *s)
{
	static const char hex[] = "0123456789abcdef";

	put_char(b, '"');
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\') {
			put_char(b, '\\');
			put_char(b, (char)c);
		} else if (c < 0x20 || c >= 0x7f) {
			/* Non-ASCII bytes too: the text may not be UTF-8. */
			pl_put(b, "\\u00");
			put_char(b, hex[c >> 4]);
			put_char(b, hex[c & 15]);
		} else {
			put_char(b, (char)c);
		}
	}
	put_char(b, '"');
}

void pl_put_u64(struct pl_buf *b, uint64_t v)
{
	char tmp[24];
	int n = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		put_char(b, tmp[--n]);
}

void pl_put_i64(struct pl_buf *b, int64_t v)
{
	if (v < 0) {
		put_char(b, '-');
		pl_put_u64(b, (uint64_t)0 - (uint64_t)v);
	} else {
		pl_put_u64(b, (uint64_t)v);
	}
}

void pl_put_hex(struct pl_buf *b, uint64_t v)
{
	static const char hex[] = "0123456789abcdef";
	char tmp[20];
	int n = 0;

	do {
		tmp[n++] = hex[v & 15];
		v >>= 4;
	} while (v);
	pl_put(b, "\"0x");
	while (n)
		put_char(b, tmp[--n]);
	put_char(b, '"');
}

static void put_key(struct pl_buf *b, const char *key)
{
	pl_put(b, ",\"");
	pl_put(b, key);
	pl_put(b, "\":");
}

static void write_line(struct pl_buf *b)
{
	int fd, saved = errno;
	size_t off = 0;

	if (!report_path[0])
		return;
	fd = open(report_path, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0) {
		errno = saved;
		return;
	}
	/* Every caller leaves a byte past its capacity for this. */
	b->p[b->len++] = '\n';
	while (off < b->len) {
		ssize_t n = write(fd, b->p + off, b->len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		off += (size_t)n;
	}
	close(fd);
	errno = saved;
}

/* ---- recording (inside hooks) ---- */

struct unwind_state {
	void **frames;
	int n, max;
};

static _Unwind_Reason_Code unwind_one(struct _Unwind_Context *ctx, void *arg)
{
	struct unwind_state *st = arg;
	uintptr_t ip = _Unwind_GetIP(ctx);

	if (!ip)
		return _URC_END_OF_STACK;
	if (st->n >= st->max)
		return _URC_END_OF_STACK;
	st->frames[st->n++] = (void *)ip;
	return _URC_NO_REASON;
}

static int capture(void **frames, int max)
{
	struct unwind_state st = { frames, 0, max };

	_Unwind_Backtrace(unwind_one, &st);
	return st.n;
}

void pl_record_init(void)
{
	void *frames[4];
	const char *p = getenv("RTREADY_CHECK_REPORT");

	pl_strlcpy(report_path, p, sizeof(report_path));
	/* The first unwind registers the unwinder's caches: do it now, not in a hook. */
	(void)capture(frames, 4);
}

void pl_note(struct pl_thread *t, enum pl_kind kind, const char *detail, long arg, long weight,
	     void *caller)
{
	short idx = t->slot[kind];
	struct pl_slot *s;
	struct rusage before, after;
	unsigned i;
	int saved;

	if (idx > 0) {
		s = &slots[idx - 1];
		atomic_fetch_add_explicit(&s->count, 1, memory_order_relaxed);
		atomic_fetch_add_explicit(&s->total, weight, memory_order_relaxed);
		return;
	}
	if (idx < 0) {
		atomic_fetch_add_explicit(&dropped, 1, memory_order_relaxed);
		return;
	}
	i = atomic_fetch_add_explicit(&n_slots, 1, memory_order_relaxed);
	if (i >= PL_SLOTS) {
		t->slot[kind] = -1;
		atomic_fetch_add_explicit(&dropped, 1, memory_order_relaxed);
		return;
	}
	saved = errno;
	t->busy++;
	/*
	 * Unwinding touches unwind tables and stack that may not be
	 * resident: those faults are ours, not the app's (see hook_sleep.c).
	 */
	before.ru_minflt = before.ru_majflt = 0;
	(void)getrusage(RUSAGE_THREAD, &before);
	s = &slots[i];
	atomic_store_explicit(&s->state, 1, memory_order_relaxed);
	s->kind = kind;
	s->tid = gettid();
	s->arg = arg;
	s->thread[0] = '\0';
	(void)prctl(PR_GET_NAME, s->thread, 0, 0, 0);
	s->thread[sizeof(s->thread) - 1] = '\0';
	pl_strlcpy(s->detail, detail, sizeof(s->detail));
	/*
	 * Unwinding inside a signal handler could deadlock on the loader
	 * lock the interrupted code holds: keep only the caller there.
	 */
	s->from_signal = t->in_signal > 0;
	if (s->from_signal) {
		s->frames[0] = caller;
		s->nframes = 1;
	} else {
		bool seen = false;

		s->nframes = capture(s->frames, PL_FRAMES);
		/*
		 * Where the code has no unwind tables (32-bit Arm builds have
		 * none by default), the unwinder stops inside the hook: keep
		 * at least the hook's caller.
		 */
		for (int f = 0; f < s->nframes && !seen; f++)
			seen = s->frames[f] == caller;
		if (caller && !seen && s->nframes < PL_FRAMES)
			s->frames[s->nframes++] = caller;
	}
	atomic_store_explicit(&s->count, 1, memory_order_relaxed);
	atomic_store_explicit(&s->total, weight, memory_order_relaxed);
	atomic_store_explicit(&s->state, 2, memory_order_release);
	t->slot[kind] = (short)(i + 1);
	if (getrusage(RUSAGE_THREAD, &after) == 0)
		t->own_faults += (after.ru_minflt + after.ru_majflt) -
				 (before.ru_minflt + before.ru_majflt);
	t->busy--;
	errno = saved;
}

/* ---- writing (outside hooks) ---- */

static void put_frame(struct pl_buf *b, void *addr, bool first)
{
	Dl_info info;
	/* A return address points after the call: look up the call itself. */
	uintptr_t a = (uintptr_t)addr, look = a > 0 ? a - 1 : a;

	if (!first)
		put_char(b, ',');
	pl_put(b, "{\"addr\":");
	pl_put_hex(b, a);
	if (dladdr((void *)look, &info) && info.dli_fname) {
		put_key(b, "obj");
		pl_put_json_str(b, info.dli_fname);
		put_key(b, "off");
		pl_put_hex(b, a - (uintptr_t)info.dli_fbase);
		if (info.dli_sname && info.dli_saddr) {
			put_key(b, "sym");
			pl_put_json_str(b, info.dli_sname);
			put_key(b, "symoff");
			pl_put_hex(b, a - (uintptr_t)info.dli_saddr);
		}
	}
	put_char(b, '}');
}

static bool in_self(void *addr, const void *self_base)
{
	Dl_info info;
	uintptr_t a = (uintptr_t)addr;

	return dladdr((void *)(a ? a - 1 : a), &info) && info.dli_fbase == self_base;
}

static void write_slot(const struct pl_slot *s, const void *self_base)
{
	char line[PL_LINE];
	struct pl_buf b = { line, 0, sizeof(line) - 8 };	/* room for "]}\n" */
	bool first = true;

	pl_put(&b, "{\"type\":\"finding\"");
	put_key(&b, "pid");
	pl_put_i64(&b, pl_pid);
	put_key(&b, "id");
	pl_put_json_str(&b, pl_kind_id(s->kind));
	put_key(&b, "tid");
	pl_put_i64(&b, s->tid);
	put_key(&b, "thread");
	pl_put_json_str(&b, s->thread);
	put_key(&b, "count");
	pl_put_i64(&b, atomic_load_explicit(&s->count, memory_order_relaxed));
	put_key(&b, "total");
	pl_put_i64(&b, atomic_load_explicit(&s->total, memory_order_relaxed));
	put_key(&b, "arg");
	pl_put_i64(&b, s->arg);
	put_key(&b, "detail");
	pl_put_json_str(&b, s->detail);
	put_key(&b, "in_signal_handler");
	pl_put(&b, s->from_signal ? "true" : "false");
	put_key(&b, "frames");
	put_char(&b, '[');
	for (int i = 0; i < s->nframes; i++) {
		size_t mark = b.len;

		/* Our own frames (the hook, the unwinder) say nothing to the user. */
		if (!s->from_signal && in_self(s->frames[i], self_base))
			continue;
		put_frame(&b, s->frames[i], first);
		if (b.len + 4 >= b.cap) {	/* truncated: drop the partial frame */
			b.len = mark;
			break;
		}
		first = false;
	}
	b.cap = sizeof(line);
	pl_put(&b, "]}");
	write_line(&b);
}

void pl_hello(void)
{
	char line[PL_LINE];
	struct pl_buf b = { line, 0, sizeof(line) - 2 };
	extern char *program_invocation_name;

	pl_put(&b, "{\"type\":\"hello\"");
	put_key(&b, "pid");
	pl_put_i64(&b, pl_pid);
	put_key(&b, "ppid");
	pl_put_i64(&b, getppid());
	put_key(&b, "exe");
	pl_put_json_str(&b, program_invocation_name);
	put_key(&b, "mlock_by_rtready");
	pl_put(&b, pl_mlock_by_rtready ? "true" : "false");
	pl_put(&b, "}");
	write_line(&b);
}

void pl_flush(const char *why)
{
	struct pl_thread *t = &pl_self;
	unsigned n = atomic_load_explicit(&n_slots, memory_order_acquire);
	char line[512];
	struct pl_buf b = { line, 0, sizeof(line) - 2 };
	Dl_info self;
	const void *self_base = NULL;

	/* A vfork child shares our memory but is not this process. */
	if (getpid() != pl_pid)
		return;
	t->busy++;
	if (dladdr((void *)pl_flush, &self))
		self_base = self.dli_fbase;
	if (n > PL_SLOTS)
		n = PL_SLOTS;
	for (unsigned i = 0; i < n; i++)
		if (atomic_load_explicit(&slots[i].state, memory_order_acquire) == 2)
			write_slot(&slots[i], self_base);
	pl_put(&b, "{\"type\":\"bye\"");
	put_key(&b, "pid");
	pl_put_i64(&b, pl_pid);
	put_key(&b, "why");
	pl_put_json_str(&b, why);
	put_key(&b, "records");
	pl_put_u64(&b, n);
	put_key(&b, "dropped");
	pl_put_u64(&b, atomic_load_explicit(&dropped, memory_order_relaxed));
	put_key(&b, "mlockall");
	pl_put_i64(&b, atomic_load(&pl_mlock_flags));
	put_key(&b, "mmap_max_zero");
	pl_put(&b, atomic_load(&pl_mmap_max_zero) ? "true" : "false");
	put_key(&b, "trim_off");
	pl_put(&b, atomic_load(&pl_trim_off) ? "true" : "false");
	pl_put(&b, "}");
	write_line(&b);
	t->busy--;
}

void pl_reset_after_fork(void)
{
	struct pl_thread *t = &pl_self;

	/* Only the forking thread exists here; its cached slot indexes are stale. */
	memset(slots, 0, sizeof(slots));
	atomic_store(&n_slots, 0);
	atomic_store(&dropped, 0);
	for (int k = 0; k < PL_KIND_COUNT; k++)
		t->slot[k] = 0;
}
