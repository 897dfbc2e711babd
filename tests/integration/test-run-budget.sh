#!/bin/bash
# SPDX-License-Identifier: MIT
# rtready run --cpu-max/--memory-max: a CPU hog capped at 20% uses at most
# ~25% of a CPU over 3 s (from /proc/PID/stat utime+stime), runs inside its
# own cgroup with the limits written, and that cgroup is gone afterwards.
# SIGTERM to rtready reaches the program. Bad values exit 2.
. "$(dirname "$0")/lib.sh"

expect_rc 2 "$RTREADY" run --cpu-max 0 -- true
expect_rc 2 "$RTREADY" run --cpu-max -5 -- true
expect_rc 2 "$RTREADY" run --cpu-max 20x -- true
expect_rc 2 "$RTREADY" run --cpu-max '' -- true
expect_rc 2 "$RTREADY" run --memory-max 0 -- true
expect_rc 2 "$RTREADY" run --memory-max 12Q -- true
expect_rc 2 "$RTREADY" run --memory-max lots -- true

need_root
[ -d /sys/fs/cgroup ] || skip "no /sys/fs/cgroup"
find_cg() { find /sys/fs/cgroup -maxdepth 8 -type d -name "rtready-run-$1" 2>/dev/null; }

"$RTREADY" run --cpu-max 20 --memory-max 64M -- sh -c 'while :; do :; done' &
rp=$!
cp=""
for _ in $(seq 50); do
	cp=$(pgrep -P "$rp" | head -1)
	[ -n "$cp" ] && break
	sleep 0.1
done
[ -n "$cp" ] || { kill "$rp"; fail "the hog did not start"; }
sleep 0.3
dirs=$(find_cg "$rp")
[ -n "$dirs" ] || { kill "$rp"; fail "no cgroup rtready-run-$rp while the program runs"; }
grep -q "rtready-run-$rp" "/proc/$cp/cgroup" || { kill "$rp"; fail "the hog is not in its cgroup"; }
limits=""
for d in $dirs; do
	for f in cpu.max cpu.cfs_quota_us memory.max memory.limit_in_bytes; do
		[ -f "$d/$f" ] && limits="$limits $f=$(cat "$d/$f")"
	done
done
case $limits in *"cpu.max=20000 100000"*|*"cpu.cfs_quota_us=20000"*) ;;
	*) kill "$rp"; fail "CPU limit not written: $limits" ;; esac
case $limits in *"=67108864"*) ;; *) kill "$rp"; fail "memory limit not written: $limits" ;; esac

hz=$(getconf CLK_TCK)
t0=$(awk '{print $14 + $15}' "/proc/$cp/stat")
s0=$(date +%s%N)
sleep 3
t1=$(awk '{print $14 + $15}' "/proc/$cp/stat")
s1=$(date +%s%N)
kill -TERM "$rp"
rc=0
wait "$rp" || rc=$?
pct=$(( (t1 - t0) * 100 * 1000000000 / hz / (s1 - s0) ))
echo "CPU use under --cpu-max 20: ${pct}% of one CPU; limits:$limits"
[ "$pct" -le 25 ] || fail "the hog used ${pct}% of a CPU (cap 20%, allowed up to 25%)"
[ "$pct" -ge 5 ] || fail "the hog used only ${pct}%: did it run at all?"
[ $rc -eq 143 ] || fail "rtready exited $rc after SIGTERM, expected 143 (the hog's SIGTERM)"
[ -z "$(find_cg "$rp")" ] || fail "cgroup left behind: $(find_cg "$rp")"
echo ok
