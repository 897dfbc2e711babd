# SPDX-License-Identifier: MIT
# Shared by the test stages of tools/ that count their own checks
# (test-build-modes.sh, test-debian.sh); sourced, after setting
# STAGE_NAME and STAGE_TMP (the mktemp template of the default work
# directory). Sets src (the source tree) and work (the work directory,
# the script's first argument or a new one), both absolute; defines
#   ok, bad WHAT           count a pass, a failure (printed)
#   check NAME CMD...      run CMD; a failure prints NAME and CMD's output
#   stage_finish           print "NAME: N passed, N failed", exit 0 or 1
src=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-$(mktemp -d "$STAGE_TMP")}
mkdir -p "$work"
# Absolute: meson install and dpkg-buildpackage run in other directories,
# and a relative DESTDIR or output path would land inside them.
work=$(cd "$work" && pwd)
pass=0 failed=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; failed=$((failed + 1)); }
check() { # NAME CMD...
	local name=$1
	shift
	if "$@" >"$work/check.log" 2>&1; then
		ok
	else
		bad "$name"
		sed 's/^/  /' "$work/check.log"
	fi
}
stage_finish() {
	echo "$STAGE_NAME: $pass passed, $failed failed"
	[ "$failed" -eq 0 ]
	exit $?
}
