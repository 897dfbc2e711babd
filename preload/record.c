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
 *
 * A process killed by SIGKILL writes no lines: so each record also has an
 * entry in rtready's shared table (wire.h), mapped when the process image
 * starts, where its committed counts are raised in place. rtready reads
 * the table after the program is gone and keeps what no line told.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <unwind.h>

#include "internal.h"
#include "wire.h"

#define PL_SLOTS 1024
#define PL_FRAMES 16
#define PL_LINE 8192

struct pl_slot {
	_Atomic int state;	/* 0 free, 1 being filled, 2 ready */
	enum pl_kind kind;
	long key;		/* the site: the lock for lock kinds, else the caller */
	short next;		/* index + 1 of the thread's next record of this kind */
	long pending, pending_total;	/* not yet committed (owner thread only) */
	pid_t tid;
	bool from_signal;	/* recorded inside a signal handler: one frame only */
	_Atomic int64_t count;	/* used when the record has no entry in the shared table */
	_Atomic int64_t total;
	_Atomic int64_t *cnt, *tot;	/* the counts: in its shared entry, or the two above */
	struct rtr_wire_ent *w;	/* its entry in the shared table, or NULL */
	long arg;
	int nframes;
	char thread[16];
	char detail[64];
	void *frames[PL_FRAMES];
};

static struct pl_slot slots[PL_SLOTS];
static _Atomic unsigned n_slots;

/* Sites kept per thread and kind; more go to the last one. */
#define PL_SITES 64

/* Realtime threads seen, for the report of those never judged. */
#define PL_RT_THREADS 512
struct pl_rt {
	_Atomic pid_t tid;
	_Atomic long waits;
	char name[16];
	struct rtr_wire_ent *w;	/* its entry in the shared table, or NULL */
};
static struct pl_rt rt_threads[PL_RT_THREADS];
static _Atomic unsigned n_rt;
static _Atomic unsigned long rt_overflow;
static _Atomic unsigned long dropped;
static char report_path[4096];

/* The shared table (wire.h), mapped at start; NULL when rtready gave none. */
static struct rtr_wire_head *wire;
static struct rtr_wire_ent *wire_ents;
static struct rtr_wire_ent *wire_proc;	/* this process image's PROC entry */

/* This library's own code, [lo, hi): its frames are left out of shared entries. */
static uintptr_t self_lo, self_hi;
static void modules_cover(void *const *frames, int n);

/* Sites of records without a shared entry: above every entry index. */
#define PL_SITE_LOCAL 1000000

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

/*
 * Map the shared table rtready named in RTREADY_CHECK_TABLE, when its
 * header is one this library writes; else records live only here.
 * MAP_POPULATE: its pages are mapped now, not at a count in a hook.
 */
static void wire_map(void)
{
	const char *path = getenv(RTR_WIRE_ENV);
	struct rtr_wire_head head;
	struct stat st;
	void *p;
	int fd;

	if (!path || !*path)
		return;
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return;
	if (fstat(fd, &st) < 0 || st.st_size < (off_t)sizeof(head) ||
	    pread(fd, &head, sizeof(head), 0) != (ssize_t)sizeof(head) ||
	    head.magic != RTR_WIRE_MAGIC || head.version != RTR_WIRE_VERSION ||
	    head.entry_bytes != sizeof(struct rtr_wire_ent) || head.capacity == 0 ||
	    head.capacity > (1u << 20) || head.table_bytes != rtr_wire_table_bytes(head.capacity) ||
	    st.st_size < (off_t)head.table_bytes)
		goto out;
	p = mmap(NULL, head.table_bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, 0);
	if (p == MAP_FAILED)
		goto out;
	wire = p;
	wire_ents = (struct rtr_wire_ent *)((char *)p + RTR_WIRE_HEAD_BYTES);
out:
	close(fd);
}

/*
 * An entry of the shared table, or NULL when there is none or it is full
 * (counted there and in this image's PROC entry). The caller fills it and
 * publishes it with wire_publish().
 */
static struct rtr_wire_ent *wire_take(void)
{
	uint32_t i;

