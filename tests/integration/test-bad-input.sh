#!/bin/bash
# SPDX-License-Identifier: MIT
# The bad-input and fault table: for each subcommand, bad paths, special
# files as outputs, empty arguments, a full disk on standard output. Every
# row names the exit code and a piece of the message it must print, and the
# checks after the table assert that nothing of the user's was replaced or
# left behind. Prints "N passed, N failed" at the end.
. "$(dirname "$0")/lib.sh"
need_root
. "$INTEG_DIR/table.sh"

mkdir empty
"$R" check --format json -o result.json >/dev/null 2>&1
[ -s result.json ] || fail "cannot make a check result"

# ---- empty and missing arguments ----------------------------------------------------------
for cmd in check inspect snapshot tune; do
	extra=()
	[ "$cmd" = snapshot ] && extra=(snap-out)
	[ "$cmd" = inspect ] && extra=(--all)
	row "$cmd --root ''" 2 "empty directory name" "$R" "$cmd" --root '' "${extra[@]}"
done
assert "snapshot --root '' wrote nothing" test ! -e snap-out
row "check --only ''" 2 "empty check id" "$R" check --only ''
row "check --only ," 2 "empty check id" "$R" check --only ,
row "check --skip a,,b" 2 "empty check id" "$R" check --skip kernel,,mem
row "check --root missing" 2 "cannot open root" "$R" check --root "$T/nope"
row "inspect --root empty --all" 2 "no process found under .*/proc" \
	"$R" inspect --root empty --all -w 0
row "tune --pid missing" 2 "no process with PID 999999" "$R" tune --rt-cpus 1 --pid 999999
row "report no input" 2 "no result file" "$R" report
row "report missing input" 2 "nope.json" "$R" report nope.json -o x.html

# ---- an empty root: every check skips or informs, none passes ----------------------------
"$R" check --root empty --verbose >empty.txt 2>&1
assert "empty root: no pass" sh -c "! grep -E '^  pass ' empty.txt"
assert "empty root: mem.thp skips" grep -Eq '^  skip  mem.thp' empty.txt

# ---- outputs: special files are written in place, never replaced --------------------------
mknod null c 1 3
row "check -o chardev" 0 "" "$R" check -o null --only mem.swap
assert "device node is still a device" test -c null
mkfifo fifo
(timeout 20 cat fifo >fifo.got) &
reader=$!
row "check -o fifo" 0 "" "$R" check --format json -o fifo --only mem.swap
wait "$reader"
assert "FIFO is still a FIFO" test -p fifo
assert "FIFO reader got the JSON" grep -q '"tool": "rtready"' fifo.got
echo keep >private
chmod 600 private
row "check -o 0600 file" 0 "" "$R" check --format json -o private --only mem.swap
assert "a 0600 file stays 0600" test "$(stat -c %a private)" = 600
assert "and was replaced by the result" grep -q mem.swap private
ln -s private link
row "check -o symlink" 0 "" "$R" check -o link --only mem.swap
assert "a link stays a link" test -L link
row "latency --histfile /dev/stdout" 0 "" sh -c "'$R' latency -q -D 200ms -i 1000 -t 1 \
	-h 100 --histfile /dev/stdout >hist.out"
assert "histogram went to stdout's file" grep -q '^# Total' hist.out
assert "/dev/stdout is still a link" test -L /dev/stdout
# A broken binary must not leave this machine without /dev/stdout.
[ -L /dev/stdout ] || { rm -f /dev/stdout; ln -s /proc/self/fd/1 /dev/stdout; }
row "check -o - " 0 "" "$R" check --format json -o - --only mem.swap
assert "'-' is standard output" grep -q mem.swap out

