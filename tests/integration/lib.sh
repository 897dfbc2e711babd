# Shared helpers for integration scripts (sourced). $RTREADY is the binary.
# $INTEG_DIR: this directory, for the other shared pieces (table.sh).
INTEG_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
set -u
fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*" >&2; exit 77; }
need_root() { [ "$(id -u)" -eq 0 ] || skip "needs root"; }
# expect_rc WANT CMD...: run CMD (with a timeout) and check its exit code.
expect_rc() {
	local want=$1; shift
	local rc=0
	timeout 120 "$@" >/tmp/rtr-out.$$ 2>/tmp/rtr-err.$$ || rc=$?
	if [ "$rc" -ne "$want" ]; then
		echo "--- stdout"; cat /tmp/rtr-out.$$; echo "--- stderr"; cat /tmp/rtr-err.$$
		rm -f /tmp/rtr-out.$$ /tmp/rtr-err.$$
		fail "'$*' exited $rc, expected $want"
	fi
	rm -f /tmp/rtr-out.$$ /tmp/rtr-err.$$
}
# dead_instances [TRACEFS]: the tracing instances named rtready-PID whose
# rtready has ended, one per line (what a finished run must not leave; a
# live instance is another rtready's, running now).
dead_instances() {
	local d=${1:-/sys/kernel/tracing} i pid
	for i in "$d"/instances/rtready-*; do
		[ -d "$i" ] || continue
		pid=${i##*/rtready-}
		pid=${pid%%[!0-9]*}
		[ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && continue
		echo "${i##*/}"
	done
}
