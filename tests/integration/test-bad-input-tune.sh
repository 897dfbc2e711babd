#!/bin/bash
# SPDX-License-Identifier: MIT
# Bad input and hostile set-ups for rtready tune (issue 24, sections 3.1-3.4
# and 4): irqbalance's environment file in every shell-ish spelling (one
# grammar for reading and rewriting, a revert that is byte for byte exact,
# CRLF and trailing blanks included), a file too large, a symlinked file
# (dry run, apply and --status say the same), the boot unit's binary path
# and --state-dir (quoted for systemd, or refused), an empty /proc and a
# 32 KiB stack. Runs in a private mount namespace with a tmpfs of its own
# over /etc/default, so the machine's files are never touched. Every row
# names the exit code and a piece of the message; prints "N passed, N
# failed" at the end.
. "$(dirname "$0")/lib.sh"
need_root
command -v unshare >/dev/null || skip "unshare missing"
[ "$(nproc --all)" -ge 2 ] || skip "needs 2 CPUs"
grep -q '^0-' /sys/devices/system/cpu/online || skip "CPU 0 and 1 not both online"
if [ -z "${RTR_TUNE_NS:-}" ]; then
	RTR_TUNE_NS=1 exec unshare -m --propagation private bash "$0" "$@"
fi
mount -t tmpfs rtready-test /etc/default || skip "cannot mount a tmpfs over /etc/default"
. "$INTEG_DIR/table.sh"
STATE=$T/state
F=/etc/default/irqbalance
# Only irqbalance's file changes: every other row is switched off.
ONLY=(--rt-cpus 1 --state-dir "$STATE" --keep-throttling --no-irqs --no-workqueue --no-tasks
	--no-governor --no-idle --no-thp --no-timer-migration --no-watchdog --no-hung-task
	--no-ksm --no-numa-balancing --no-fair-server)
# said NAME REGEX: the last row's standard output matches.
said() {
	assert "$1: says /$2/" grep -Eq -- "$2" "$T/out" || sed 's/^/    /' "$T/out" | head -20
}
# is FILE PRINTF_FORMAT: FILE holds exactly what the format prints.
is() {
	# shellcheck disable=SC2059 # the format is the expected text
	printf "$2" >"$T/want"
	cmp -s "$1" "$T/want"
}

# roundtrip NAME BEFORE AFTER SUMMARY: the file BEFORE (a printf format)
# is planned with SUMMARY, applied into AFTER, and reverted byte for byte.
roundtrip() {
	local name=$1 before=$2 after=$3 summary=$4
	rm -rf "$STATE" "$F"
	# shellcheck disable=SC2059
	printf "$before" >"$F"
	cp "$F" "$T/orig"
	row "$name: dry run" 0 "" "$R" tune "${ONLY[@]}"
	said "$name: dry run" "$summary"
	assert "$name: dry run changed nothing" cmp -s "$F" "$T/orig"
	row "$name: apply" 0 "" "$R" tune "${ONLY[@]}" --apply
	assert "$name: applied text" is "$F" "$after"
	row "$name: revert" 0 "" "$R" tune "${ONLY[@]}" --revert
	assert "$name: revert is byte for byte" cmp -s "$F" "$T/orig"
}

# ---- 3.1: one grammar for reading and rewriting ------------------------------------------
roundtrip "export<TAB>" 'export\tIRQBALANCE_BANNED_CPULIST=0\n' \
	'export\tIRQBALANCE_BANNED_CPULIST=0-1\n' "IRQBALANCE_BANNED_CPULIST: 0 -> 0-1"
roundtrip "blanks, quotes, comment" \
	"  export \t IRQBALANCE_BANNED_CPULIST='0'   # the admin's\n" \
	"  export \t IRQBALANCE_BANNED_CPULIST='0-1'   # the admin's\n" \
	"IRQBALANCE_BANNED_CPULIST: 0 -> 0-1"
roundtrip "commented setting" '#IRQBALANCE_BANNED_CPULIST=0\n' \
	'#IRQBALANCE_BANNED_CPULIST=0\n# rtready tune: no interrupt balancing onto the RT CPUs\nIRQBALANCE_BANNED_CPULIST=1\n' \
	"IRQBALANCE_BANNED_CPULIST: unset -> 1"