# ---- outputs that cannot be written fail first, with exit 2 -------------------------------
start=$(date +%s)
row "latency --histfile /proc/x" 2 "cannot write /proc/x" "$R" latency -D 1h --histfile /proc/x
assert "refused before measuring" test $(($(date +%s) - start)) -lt 10
row "latency --output DIR" 2 "Is a directory" "$R" latency -D 1h --output empty
row "load -o DIR" 2 "" "$R" load -q -D 1h -o empty
row "report -o input" 2 "would replace it" "$R" report result.json -o result.json
assert "the input is still the result" grep -q '"tool": "rtready"' result.json
row "report - -o input" 2 "would replace it" sh -c "'$R' report - -o result.json <result.json"
row "report --junit /proc/x" 2 "cannot write /proc/x" "$R" report result.json --junit /proc/x
row "report into a missing dir" 2 "No such file" "$R" report result.json -o nodir/x.html
assert "no report.html left by refused runs" test ! -e report.html
row "run --report /proc/x" 2 "cannot write /proc/x" "$R" run --check --strict --report /proc/x \
	-- /bin/sleep 0.1
row "run --report /dev/full" 2 "cannot write the report" "$R" run --check --report /dev/full \
	-- /bin/true
row "check -o missing dir" 2 "No such file" "$R" check -o nodir/x.json
row "verify --load-cpus offline" 2 "--load-cpus: CPU 4095 is not online" \
	"$R" verify -D 1 --load-cpus 4095 -r vdir
assert "verify refused before any phase" test ! -e vdir/verify.json

# ---- a full disk on standard output -------------------------------------------------------
for args in "check --list" "check --help" "tune --rt-cpus 1" "tune --status" \
	"tune --emit-boot bootdir --rt-cpus 1" "latency --help" "report --help" "--help"; do
	# shellcheck disable=SC2086
	row "$args >/dev/full" 2 "write error" sh -c "exec '$R' $args >/dev/full"
done

# ---- hostile results for report -----------------------------------------------------------
python3 - <<'PY'
import json
checks = [{"id": "x%d" % i, "status": "pass"} for i in range(500000)]
json.dump({"tool": "rtready", "version": "0", "command": "check", "checks": checks},
          open("many.json", "w"), separators=(",", ":"))
PY
row "report of 500k objects" 2 "refused before parsing" "$R" report many.json -o many.html
assert "refused without a report" test ! -e many.html
head -c 70000000 /dev/zero >huge.json
row "report of 70 MB" 2 "larger than 64 MiB" "$R" report huge.json -o huge.html

# ---- tune's journal and snapshot's links --------------------------------------------------
mkdir state
ln -s /etc/hostname state/tune.journal
row "tune journal is a link" 2 "is a symbolic link" "$R" tune --state-dir "$T/state" --status
assert "the link was not followed or removed" test -L state/tune.journal
mkdir snap
ln -s /proc snap/proc
row "snapshot --force over DIR/proc link" 0 "" "$R" snapshot --force snap
assert "DIR/proc became a directory" sh -c 'test -d snap/proc && test ! -L snap/proc'
mkdir -p src/proc/sys/kernel
mkfifo src/proc/sys/kernel/watchdog
head -c 2000000 /dev/zero | tr '\0' a >src/proc/cmdline
row "snapshot lists what it left out" 0 "not captured: .*/proc/cmdline: larger" \
	"$R" snapshot --root src snap2
assert "left_out in the metadata" grep -q '"/proc/sys/kernel/watchdog"' \
	snap2/rtready-snapshot.json

# ---- kernels before 5.6: no openat2, the fallback walk must still read /proc/self ---------
if command -v strace >/dev/null; then
	strace -f -o /dev/null -e inject=openat2:error=ENOSYS "$R" check --only limits \
		--format json >noat2.json 2>&1
	assert "without openat2, limits.* are read (not skip)" \
		sh -c "! grep -q '\"status\": \"skip\"' noat2.json && grep -q limits.rtprio noat2.json"
fi

# ---- nothing left behind --------------------------------------------------------------------
assert "no temporary output files left" sh -c "! ls -a | grep -q '\.tmp\.'"

table_end
