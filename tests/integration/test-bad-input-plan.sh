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
FX=$SRCDIR/tests/fixtures
. "$INTEG_DIR/table.sh"

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

# ---- an output that names what plan reads: refused, the snapshot untouched (3.5) -----------
S=$T/snap
cp -r "$FX/topo/smt-numa" "$S"
mkdir -p "$S/boot" "$S/etc/default"
echo "6.1.0" >"$S/proc/sys/kernel/osrelease"
echo "CONFIG_PREEMPT_RT=y" >"$S/boot/config-6.1.0"
echo "IRQBALANCE_BANNED_CPULIST=" >"$S/etc/default/irqbalance"
ln -s "$S/proc/cmdline" to-cmdline
ln -s "$S/proc" to-proc
ln "$S/boot/config-6.1.0" config-hardlink
(cd "$S" && find . -type f -print0 | sort -z | xargs -0 md5sum) >"$T/before.md5"
for out in "$S/proc/cmdline" "$S/sys/devices/system/cpu/online" "$S/proc/new" \
	"$S/etc/new" "$S/boot/config-6.1.0" "$S/etc/default/irqbalance" \
	"$S/../snap/proc/cmdline" to-cmdline to-proc/new; do
	row "plan -o ${out#"$T"/}" 2 "plan: --output .* is inside .*snap/(proc|sys|etc|boot), which plan reads" \
		"$R" plan --root "$S" -o "$out"
	row "plan --format json -o ${out#"$T"/}" 2 "inside .*snap/" \
		"$R" plan --root "$S" --format json -o "$out"
done
row "plan -o a hard link to a file it read" 2 \
	"plan: --output config-hardlink is /boot/config-6.1.0 of the root .*, which plan reads" \
	"$R" plan --root "$S" -o config-hardlink
(cd "$S" && find . -type f -print0 | sort -z | xargs -0 md5sum) >"$T/after.md5"
assert "the snapshot is unchanged" cmp -s "$T/before.md5" "$T/after.md5"
assert "no file added to the snapshot" sh -c "[ ! -e '$S/proc/new' ] && [ ! -e '$S/etc/new' ]"
# Outputs beside the snapshot, and the special files, still work.
row "plan -o beside the snapshot" 0 "" "$R" plan --root "$S" -o "$S/plan.txt"
assert "the plan was written" grep -q "RT CPUs" "$S/plan.txt"
row "plan -o /dev/null" 0 "" "$R" plan --root "$S" -o /dev/null
row "plan -o /dev/stdout" 0 "" "$R" plan --root "$S" -o /dev/stdout
row "live plan -o a sysctl" 2 "plan: --output /proc/sys/kernel/ostype is inside /proc" \
	"$R" plan -o /proc/sys/kernel/ostype

# ---- --near with garbage in the node file: that reason, not "no interface name" (4) -------
N=$T/near
cp -r "$FX/topo/smt-numa" "$N"
mkdir -p "$N/sys/class/net/eth9/device"
for v in garbage "" 70000 -5 "1 2"; do
	printf '%s\n' "$v" >"$N/sys/class/net/eth9/device/numa_node"
	row "plan --near eth9, numa_node '$v'" 2 \
		"plan: --near eth9: /sys/class/net/eth9/device/numa_node is not a NUMA node number" \
		"$R" plan --root "$N" --near eth9
done
echo zz >"$N/proc/irq/30/node"
row "plan --near 30, node 'zz'" 2 "plan: --near 30: /proc/irq/30/node is not a NUMA node number" \
	"$R" plan --root "$N" --near 30
rm "$N/sys/class/net/eth9/device/numa_node"
mkdir "$N/sys/class/net/eth9/device/numa_node"
row "plan --near eth9, numa_node a directory" 2 \
	"plan: --near eth9: cannot read .*numa_node: Is a directory" "$R" plan --root "$N" --near eth9
