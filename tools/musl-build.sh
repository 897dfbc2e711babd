#!/bin/sh
# SPDX-License-Identifier: MIT
# Build librtready and the example application with musl-gcc, and run the
# example for a moment. musl is the C library whose sched_setscheduler()
# is an ENOSYS stub and whose mallopt() does nothing, so this proves the
# library's per-thread scheduling path and its mallopt detection. No
# cmocka or jansson for musl here: tool and tests are left out.
#   usage: tools/musl-build.sh BUILD_DIR
set -eu
dir=${1:?usage: tools/musl-build.sh BUILD_DIR}
src=$(cd "$(dirname "$0")/.." && pwd)

if ! command -v musl-gcc >/dev/null 2>&1; then
	echo "musl-build: musl-gcc not found (Debian package musl-tools)" >&2
	exit 1
fi
if [ ! -f "$dir/build.ninja" ]; then
	CC=musl-gcc meson setup "$dir" "$src" --werror -Dcli=false -Dtests=false \
		>/dev/null
fi
meson compile -C "$dir" >/dev/null

app="$dir/examples/rt-app"
# The program interpreter proves which C library the example runs on.
readelf -l "$app" | grep -q "ld-musl" ||
	{ echo "musl-build: $app is not linked against musl" >&2; exit 1; }

out="$dir/rt-app.out"
rc=0
timeout 30 "$app" -D 1s -q >"$out" 2>&1 || rc=$?
if [ "$(id -u)" -eq 0 ]; then
	# As root everything must work: FIFO thread, locked memory, clean exit.
	if [ "$rc" -ne 0 ]; then
		cat "$out" >&2
		echo "musl-build: the musl example failed (exit $rc)" >&2
		exit 1
	fi
	grep -q "cycles on CPU .*SCHED_FIFO 80" "$out" ||
		{ cat "$out" >&2; echo "musl-build: no summary from the example" >&2; exit 1; }
	grep -q "M_MMAP_MAX" "$out" ||
		{ cat "$out" >&2; echo "musl-build: mallopt was not reported as missing" >&2; exit 1; }
	echo "musl-build: ok: $(grep 'cycles on CPU' "$out" | sed 's/^rt-app: //')"
	# SCHED_DEADLINE through the raw sched_setattr call: musl has no wrapper.
	dl="$dir/examples/dl-app"
	if ! timeout 30 "$dl" -D 1 -q >"$out" 2>&1; then
		if grep -q "admission refused" "$out"; then
			echo "musl-build: note: dl-app: $(cat "$out")"
		else
			cat "$out" >&2
			echo "musl-build: the musl DEADLINE example failed" >&2
			exit 1
		fi
	else
		grep -q "jobs, SCHED_DEADLINE" "$out" ||
			{ cat "$out" >&2; echo "musl-build: no summary from dl-app" >&2; exit 1; }
		echo "musl-build: ok: $(sed 's/^dl-app: //' "$out")"
	fi
	# rtready pi's measurement on musl's pthread mutexes: PI must bound the wait here too.
	musl-gcc -std=gnu11 -D_GNU_SOURCE -O2 -Wall -Wextra -Werror -I"$src/include" -I"$src/src" \
		-o "$dir/pi-check" "$src/tests/progs/pi-check.c" "$src/src/measure/pi.c" \
		"$dir/lib/librtready.a" -lpthread -lm
	readelf -l "$dir/pi-check" | grep -q "ld-musl" ||
		{ echo "musl-build: pi-check is not linked against musl" >&2; exit 1; }
	if ! timeout 60 "$dir/pi-check" 60 >"$out" 2>&1; then
		cat "$out" >&2
		echo "musl-build: priority inheritance not shown on musl" >&2
		exit 1
	fi
	echo "musl-build: ok: $(cat "$out" | sed 's/^pi-check: //')"
else
	# Without privileges the example must refuse cleanly and say why.
	if [ "$rc" -ne 2 ] || ! grep -Eq "CAP_SYS_NICE|CAP_IPC_LOCK|RLIMIT_" "$out"; then
		cat "$out" >&2
		echo "musl-build: expected a clean refusal naming the privilege (exit $rc)" >&2
		exit 1
	fi
	echo "musl-build: ok (not root; the example refused: $(tail -1 "$out"))"
fi