	if (!wire)
		return NULL;
	i = atomic_fetch_add_explicit(&wire->next, 1, memory_order_relaxed);
	if (i >= wire->capacity) {
		atomic_fetch_add_explicit(&wire->overflow, 1, memory_order_relaxed);
		if (wire_proc)
			atomic_fetch_add_explicit(&wire_proc->total, 1, memory_order_relaxed);
		return NULL;
	}
	wire_ents[i].pid = pl_pid;
	return &wire_ents[i];
}

static void wire_publish(struct rtr_wire_ent *e, enum rtr_wire_type type)
{
	atomic_store_explicit(&e->type, type, memory_order_release);
}

/* A record lost to a full private table. */
static void note_dropped(void)
{
	atomic_fetch_add_explicit(&dropped, 1, memory_order_relaxed);
	if (wire_proc)
		atomic_fetch_add_explicit(&wire_proc->count, 1, memory_order_relaxed);
}

void pl_record_init(void)
{
	void *frames[4];
	const char *p = getenv("RTREADY_CHECK_REPORT");

	pl_strlcpy(report_path, p, sizeof(report_path));
	pl_self.busy++;
	wire_map();
	pl_self.busy--;
	/* The first unwind registers the unwinder's caches: do it now, not in a hook. */
	(void)capture(frames, 4);
}

/* Kinds judged in the work between two waits: pending until the next wait. */
static bool pending_kind(enum pl_kind k)
{
	return k == PL_ALLOC_IN_RT || k == PL_STDIO_IN_RT || k == PL_MUTEX_NO_PI ||
	       k == PL_MTX_NO_PI || k == PL_RWLOCK || k == PL_RELATIVE_TIMER;
}

static bool lock_kind(enum pl_kind k)
{
	return k == PL_MUTEX_NO_PI || k == PL_MTX_NO_PI || k == PL_RWLOCK || k == PL_SEM_SHARED;
}

void pl_commit(struct pl_thread *t)
{
	/* Only the pending kinds, along each one's chain of sites (PL_SITES at most). */
	for (int k = 0; k < PL_KIND_COUNT; k++) {
		if (!pending_kind((enum pl_kind)k))
			continue;
		for (short idx = t->head[k]; idx > 0; idx = slots[idx - 1].next) {
			struct pl_slot *s = &slots[idx - 1];

			if (!s->pending)
				continue;
			atomic_fetch_add_explicit(s->tot, s->pending_total, memory_order_relaxed);
			atomic_fetch_add_explicit(s->cnt, s->pending, memory_order_release);
			s->pending = s->pending_total = 0;
		}
	}
	t->npend = 0;
}

/* One occurrence in slot @idx (index + 1) of the calling thread. */
static void count(struct pl_thread *t, short idx, long weight)
{
	struct pl_slot *s = &slots[idx - 1];

	if (!pending_kind(s->kind)) {
		atomic_fetch_add_explicit(s->cnt, 1, memory_order_relaxed);
		atomic_fetch_add_explicit(s->tot, weight, memory_order_relaxed);
		return;
	}
	t->npend = 1;
	s->pending++;
	s->pending_total += weight;
}

/* This thread's record of @kind at @key, index + 1; 0 when new; the last one past PL_SITES. */
static short find(struct pl_thread *t, enum pl_kind kind, long key)
{
	short idx = t->slot[kind], last = 0;
	unsigned n = 0;

	if (idx > 0 && slots[idx - 1].key == key)
		return idx;
	for (idx = t->head[kind]; idx > 0; idx = slots[idx - 1].next) {
		if (slots[idx - 1].key == key)
			return idx;
		last = idx;
		n++;
	}
	return n >= PL_SITES ? last : 0;
}