# Outside the grammar: named, never guessed at, never rewritten.
for bad in 'IRQBALANCE_BANNED_CPULIST = 0' 'IRQBALANCE_BANNED_CPULIST=$CPUS' \
	'IRQBALANCE_BANNED_CPULIST="0"1' 'IRQBALANCE_BANNED_CPULIST=0 true' \
	'readonly IRQBALANCE_BANNED_CPULIST=0' 'IRQBALANCE_BANNED_CPULIST="0'; do
	rm -rf "$STATE"
	printf '%s\n' "$bad" >"$F"
	cp "$F" "$T/orig"
	row "$bad: dry run" 0 "" "$R" tune "${ONLY[@]}"
	said "$bad: dry run" "irq.balance .*skipped: $F, line 1 names IRQBALANCE_BANNED_CPULIST in a form rtready does not read"
	row "$bad: apply" 0 "" "$R" tune "${ONLY[@]}" --apply
	said "$bad: apply" "line 1 names IRQBALANCE_BANNED_CPULIST"
	assert "$bad: left as it was" cmp -s "$F" "$T/orig"
done

# ---- 3.2: CRLF and trailing blanks come back byte for byte ----------------------------------
roundtrip "CRLF, value rewritten" 'A=1\r\nIRQBALANCE_BANNED_CPULIST="0"  # x\r\nB=2   ' \
	'A=1\r\nIRQBALANCE_BANNED_CPULIST="0-1"  # x\r\nB=2   ' "IRQBALANCE_BANNED_CPULIST: 0 -> 0-1"
roundtrip "CRLF, lines added" 'A=1\r\nB=2 \t ' \
	'A=1\r\nB=2 \t \r\n# rtready tune: no interrupt balancing onto the RT CPUs\r\nIRQBALANCE_BANNED_CPULIST=1\r\n' \
	"IRQBALANCE_BANNED_CPULIST: unset -> 1"
roundtrip "blank lines at the end" 'IRQBALANCE_BANNED_CPULIST=0\n\n\n' \
	'IRQBALANCE_BANNED_CPULIST=0-1\n\n\n' "IRQBALANCE_BANNED_CPULIST: 0 -> 0-1"

# ---- 4: a large file, a symlinked file --------------------------------------------------
# Past the 8 KiB of a kernel value: a real (if long) file is rewritten.
{ for i in $(seq 400); do printf '# comment line %03d of a long, well documented file\n' "$i"; done
	printf 'IRQBALANCE_BANNED_CPULIST=0\n'; } >"$T/long"
roundtrip "20 KiB file" "$(sed 's/%/%%/g' "$T/long")\n" "$(sed 's/%/%%/g;s/=0$/=0-1/' "$T/long")\n" \
	"IRQBALANCE_BANNED_CPULIST: 0 -> 0-1"
rm -rf "$STATE"
{ for i in $(seq 1400); do printf '# comment line %04d of a file far too long to be one\n' "$i"; done
	printf 'IRQBALANCE_BANNED_CPULIST=0\n'; } >"$F"
cp "$F" "$T/orig"
row "70 KiB file: dry run" 0 "" "$R" tune "${ONLY[@]}"
said "70 KiB file: dry run" "skipped: $F is larger than 64 KiB"
assert "70 KiB file: not 'not a CPU list'" test -z "$(grep 'not a CPU list' "$T/out")"
row "70 KiB file: apply" 0 "" "$R" tune "${ONLY[@]}" --apply
said "70 KiB file: apply" "larger than 64 KiB"
assert "70 KiB file: left as it was" cmp -s "$F" "$T/orig"

rm -rf "$STATE" "$F"
printf 'IRQBALANCE_BANNED_CPULIST=0\n' >/etc/default/irqbalance.real
cp /etc/default/irqbalance.real "$T/orig"
ln -s irqbalance.real "$F"
row "symlink: dry run" 0 "" "$R" tune "${ONLY[@]}"
said "symlink: dry run" "left alone: $F is a symbolic link \(to irqbalance.real\)"
assert "symlink: dry run promises no change" test -z "$(grep -- '->' "$T/out")"
row "symlink: apply" 0 "" "$R" tune "${ONLY[@]}" --apply
said "symlink: apply" "left alone: $F is a symbolic link"
assert "symlink: apply has no bare Invalid argument" test -z "$(grep 'Invalid argument' "$T/out")"
assert "symlink: still a link" test -L "$F"
assert "symlink: target as it was" cmp -s /etc/default/irqbalance.real "$T/orig"
row "symlink: status" 0 "" "$R" tune --state-dir "$STATE" --status
said "symlink: status" "irq.balance .*left alone: $F is a symbolic link"
row "symlink: status json" 0 "" "$R" tune --state-dir "$STATE" --status --format json
said "symlink: status json" '"text": ?"left alone: /etc/default/irqbalance is a symbolic link'
rm -f "$F" /etc/default/irqbalance.real

