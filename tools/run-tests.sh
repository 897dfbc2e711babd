#!/bin/bash
# SPDX-License-Identifier: MIT
# Every test stage of `make test`, in order: the full build (unit, api,
# golden, integration, preload), the ASan+UBSan build (unit, golden), the
# fuzz targets (short runs) and the musl build. A failing stage does not
# hide the later ones; the last line counts what ran, and the exit status
# is non-zero if anything failed.
#   usage: tools/run-tests.sh BUILD ASAN_BUILD FUZZ_BUILD MUSL_BUILD
set -u
build=$1 asan=$2 fuzz=$3 musl=$4
src=$(cd "$(dirname "$0")/.." && pwd)
failed_stages=()
passed=0 failed=0 skipped=0

stage() { # NAME CMD...
	local name=$1; shift
	echo "=== $name"
	if ! "$@"; then
		failed_stages+=("$name")
	fi
}

# Add up one meson build's results from its machine-readable log.
count() {
	local log=$1/meson-logs/testlog.json
	[ -f "$log" ] || return 0
	read -r p f s < <(python3 - "$log" <<'PY'
import json, sys
p = f = s = 0
for line in open(sys.argv[1]):
    r = json.loads(line)["result"]
    if r in ("OK", "EXPECTEDFAIL"):
        p += 1
    elif r == "SKIP":
        s += 1
    else:
        f += 1
print(p, f, s)
PY
)
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
}

rm -f "$build/meson-logs/testlog.json" "$asan/meson-logs/testlog.json" \
	"$fuzz/meson-logs/testlog.json"

stage "build" meson compile -C "$build"
stage "tests" meson test -C "$build" --print-errorlogs --num-processes 2
stage "asan build" meson compile -C "$asan"
stage "asan tests" env ASAN_OPTIONS=detect_leaks=1 \
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	meson test -C "$asan" --print-errorlogs --num-processes 2 --suite unit --suite golden
if [ -f "$src/fuzz/meson.build" ]; then
	[ -f "$fuzz/build.ninja" ] ||
		stage "fuzz setup" env CC=clang meson setup "$fuzz" "$src" -Dfuzz=true -Dtests=false
	stage "fuzz build" meson compile -C "$fuzz"
	stage "fuzz" meson test -C "$fuzz" --print-errorlogs --suite fuzz
fi
if [ -f "$src/tools/musl-build.sh" ]; then
	if sh "$src/tools/musl-build.sh" "$musl"; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		failed_stages+=("musl")
	fi
fi

count "$build"
count "$asan"
count "$fuzz"
[ ${#failed_stages[@]} -eq 0 ] || echo "failed stages: ${failed_stages[*]}"
echo "$passed passed, $failed failed, $skipped skipped"
[ ${#failed_stages[@]} -eq 0 ] && [ "$failed" -eq 0 ]
