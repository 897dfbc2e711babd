#!/bin/bash
# SPDX-License-Identifier: MIT
# Smoke test of a release tarball of this machine's architecture, as a
# user would meet it: unpacked in a fresh temporary directory (no build
# tree, no installed prefix, RTREADY_PRELOAD unset), every subcommand
# answers --help and --version, `check` runs, and `run --check` attaches
# the tarball's checker: no finding on the good test program, the right one
# on a broken one (those two need root for SCHED_FIFO; skipped otherwise).
# With a second argument, also an installed tree: configured with
# --prefix /opt/x and the distribution's default libdir (lib/<multiarch> on
# Debian) in that build directory, installed, then moved elsewhere: its
# binary must still find its checker.
#   usage: tools/dist-test.sh TARBALL [RELOCATE_BUILD_DIR]
set -euo pipefail
tarball=$(realpath "${1:?usage: tools/dist-test.sh TARBALL [RELOCATE_BUILD_DIR]}")
relocate=${2:-}
src=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d /tmp/rtready-dist-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
unset RTREADY_PRELOAD
fails=0
ok() { echo "dist-test: ok: $*"; }
bad() { echo "dist-test: FAIL: $*" >&2; fails=$((fails + 1)); }

tar -C "$tmp" -xzf "$tarball"
rt=$(echo "$tmp"/rtready-*/bin/rtready)
[ -x "$rt" ] || { echo "dist-test: no bin/rtready in $tarball" >&2; exit 1; }

cmds=$("$rt" --help | awk '/^Commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { exit }')
[ -n "$cmds" ] || bad "rtready --help lists no command"
for c in $cmds; do
	if timeout 10 "$rt" "$c" --help >"$tmp/out" 2>&1 && grep -qi "usage" "$tmp/out" &&
		timeout 10 "$rt" "$c" --version >"$tmp/out" 2>&1; then
		ok "$c --help, --version"
	else
		bad "$c --help or --version"; cat "$tmp/out" >&2
	fi
done

rc=0
timeout 60 "$rt" check --format json --output "$tmp/check.json" >/dev/null 2>&1 || rc=$?
if [ "$rc" -le 1 ] && python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["checks"]' \
	"$tmp/check.json"; then
	ok "check (exit $rc, $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["summary"])' "$tmp/check.json"))"
else
	bad "check exited $rc"
fi

# The checker is found beside the binary, nowhere else.
if timeout 30 "$rt" run --check -- /bin/true >"$tmp/out" 2>&1; then
	ok "run --check -- /bin/true"
else
	bad "run --check -- /bin/true"; cat "$tmp/out" >&2
fi

if [ "$(id -u)" -ne 0 ]; then
	echo "dist-test: skip: the good and broken programs need root (SCHED_FIFO)"
elif ! command -v cc >/dev/null; then
	echo "dist-test: skip: no C compiler for the test programs"
else
	for p in pass_good fail_mutex_no_pi; do
		cc -std=gnu11 -O2 -pthread -rdynamic -o "$tmp/$p" "$src/tests/preload/$p.c"
	done
	if RTREADY=$rt python3 "$src/tests/preload/check.py" -- "$tmp/pass_good"; then
		ok "run --check: no finding on the good program"
	else
		bad "run --check on the good program"
	fi
	if RTREADY=$rt python3 "$src/tests/preload/check.py" --expect app.mutex_no_pi \
		-- "$tmp/fail_mutex_no_pi"; then
		ok "run --check: app.mutex_no_pi on the broken program"
	else
		bad "run --check on the broken program"
	fi
fi
if [ -n "$relocate" ]; then
	if [ ! -f "$relocate/build.ninja" ]; then
		meson setup "$relocate" "$src" --prefix /opt/x -Dtests=false >/dev/null
	fi
	meson compile -C "$relocate" >"$tmp/compile.log" 2>&1 ||
		{ tail -n 40 "$tmp/compile.log" >&2; echo "dist-test: the build failed" >&2; exit 1; }
	DESTDIR=$tmp/destdir meson install -C "$relocate" --quiet >/dev/null
	mv "$tmp/destdir/opt/x" "$tmp/moved"
	libdir=$(meson introspect --buildoptions "$relocate" |
		python3 -c 'import json,sys; print([o["value"] for o in json.load(sys.stdin) if o["name"] == "libdir"][0])')
	if [ -f "$tmp/moved/$libdir/rtready/librtready-check.so" ] &&
		timeout 30 "$tmp/moved/bin/rtready" run --check -- /bin/true >"$tmp/out" 2>&1 &&
		grep -q "checker: attached" "$tmp/out"; then
		ok "meson install --prefix /opt/x, moved: the checker is found in $libdir/rtready"
	else
		bad "moved install tree (libdir $libdir)"; cat "$tmp/out" >&2
	fi
fi
[ "$fails" -eq 0 ] || { echo "dist-test: $fails failed" >&2; exit 1; }
echo "dist-test: $(basename "$tarball"): all ok"
