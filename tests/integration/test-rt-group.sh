#!/bin/bash
# SPDX-License-Identifier: MIT
# RT group scheduling on the real kernel: a shell in a cgroup v1 group of the
# cpu controller without an RT budget. `check` must fail sched.rt_group from
# inside it (and pass from the root group), `latency` must refuse with the
# cgroup named, and `run --cpu-max` must not make a group where the program's
# own SCHED_FIFO fails. Needs root, CONFIG_RT_GROUP_SCHED and a v1 cpu
# hierarchy (this VM has both); skipped elsewhere. The pure cgroup v2 cases
# run on fixture trees (test-check-fixtures.sh: tests/fixtures/cgroup).
. "$(dirname "$0")/lib.sh"
need_root
cfg=$( (zcat /proc/config.gz 2>/dev/null || cat "/boot/config-$(uname -r)" 2>/dev/null) |
	grep -E '^CONFIG_RT_GROUP_SCHED=y')
[ -n "$cfg" ] || skip "kernel without CONFIG_RT_GROUP_SCHED"
grep -q 'rt_group_sched=0' /proc/cmdline && skip "rt_group_sched=0 on the command line"
cpu=$(awk '$9 == "cgroup" && $NF ~ /(^|,)cpu(,|$)/ {print $5; exit}' /proc/self/mountinfo)
[ -n "$cpu" ] && [ -f "$cpu/cpu.rt_runtime_us" ] || skip "no cgroup v1 hierarchy with the cpu controller"
[ "$(cat /proc/sys/kernel/sched_rt_runtime_us)" -ge 0 ] || skip "RT throttling is off (no budget test)"
grep -qE '^[0-9]+:[^:]*\bcpu\b[^:]*:/$' /proc/self/cgroup || skip "this shell is not in the cpu root group"

g="$cpu/rtready-test-rtgroup.$$"
tmp=$(mktemp -d)
cleanup() {
	[ -d "$g" ] && { cat "$g/cgroup.procs" 2>/dev/null | while read -r p; do
		echo "$p" >"$cpu/cgroup.procs" 2>/dev/null; done; rmdir "$g" 2>/dev/null; }
	rm -rf "$tmp"
}
trap cleanup EXIT
mkdir "$g" || fail "cannot make $g"
[ "$(cat "$g/cpu.rt_runtime_us")" = 0 ] || fail "a new group has a budget: $(cat "$g/cpu.rt_runtime_us")"

# in_group CMD...: run CMD from a shell moved into the group without a budget.
in_group() {
	local rc=0
	timeout 60 bash -c 'echo $$ > "$1/cgroup.procs" && shift && exec "$@"' _ "$g" "$@" \
		>"$tmp/out" 2>"$tmp/err" || rc=$?
	return $rc
}

# The kernel refuses, as the check will say.
in_group chrt -f 5 true && fail "chrt -f worked in a group without a budget"

rc=0; in_group "$RTREADY" check --only sched.rt_group --format json || rc=$?
[ "$rc" -eq 1 ] || { cat "$tmp/err"; fail "check in the group: exit $rc, want 1"; }
python3 - "$tmp/out" "$g" <<'PY' || fail "check in the group: wrong finding"
import json, sys
c = json.load(open(sys.argv[1]))["checks"][0]
assert c["status"] == "fail", c
assert sys.argv[2] in c["evidence"] and "cpu.rt_runtime_us = 0" in c["evidence"], c["evidence"]
assert "parents first" in c["fix"], c["fix"]
PY

# From the root group: no false fail (other groups may warn, never fail).
rc=0; "$RTREADY" check --only sched.rt_group --format json >"$tmp/root.json" 2>"$tmp/err" || rc=$?
python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["checks"][0]["status"]; sys.exit(s not in ("pass","warn"))' \
	"$tmp/root.json" || fail "check from the root group: $(cat "$tmp/root.json")"

# latency in the group: exit 2, the message names the group and the remedy.
rc=0; in_group "$RTREADY" latency -D 1 -q || rc=$?
[ "$rc" -eq 2 ] || { cat "$tmp/err"; fail "latency in the group: exit $rc, want 2"; }
grep -q "cgroup v1 group /${g##*/}" "$tmp/err" && grep -q "sched.rt_group" "$tmp/err" ||
	{ cat "$tmp/err"; fail "latency's EPERM does not name the group"; }

# A snapshot taken in the group is judged the same way on another machine.
in_group "$RTREADY" snapshot "$tmp/snap" || { cat "$tmp/err"; fail "snapshot in the group"; }
rc=0; "$RTREADY" check --root "$tmp/snap" --only sched.rt_group >"$tmp/out" 2>&1 || rc=$?
[ "$rc" -eq 1 ] && grep -q "fail  sched.rt_group" "$tmp/out" ||
	{ cat "$tmp/out"; fail "check --root of the snapshot: exit $rc"; }
for f in proc/self/cgroup proc/self/mountinfo; do
	[ -s "$tmp/snap/$f" ] || fail "the snapshot lacks /$f"
done

# run --cpu-max makes a group for the program: it must get an RT budget.
rc=0; timeout 60 "$RTREADY" run --cpu-max 50 -- chrt -f 5 true >"$tmp/out" 2>"$tmp/err" || rc=$?
[ "$rc" -eq 0 ] || { cat "$tmp/err"; fail "run --cpu-max -- chrt -f: exit $rc"; }
ls -d "$cpu"/rtready-run-* 2>/dev/null && fail "run left its group behind"
echo ok
