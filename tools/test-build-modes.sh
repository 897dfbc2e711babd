#!/bin/bash
# SPDX-License-Identifier: MIT
# The build modes distributions use (Buildroot and Yocto pass one
# default_library, -Dtests=false, --prefix=/usr, --libdir=lib):
#   shared  the tool still runs without the installed library;
#   static  builds and installs librtready.a alone;
#   library only (-Dcli=false): no man1 page, no tool.
# Also: an explicit soversion, no unprefixed global symbol in librtready.a,
# no feature macro forced on consumers by rtready.pc, and no meson feature
# newer than meson_version.
# Prints "N passed, N failed".
#   usage: tools/test-build-modes.sh [WORKDIR]
set -u
STAGE_NAME="build modes" STAGE_TMP=/tmp/rtr-modes.XXXXXX
. "$(dirname "$0")/stage-lib.sh"
setup() { # DIR ARGS...
	local dir=$1
	shift
	rm -rf "$dir" "$dir.dest"
	meson setup "$dir" "$src" --werror -Dtests=false -Dfuzz=false --prefix=/usr \
		--libdir=lib "$@" >"$dir.log" 2>&1 &&
		meson compile -C "$dir" >>"$dir.log" 2>&1 &&
		DESTDIR="$dir.dest" meson install -C "$dir" --no-rebuild >>"$dir.log" 2>&1
}

# shared
if setup "$work/shared" --default-library=shared; then
	ok
	check "shared: the tool runs" "$work/shared/src/rtready" --version
	check "shared: the tool does not need librtready.so" \
		sh -c "! ldd '$work/shared/src/rtready' | grep -q librtready"
	check "shared: soversion 0" test -L "$work/shared.dest/usr/lib/librtready.so.0"
	check "shared: no static library installed" test ! -e "$work/shared.dest/usr/lib/librtready.a"
else
	bad "shared: build (see $work/shared.log)"
fi

# static
if setup "$work/static" --default-library=static; then
	ok
	check "static: librtready.a installed" test -f "$work/static.dest/usr/lib/librtready.a"
	check "static: no shared library" sh -c "! ls '$work/static.dest/usr/lib/' | grep -q '\.so'"
	syms=$(nm -g --defined-only "$work/static/lib/librtready.a" 2>/dev/null |
		awk '$2 ~ /^[TDBRCW]$/ && $3 !~ /^rtr_/ {print $3}')
	if [ -z "$syms" ]; then ok; else bad "static: unprefixed symbols: $syms"; fi
	pc=$work/static.dest/usr/lib/pkgconfig/rtready.pc
	check "static: rtready.pc present" test -f "$pc"
	check "static: rtready.pc forces no -D" sh -c "! grep -q -- '-D' '$pc'"
else
	bad "static: build (see $work/static.log)"
fi

# the library alone
if setup "$work/lib" -Dcli=false; then
	ok
	check "lib only: no tool" test ! -e "$work/lib.dest/usr/bin/rtready"
	check "lib only: no man1 page" test ! -d "$work/lib.dest/usr/share/man/man1"
	check "lib only: the man3 page" test -d "$work/lib.dest/usr/share/man/man3"
else
	bad "lib only: build (see $work/lib.log)"
fi

# The lowest meson: meson_version in meson.build is the floor, and meson
# itself warns about any feature newer than it; fatal here, so a new
# feature cannot slip in unnoticed. Lower (0.57) fails: str.replace().
rm -rf "$work/floor"
check "meson_version floor: no feature newer than declared" \
	meson setup "$work/floor" "$src" --fatal-meson-warnings -Dfuzz=false
# With MESON_MIN=/path/to/meson.py (a checkout of the floor release, e.g.
# git archive 0.58.0 of mesonbuild/meson), also build and test with it.
if [ -n "${MESON_MIN:-}" ]; then
	rm -rf "$work/min"
	if python3 "$MESON_MIN" setup "$work/min" "$src" --werror >"$work/min.log" 2>&1 &&
		python3 "$MESON_MIN" compile -C "$work/min" >>"$work/min.log" 2>&1 &&
		python3 "$MESON_MIN" test -C "$work/min" --suite unit >>"$work/min.log" 2>&1; then
		ok
	else
		bad "meson $(python3 "$MESON_MIN" --version 2>/dev/null): build and unit tests (see $work/min.log)"
	fi
fi

stage_finish
