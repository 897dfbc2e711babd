#!/bin/bash
# The example application (examples/rt-app), checked from outside through
# /proc while it runs as root: its realtime thread is SCHED_FIFO 80 on one
# CPU, its memory is locked (VmLck), and its minor+major page faults do not
# grow once the first second of setup is over. Then it must exit 0.
. "$(dirname "$0")/lib.sh"
need_root
APP="${BUILDDIR:-build}/examples/rt-app"
[ -x "$APP" ] || skip "examples/rt-app is not built"

out=$(mktemp)
trap 'rm -f "$out"; [ -n "${pid:-}" ] && kill "$pid" 2>/dev/null' EXIT
# Not under timeout(1): $pid must be rt-app itself. It ends after -D;
# the end of this script waits a bounded time and kills it if not.
"$APP" -D 10s >"$out" 2>&1 &
pid=$!

# get FILE N: field N of a /proc stat line, numbered as in proc(5). The
# command name in parentheses may hold spaces: count from the last ")".
get() {
	local line rest
	line=$(cat "$1" 2>/dev/null) || return 1
	rest=${line##*) }
	local -a f
	read -r -a f <<<"$rest"
	echo "${f[$(( $2 - 3 ))]}"
}

faults() { echo $(( $(get "/proc/$pid/stat" 10) + $(get "/proc/$pid/stat" 12) )); }

# Find the RT thread (bounded: 2 s).
rt_tid=""
for _ in $(seq 40); do
	for t in /proc/"$pid"/task/*; do
		[ "$(get "$t/stat" 41)" = 1 ] && rt_tid=${t##*/} && break
	done
	[ -n "$rt_tid" ] && break
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.05
done
[ -n "$rt_tid" ] || { cat "$out"; fail "no SCHED_FIFO thread in rt-app"; }
sleep 1.2    # past the first second: setup, thread start, self-check

rtprio=$(get "/proc/$pid/task/$rt_tid/stat" 40)
[ "$rtprio" = 80 ] || fail "RT thread $rt_tid has rt_priority $rtprio, not 80"
nfifo=0
for t in /proc/"$pid"/task/*; do
	[ "$(get "$t/stat" 41)" = 1 ] && nfifo=$((nfifo + 1))
done
[ "$nfifo" = 1 ] || fail "$nfifo SCHED_FIFO threads, expected exactly 1"
cpus=$(awk '/^Cpus_allowed_list:/ {print $2}' "/proc/$pid/task/$rt_tid/status")
[[ "$cpus" =~ ^[0-9]+$ ]] || fail "RT thread is not pinned to one CPU (Cpus_allowed_list $cpus)"
vmlck=$(awk '/^VmLck:/ {print $2}' "/proc/$pid/status")
[ "${vmlck:-0}" -gt 0 ] || fail "memory is not locked (VmLck ${vmlck:-?} kB)"

f1=$(faults)
rt1=$(( $(get "/proc/$pid/task/$rt_tid/stat" 10) + $(get "/proc/$pid/task/$rt_tid/stat" 12) ))
sleep 2
kill -0 "$pid" 2>/dev/null || fail "rt-app ended before the second look (machine too slow?)"
f2=$(faults)
rt2=$(( $(get "/proc/$pid/task/$rt_tid/stat" 10) + $(get "/proc/$pid/task/$rt_tid/stat" 12) ))
[ "$f2" = "$f1" ] || fail "process page faults grew from $f1 to $f2 after the first second"
[ "$rt2" = "$rt1" ] || fail "RT thread page faults grew from $rt1 to $rt2"

for _ in $(seq 300); do
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.05
done
kill -0 "$pid" 2>/dev/null && { kill -9 "$pid"; fail "rt-app did not stop after its duration"; }
rc=0
wait "$pid" || rc=$?
pid=""
[ "$rc" = 0 ] || { cat "$out"; fail "rt-app exited $rc"; }
grep -q "cycles on CPU $cpus, SCHED_FIFO 80" "$out" || { cat "$out"; fail "no summary line"; }
grep -q "^# histogram" "$out" || fail "no histogram"
grep -q "page faults after its first cycle: 0 minor, 0 major" "$out" ||
	{ cat "$out"; fail "rt-app saw page faults in its RT loop"; }
echo "ok: tid $rt_tid FIFO 80 on CPU $cpus, VmLck $vmlck kB, faults $f1 -> $f2"
