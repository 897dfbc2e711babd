#!/bin/bash
# SPDX-License-Identifier: MIT
# The bad-input table of `noise --isolate` (issue 28): an argument where it
# takes none, every CPU asked for, and, on a machine whose cpuset is on
# cgroup v1 (the development VM), the partition refused for real: exit 2
# with the reason, no partition left, no measurement made.
. "$(dirname "$0")/lib.sh"
need_root
. "$INTEG_DIR/table.sh"

last=$(( $(nproc) - 1 ))
row "noise --isolate=yes" 2 "unknown option .--isolate=yes." \
	$R noise --isolate=yes -a "$last" -D 1s
row "noise --isolate, every CPU" 2 "housekeeping|leave no CPU|cgroup v1" \
	$R noise --isolate -a "0-$last" -D 1s -o out.json
assert "every CPU: no result written" test ! -e out.json
if awk '$9 == "cgroup" && $NF ~ /(^|,)cpuset(,|$)/ {f=1} END {exit !f}' /proc/self/mountinfo; then
	row "noise --isolate, live cpuset on v1" 2 \
		"noise: --isolate: the cpuset controller is on a cgroup v1" \
		$R noise --isolate -a "$last" -D 1s -o out.json
	assert "cpuset on v1: no result written" test ! -e out.json
	assert "no partition left" \
		test -z "$(ls -d /sys/fs/cgroup/unified/rtready-isolated* 2>/dev/null)"
fi
table_end