void pl_note(struct pl_thread *t, enum pl_kind kind, const char *detail, long arg, long weight,
	     void *caller)
{
	long key = lock_kind(kind) ? arg : (long)(uintptr_t)caller;
	short idx = t->slot[kind] < 0 ? t->slot[kind] : find(t, kind, key);
	struct pl_slot *s;
	struct rusage before, after;
	unsigned i;
	int saved;

	if (idx > 0) {
		t->slot[kind] = idx;
		count(t, idx, weight);
		return;
	}
	if (idx < 0) {
		note_dropped();
		return;
	}
	i = atomic_fetch_add_explicit(&n_slots, 1, memory_order_relaxed);
	if (i >= PL_SLOTS) {
		t->slot[kind] = -1;
		note_dropped();
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
	s->key = key;
	s->next = 0;
	s->pending = s->pending_total = 0;
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
		modules_cover(s->frames, s->nframes);
	}
	atomic_store_explicit(&s->count, 0, memory_order_relaxed);
	atomic_store_explicit(&s->total, 0, memory_order_relaxed);
	s->cnt = &s->count;
	s->tot = &s->total;
	s->w = wire_take();
	if (s->w) {
		struct rtr_wire_ent *e = s->w;

		e->tid = s->tid;
		e->from_signal = s->from_signal;
		e->nframes = 0;
		for (int f = 0; f < s->nframes; f++) {
			uintptr_t a = (uintptr_t)s->frames[f];

			/* Our own frames (the hook, the unwinder) say nothing to the user. */
			if (!s->from_signal && a > self_lo && a <= self_hi)
				continue;
			e->frames[e->nframes++] = (uint64_t)a;
		}
		atomic_store_explicit(&e->arg, arg, memory_order_relaxed);
		pl_strlcpy(e->id, pl_kind_id(kind), sizeof(e->id));
		memcpy(e->thread, s->thread, sizeof(e->thread));
		memcpy(e->detail, s->detail, sizeof(e->detail));
		atomic_store_explicit(&e->count, 0, memory_order_relaxed);
		atomic_store_explicit(&e->total, 0, memory_order_relaxed);
		s->cnt = &e->count;
		s->tot = &e->total;
		wire_publish(e, RTR_WIRE_FINDING);
	}
	/* Chain it behind the thread's last record of this kind. */
	if (t->head[kind] == 0) {
		t->head[kind] = (short)(i + 1);
	} else {
		short last = t->head[kind];

		while (slots[last - 1].next)
			last = slots[last - 1].next;
		slots[last - 1].next = (short)(i + 1);
	}
	t->slot[kind] = (short)(i + 1);
	count(t, (short)(i + 1), weight);
	atomic_store_explicit(&s->state, 2, memory_order_release);
	if (getrusage(RUSAGE_THREAD, &after) == 0)
		t->own_faults += (after.ru_minflt + after.ru_majflt) -
				 (before.ru_minflt + before.ru_majflt);
	t->busy--;
	errno = saved;
}

void pl_rt_thread_seen(struct pl_thread *t)
{
	struct rtr_wire_ent *e;
	unsigned i;

	if (t->rt_index)
		return;
	i = atomic_fetch_add_explicit(&n_rt, 1, memory_order_relaxed);
	if (i >= PL_RT_THREADS) {
		t->rt_index = -1;
		atomic_fetch_add_explicit(&rt_overflow, 1, memory_order_relaxed);
		if (wire_proc)
			atomic_fetch_add_explicit(&wire_proc->arg, 1, memory_order_relaxed);
		return;
	}
	(void)prctl(PR_GET_NAME, rt_threads[i].name, 0, 0, 0);
	rt_threads[i].name[sizeof(rt_threads[i].name) - 1] = '\0';
	atomic_store_explicit(&rt_threads[i].waits, 0, memory_order_relaxed);
	e = rt_threads[i].w = wire_take();
	if (e) {
		e->tid = gettid();
		memcpy(e->thread, rt_threads[i].name, sizeof(e->thread));
		atomic_store_explicit(&e->waited, 0, memory_order_relaxed);
		wire_publish(e, RTR_WIRE_RT);
	}
	atomic_store_explicit(&rt_threads[i].tid, gettid(), memory_order_release);
	t->rt_index = (short)(i + 1);
}

void pl_rt_thread_ending(struct pl_thread *t)
{
	/* The name it has now: threads are often named after they start. */
	if (t->rt_index > 0 && !t->waited) {
		struct pl_rt *r = &rt_threads[t->rt_index - 1];

		(void)prctl(PR_GET_NAME, r->name, 0, 0, 0);
		if (r->w)
			memcpy(r->w->thread, r->name, sizeof(r->w->thread));
	}
}

