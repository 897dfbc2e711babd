#!/bin/bash
# SPDX-License-Identifier: MIT
# One RT-CPU resolution for every command: on trees whose boot line declares
# the RT CPUs in different ways, check, tune (dry run) and inspect must name
# the same set. The nohz_full-only tree is the regression case: check used to
# find 2-3 there while tune refused with "no isolated CPUs are declared".
. "$(dirname "$0")/lib.sh"
R=$RTREADY
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fails=0

rt_of() { # COMMAND ROOT ARGS...: the host block's rt_cpus of a JSON run
	local cmd=$1 root=$2
	shift 2
	"$R" "$cmd" --root "$root" --format json "$@" 2>/dev/null |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["host"]["rt_cpus"])'
}

tree() { # NAME CMDLINE ISOLATED NOHZ_FULL ("-" removes the file)
	local d=$T/$1
	cp -a "$SRCDIR/tests/fixtures/rt-good" "$d"
	echo "$2" >"$d/proc/cmdline"
	if [ "$3" = - ]; then rm -f "$d/sys/devices/system/cpu/isolated"
	else echo "$3" >"$d/sys/devices/system/cpu/isolated"; fi
	if [ "$4" = - ]; then rm -f "$d/sys/devices/system/cpu/nohz_full"
	else echo "$4" >"$d/sys/devices/system/cpu/nohz_full"; fi
}

same() { # NAME WANT: check, tune and inspect agree on WANT
	local name=$1 want=$2 c t i
	c=$(rt_of check "$T/$name")
	t=$(rt_of tune "$T/$name")
	i=$(rt_of inspect "$T/$name" --all -w 0)
	if [ "$c" != "$want" ] || [ "$t" != "$want" ] || [ "$i" != "$want" ]; then
		echo "FAIL [$name]: check '$c', tune '$t', inspect '$i'; want '$want'"
		fails=$((fails + 1))
	fi
}

tree isolated "ro isolcpus=domain,managed_irq,2-3 nohz_full=2-3" 2-3 2-3
tree nohz-only "ro nohz_full=2-3 rcu_nocbs=2-3" "" 2-3
tree nohz-param "ro nohz_full=3" - -
tree isolcpus-param "ro isolcpus=1-2" - ""
same isolated 2-3
same nohz-only 2-3
same nohz-param 3
same isolcpus-param 1-2

# Where the set came from is said in check's evidence.
"$R" check --root "$T/nohz-only" --only cpu.isolation --verbose >"$T/out" 2>&1
grep -q "nohz_full" "$T/out" || { echo "FAIL: check does not say nohz_full"; fails=$((fails + 1)); }
# Nothing declared: check has no RT CPUs, tune asks for --rt-cpus (exit 2).
tree none "ro quiet" "" ""
[ "$(rt_of check "$T/none")" = "" ] || { echo "FAIL: none: check found RT CPUs"; fails=$((fails + 1)); }
rc=0
"$R" tune --root "$T/none" >"$T/out" 2>&1 || rc=$?
if [ $rc -ne 2 ] || ! grep -q -- "--rt-cpus LIST is needed" "$T/out"; then
	echo "FAIL: none: tune exited $rc"; fails=$((fails + 1))
fi
# tune --root reports the tree's kernel, not this machine's.
k=$("$R" tune --root "$T/isolated" --format json | python3 -c \
	'import json,sys; print(json.load(sys.stdin)["host"]["kernel"])')
[ "$k" = "$(cat "$T/isolated/proc/sys/kernel/osrelease")" ] ||
	{ echo "FAIL: tune --root kernel '$k'"; fails=$((fails + 1)); }

[ $fails -eq 0 ] || fail "$fails disagreement(s)"
echo "ok: check, tune and inspect agree on the RT CPUs of 5 trees"
