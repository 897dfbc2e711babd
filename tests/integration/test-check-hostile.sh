#!/bin/bash
# `rtready check --root` on a hostile tree (tests/fixtures/hostile plus FIFOs,
# huge sparse files and escape targets made here, since git cannot hold
# them): it must finish quickly with exit 0 or 1 (never crash, hang or 2),
# never read a file outside the root, and say skip where a file is garbage.
# `rtready snapshot --root` of the same tree must not write outside its DIR.
. "$(dirname "$0")/lib.sh"
command -v mkfifo >/dev/null || skip "no mkfifo"

tmp=$(mktemp -d /tmp/rtr-hostile-test.XXXXXX)
outside=/tmp/rtr-hostile-outside   # where the committed escape links point
trap 'rm -rf "$tmp" "$outside"' EXIT
rm -rf "$outside" && mkdir -p "$outside"
# If a link were followed out of the root, these would change the result.
echo "isolcpus=1 rtrESCAPEDmarker" > "$outside/cmdline"
echo "1" > "$outside/isolated"

root=$tmp/root
cp -a "$SRCDIR/tests/fixtures/hostile" "$root"
# FIFOs where the probes read: a blocking open would hang the tool.
mkfifo "$root/proc/irq/default_smp_affinity"
mkfifo "$root/sys/devices/virtual/workqueue/cpumask"
mkfifo "$root/sys/devices/system/cpu/present"
mkdir -p "$root/proc/77/task/78" "$root/proc/sys/vm"
mkfifo "$root/proc/77/task/77/status"
mkfifo "$root/proc/77/task/78/stat"
# Huge files: sparse, so they cost no disk; reads must stop at the cap.
truncate -s 3G "$root/proc/config.gz"
truncate -s 200M "$root/proc/swaps"
truncate -s 1G "$root/proc/irq/6/smp_affinity"
truncate -s 100M "$root/sys/devices/system/cpu/cpu0/topology/core_cpus_list"
# A device node, when we may make one.
mknod "$root/proc/sys/vm/swappiness" c 1 3 2>/dev/null || true

start=$(date +%s%N)
rc=0
timeout 20 "$RTREADY" check --root "$root" --format json >"$tmp/out.json" 2>"$tmp/err" || rc=$?
ms=$(( ($(date +%s%N) - start) / 1000000 ))
[ "$rc" -eq 0 ] || [ "$rc" -eq 1 ] || { cat "$tmp/err"; fail "check --root hostile exited $rc"; }
[ "$ms" -lt 10000 ] || fail "check --root hostile took $ms ms"
grep -q rtrESCAPEDmarker "$tmp/out.json" && fail "a link out of the root was followed (cmdline)"
python3 - "$tmp/out.json" <<'PY' || fail "hostile results"
import json, sys
d = json.load(open(sys.argv[1]))
st = {c["id"]: c for c in d["checks"]}
# The escaping sysfs link must not have made CPU 1 an RT CPU.
assert d["host"]["rt_cpus"] == "", d["host"]["rt_cpus"]
assert st["cpu.timer_migration"]["status"] == "skip", st["cpu.timer_migration"]
assert st["cpu.workqueue"]["status"] == "skip", st["cpu.workqueue"]
assert st["irq.default_affinity"]["status"] == "skip", st["irq.default_affinity"]
for c in d["checks"]:
    assert c["status"] in ("pass", "warn", "fail", "info", "skip"), c
PY
# The same with RT CPUs named: every per-CPU check still runs without a crash.
rc=0
timeout 20 "$RTREADY" check --root "$root" --rt-cpus 0-1 --verbose >"$tmp/out.txt" 2>"$tmp/err" || rc=$?
[ "$rc" -eq 0 ] || [ "$rc" -eq 1 ] || { cat "$tmp/err"; fail "check --rt-cpus 0-1 exited $rc"; }
grep -q rtrESCAPEDmarker "$tmp/out.txt" && fail "a link out of the root was followed (text)"

# Snapshot of the hostile tree: bounded, and nothing written outside DIR.
rc=0
timeout 20 "$RTREADY" snapshot --root "$root" "$tmp/snap" >/dev/null 2>"$tmp/err" || rc=$?
[ "$rc" -eq 0 ] || { cat "$tmp/err"; fail "snapshot --root hostile exited $rc"; }
[ "$(ls "$outside")" = "$(printf 'cmdline\nisolated')" ] || fail "snapshot wrote outside DIR"
[ -z "$(find "$tmp/snap" -type p -o -type c)" ] || fail "snapshot copied a FIFO or device"
big=$(find "$tmp/snap" -type f -size +70M)
[ -z "$big" ] || fail "snapshot copied a huge file: $big"
echo ok
