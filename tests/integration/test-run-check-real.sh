#!/bin/bash
# SPDX-License-Identifier: MIT
# `run --check` on realtime programs nobody here wrote (issue 25): rt-tests
# and stress-ng, installed by `make test` (TEST_DEPS). What each must and
# must not report was read from the program's source (rt-tests 2.x,
# stress-ng 0.15+); a finding outside the allowed set fails the test, so a
# false positive is caught as surely as a silent gap.
. "$(dirname "$0")/lib.sh"
need_root
command -v python3 >/dev/null || skip "no python3"
tmp=$(mktemp -d)
jackd_pid=""
cleanup() {
	[ -n "$jackd_pid" ] && kill "$jackd_pid" 2>/dev/null && wait "$jackd_pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
ran=0

# judge NAME PROGRAM REQUIRED ALLOWED CHILD -- RUN-ARGS...: `rtready run
#   --check RUN-ARGS`. REQUIRED: ids that must be found (comma-separated);
#   ALLOWED: ids that may also be found; anything else fails. CHILD: an id
#   that must be found in a child process ("" for none). Skipped when
#   PROGRAM is not installed.
judge() {
	local name=$1 prog=$2 required=$3 allowed=$4 child=$5 rc=0
	shift 5
	[ "$1" = -- ] && shift
	command -v "$prog" >/dev/null 2>&1 || {
		echo "skip $name: no $prog"
		return 0
	}
	timeout 120 "$RTREADY" run --check --format json --report "$tmp/$name.json" "$@" \
		>"$tmp/$name.out" 2>"$tmp/$name.err" || rc=$?
	# 124: timeout(1) ended the program as asked (the JACK client runs until signalled).
	[ "$rc" -le 1 ] || [ "$rc" -eq 124 ] ||
		{ cat "$tmp/$name.err"; fail "$name: rtready run exited $rc"; }
	python3 - "$tmp/$name.json" "$name" "$required" "$allowed" "$child" <<'PY' ||
import json, re, sys
path, name, required, allowed, child = sys.argv[1:]
r = json.load(open(path))
required = set(filter(None, required.split(",")))
allowed = set(filter(None, allowed.split(","))) | required
found = r["findings"]
ids = {f["id"] for f in found}
bad = []
if not r["checker"]["attached"]:
    bad.append("checker not attached")
if required - ids:
    bad.append("missing %s" % sorted(required - ids))
if ids - allowed:
    bad.append("unexpected %s" % sorted(ids - allowed))
top = r["program"]["pid"]
if child and not any(f["id"] == child and f["pid"] != top for f in found):
    bad.append("%s not in a child process" % child)
# Each program's own check (the facts read from its source).
if name == "pi_stress":
    muts = {m for f in found if f["id"] == "app.mutex_no_pi"
            for m in re.findall(r"mutex (0x[0-9a-f]+)", f["evidence"])}
    if len(muts) < 2:
        bad.append("one non-PI mutex named, expected shutdown_mtx and loop_mtx: %s" % muts)
if name == "stress-ng-killed":
    # The stressor SIGKILLs its RT child at the end of the run: the child's
    # findings survive in the shared table (issue 25 item 6).
    killed = {p["pid"] for p in r["checker"]["processes"] if p["ended_by"] == "killed"}
    if not killed:
        bad.append("no process ended killed (stress-ng did not SIGKILL its child?)")
    for want in ("app.relative_sleep", "app.realtime_clock"):
        if not any(f["id"] == want and f["pid"] in killed and f["count"] > 0 for f in found):
            bad.append("%s of the killed child %s missing" % (want, sorted(killed)))
    if any(f["id"] == "app.checker" for f in found):
        bad.append("app.checker: the killed child's records were lost")
if name == "jackd-killed":
    # The dummy driver (jack_dummy.so, which jackd loads with dlopen() after
    # start) waits for each cycle with a relative sleep: JackSleep() of
    # JackTimedDriver::ProcessWait, on the driver's SCHED_FIFO thread. jackd
    # is killed: the frame must still be named in the plugin.
    killed = {p["pid"] for p in r["checker"]["processes"] if p["ended_by"] == "killed"}
    rel = [f for f in found if f["id"] == "app.relative_sleep" and f["pid"] in killed]
    if not killed or not rel:
        log = open(path.rsplit("/", 1)[0] + "/jackd-killed.log", errors="replace").read()
        bad.append("no app.relative_sleep of the killed jackd %s; its output ends: %s"
                   % (sorted(killed), " | ".join(log.strip().split("\n")[-3:])))
    for f in rel:
        top_frame = f["backtrace"][0] if f["backtrace"] else {}
        if not top_frame.get("obj", "").endswith("/jack_dummy.so") or \
                "Process" not in top_frame.get("sym", ""):
            bad.append("relative sleep not named in jack_dummy.so: %s" % top_frame)
    if any(f["id"] == "app.checker" for f in found):
        bad.append("app.checker: the killed jackd's records were lost")
if bad:
    print("FAIL %s: %s" % (name, "; ".join(bad)))
    for f in found:
        print("   %s pid %s: %s" % (f["id"], f.get("pid"), f["evidence"].split("\n")[0][:160]))
    sys.exit(1)
print("ok %s: %s" % (name, sorted(ids)))
PY
		fail "$name"
	ran=$((ran + 1))
}

# cyclictest --posix_timers without -m: its thread waits in sigwait(); the
# timer is CLOCK_MONOTONIC armed once with TIMER_ABSTIME. No mlockall, no
# mallopt; faults may follow from that. Before issue 25 the report was empty.
judge cyclictest cyclictest app.no_mlockall,app.no_mallopt app.page_fault_in_rt "" -- \
	cyclictest --posix_timers -t1 -p80 -i1000 -D1 -q
# pmqtest -T: mlockall() at start; the receiver sleeps relative to its
# interval (clock_nanosleep(CLOCK_MONOTONIC, 0)); both threads take
# mq_timedreceive() deadlines on CLOCK_REALTIME. main pthread_kill()s
# threads still running at the end (app.signal), and a receiver that was
# interrupted then perror()s before its last sleep.
judge pmqtest pmqtest app.no_mallopt,app.relative_sleep,app.realtime_clock \
	app.signal,app.stdio_in_rt,app.page_fault_in_rt "" -- \
	pmqtest -p80 -l100 -i1000 -q -T 1
# rt-migrate-test: main is SCHED_FIFO, sleeps relative (nanosleep) and draws
# its progress bar on stderr inside the loop; its workers wait on barriers.
# print_results() mallocs and printfs after the last barrier: teardown, never
# app.alloc_in_rt.
judge rt-migrate-test rt-migrate-test \
	app.relative_sleep,app.stdio_in_rt,app.no_mlockall,app.no_mallopt app.page_fault_in_rt "" \
	-- rt-migrate-test -l 2 -c 2
# pi_stress --quiet: its threads meet on barriers; loop_mtx and shutdown_mtx
# have default attributes (no PI), the group mutexes have PI. The summary
# printf comes after the threads end: no app.stdio_in_rt.
judge pi_stress pi_stress app.mutex_no_pi,app.no_mlockall,app.no_mallopt \
	app.relative_sleep,app.page_fault_in_rt "" -- pi_stress --quiet --duration 2
# stress-ng --cyclic under run --mlock: the RT stressor runs in forked
# children, which the kernel gives no mlockall(); the default method sleeps
# with clock_nanosleep on CLOCK_REALTIME, relative.
judge stress-ng-cyclic stress-ng app.no_mlockall,app.no_mallopt \
	app.realtime_clock,app.relative_sleep,app.page_fault_in_rt,app.signal,app.prio99 \
	app.no_mlockall -- --mlock stress-ng --cyclic 1 --cyclic-ops 100 -t 3 -q
# Without --cyclic-ops the stressor runs until -t ends and then SIGKILLs its
# RT child, which writes no records: what the child committed before comes
# from rtready's shared table.
judge stress-ng-killed stress-ng app.realtime_clock,app.relative_sleep,app.no_mlockall \
	app.no_mallopt,app.page_fault_in_rt,app.signal,app.prio99 app.relative_sleep -- \
	--mlock stress-ng --cyclic 1 -t 2 -q
# The itimer method re-arms a relative POSIX timer each cycle and waits in
# pause(); its handler runs on the RT thread (from a timer).
judge stress-ng-itimer stress-ng app.relative_timer,app.signal,app.no_mlockall,app.no_mallopt \
	app.realtime_timer,app.page_fault_in_rt,app.prio99 app.relative_timer -- \
	stress-ng --cyclic 1 --cyclic-method itimer --cyclic-policy fifo --cyclic-ops 100 -t 3 -q
# JACK (jackd2, dummy driver): a client's process thread is SCHED_FIFO and
# waits for each cycle in a raw futex syscall inside libjack, so before
# issue 25 it was never judged and the report was empty. jack_midisine
# never locks memory or tunes malloc; jack_rec hands buffers to its disk
# thread with pthread_mutex_trylock, which cannot invert priorities (no
# app.mutex_no_pi).
if command -v jackd >/dev/null && command -v jack_midisine >/dev/null; then
	export JACK_NO_AUDIO_RESERVATION=1 JACK_DEFAULT_SERVER="rtready-test-$$"
	# -t: a client late by up to 10 s is not killed as a zombie (a loaded CI machine).
	jackd -n "$JACK_DEFAULT_SERVER" -R -P 70 -t 10000 -d dummy -r 48000 -p 512 >"$tmp/jackd.log" 2>&1 &
	jackd_pid=$!
	for _ in $(seq 50); do
		jack_lsp >/dev/null 2>&1 && break
		sleep 0.2
	done
	jack_lsp >/dev/null 2>&1 || { cat "$tmp/jackd.log"; fail "jackd (dummy driver) did not start"; }
	judge jack_midisine jack_midisine app.no_mlockall,app.no_mallopt app.page_fault_in_rt \
		app.no_mlockall -- timeout -s INT 2 jack_midisine
	judge jack_rec jack_rec app.no_mlockall,app.no_mallopt app.page_fault_in_rt "" -- \
		jack_rec -f "$tmp/rec.wav" -d 2 system:capture_1
	# A second server under the checker, killed with SIGKILL after 2 s (a
	# shell starts and kills it, so the run itself ends normally).
	killed_name="rtready-killed-$$"
	judge jackd-killed jackd app.relative_sleep app.no_mlockall,app.no_mallopt,app.page_fault_in_rt \
		app.relative_sleep -- sh -c 'jackd -n "$1" -R -P 70 -d dummy -r 48000 -p 512 \
		>"$2" 2>&1 & p=$!; sleep 2; kill -KILL $p; wait $p; exit 0' sh "$killed_name" \
		"$tmp/jackd-killed.log"
	# The killed server kept its slot in JACK's server registry (8 for the
	# whole machine: a slot is reclaimed only by a server of the same name),
	# its socket and its shared memory. A server of that name takes them
	# back at its start and gives them up at an orderly stop.
	jackd -n "$killed_name" -d dummy -r 48000 -p 512 >"$tmp/jackd-reap.log" 2>&1 &
	reap_pid=$!
	for _ in $(seq 50); do
		JACK_DEFAULT_SERVER=$killed_name jack_lsp >/dev/null 2>&1 && break
		sleep 0.2
	done
	kill -TERM "$reap_pid" 2>/dev/null
	wait "$reap_pid" 2>/dev/null
	for f in /dev/shm/jack_*"$killed_name"_*; do
		[ -e "$f" ] && { cat "$tmp/jackd-reap.log"; fail "the killed jackd's $f is left behind"; }
	done
else
	echo "skip jack: no jackd2"
fi
[ "$ran" -gt 0 ] || skip "neither rt-tests nor stress-ng is installed"
echo ok
