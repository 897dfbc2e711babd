#!/bin/bash
# SPDX-License-Identifier: MIT
# tune's hung-task, KSM and NUMA-balancing rows on the live kernel: each is
# set going (where the kernel has it), applied, checked, reverted exactly.
. "$(dirname "$0")/lib.sh"
need_root
R=$RTREADY
files=(/proc/sys/kernel/hung_task_timeout_secs /sys/kernel/mm/ksm/run
	/proc/sys/kernel/numa_balancing)
start=(120 1 1)
want=(0 2 0)
writable=0
for f in "${files[@]}"; do [ -w "$f" ] && writable=$((writable + 1)); done
[ "$writable" -gt 0 ] || skip "none of ${files[*]} is writable here"
. "$(dirname "$0")/tune-harness.sh"
tune_harness tune-mem
S=$STATE

present=()
for i in "${!files[@]}"; do
	f=${files[$i]}
	[ -w "$f" ] || continue
	echo "${start[$i]}" >"$f" 2>/dev/null || continue
	present+=("$i")
done
cpu=$(cut -d- -f2 /sys/devices/system/cpu/online | cut -d, -f1)
[ "$cpu" != 0 ] || skip "one CPU: no RT CPU to name"
expect_rc 0 "$R" tune --rt-cpus "$cpu" --apply --state-dir "$S" --no-tasks --no-irqs \
	--no-workqueue --no-governor --no-idle
for i in "${present[@]}"; do
	got=$(cat "${files[$i]}")
	[ "$got" = "${want[$i]}" ] || fail "after apply ${files[$i]} is '$got', want '${want[$i]}'"
done
expect_rc 0 "$R" tune --revert --state-dir "$S"
for i in "${present[@]}"; do
	got=$(cat "${files[$i]}")
	[ "$got" = "${start[$i]}" ] || fail "after revert ${files[$i]} is '$got', want '${start[$i]}'"
done
# Disabled rows are left alone.
expect_rc 0 "$R" tune --rt-cpus "$cpu" --apply --state-dir "$S" --no-tasks --no-irqs \
	--no-hung-task --no-ksm --no-numa-balancing
for i in "${present[@]}"; do
	got=$(cat "${files[$i]}")
	[ "$got" = "${start[$i]}" ] || fail "--no-* did not leave ${files[$i]} alone ('$got')"
done
expect_rc 0 "$R" tune --revert --state-dir "$S"
echo "ok: ${#present[@]} memory and detector tunables applied and reverted exactly"