row "plan --near a bad name" 2 "'a/b' is neither an IRQ number nor an interface name" \
	"$R" plan --root "$N" --near a/b

# ---- SMT refusals suggest only counts that would be planned (4) ---------------------------
# smt-numa: 2 threads per core; 1 CPU cannot be had, and 0 is no count.
row "plan --rt 1 on SMT2" 2 "cannot be had with whole cores .*: ask for 2 \(rule smt\)" \
	"$R" plan --root "$FX/topo/smt-numa" --rt 1
row "plan --rt 3 on SMT2" 2 "ask for 2 or 4 \(rule smt\)" \
	"$R" plan --root "$FX/topo/smt-numa" --rt 3
row "plan --node 1 --rt 5 on SMT2" 2 "ask for 4 or 6 \(rule smt\)" \
	"$R" plan --root "$FX/topo/smt-numa" --node 1 --rt 5
# Each suggestion is planned when asked for.
for n in 2 4 6; do
	row "plan --node 1 --rt $n is planned" 0 "" "$R" plan --root "$FX/topo/smt-numa" --node 1 --rt "$n"
done
# SMT4 (POWER7-like masks tree): 1 CPU -> 4, never 0.
row "plan --rt 1 on SMT4" 2 "ask for 4 \(rule smt\)" "$R" plan --root "$FX/topo/masks" --rt 1

# ---- a small stack: plan keeps its large state on the heap (4) ------------------------------
# Crashed (SIGSEGV) below 56 KiB of stack.
small=(bash -c 'ulimit -s 32 && exec "$@"' small)
row "plan, ulimit -s 32" 0 "" "${small[@]}" "$R" plan --root "$FX/vm"
row "plan --root smt-numa --format json, ulimit -s 32" 0 "" \
	"${small[@]}" "$R" plan --root "$FX/topo/smt-numa" --format json
row "plan --near eth0 --rt 4, ulimit -s 32" 0 "" \
	"${small[@]}" "$R" plan --root "$FX/topo/smt-numa" --near eth0 --rt 4
row "plan -o FILE, ulimit -s 32" 0 "" "${small[@]}" "$R" plan --root "$FX/topo/hybrid" -o "$T/small.txt"
assert "the plan in a small stack was written" grep -q "RT CPUs" "$T/small.txt"
row "plan refused for SMT, ulimit -s 32" 2 "ask for 2 or 4" \
	"${small[@]}" "$R" plan --root "$FX/topo/smt-numa" --rt 3

# ---- housekeeping sized by the measured load (5) ---------------------------------------------
row "plan --window 2m" 2 "--window: '2m' is not a time from 0 to 1m" "$R" plan --window 2m
row "plan --window -1" 2 "--window: '-1' is not a time" "$R" plan --window -1
row "plan --window x" 2 "--window: 'x' is not a time" "$R" plan --window x
# The live system: the load is measured and the housekeeping rule says what it found
# (one CPU online leaves nothing to plan).
if [ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ]; then
row "plan (live), measured" 0 "" "$R" plan --format json -o "$T/live.json"
assert "plan (live): the housekeeping rule gives the load" python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))["plan"]
notes = [r["reason"] for r in p["rules"] if r["rule"] == "housekeeping"]
assert any("CPUs busy" in n and "/proc/stat" in n and "half busy" in n for n in notes), notes
' "$T/live.json"
row "plan --window 0 (live)" 0 "" "$R" plan --window 0 -o "$T/live0.txt"
assert "plan --window 0: no load measured" sh -c "! grep -q 'CPUs busy' '$T/live0.txt'"
fi
# A snapshot has no window: sized by the topology alone, whatever --window says.
row "plan --root, --window 1s" 0 "" "$R" plan --root "$FX/topo/smt-numa" --window 1s -o "$T/snap.txt"
assert "plan --root: no load measured" sh -c "! grep -q 'CPUs busy' '$T/snap.txt'"

table_end
