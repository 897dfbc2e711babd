#!/bin/bash
# SPDX-License-Identifier: MIT
# Every test stage of `make test`, in order: the full build (unit, api,
# golden, integration, preload), the ASan+UBSan build (unit, golden), the
# fuzz targets (short runs), the musl build, the build modes, the Debian
# packages (built, installed, used, purged), the release tarballs (make
# dist, smoke-tested unpacked) and the kernel matrix (their binaries booted
# on real PREEMPT_RT and generic kernels in QEMU). A failing stage does not
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

# The build modes distributions use (shared, static, library only).
if [ -f "$src/tools/test-build-modes.sh" ]; then
	echo "=== build modes"
	bash "$src/tools/test-build-modes.sh" "$build-modes" | tee "$build-modes.log"
	[ "${PIPESTATUS[0]}" -eq 0 ] || failed_stages+=("build modes")
	read -r mp mf < <(sed -n 's/^build modes: \([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p' \
		"$build-modes.log")
	passed=$((passed + ${mp:-0})) failed=$((failed + ${mf:-0}))
fi

# The Debian packages: built, lintian-clean, installed, used, purged.
if [ -f "$src/tools/test-debian.sh" ]; then
	echo "=== debian packages"
	bash "$src/tools/test-debian.sh" "$build-debian" | tee "$build-debian.log"
	[ "${PIPESTATUS[0]}" -eq 0 ] || failed_stages+=("debian packages")
	read -r dp df < <(sed -n 's/^debian: \([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p' \
		"$build-debian.log")
	passed=$((passed + ${dp:-0})) failed=$((failed + ${df:-0}))
fi

# Release tarballs, then the kernel matrix on them. DIST_BUILD and
# KERNEL_CACHE come from the Makefile (defaults: build-dist, the cache of
# tests/kernels/matrix.py). Skipped scenarios (a kernel that cannot be
# downloaded) count as skipped.
dist_build=${DIST_BUILD:-$src/build-dist}
if [ -f "$src/tools/dist.sh" ]; then
	if bash "$src/tools/dist.sh" -b "$dist_build" && bash "$src/tools/dist-test.sh" \
		"$src/dist/rtready-$(sed -n "s/^[[:space:]]*version : '\([^']*\)'.*/\1/p" \
			"$src/meson.build" | head -1)-$(uname -m).tar.gz" "$dist_build-relocate"; then
		passed=$((passed + 1))
		if [ -f "$src/tests/kernels/matrix.py" ]; then
			echo "=== kernel matrix"
			kargs=(--dist "$src/dist" --build-prefix "$dist_build")
			[ -z "${KERNEL_CACHE:-}" ] || kargs+=(--cache "$KERNEL_CACHE")
			python3 "$src/tests/kernels/matrix.py" "${kargs[@]}" | tee "$dist_build-kernels.log"
			[ "${PIPESTATUS[0]}" -eq 0 ] || failed_stages+=("kernel matrix")
			read -r kp kf ks < <(sed -n \
				's/^kernels: \([0-9]*\) passed, \([0-9]*\) failed, \([0-9]*\) skipped.*/\1 \2 \3/p' \
				"$dist_build-kernels.log")
			passed=$((passed + ${kp:-0})) failed=$((failed + ${kf:-0}))
			skipped=$((skipped + ${ks:-0}))
		fi
	else
		failed=$((failed + 1))
		failed_stages+=("dist")
	fi
fi

count "$build"
count "$asan"
count "$fuzz"
[ ${#failed_stages[@]} -eq 0 ] || echo "failed stages: ${failed_stages[*]}"
echo "$passed passed, $failed failed, $skipped skipped"
[ ${#failed_stages[@]} -eq 0 ] && [ "$failed" -eq 0 ]
