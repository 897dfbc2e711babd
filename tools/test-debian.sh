#!/bin/bash
# SPDX-License-Identifier: MIT
# The Debian packages, built and used as a user would: dpkg-buildpackage
# builds rtready, librtready0 and librtready-dev from a copy of the source
# tree (nocheck: the tests run elsewhere), lintian finds nothing at the
# pedantic level, each package holds its files, and once installed with
# apt-get: rtready check runs (0 or 1, never 2), the runtime checker is
# found where the package put it, pkg-config knows rtready, a C program
# builds against librtready-dev and runs on librtready0, the completion and
# the (not enabled) systemd units are in place. The packages are purged at
# the end. Needs root (apt-get); refuses to touch packages installed before.
# Prints "debian: N passed, N failed".
#   usage: tools/test-debian.sh [WORKDIR]
set -u
STAGE_NAME=debian STAGE_TMP=/tmp/rtr-deb.XXXXXX
. "$(dirname "$0")/stage-lib.sh"
pkgs=(rtready librtready0 librtready-dev)

if [ "$(id -u)" -ne 0 ]; then
	bad "needs root to install the packages"
	stage_finish
fi
for p in "${pkgs[@]}"; do
	if dpkg-query -W -f '${db:Status-Status}' "$p" 2>/dev/null | grep -qx installed; then
		bad "$p is already installed: not replacing nor purging it"
		stage_finish
	fi
done

# A copy of the tree as git sees it (tracked and new files, nothing
# ignored: no build directory), so the build leaves the checkout alone.
# Outside git (an unpacked release), the tree without its build directories.
rm -rf "$work/src" "$work"/*.deb "$work"/*.changes "$work"/*.buildinfo
mkdir -p "$work/src"
list_tree() {
	if git -C "$src" rev-parse --show-toplevel >/dev/null 2>&1; then
		git -C "$src" ls-files -co --exclude-standard -z
	else
		(cd "$src" && find . -mindepth 1 \( -path './build*' -o -path './dist' -o \
			-path './obj-*' \) -prune -o \! -type d -print0)
	fi
}
list_tree | (cd "$src" && tar --null --no-recursion -T - -cf -) | tar -C "$work/src" -xf - ||
	{ bad "copy of the source tree"; stage_finish; }
if (cd "$work/src" && DEB_BUILD_OPTIONS="nocheck ${DEB_BUILD_OPTIONS:-}" \
	dpkg-buildpackage -us -uc -b) >"$work/build.log" 2>&1; then
	ok
else
	bad "dpkg-buildpackage (see $work/build.log)"
	tail -20 "$work/build.log"
	stage_finish
fi
changes=$(ls "$work"/rtready_*.changes)
deb() { ls "$work/$1"_*.deb; }

# lintian at the pedantic level: no tag at all (an accepted one is
# overridden in debian/, with its reason).
if command -v lintian >/dev/null; then
	lintian -i -I -E --pedantic "$changes" >"$work/lintian.log" 2>&1
	if grep -qE '^[EWIPXO]: ' "$work/lintian.log"; then
		bad "lintian tags:"
		grep -E '^[EWIPXO]: ' "$work/lintian.log" | sed 's/^/  /'
	else
		ok
	fi
else
	bad "lintian missing"
fi

# Each package holds its files.
has() { # PKG PATTERN...: dpkg-deb -c lists a path matching each
	local p=$1 list
	shift
	list=$(dpkg-deb -c "$(deb "$p")" | awk '{print $6}')
	for pat; do
		grep -qE "$pat" <<<"$list" || { echo "$p lacks $pat"; return 1; }
	done
}
check "rtready contents" has rtready '^\./usr/bin/rtready$' \
	'^\./usr/lib/[^/]+/rtready/librtready-check\.so$' '^\./usr/share/man/man1/rtready-verify\.1\.gz$' \
	'^\./usr/share/bash-completion/completions/rtready$' \
	'^\./lib/systemd/system/rtready-verify\.(service|timer)$' \
	'^\./usr/share/doc/rtready/changelog\.gz$'
check "librtready0 contents" has librtready0 '^\./usr/lib/[^/]+/librtready\.so\.0$'
check "librtready-dev contents" has librtready-dev '^\./usr/include/rtready/rtready\.h$' \
	'^\./usr/lib/[^/]+/librtready\.so$' '^\./usr/lib/[^/]+/pkgconfig/rtready\.pc$' \
	'^\./usr/share/man/man3/rtready\.3\.gz$'
check "librtready0 SONAME" sh -c "dpkg-deb -I '$(deb librtready0)' shlibs | grep -q '^librtready 0 librtready0'"

if DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
	"$(deb rtready)" "$(deb librtready0)" "$(deb librtready-dev)" >"$work/install.log" 2>&1; then
	ok
else
	bad "apt-get install (see $work/install.log)"
	tail -20 "$work/install.log"
	stage_finish
fi
purge() {
	DEBIAN_FRONTEND=noninteractive apt-get purge -y "${pkgs[@]}" >"$work/purge.log" 2>&1
}
trap purge EXIT

# /usr/bin: a `make install` copy in /usr/local/bin must not stand in.
R=/usr/bin/rtready
rc=0
timeout 120 "$R" check >"$work/check.out" 2>&1 || rc=$?
if [ "$rc" -le 1 ]; then ok; else bad "rtready check exited $rc"; tail "$work/check.out"; fi
check "rtready run --check finds the packaged checker" timeout 60 "$R" run --check -- /bin/true
check "pkg-config --cflags --libs rtready" sh -c \
	'pkg-config --cflags --libs rtready | grep -q -- "-lrtready"'
cat >"$work/app.c" <<'C'
#include <stdio.h>
#include <rtready/rtready.h>

int main(void)
{
	puts(rtr_policy_name(RTR_SCHED_FIFO));
	return 0;
}
C
check "a program builds against librtready-dev" sh -c \
	"cc -Wall -Werror -o '$work/app' '$work/app.c' \$(pkg-config --cflags --libs rtready)"
check "and runs on librtready0" sh -c "'$work/app' | grep -qx FIFO && ldd '$work/app' |
	grep -q '/lib/.*/librtready\.so\.0 '"
check "completion registers" bash -c \
	'. /usr/share/bash-completion/completions/rtready && complete -p rtready'
if [ -d /run/systemd/system ]; then
	check "the timer is installed, not enabled" sh -c \
		'[ "$(systemctl is-enabled rtready-verify.timer)" = disabled ]'
fi

purge && ok || bad "apt-get purge (see $work/purge.log)"
trap - EXIT
check "purged" test ! -e "$R"
stage_finish