# ---- 3.3 and 3.4: the boot unit ------------------------------------------------------------
# unit_words LINE: the words of an ExecStart= value as systemd reads them
# (systemd.syntax(7): blanks split, quotes group, backslash escapes; then
# "%%" is '%' and "$$" is '$'), one per line.
unit_words() {
	local s=$1 w='' q='' c i=0 have=0
	while [ $i -lt ${#s} ]; do
		c=${s:i:1}
		i=$((i + 1))
		if [ -z "$q" ] && { [ "$c" = ' ' ] || [ "$c" = $'\t' ]; }; then
			[ $have = 1 ] && printf '%s\n' "$w"
			w='' have=0
			continue
		fi
		have=1
		if [ "$c" = '\' ] && [ "$q" != "'" ]; then
			w+=${s:i:1}
			i=$((i + 1))
		elif [ -z "$q" ] && { [ "$c" = '"' ] || [ "$c" = "'" ]; }; then
			q=$c
		elif [ -n "$q" ] && [ "$c" = "$q" ]; then
			q=''
		elif [ "$c" = '%' ] || [ "$c" = '$' ]; then
			[ "${s:i:1}" = "$c" ] || { echo "UNESCAPED $c"; return; }
			w+=$c
			i=$((i + 1))
		else
			w+=$c
		fi
	done
	[ $have = 1 ] && printf '%s\n' "$w"
}
# The relocated tarball: a copy of the binary in a directory with a space.
mkdir -p "$T/un packed/bin"
cp "$R" "$T/un packed/bin/rtready"
SD="$T/st ate %h \$HOME \"q\" 'a' \\b"
row "emit-boot: odd --state-dir" 0 "" "$T/un packed/bin/rtready" tune --rt-cpus 1 --no-tasks \
	--state-dir "$SD" --emit-boot "$T/boot"
U=$T/boot/rtready-tune.service
assert "emit-boot: one ExecStart" test "$(grep -c '^Exec' "$U")" -eq 2
unit_words "$(sed -n 's/^ExecStart=//p' "$U")" >"$T/words"
printf '%s\n' "$T/un packed/bin/rtready" tune --apply --rt-cpus 1 --no-tasks --state-dir "$SD" \
	>"$T/words.want"
assert "emit-boot: ExecStart reads back as written" cmp -s "$T/words" "$T/words.want" ||
	diff "$T/words.want" "$T/words" | head -5
unit_words "$(sed -n 's/^ExecStop=//p' "$U")" >"$T/words"
printf '%s\n' "$T/un packed/bin/rtready" tune --revert --state-dir "$SD" >"$T/words.want"
assert "emit-boot: ExecStop reads back as written" cmp -s "$T/words" "$T/words.want"
assert "emit-boot: not the build prefix" test -z "$(grep '/usr/local/bin' "$U")"
if command -v systemd-analyze >/dev/null; then
	rc=0
	timeout 60 systemd-analyze verify --man=no "$U" >"$T/verify" 2>&1 || rc=$?
	assert "emit-boot: systemd-analyze verify is silent" test "$rc" -eq 0 -a ! -s "$T/verify" ||
		sed 's/^/    /' "$T/verify"
fi
for bad in $'/srv/x\nExecStartPre=/bin/false' $'/srv/a\tb' $'/srv/\x01' $'/srv/\xff'; do
	rm -rf "$T/boot2"
	row "emit-boot: --state-dir $(printf %q "$bad")" 2 \
		"--state-dir '.*' holds a newline, another control character or bytes that are not UTF-8" \
		"$R" tune --rt-cpus 1 --state-dir "$bad" --emit-boot "$T/boot2"
	assert "emit-boot: refused, nothing written" test ! -e "$T/boot2"
done
row "emit-boot: the binary's real path" 0 "" "$R" tune --rt-cpus 1 --emit-boot "$T/boot3"
assert "emit-boot: ExecStart names this binary" \
	grep -qxF "ExecStart=$(readlink -f "$R") tune --apply --rt-cpus 1" "$T/boot3/rtready-tune.service"

# ---- 4: an empty /proc, a 32 KiB stack -----------------------------------------------------
rm -f "$F"
row "empty tmpfs over /proc" 0 "" unshare -m --propagation private \
	sh -c 'mount -t tmpfs none /proc && exec "$0" tune --rt-cpus 1' "$R"
said "empty /proc: the tasks row" "cpu.tasks_on_rt_cpus +skipped: no task found under /proc: /proc is unreadable"
said "empty /proc: a sysctl row" "sched.rt_throttling +skipped: cannot read /proc/sys/kernel/sched_rt_runtime_us: /proc is unreadable"
said "empty /proc: the IRQ row" "irq.affinity +skipped: cannot list /proc/irq: /proc is unreadable"
for mode in "" --status "--emit-boot $T/boot4"; do
	# shellcheck disable=SC2086 # the mode's words
	row "ulimit -s 32: tune $mode" 0 "" bash -c 'ulimit -s 32; exec "$0" "$@"' "$R" tune \
		--rt-cpus 1 --state-dir "$STATE" $mode
done

table_end
echo ok
