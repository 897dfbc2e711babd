#!/bin/bash
# rtready load: each mode runs a short bounded job with the expected figures,
# the load runs at SCHED_OTHER with the asked nice value and CPUs even under a
# realtime parent, --oom kills only the confined child, and after SIGTERM (or
# a SIGKILL of rtready itself) no task and no cgroup is left.
. "$(dirname "$0")/lib.sh"
if command -v jq >/dev/null; then
	JSON=jq
elif command -v python3 >/dev/null; then
	JSON=python3
else
	skip "needs jq or python3 to read the JSON"
fi

tmp=$(mktemp -d)
bg=""
cleanup() {
	[ -n "$bg" ] && kill -KILL "$bg" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

# jload FILE: shell assignments f_KEY=... for "figures" and c_KEY=... for
# "config" of a JSON result (one reader call per file: they are slow to start).
jload() {
	if [ "$JSON" = jq ]; then
		jq -r '(.figures | to_entries[] | "f_\(.key)=\(.value | tostring | @sh)"),
		       (.config | to_entries[] | "c_\(.key)=\(.value | tostring | @sh)")' "$1"
	else
		python3 -c 'import json, shlex, sys
d = json.load(open(sys.argv[1]))
for p, k in (("f_", "figures"), ("c_", "config")):
    for n, v in d[k].items():
        v = str(v).lower() if isinstance(v, bool) else str(v)
        print("%s%s=%s" % (p, n, shlex.quote(v)))' "$1"
	fi
}

# run_json NAME ARGS...: run rtready load with JSON output into $tmp/NAME.json
# and load its figures and config into f_* and c_* variables.
run_json() {
	local name=$1; shift
	timeout 60 "$RTREADY" load --format json -o "$tmp/$name.json" "$@" 2>"$tmp/$name.err" ||
		{ cat "$tmp/$name.err"; fail "rtready load $* exited $?"; }
	eval "$(jload "$tmp/$name.json")"
}

# tree PID: "pid stat comm" of every descendant of PID, from one ps snapshot
# (a loaded machine makes one ps call per task far too slow).
tree() {
	ps -eo pid=,ppid=,stat=,comm= | awk -v root="$1" '
	{ pp[$1] = $2; st[$1] = $3; cm[$1] = $4 }
	END {
		for (p in pp) {
			q = p; n = 0
			while ((q in pp) && q != root && n++ < 64)
				q = pp[q]
			if (q == root && p != root)
				print p, st[p], cm[p]
		}
	}'
}

descendants() {
	tree "$1" | awk '{ print $1 }'
}

# Which of the given pids are live (not zombie) tasks: a zombie whose parent
# does not reap it (a container's init) is no task left running.
alive() {
	ps -eo pid=,stat= | awk -v list=" $* " 'index(list, " " $1 " ") && $2 !~ /^Z/ { print $1 }'
}

cgroups_left() {
	find /sys/fs/cgroup -maxdepth 6 -type d -name 'rtready-load-*' 2>/dev/null
}

# wait_for_comm PARENT COMM: wait up to 10 s for a descendant named COMM; print its pid.
wait_for_comm() {
	local i p
	for i in $(seq 100); do
		p=$(tree "$1" | awk -v c="$2" '$3 == c { print $1; exit }')
		[ -n "$p" ] && { echo "$p"; return 0; }
		sleep 0.1
	done
	return 1
}

# --- bad options: exit 2 with a message ---
for args in "-g 0" "-g x" "-f 0" "-s 0" "-l 0" "--nice 30" "--cpus 9999999" "--cpus 3-1" \
	"-D 0" "-D later" "--memory 12Q" "--format xml" "--oom-limit 1" "--cpu 0" "--bogus" \
	"extra"; do
	rc=0
	# shellcheck disable=SC2086
	"$RTREADY" load $args >"$tmp/out" 2>"$tmp/err" || rc=$?
	[ "$rc" -eq 2 ] || fail "load $args exited $rc, expected 2"
	grep -q '^rtready: load: ' "$tmp/err" || fail "load $args: no message: $(cat "$tmp/err")"
done

# --- messaging: every mode delivers groups x fds x fds x loops messages ---
for mode in "" "-T" "-p" "-T -p"; do
	# shellcheck disable=SC2086
	"$RTREADY" load -g 2 -f 4 -l 25 $mode >"$tmp/text" 2>&1 || fail "load $mode: $(cat "$tmp/text")"
	grep -Eq '^Time: [0-9]+\.[0-9]{3}$' "$tmp/text" || fail "load $mode: no Time line"
	grep -q '^Messages: 800 in 1 run' "$tmp/text" || fail "load $mode: $(cat "$tmp/text")"
	# shellcheck disable=SC2086
	run_json "msg" -g 2 -f 4 -l 25 -s 10 $mode
	[ "$f_messages" = 800 ] || fail "load $mode: messages"
	[ "$f_runs" = 1 ] || fail "load $mode: runs"
	[ "$f_time_ns" -gt 0 ] || fail "load $mode: time"
done
[ "$c_ipc" = pipe ] || fail "config.ipc"
[ "$c_mode" = thread ] || fail "config.mode"

# --- a duration: messaging restarts, and the load ends on time ---
run_json dur -g 1 -f 2 -l 50 -D 600ms
runs=$f_runs
[ "$runs" -ge 1 ] || fail "-D: no complete run"
[ "$f_messages" -eq $((runs * 200)) ] || fail "-D: messages != runs x 200"
el=$f_elapsed_ns
[ "$el" -ge 600000000 ] && [ "$el" -lt 5000000000 ] || fail "-D 600ms ran ${el} ns"

# --- CPU and memory ---
run_json cpu --cpu 2 -D 400ms
[ "$f_cpu_loops" -gt 0 ] || fail "--cpu: no work done"
[ "$f_messages" = 0 ] || fail "--cpu alone also ran messaging"
run_json mem --memory 4M -D 400ms
[ "$f_memory_pages" -gt 0 ] || fail "--memory: no page touched"

need_root

# --- SCHED_OTHER, nice and CPUs, even below a SCHED_FIFO parent ---
chrt -f 10 "$RTREADY" load --cpu 1 --nice 7 --cpus 0 -D 3s -q >/dev/null &
bg=$!
hog=$(wait_for_comm "$bg" rtr-load-cpu) || fail "no CPU hog seen"
chrt -p "$hog" | grep -q 'SCHED_OTHER' || fail "hog policy: $(chrt -p "$hog")"
[ "$(ps -o ni= -p "$hog" | tr -d ' ')" = 7 ] || fail "hog nice: $(ps -o ni= -p "$hog")"
taskset -pc "$hog" | grep -Eq ': 0$' || fail "hog CPUs: $(taskset -pc "$hog")"
kill -TERM "$bg"
wait "$bg" || fail "load under chrt exited $?"
bg=""

# --- SIGTERM: everything reaped, the cgroup removed ---
oom_ok=1
grep -qw memory /proc/cgroups 2>/dev/null || oom_ok=0
"$RTREADY" load --cpu 1 --memory 4M -g 1 -f 2 -l 100000 -D 30s -q \
	$([ "$oom_ok" = 1 ] && echo --oom) >"$tmp/term.out" 2>"$tmp/term.err" &
bg=$!
wait_for_comm "$bg" rtr-load-msg >/dev/null || fail "no messaging task seen"
[ "$oom_ok" = 0 ] || wait_for_comm "$bg" rtr-load-oom >/dev/null || fail "no OOM task seen"
pids=$(descendants "$bg")
[ "$(echo "$pids" | wc -w)" -ge 5 ] || fail "too few load tasks: $pids"
[ "$oom_ok" = 0 ] || [ -n "$(cgroups_left)" ] || fail "no cgroup while --oom runs"
t0=$(date +%s%N)
kill -TERM "$bg"
rc=0
wait "$bg" || rc=$?
bg=""
[ "$rc" -eq 0 ] || fail "SIGTERM: exit $rc: $(cat "$tmp/term.err")"
[ $(( ($(date +%s%N) - t0) / 1000000 )) -lt 5000 ] || fail "SIGTERM: slow to stop"
grep -q 'stopped by a signal' "$tmp/term.out" || fail "SIGTERM: $(cat "$tmp/term.out")"
left=$(alive $pids)
[ -z "$left" ] || fail "tasks left after SIGTERM: $(ps -o pid,stat,comm -p "$left")"
[ -z "$(cgroups_left)" ] || fail "cgroup left after SIGTERM: $(cgroups_left)"

# --- SIGKILL of rtready itself: its supervisor cleans up (PR_SET_PDEATHSIG) ---
"$RTREADY" load --cpu 1 -g 1 -f 2 -l 100000 -D 30s -q \
	$([ "$oom_ok" = 1 ] && echo --oom) >/dev/null 2>&1 &
bg=$!
wait_for_comm "$bg" rtr-load-msg >/dev/null || fail "no messaging task seen"
pids=$(descendants "$bg")
kill -KILL "$bg"
wait "$bg" 2>/dev/null
bg=""
for i in $(seq 100); do
	left=$(alive $pids)
	[ -z "$left" ] && [ -z "$(cgroups_left)" ] && break
	sleep 0.1
done
[ -z "$left" ] || fail "tasks left after SIGKILL of rtready:$left"
[ -z "$(cgroups_left)" ] || fail "cgroup left after SIGKILL of rtready: $(cgroups_left)"

# --- --oom: the confined child is killed, rtready survives ---
[ "$oom_ok" = 1 ] || skip "no memory cgroup controller here"
run_json oom --oom -D 2s
kills=$f_oom_kills
[ "$kills" -ge 1 ] || fail "--oom: no OOM kill in 2 s"
[ "$f_oom_children" -ge "$kills" ] || fail "--oom: more kills than children"
[ -z "$(cgroups_left)" ] || fail "cgroup left after --oom: $(cgroups_left)"
echo ok
