# SPDX-License-Identifier: MIT
# The case table of the bad-input scripts (sourced after lib.sh): it makes
# the scratch directory $T, removed at exit, and goes into it, and sets $R
# to the binary. row runs one case and checks its exit code and a piece of
# its error message; assert checks a post-condition. Both count into $pass
# and $failed, which table_end prints at the script's end (failing it if
# any failed). ROW_TIMEOUT (60 s) bounds each case.
pass=0 failed=0
R=$RTREADY
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cd "$T" || exit 1
# row NAME WANT_RC 'STDERR_REGEX' CMD...: one case of the table.
row() {
	local name=$1 want=$2 re=$3 rc=0
	shift 3
	timeout "${ROW_TIMEOUT:-60}" "$@" >"$T/out" 2>"$T/err" </dev/null || rc=$?
	if [ "$rc" -ne "$want" ] || { [ -n "$re" ] && ! grep -Eq -- "$re" "$T/err"; }; then
		echo "FAIL [$name]: '$*' exited $rc (want $want), stderr:"
		sed 's/^/    /' "$T/err" | head -5
		failed=$((failed + 1))
	else
		pass=$((pass + 1))
	fi
}
# assert NAME CONDITION...: a post-condition (a test(1) expression or command).
assert() {
	local name=$1
	shift
	if "$@"; then
		pass=$((pass + 1))
	else
		echo "FAIL [$name]: $*"
		failed=$((failed + 1))
		return 1
	fi
}
# table_end: the counts, and exit 1 if any case failed.
table_end() {
	echo "$pass passed, $failed failed"
	[ "$failed" -eq 0 ] || exit 1
}
