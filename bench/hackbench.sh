#!/bin/bash
# SPDX-License-Identifier: MIT
# rtready load against Debian's hackbench (rt-tests) with the same
# parameters: -g 10 -l 1000 by default, in the four modes (processes or
# threads, sockets or pipes). The two tools alternate run by run, so that a
# change in the machine's background load hits both alike; each mode is run
# RUNS times per tool. Prints the median wall time of each tool (the whole
# command, start-up and teardown included) and of hackbench's own "Time:"
# figure, and the ratio rtready / hackbench (goal: at most 1.05).
#
#   bench/hackbench.sh [BUILD_DIR]    (default: build)
# Environment: GROUPS_N (10), LOOPS (1000), RUNS (5), HACKBENCH (hackbench).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../build}" && pwd)
rtready=$build/src/rtready
hackbench=${HACKBENCH:-hackbench}
groups=${GROUPS_N:-10}
loops=${LOOPS:-1000}
runs=${RUNS:-5}
[ -x "$rtready" ] || { echo "no $rtready: build first (meson compile -C $build)" >&2; exit 2; }
command -v "$hackbench" >/dev/null ||
	{ echo "no hackbench: apt-get install rt-tests" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# wall FILE CMD...: run CMD, append its wall time in seconds to FILE and its
# "Time:" figure to FILE.time.
wall() {
	local file=$1 t0 t1
	shift
	t0=$(date +%s%N)
	"$@" >"$tmp/out" 2>&1 || { cat "$tmp/out" >&2; echo "failed: $*" >&2; exit 1; }
	t1=$(date +%s%N)
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f\n", (b - a) / 1e9 }' >>"$file"
	awk '/^Time:/ { print $2 }' "$tmp/out" >>"$file.time"
}

median() {
	sort -n "$1" | awk '{ v[NR] = $1 } END {
		if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

echo "== rtready load vs hackbench: -g $groups -l $loops, $runs runs each, alternated"
echo "   ($(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg))"
printf '%-16s %12s %12s %8s   %12s %12s\n' mode "hackbench s" "rtready s" ratio \
	"hb Time:" "rtr Time:"
for mode in "process socket" "process pipe" "thread socket" "thread pipe"; do
	set -- $mode
	flags=""
	[ "$1" = thread ] && flags="$flags -T"
	[ "$2" = pipe ] && flags="$flags -p"
	: >"$tmp/hb"; : >"$tmp/hb.time"; : >"$tmp/rt"; : >"$tmp/rt.time"
	for i in $(seq "$runs"); do
		# shellcheck disable=SC2086
		wall "$tmp/hb" "$hackbench" -g "$groups" -l "$loops" $flags
		# shellcheck disable=SC2086
		wall "$tmp/rt" "$rtready" load -q -g "$groups" -l "$loops" $flags
	done
	hb=$(median "$tmp/hb")
	rt=$(median "$tmp/rt")
	awk -v m="$1/$2" -v hb="$hb" -v rt="$rt" -v ht="$(median "$tmp/hb.time")" \
		-v rtt="$(median "$tmp/rt.time")" 'BEGIN {
		printf "%-16s %12.3f %12.3f %7.3fx   %12.3f %12.3f\n", m, hb, rt, rt / hb, ht, rtt }'
done
echo "(ratio = rtready wall / hackbench wall, medians; goal <= 1.05)"
