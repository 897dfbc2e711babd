#!/bin/bash
# SPDX-License-Identifier: MIT
# Bad input and faults of the outputs and the environment (issue 24,
# sections 3.5, 3.6 and 4): outputs that name an input or each other,
# temporary files left by kill -9, a closed pipe on standard output, small
# stacks, an empty /proc, a missing TMPDIR, a script without "#!". Every row
# names the exit code and a piece of the message it must print; the checks
# after it assert that nothing of the user's was replaced or left behind.
# Prints "N passed, N failed" at the end.
. "$(dirname "$0")/lib.sh"
need_root
. "$INTEG_DIR/table.sh"

# kill_wait PID: kill -9 a disowned job (so that bash says nothing) and wait for its end.
kill_wait() {
	kill -9 "$1"
	for _ in $(seq 100); do
		kill -0 "$1" 2>/dev/null || return 0
		sleep 0.1
	done
}

# ---- 3.5: outputs that collide ---------------------------------------------------------------
SAME="name the same file"
echo keep >kept.json
row "latency --output F --json F" 2 "--output 'kept.json' and --json 'kept.json' $SAME" \
	"$R" latency -D 100ms --output kept.json --json kept.json
row "latency --output F --json ./F" 2 "$SAME" \
	"$R" latency -D 100ms --output new.json --json ./new.json
row "latency --output F --histfile F" 2 "--output 'h.txt' and --histfile 'h.txt' $SAME" \
	"$R" latency -D 100ms --output h.txt --histfile h.txt
ln -s kept.json link.json
row "latency --json through a link to --output" 2 "$SAME" \
	"$R" latency -D 100ms --output kept.json --json link.json
mkdir sub
row "latency --histfile sub/../F" 2 "$SAME" \
	"$R" latency -D 100ms --json f.json --histfile sub/../f.json
row "latency --trace-file F --output F" 2 "--output 'kept.json' and --trace-file" \
	"$R" latency -D 100ms --threshold 10000 --output kept.json --trace-file ./kept.json
assert "latency collisions kept the file" test "$(cat kept.json)" = keep
assert "latency collisions made no file" test ! -e new.json -a ! -e h.txt -a ! -e f.json
row "latency two outputs on /dev/null" 0 "" \
	"$R" latency -D 100ms -q --output /dev/null --json /dev/null

row "verify --prometheus D/verify.json" 2 "--prometheus 'D/verify.json' and .*verify.json' $SAME" \
	"$R" verify --report D --prometheus D/verify.json -D 100ms
row "verify --prometheus D/./report.html" 2 "$SAME" \
	"$R" verify --report D --prometheus D/./report.html -D 100ms
assert "verify refused before making its directory" test ! -e D

echo '#!/bin/sh' >prog && echo 'exit 0' >>prog && chmod +x prog
cp prog prog.orig
row "run --check --report PROG -- PROG" 2 "--report './prog' is the program './prog'" \
	"$R" run --check --report ./prog -- ./prog
row "run --check --report PROG -- PROG (absolute)" 2 "is the program" \
	"$R" run --check --report "$T/prog" -- ./prog
assert "the program is unchanged" cmp -s prog prog.orig
PATH="$T:$PATH" row "run --check --report PROG -- prog on PATH" 2 "is the program" \
	"$R" run --check --report "$T/sub/../prog" -- prog
assert "the program is still unchanged" cmp -s prog prog.orig

# ---- 3.6: leftovers after kill -9 ------------------------------------------------------------
"$R" latency -D 30s -q --output x.json --json y.json --histfile z.txt >/dev/null 2>&1 &
lat=$!
disown "$lat"
sleep 1.5
assert "latency: no temporary file during the run" sh -c "! ls -a | grep -q '\.tmp\.'"
kill_wait "$lat"
assert "latency: nothing left by kill -9" sh -c "! ls -a | grep -Eq '^[xyz]\.'"

# ---- 4: a closed pipe on standard output ----------------------------------------------------
start=$(date +%s)
rc=$(timeout 20 bash -c '"$1" latency -v -D 0 2>lat.err | head -1 >/dev/null; \
	echo "${PIPESTATUS[0]}"' _ "$R")