void pl_rt_thread_waited(struct pl_thread *t)
{
	/* Once per thread: a store on every wait would bounce a shared cache line. */
	if (t->rt_index > 0 && !t->waited) {
		struct pl_rt *r = &rt_threads[t->rt_index - 1];

		t->waited = true;
		atomic_store_explicit(&r->waits, 1, memory_order_relaxed);
		if (r->w)
			atomic_store_explicit(&r->w->waited, 1, memory_order_relaxed);
	}
}

/* ---- writing (outside hooks) ---- */

/*
 * The program's own file. The loader names the main program after argv[0],
 * which programs rewrite ("stress-ng-cyclic [run]"): the mapped file is what
 * /proc/self/exe names. Read at each flush, outside any hook.
 */
static char self_exe[4096];

static void read_self_exe(void)
{
	/* The system call: readlink() would be this library's one fortifiable import. */
	long n = syscall(SYS_readlinkat, AT_FDCWD, "/proc/self/exe", self_exe,
			 sizeof(self_exe) - 1);

	self_exe[n > 0 ? n : 0] = '\0';
}

static const char *object_name(const char *fname)
{
	extern char *program_invocation_name;

	if (self_exe[0] && (fname == program_invocation_name || !fname[0] ||
			    strcmp(fname, program_invocation_name) == 0))
		return self_exe;
	return fname;
}

/*
 * @exact: @addr is a function's own address (a signal handler), not a
 * return address, which points after its call and is looked up one byte
 * back.
 */
