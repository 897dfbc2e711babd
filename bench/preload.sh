#!/bin/bash
# SPDX-License-Identifier: MIT
# What the runtime checker (librtready-check.so) costs. In one run:
#  1. the hooks' added cost per mutex lock/unlock pair and per malloc/free
#     pair (bench/preload-bench.c, best of 7 rounds, without and with the
#     library preloaded and checking on), as a difference and a ratio;
#  2. the example application's wake-up latency (examples/rt-app) without
#     and under `rtready run --check`, which should agree within noise.
#
#   bench/preload.sh [BUILD_DIR]     (default: build; run as root for the RT cases)
# Environment: ITER (iterations per round, 2000000), RTAPP_DURATION (5s).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../build}" && pwd)
lib=$build/preload/librtready-check.so
rtready=$build/src/rtready
rtapp=$build/examples/rt-app
[ -f "$lib" ] || { echo "no $lib: build first (meson compile -C $build)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cc -O2 -pthread -o "$tmp/preload-bench" "$here/preload-bench.c"
: >"$tmp/records"
"$tmp/preload-bench" "${ITER:-2000000}" >"$tmp/without"
RTREADY_CHECK_REPORT="$tmp/records" LD_PRELOAD="$lib" \
	"$tmp/preload-bench" "${ITER:-2000000}" >"$tmp/with"
grep -q '"type":"hello"' "$tmp/records" || { echo "the checker did not attach" >&2; exit 1; }

echo "== hook cost per operation pair (ns, best of 7 rounds; goal: added < 50 ns)"
printf '%-18s %10s %10s %10s %8s\n' case without with added ratio
# Same program, same order of lines: pair them up.
paste -d' ' <(cut -d' ' -f1,2 "$tmp/without") <(cut -d' ' -f2- "$tmp/with") |
while read -r name a b rest; do
	awk -v n="$name" -v a="$a" -v b="$b" -v r="$rest" 'BEGIN {
		printf "%-18s %10.1f %10.1f %+10.1f %7.2fx %s\n", n, a, b, b - a, b / a, r }'
done
echo "(plain_lock_rt is a finding on every lock: the cost of counting an occurrence)"

if [ -x "$rtapp" ] && [ -x "$rtready" ]; then
	d=${RTAPP_DURATION:-5s}
	echo
	echo "== examples/rt-app wake-up latency, $d each (us)"
	lat() { grep 'latency us:' | sed 's/.*latency us: //'; }
	plain=$("$rtapp" -D "$d" -q 2>&1 | lat) || true
	checked=$("$rtready" run --check --report "$tmp/rtapp.txt" -- "$rtapp" -D "$d" -q 2>&1 | lat) || true
	printf '%-22s %s\n' "without checker:" "${plain:-(did not run: needs root)}"
	printf '%-22s %s\n' "rtready run --check:" "${checked:-(did not run)}"
	[ -f "$tmp/rtapp.txt" ] && tail -1 "$tmp/rtapp.txt" | sed 's/^/checker findings:     /'
fi
