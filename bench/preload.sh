#!/bin/bash
# SPDX-License-Identifier: MIT
# What the runtime checker (librtready-check.so) costs. In one run:
#  1. the hooks' added cost per operation (bench/preload-bench.c: mutex,
#     rwlock, C11 mutex and semaphore lock pairs, malloc/free, timed waits,
#     poll, epoll, reads, stdio; best of 7 rounds, the program run
#     alternately without and with the library preloaded and checking on,
#     RUNS times each, keeping the best), as a difference and a ratio
#     against the goal of issue 20 (locks 50 ns, waits 100 ns);
#  2. the example application's wake-up latency (examples/rt-app) without
#     and under `rtready run --check`, which should agree within noise.
#
#   bench/preload.sh [BUILD_DIR]     (default: build; run as root for the RT cases)
# Environment: ITER (iterations per round, 2000000), RUNS (3), RTAPP_DURATION (5s).
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
# Alternate the two so that both see the same noise of a shared machine.
for i in $(seq "${RUNS:-3}"); do
	"$tmp/preload-bench" "${ITER:-2000000}" >>"$tmp/without"
	RTREADY_CHECK_REPORT="$tmp/records" LD_PRELOAD="$lib" \
		"$tmp/preload-bench" "${ITER:-2000000}" >>"$tmp/with"
done
grep -q '"type":"hello"' "$tmp/records" || { echo "the checker did not attach" >&2; exit 1; }

echo "== hook cost per operation (ns, best of 7 rounds x ${RUNS:-3} runs)"
printf '%-16s %10s %10s %10s %8s  %s\n' case without with added ratio goal
# The best line per case of each file, joined on the case name, in the program's order.
best() { awk '{ if (!($1 in b) || $2 < b[$1]) b[$1] = $2; if (!($1 in o)) { o[$1] = n++; r[$1] = $0 } }
	END { for (k in b) { x = r[k]; sub(/^[^ ]+ [^ ]+/, "", x); print o[k], k, b[k] x } }' "$1" |
	sort -n | cut -d' ' -f2-; }
paste -d' ' <(best "$tmp/without" | cut -d' ' -f1,2) <(best "$tmp/with" | cut -d' ' -f2-) |
while read -r name a b rest; do
	awk -v n="$name" -v a="$a" -v b="$b" -v r="$rest" 'BEGIN {
		goal = "";
		if (n ~ /^(rwlock|mtx|sem)_/) goal = 50;
		if (n ~ /^(cond|semclock|poll|epoll|tfd_read)_/) goal = 100;
		v = goal == "" ? "" : (b - a <= goal ? "ok (" goal ")" : "over (" goal ")");
		printf "%-16s %10.1f %10.1f %+10.1f %7.2fx  %s%s\n", n, a, b, b - a, b / a, v, r }'
done
echo "(plain_lock_rt, rwlock_rt and mtx_rt are a finding on every lock: the cost of counting"
echo " an occurrence; the RT waits include the page-fault sample, see getrusage_ref)"

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