static void put_frame(struct pl_buf *b, void *addr, bool first, bool exact)
{
	Dl_info info;
	uintptr_t a = (uintptr_t)addr, look = a > 0 && !exact ? a - 1 : a;

	if (!first)
		put_char(b, ',');
	pl_put(b, "{\"addr\":");
	pl_put_hex(b, a);
	if (exact)
		pl_put(b, ",\"exact\":true");
	if (dladdr((void *)look, &info) && info.dli_fname) {
		put_key(b, "obj");
		pl_put_json_str(b, object_name(info.dli_fname));
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
	put_key(&b, "site");
	pl_put_i64(&b, s->w ? (int64_t)(s->w - wire_ents) : PL_SITE_LOCAL + (int64_t)(s - slots));
	put_key(&b, "thread");
	pl_put_json_str(&b, s->thread);
	put_key(&b, "count");
	pl_put_i64(&b, atomic_load_explicit(s->cnt, memory_order_relaxed));
	put_key(&b, "total");
	pl_put_i64(&b, atomic_load_explicit(s->tot, memory_order_relaxed));
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
		put_frame(&b, s->frames[i], first,
			  i == 0 && s->from_signal && s->kind == PL_SIGNAL);
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

	/* This image's entry: what it loses is counted there, where a kill leaves it. */
	wire_proc = NULL;
	wire_proc = wire_take();
	if (wire_proc)
		wire_publish(wire_proc, RTR_WIRE_PROC);
	pl_put(&b, "{\"type\":\"hello\"");
	put_key(&b, "pid");
	pl_put_i64(&b, pl_pid);
	put_key(&b, "ppid");
	pl_put_i64(&b, getppid());
	put_key(&b, "exe");
	read_self_exe();
	pl_put_json_str(&b, self_exe[0] ? self_exe : program_invocation_name);
	put_key(&b, "mlock_by_rtready");
	pl_put(&b, pl_mlock_by_rtready ? "true" : "false");
	put_key(&b, "table_entry");	/* which PROC entry is this image's; -1: none */
	pl_put_i64(&b, wire_proc ? (int64_t)(wire_proc - wire_ents) : -1);
	pl_put(&b, "}");
	write_line(&b);
}

/*
 * The objects this process has written a module line for: their ranges,
 * and a hash of their names (another object could come to the same range
 * after a dlclose()). Appended under modules_busy, read without it.
 */
#define PL_MODULES 512
static struct {
	uintptr_t lo, hi;
	uint32_t name;
} known[PL_MODULES];
static _Atomic unsigned n_known;
static atomic_flag modules_busy = ATOMIC_FLAG_INIT;
static atomic_bool modules_dirty;	/* asked for while another thread wrote them */
static unsigned long long modules_adds;	/* the loader's load count at the last walk */

static uint32_t name_hash(const char *s)
{
	uint32_t h = 2166136261u;	/* FNV-1a */

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

static bool module_known(uintptr_t lo, uintptr_t hi, uint32_t name)
{
	unsigned n = atomic_load_explicit(&n_known, memory_order_acquire);

	for (unsigned i = 0; i < n && i < PL_MODULES; i++)
		if (known[i].lo == lo && known[i].hi == hi && known[i].name == name)
			return true;
	return false;
}

/*
 * One "module" line per loaded object, with the range its segments span:
 * rtready names the raw frames of a process killed before its lines
 * (shared entries) by these. Written at start for every object, and again
 * for the objects loaded since (dlopen) when a new record has a frame in
 * none of the known ones (modules_cover).
 */
static int module_line(struct dl_phdr_info *info, size_t size, void *arg)
{
	char line[PL_LINE];
	struct pl_buf b = { line, 0, sizeof(line) - 2 };
	uintptr_t lo = UINTPTR_MAX, hi = 0;
	const void *self_base = arg;	/* an address inside this library */
	const char *obj;
	uint32_t name;
	unsigned n;

	(void)size;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type != PT_LOAD)
			continue;
		if (info->dlpi_addr + ph->p_vaddr < lo)
			lo = info->dlpi_addr + ph->p_vaddr;
		if (info->dlpi_addr + ph->p_vaddr + ph->p_memsz > hi)
			hi = info->dlpi_addr + ph->p_vaddr + ph->p_memsz;
	}
	if (hi <= lo)
		return 0;
	if (self_base && (uintptr_t)self_base >= lo && (uintptr_t)self_base < hi) {
		self_lo = lo;
		self_hi = hi;
		return 0;
	}
	obj = info->dlpi_name && info->dlpi_name[0] ? info->dlpi_name : self_exe[0] ? self_exe : "?";
	name = name_hash(obj);
	if (module_known(lo, hi, name))
		return 0;
	pl_put(&b, "{\"type\":\"module\"");
	put_key(&b, "pid");
	pl_put_i64(&b, pl_pid);
	put_key(&b, "obj");
	pl_put_json_str(&b, obj);
	put_key(&b, "base");
	pl_put_hex(&b, info->dlpi_addr);
	put_key(&b, "start");
	pl_put_hex(&b, lo);
	put_key(&b, "end");
	pl_put_hex(&b, hi);
	pl_put(&b, "}");
	write_line(&b);
	n = atomic_load_explicit(&n_known, memory_order_relaxed);
	if (n < PL_MODULES) {
		known[n].lo = lo;
		known[n].hi = hi;
		known[n].name = name;
		atomic_store_explicit(&n_known, n + 1, memory_order_release);
	}
	return 0;
}

/* The loader's count of objects loaded so far (0 where it has none), from its first entry. */
static int adds_of(struct dl_phdr_info *info, size_t size, void *arg)
{
	if (size >= offsetof(struct dl_phdr_info, dlpi_adds) + sizeof(info->dlpi_adds))
		*(unsigned long long *)arg = info->dlpi_adds;
	return 1;
}

/*
 * Module lines for the loaded objects not written yet. Only when the
 * loader has loaded something since the last walk (a frame in code no
 * object holds, a JIT's, costs one entry of the loader's list, not a walk
 * of all). A thread that finds another writing them leaves it to that one,
 * which walks again before it is done.
 */
static void modules_write(void)
{
	if (atomic_flag_test_and_set_explicit(&modules_busy, memory_order_acquire)) {
		atomic_store_explicit(&modules_dirty, true, memory_order_release);
		return;
	}
	do {
		unsigned long long adds = 0;

		atomic_store_explicit(&modules_dirty, false, memory_order_relaxed);
		(void)dl_iterate_phdr(adds_of, &adds);
		if (adds && adds == modules_adds)
			continue;
		read_self_exe();
		/* Our own range (the object holding this function) is kept to filter frames. */
		(void)dl_iterate_phdr(module_line, (void *)pl_modules);
		modules_adds = adds;
	} while (atomic_load_explicit(&modules_dirty, memory_order_acquire));
	atomic_flag_clear_explicit(&modules_busy, memory_order_release);
}

