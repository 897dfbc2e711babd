#!/bin/bash
# SPDX-License-Identifier: MIT
# rtready run --policy deadline, as root: the program runs SCHED_DEADLINE
# with the asked runtime/deadline/period (and may make threads: its children
# start as SCHED_OTHER), and when the root domain has no room left the
# kernel's EBUSY comes back as a message with the bandwidth asked for, the
# bandwidth left and the limit (sched_rt_runtime_us/period), exit 2.
. "$(dirname "$0")/lib.sh"
need_root
command -v chrt >/dev/null || skip "needs chrt (util-linux)"
tmp=$(mktemp -d)
holders=()
cleanup() {
	for p in "${holders[@]}"; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
[ "$(cat /proc/sys/kernel/sched_rt_runtime_us)" != -1 ] ||
	skip "sched_rt_runtime_us is -1: DEADLINE admission control is off"

rc=0
"$RTREADY" run --policy deadline --runtime 200 --deadline 800us --period 1ms -- chrt -p 0 \
	>"$tmp/chrt.txt" 2>&1 || rc=$?
if [ "$rc" -eq 2 ] && grep -q "Operation not permitted" "$tmp/chrt.txt"; then
	skip "SCHED_DEADLINE refused here: $(head -1 "$tmp/chrt.txt")"
fi
[ "$rc" -eq 0 ] || { cat "$tmp/chrt.txt"; fail "run --policy deadline exited $rc"; }
grep -q "SCHED_DEADLINE|SCHED_RESET_ON_FORK" "$tmp/chrt.txt" || { cat "$tmp/chrt.txt"; fail "policy"; }
grep -q "200000/800000/1000000" "$tmp/chrt.txt" || { cat "$tmp/chrt.txt"; fail "parameters"; }
# A shell under DEADLINE can start commands (its children start as OTHER).
"$RTREADY" run --policy deadline --runtime 100 --period 1ms -- sh -c 'chrt -p 0; true' \
	>"$tmp/sh.txt" 2>&1 || { cat "$tmp/sh.txt"; fail "a DEADLINE shell could not fork"; }
grep -q "SCHED_OTHER" "$tmp/sh.txt" || { cat "$tmp/sh.txt"; fail "child policy"; }

# Fill the root domain with 90% holders until the kernel refuses one.
ncpu=$(nproc)
refused=0
for _ in $(seq 1 $((ncpu + 2))); do
	"$RTREADY" run --policy deadline --runtime 900ms --period 1s -- sleep 30 \
		>"$tmp/hold.out" 2>"$tmp/hold.err" &
	pid=$!
	sleep 0.5
	if kill -0 "$pid" 2>/dev/null; then
		holders+=("$pid")
		continue
	fi
	rc=0
	wait "$pid" || rc=$?
	[ "$rc" -eq 2 ] || { cat "$tmp/hold.err"; fail "refused run exited $rc, want 2"; }
	refused=1
	break
done
[ "$refused" -eq 1 ] || fail "$((ncpu + 2)) holders of 90% each were all admitted on $ncpu CPUs"
msg=$(cat "$tmp/hold.err")
for want in "SCHED_DEADLINE admission refused (EBUSY)" \
	"runtime/period = 900000000/1000000000 ns = 90.0% of a CPU" "% left" \
	"sched_rt_runtime_us/sched_rt_period_us = $(cat /proc/sys/kernel/sched_rt_runtime_us)/"; do
	case $msg in *"$want"*) ;; *) echo "$msg"; fail "message lacks '$want'" ;; esac
done
# What is left is less than what was asked: the figures hold together.
left=$(sed -n 's/.* has \([0-9.]*\)% left.*/\1/p' "$tmp/hold.err")
[ -n "$left" ] && python3 -c "import sys; sys.exit(0 if float('$left') < 90.0 else 1)" ||
	{ echo "$msg"; fail "left $left is not below the 90% asked"; }
# check's figure counts the holders: ${#holders[@]} x 90%.
"$RTREADY" check --only sched.deadline_bandwidth -f json >"$tmp/c.json" || true
python3 - "$tmp/c.json" "${#holders[@]}" <<'PY' || fail "check's bandwidth"
import json, re, sys
c = json.load(open(sys.argv[1]))["checks"][0]
n = int(sys.argv[2])
m = re.search(r"(\d+) DEADLINE threads? reserves? ([0-9.]+)% of a CPU", c["evidence"])
assert m, c["evidence"]
assert int(m.group(1)) >= n and float(m.group(2)) >= 90.0 * n - 0.5, (n, c["evidence"])
PY
echo ok
