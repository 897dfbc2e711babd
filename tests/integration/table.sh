# SPDX-License-Identifier: MIT
# The case table of the bad-input scripts (sourced after lib.sh, with $T
# the scratch directory): row runs one case and checks its exit code and a
# piece of its error message; assert checks a post-condition. Both count
# into $pass and $failed, which the script prints at its end. ROW_TIMEOUT
# (60 s) bounds each case.
pass=0 failed=0
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