void pl_modules(void)
{
	pl_self.busy++;
	modules_write();
	pl_self.busy--;
}

/*
 * A new record's frames, before they go into the shared table: one in no
 * object written so far is in one loaded since (dlopen), or this is a
 * forked child that has written none of its own; write the lines now, while
 * it is mapped, so that the frame can be named if the process is killed.
 * Outside signal handlers only (dl_iterate_phdr takes the loader's lock).
 */
static void modules_cover(void *const *frames, int n)
{
	unsigned nk = atomic_load_explicit(&n_known, memory_order_acquire);

	for (int f = 0; f < n; f++) {
		uintptr_t a = (uintptr_t)frames[f];
		bool in = a > self_lo && a <= self_hi;

		for (unsigned i = 0; !in && i < nk && i < PL_MODULES; i++)
			in = a > known[i].lo && a <= known[i].hi;
		if (!in) {
			modules_write();
			return;
		}
	}
}

static void unjudged_line(pid_t tid, const char *fallback)
{
	char line[256], name[32], path[64];
	struct pl_buf b = { line, 0, sizeof(line) - 2 }, pb = { path, 0, sizeof(path) };
	ssize_t len;
	int fd;

	pl_strlcpy(name, fallback, sizeof(name));
	pl_put(&pb, "/proc/self/task/");
	pl_put_i64(&pb, tid);
	pl_put(&pb, "/comm");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		len = read(fd, name, sizeof(name) - 1);
		if (len > 0) {
			name[len] = '\0';
			if (name[len - 1] == '\n')
				name[len - 1] = '\0';
		}
		close(fd);
	}
	pl_put(&b, "{\"type\":\"unjudged\"");
	put_key(&b, "pid");
	pl_put_i64(&b, pl_pid);
	put_key(&b, "tid");
	pl_put_i64(&b, tid);
	put_key(&b, "thread");
	pl_put_json_str(&b, name);
	pl_put(&b, "}");
	write_line(&b);
}

/* The scheduling policy of thread @tid, from field 41 of its stat; -1 unknown. */
static int task_policy(pid_t tid)
{
	char path[64], buf[1024];
	struct pl_buf pb = { path, 0, sizeof(path) };
	ssize_t n;
	int fd, field = 2, policy = 0;
	char *p;

	pl_put(&pb, "/proc/self/task/");
	pl_put_i64(&pb, tid);
	pl_put(&pb, "/stat");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	/* "tid (comm) S ...": count fields after the last ')', the comm may hold any byte. */
	p = strrchr(buf, ')');
	if (!p)
		return -1;
	for (p++; *p && field < 41; p++)
		if (*p == ' ')
			field++;
	while (*p >= '0' && *p <= '9')
		policy = policy * 10 + (*p++ - '0');
	return field == 41 ? policy : -1;
}

static bool tracked(pid_t tid, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (atomic_load_explicit(&rt_threads[i].tid, memory_order_relaxed) == tid)
			return true;
	return false;
}

/*
 * Realtime threads that never waited where the checker sees it: their work
 * was not judged. Those the hooks met are in the table; a live realtime
 * thread that never called a hooked function is found in /proc/self/task.
 */
