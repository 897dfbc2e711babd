#!/bin/bash
# SPDX-License-Identifier: MIT
# What the runtime checker (librtready-check.so) costs. In one run:
#  1. the hooks' added cost per operation (bench/preload-bench.c: mutex,
#     rwlock, C11 mutex and semaphore lock pairs, malloc/free, timed waits,
#     poll, epoll, reads, stdio). With the library preloaded and checking
#     on, each operation is timed through the hook and through the C
#     library's own symbol (the unhooked call) in alternating blocks, in the
#     same thread; RUNS such runs, keeping the best of each. The same
#     program without the library is the control: its "added" column is the
#     error of the method. Goals of issue 20: locks 50 ns, waits 100 ns;
#  2. the example application's wake-up latency (examples/rt-app) without
#     and under `rtready run --check`, which should agree within noise.
#
#   bench/preload.sh [BUILD_DIR]     (default: build; run as root for the RT cases)
# Environment: ITER (iterations per case, 2000000), RUNS (3), RTAPP_DURATION (5s).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../build}" && pwd)
lib=$build/preload/librtready-check.so
rtready=$build/src/rtready
rtapp=$build/examples/rt-app
[ -f "$lib" ] || { echo "no $lib: build first (meson compile -C $build)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cc -O2 -pthread -o "$tmp/preload-bench" "$here/preload-bench.c" -ldl
# The shared record table, as `rtready run --check` gives it: counts are raised there.
cc -O2 -I"$here/../preload" -o "$tmp/preload-table" "$here/preload-table.c"
: >"$tmp/records"
for i in $(seq "${RUNS:-3}"); do
	"$tmp/preload-bench" "${ITER:-2000000}" >>"$tmp/without"
	RTREADY_CHECK_REPORT="$tmp/records" LD_PRELOAD="$lib" \
		"$tmp/preload-table" "$tmp/preload-bench" "${ITER:-2000000}" >>"$tmp/with"
done
grep -q '"type":"hello"' "$tmp/records" || { echo "the checker did not attach" >&2; exit 1; }
grep -q '"table_entry":[0-9]' "$tmp/records" ||
	{ echo "the checker did not map the shared table" >&2; exit 1; }

echo "== hook cost per operation (ns, fastest block of ${RUNS:-3} runs; control: same without the checker)"
printf '%-16s %10s %10s %9s %7s %9s  %s\n' case unhooked hooked added ratio control goal
# Lines "case hooked direct [note]": the best of each column per case, in the program's order.
best() { awk '{ if (!($1 in h)) { o[$1] = n++; h[$1] = $2; d[$1] = $3; r[$1] = $0 }
		if ($2 < h[$1]) h[$1] = $2; if ($3 < d[$1]) d[$1] = $3 }
	END { for (k in h) { x = r[k]; sub(/^[^ ]+ [^ ]+ [^ ]+/, "", x); print o[k], k, h[k], d[k] x } }' "$1" |
	sort -n | cut -d' ' -f2-; }
paste -d' ' <(best "$tmp/with") <(best "$tmp/without" | cut -d' ' -f2,3) |
while read -r name hk dk rest; do
	set -- $rest
	ch=${@: -2:1}; cd=${@: -1}
	note=$(echo "$rest" | sed 's/ *[^ ]* [^ ]*$//')
	awk -v n="$name" -v h="$hk" -v d="$dk" -v ch="$ch" -v cd="$cd" -v note="$note" 'BEGIN {
		goal = "";
		if (n ~ /^(rwlock|mtx|sem)_/) goal = 50;
		if (n ~ /^(cond|semclock|poll|epoll|tfd_read)_/) goal = 100;
		v = goal == "" ? "" : (h - d <= goal ? "ok (" goal ")" : "over (" goal ")");
		printf "%-16s %10.1f %10.1f %+9.1f %6.2fx %+9.1f  %s%s\n", n, d, h, h - d, h / d, ch - cd, v, note }'
done
echo "(plain_lock_rt, rwlock_rt and mtx_rt are a finding on every lock: the cost of counting"
echo " an occurrence. RT waits read CLOCK_MONOTONIC and sample page faults with getrusage()"
echo " at most every 100 us: the system-call waits here pay a share of getrusage_ref, a real"
echo " periodic loop pays it once per period.)"

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