assert "latency -v | head -1 ends with exit 2 (got $rc)" test "$rc" = 2
assert "latency -v | head -1 ends at once" test $(($(date +%s) - start)) -lt 10
assert "latency -v | head -1 names the broken pipe" grep -q "Broken pipe" lat.err

# ---- 4: a small stack (ulimit -s 32): large buffers live on the heap ----------------------
# smallstack NAME CMD...: CMD with a 32 KiB stack, ten times (the stack's start is random),
# must never die of a signal; its own exit code (findings) is its business.
smallstack() {
	local name=$1 rc worst=0
	shift
	for _ in $(seq 10); do
		rc=0
		bash -c 'ulimit -s 32 && exec "$@"' _ "$@" >/dev/null 2>&1 </dev/null || rc=$?
		[ "$rc" -gt "$worst" ] && worst=$rc
	done
	assert "$name with ulimit -s 32 (worst exit $worst)" test "$worst" -le 2
}
smallstack "check" "$R" check
smallstack "check --format json" "$R" check --format json --verbose
smallstack "inspect --all -w 0" "$R" inspect --all -w 0
smallstack "inspect --all --format json" "$R" inspect --all -w 100ms --format json

# ---- 4: an empty tmpfs over /proc -----------------------------------------------------------
if unshare -m true 2>/dev/null; then
	# "${inproc[@]}" CMD...: CMD in a private mount namespace whose /proc is an empty tmpfs.
	inproc=(unshare -m sh -c 'mount --make-rprivate / && mount -t tmpfs none /proc &&
		exec "$@"' _)
	row "empty /proc: inspect --all" 2 "/proc is unreadable" "${inproc[@]}" "$R" inspect --all -w 0
	row "empty /proc: inspect 1" 2 "/proc is unreadable" "${inproc[@]}" "$R" inspect 1 -w 0
	row "empty /proc: inspect --name" 2 "/proc is unreadable" \
		"${inproc[@]}" "$R" inspect --name init -w 0
	row "empty /proc: run --check" 2 "/proc is unreadable \(/proc/self/exe" \
		"${inproc[@]}" "$R" run --check -- true
fi
mkdir -p emptyroot/proc
row "inspect --root with an empty proc" 2 "no process found under .*emptyroot/proc: it is empty" \
	"$R" inspect --root emptyroot --all -w 0

# ---- 4: TMPDIR ---------------------------------------------------------------------------------
TMPDIR=/nonexistent row "run --check, TMPDIR missing" 2 \
	"in /nonexistent \(from TMPDIR\): No such file" "$R" run --check -- true
mkdir tmpd
TMPDIR=$T/tmpd "$R" run --check -- sleep 30 >/dev/null 2>&1 &
runpid=$!
disown "$runpid"
for _ in $(seq 50); do
	ls tmpd | grep -q . && break
	sleep 0.1
done
assert "run --check: its record file names its pid" test -n "$(ls tmpd | grep "^rtready-check\.$runpid\.")"
kill_wait "$runpid"
sleep 0.3
assert "run --check: kill -9 left its record file" test -n "$(ls tmpd)"
# A live owner's file (held lock) and another's name shape stay.
echo other >tmpd/rtready-check.notmine
TMPDIR=$T/tmpd row "run --check after a killed one" 0 "" "$R" run --check -- true
assert "the killed run's record file is gone" sh -c "! ls tmpd | grep -q '^rtready-check\.$runpid\.'"
assert "other files stay" test -e tmpd/rtready-check.notmine

# ---- 4: a script without "#!" is run by /bin/sh, like execvp(3) -----------------------------
printf 'echo "args: $1 $2"\nexit 3\n' >nosharp
chmod +x nosharp
row "run a script without #!" 3 "" "$R" run -- ./nosharp a b
assert "the script got its arguments" grep -q "args: a b" out
row "run --check a script without #!" 3 "attached to 1 process" "$R" run --check -- ./nosharp
cp "$(type -P true)" foreign
printf '\xb7\x00' | dd of=foreign bs=1 seek=18 conv=notrunc 2>/dev/null
row "run an ELF of another machine" 2 "Exec format error \(an ELF file" "$R" run -- ./foreign

table_end