static void write_unjudged(void)
{
	unsigned n = atomic_load_explicit(&n_rt, memory_order_acquire);
	char dents[4096];
	long got;
	int dir;

	if (n > PL_RT_THREADS)
		n = PL_RT_THREADS;
	for (unsigned i = 0; i < n; i++) {
		struct pl_rt *r = &rt_threads[i];
		pid_t tid = atomic_load_explicit(&r->tid, memory_order_acquire);

		if (tid && atomic_load_explicit(&r->waits, memory_order_relaxed) == 0)
			unjudged_line(tid, r->name);
	}
	dir = open("/proc/self/task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dir < 0)
		return;
	/* getdents64, not readdir(): opendir() allocates. */
	while ((got = syscall(SYS_getdents64, dir, dents, sizeof(dents))) > 0) {
		for (long off = 0; off < got;) {
			struct {
				uint64_t ino;
				int64_t off;
				unsigned short reclen;
				unsigned char type;
				char name[];
			} *d = (void *)(dents + off);
			pid_t tid = 0;
			int policy;

			off += d->reclen;
			for (const char *c = d->name; *c >= '0' && *c <= '9'; c++)
				tid = tid * 10 + (*c - '0');
			if (tid <= 0 || tracked(tid, n))
				continue;
			policy = task_policy(tid);
			if (policy == 1 || policy == 2 || policy == 6)	/* FIFO, RR, DEADLINE */
				unjudged_line(tid, "?");
		}
	}
	close(dir);
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
	read_self_exe();
	if (dladdr((void *)pl_flush, &self))
		self_base = self.dli_fbase;
	if (n > PL_SLOTS)
		n = PL_SLOTS;
	for (unsigned i = 0; i < n; i++)
		if (atomic_load_explicit(&slots[i].state, memory_order_acquire) == 2 &&
		    atomic_load_explicit(slots[i].cnt, memory_order_acquire) > 0)
			write_slot(&slots[i], self_base);
	write_unjudged();
	pl_put(&b, "{\"type\":\"bye\"");
	put_key(&b, "pid");
	pl_put_i64(&b, pl_pid);
	put_key(&b, "why");
	pl_put_json_str(&b, why);
	put_key(&b, "records");
	pl_put_u64(&b, n);
	put_key(&b, "dropped");
	pl_put_u64(&b, atomic_load_explicit(&dropped, memory_order_relaxed));
	put_key(&b, "rt_threads_untracked");
	pl_put_u64(&b, atomic_load_explicit(&rt_overflow, memory_order_relaxed));
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

/*
 * dlclose(): the frames in the library about to go are named now, while it
 * is mapped; the lines written here carry them (rtready keeps a frame's
 * names from an earlier line when the later one could not resolve it).
 */
static int (*real_dlclose)(void *);

PL_EXPORT int dlclose(void *handle)
{
	PL_REAL(real_dlclose, "dlclose");
	if (pl_enabled && getpid() == pl_pid) {
		struct pl_thread *t = &pl_self;
		unsigned n = atomic_load_explicit(&n_slots, memory_order_acquire);
		Dl_info self;
		const void *self_base = NULL;

		t->busy++;
		read_self_exe();
		if (dladdr((void *)pl_flush, &self))
			self_base = self.dli_fbase;
		for (unsigned i = 0; i < n && i < PL_SLOTS; i++)
			if (atomic_load_explicit(&slots[i].state, memory_order_acquire) == 2 &&
			    atomic_load_explicit(slots[i].cnt, memory_order_acquire) > 0)
				write_slot(&slots[i], self_base);
		t->busy--;
	}
	return real_dlclose(handle);
}

void pl_reset_after_fork(void)
{
	struct pl_thread *t = &pl_self;

	/* Only the forking thread exists here; its cached slot indexes are stale. */
	memset(slots, 0, sizeof(slots));
	atomic_store(&n_slots, 0);
	/* The module lines written were the parent's: the child writes its own when it records. */
	atomic_store(&n_known, 0);
	modules_adds = 0;
	atomic_store(&modules_dirty, false);
	atomic_flag_clear(&modules_busy);
	atomic_store(&dropped, 0);
	for (int k = 0; k < PL_KIND_COUNT; k++)
		t->slot[k] = t->head[k] = 0;
	t->npend = 0;
	memset(rt_threads, 0, sizeof(rt_threads));
	atomic_store(&n_rt, 0);
	atomic_store(&rt_overflow, 0);
	t->rt_index = 0;
	t->waited = false;
	t->sched_gen = 0;	/* re-read: the child registers itself when realtime */
	/*
	 * fork() copies no page table entries of a shared mapping: touch each
	 * page of the table now, so that no count in a hook takes the fault.
	 */
	if (wire)
		for (uint32_t off = 0; off < wire->table_bytes; off += 4096)
			(void)*(volatile const char *)((const char *)wire + off);
}
