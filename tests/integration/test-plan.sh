#!/bin/bash
# `rtready plan --root` on the topology trees and on real machine dumps: the
# planned sets, the rules relaxed and the refusals (exit 2 naming the rule)
# are part of the contract; on every dump the boot CPU stays housekeeping,
# and check with the planned set passes cpu.smt and cpu.cache_sharing where
# the data allows.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip "no python3"
fx=$SRCDIR/tests/fixtures
tmp=$(mktemp -d /tmp/rtr-plan-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# plan TREE "OPTIONS" "RT" "HOUSEKEEPING" "RELAXED RULES": one line per case.
plan() {
	local tree=$1 opts=$2 rt=$3 hk=$4 relaxed=$5 rc=0
	# shellcheck disable=SC2086
	timeout 60 "$RTREADY" plan --root "$tree" --format json $opts >"$tmp/p.json" \
		2>"$tmp/err" || rc=$?
	[ "$rc" -eq 0 ] || { cat "$tmp/err"; fail "plan $tree $opts: exit $rc"; }
	python3 - "$tmp/p.json" "$rt" "$hk" "$relaxed" "$tree $opts" <<'PY' || fail "$tree $opts"
import json, sys
j = json.load(open(sys.argv[1]))
p = j["plan"]
got = (p["rt_cpus"], p["housekeeping_cpus"],
       " ".join(sorted({r["rule"] for r in p["rules"] if r["relaxed"]})))
want = tuple(sys.argv[2:5])
if got != want:
    print("%s: got rt=%s hk=%s relaxed=[%s], want rt=%s hk=%s relaxed=[%s]"
          % ((sys.argv[5],) + got + want))
    sys.exit(1)
# Every rule note and every cluster carries its reason; the boot line and tune
# commands name the planned set.
assert all(r["reason"] for r in p["rules"]), "a rule without a reason"
assert all(c["reason"] for c in p["clusters"]), "a cluster without a reason"
assert "isolcpus=managed_irq,domain,%s " % p["rt_cpus"] in p["kernel_cmdline"]
assert "irqaffinity=%s" % p["housekeeping_cpus"] in p["kernel_cmdline"]
assert p["tune_apply"] == "rtready tune --rt-cpus %s --apply" % p["rt_cpus"]
assert j["command"] == "plan" and "host" in j and "after" in j
try:
    import jsonschema
except ImportError:
    sys.exit(0)
import os
jsonschema.validate(j, json.load(open(os.environ["SRCDIR"] + "/docs/schema/plan.schema.json")))
PY
}

# refuse TREE "OPTIONS" RULE: exit 2, the message names the rule.
refuse() {
	local tree=$1 opts=$2 rule=$3 rc=0
	# shellcheck disable=SC2086
	timeout 60 "$RTREADY" plan --root "$tree" $opts >"$tmp/out" 2>"$tmp/err" || rc=$?
	[ "$rc" -eq 2 ] || fail "plan $tree $opts: exit $rc, expected 2"
	grep -q "(rule $rule)" "$tmp/err" || { cat "$tmp/err"; fail "plan $tree $opts: no rule $rule"; }
}

t=$fx/topo
plan "$t/smt-numa" ""              "1-6,9-14" "0,7-8,15" ""
plan "$t/smt-numa" "--near eth0"   "4-6,12-14" "0-3,7-11,15" ""
plan "$t/smt-numa" "--near 30 --rt 4" "5-6,13-14" "0-4,7-12,15" ""
plan "$t/smt-numa" "--node 0 --rt 2" "3,11" "0-2,4-10,12-15" ""
plan "$t/smt-numa" "--rt 8"        "1-3,6,9-11,14" "0,4-5,7-8,12-13,15" "numa_node"
plan "$t/smt-numa" "--rt 14"       "1-7,9-15" "0,8" "managed_irq node_housekeeping numa_node"
refuse "$t/smt-numa" "--rt 3" smt
refuse "$t/smt-numa" "--rt 16" housekeeping
refuse "$t/smt-numa" "--node 1 --rt 10" numa_node
plan "$t/biglittle" ""             "4-5" "0-3" ""
plan "$t/biglittle" "--rt 1"       "5" "0-4" "l2_cluster"
plan "$t/biglittle" "--rt 3"       "3-5" "0-2" "capacity l2_cluster"
plan "$t/hybrid" ""                "2-15" "0-1,16-19" ""
plan "$t/hybrid" "--rt 4"          "12-15" "0-11,16-19" ""
plan "$t/hybrid" "--rt 18"         "2-19" "0-1" "capacity"
plan "$t/maxcpus" ""               "1-3" "0" ""
refuse "$t/maxcpus" "--rt 4" housekeeping
plan "$t/masks" ""                 "4-7" "0-3" ""
plan "$fx/vm" ""                   "1" "0" ""
refuse "$fx/vm" "--rt 2" housekeeping

# Text output says the plain things a user needs.
"$RTREADY" plan --root "$fx/vm" >"$tmp/vm.txt" || fail "plan vm (text)"
grep -q "Only 1 RT CPU can be spared of 2 online" "$tmp/vm.txt" || fail "vm: no plain word on 2 CPUs"
grep -q "isolcpus=managed_irq,domain,1 nohz_full=1 rcu_nocbs=1 irqaffinity=0" "$tmp/vm.txt" ||
	fail "vm: no boot line"
"$RTREADY" plan --root "$t/maxcpus" | grep -q "CPUs 4-7 are present but not online (maxcpus=4" ||
	fail "maxcpus: offline CPUs not explained"
"$RTREADY" plan --root "$t/smt-numa" --near eth0 | grep -q "eth0 is on node 1" ||
	fail "--near eth0: the node's reason is missing"

# kthread_cpus= only where the kernel has it (Real-time Ubuntu's -realtime kernels).
cp -r "$t/maxcpus" "$tmp/ubuntu-rt"
echo "6.8.1-1015-realtime" >"$tmp/ubuntu-rt/proc/sys/kernel/osrelease"
"$RTREADY" plan --root "$tmp/ubuntu-rt" | grep -q "irqaffinity=0 kthread_cpus=0$" ||
	fail "a -realtime kernel: no kthread_cpus="
"$RTREADY" plan --root "$t/maxcpus" | grep -q "kthread_cpus=0" && fail "kthread_cpus= on mainline"
rm -rf "$tmp/ubuntu-rt"

# Usage errors.
expect_rc 2 "$RTREADY" plan --rt 0
expect_rc 2 "$RTREADY" plan --rt x
expect_rc 2 "$RTREADY" plan --node 1 --near eth0
expect_rc 2 "$RTREADY" plan --root "$t/smt-numa" --near ../x
expect_rc 2 "$RTREADY" plan --root "$t/smt-numa" --near lo
expect_rc 0 "$RTREADY" plan --help
expect_rc 0 "$RTREADY" plan --version

# --rt-cpus auto and auto:N in the other commands: the same planner, "(planned)".
host_rt() { python3 -c 'import json,sys; print(json.load(sys.stdin)["host"]["rt_cpus"])'; }
got=$("$RTREADY" check --root "$t/biglittle" --rt-cpus auto --format json | host_rt)
[ "$got" = "4-5 (planned)" ] || fail "check --rt-cpus auto on biglittle: $got"
got=$("$RTREADY" check --root "$t/smt-numa" --rt-cpus auto:4 --format json | host_rt)
[ "$got" = "2-3,10-11 (planned)" ] || fail "check --rt-cpus auto:4 on smt-numa: $got"
got=$("$RTREADY" tune --root "$t/hybrid" --rt-cpus auto --format json | host_rt)
[ "$got" = "2-15 (planned)" ] || fail "tune --rt-cpus auto on hybrid: $got"
"$RTREADY" tune --root "$t/hybrid" --rt-cpus auto:4 --emit-boot "$tmp/boot" >"$tmp/boot.txt" ||
	fail "tune --rt-cpus auto:4 --emit-boot"
grep -q "isolcpus=managed_irq,domain,12-15 " "$tmp/boot.txt" || fail "tune auto:4: boot line"
got=$("$RTREADY" inspect --root "$fx/vm" --all --rt-cpus auto --format json | host_rt)
[ "$got" = "1 (planned)" ] || fail "inspect --rt-cpus auto on vm: $got"
expect_rc 2 "$RTREADY" check --root "$t/smt-numa" --rt-cpus auto:3
expect_rc 2 "$RTREADY" check --rt-cpus auto:0
expect_rc 2 "$RTREADY" tune --root "$fx/vm" --rt-cpus auto:2
expect_rc 2 "$RTREADY" latency --affinity auto:x

# Masks only (thread_siblings, shared_cpu_map; empty or missing lists, NUL
# padding): check reads the sharing from the masks, never passes unread.
# status TREE RT ID: print the status and evidence of one check.
status() {
	"$RTREADY" check --root "$1" --rt-cpus "$2" --only "$3" --format json |
		python3 -c 'import json,sys; c=json.load(sys.stdin)["checks"][0]; print(c["status"], c["evidence"])'
}
got=$(status "$t/masks" 4-7 cpu.cache_sharing)
case $got in "pass "*shared_cpu_map*) ;; *) fail "masks, RT 4-7: $got" ;; esac
got=$(status "$t/masks" 2-7 cpu.cache_sharing)
case $got in "warn "*"L1 Data cache of CPU 2 is shared with non-RT CPU 0-1"*) ;;
*) fail "masks, RT 2-7: $got" ;; esac
got=$(status "$t/masks" 2-7 cpu.smt)
case $got in "warn "*"CPU 2 shares its core with non-RT CPU 0-1"*) ;; *) fail "masks smt: $got" ;; esac
# The real POWER7 dump has only shared_cpu_map: a split core warns (it passed
# on nothing before the masks were read).
tar xzf "$fx/dumps/ppc64-POWER7-64cpu.tar.gz" -C "$tmp" || fail "POWER7: cannot unpack"
got=$(status "$tmp/ppc64-POWER7-64cpu" 1-3 cpu.cache_sharing)
case $got in "warn "*"L1 Data cache of CPU 1 is shared with non-RT CPU 0"*shared_cpu_map*) ;;
*) fail "POWER7, RT 1-3: $got" ;; esac
# Emptied sharing files (list and mask): skip, naming the file, never pass.
cp -r "$t/masks" "$tmp/emptied"
find "$tmp/emptied/sys" -name 'shared_cpu_*' -exec truncate -s 0 {} +
got=$(status "$tmp/emptied" 4-7 cpu.cache_sharing)
case $got in "skip "*"cpu4/cache/index0/shared_cpu_list (and shared_cpu_map) is empty"*) ;;
*) fail "emptied sharing files: $got" ;; esac
rm -rf "$tmp/ppc64-POWER7-64cpu" "$tmp/emptied"

# A snapshot of a tree plans as the tree does (it records debugfs too).
"$RTREADY" snapshot --root "$t/smt-numa" "$tmp/snap" >/dev/null 2>&1 || fail "snapshot smt-numa"
plan "$tmp/snap" "" "1-6,9-14" "0,7-8,15" ""
"$RTREADY" plan --root "$tmp/snap" | grep -q "2 managed IRQs land on CPUs 7,15" ||
	fail "snapshot: managed IRQs lost"
plan "$tmp/snap" "--near eth0" "4-6,12-14" "0-3,7-11,15" ""
rm -rf "$tmp/snap"

# Every other machine tree of the suite (kernel matrix guests, rt-good, rt-bad,
# the hostile one): a plan, and never the boot CPU.
for d in "$fx"/*/; do
	d=${d%/}
	[ -d "$d/sys" ] || continue
	"$RTREADY" plan --root "$d" --format json >"$tmp/p.json" 2>"$tmp/err" ||
		{ cat "$tmp/err"; fail "$(basename "$d"): plan failed"; }
	python3 -c 'import json,sys; p=json.load(open(sys.argv[1]))["plan"]
assert p["rt_cpus"] and p["boot_cpu"] == 0 and "0" in p["housekeeping_cpus"].replace("-", ",").split(","), p' \
		"$tmp/p.json" || fail "$(basename "$d"): bad plan"
done

# Real dumps (util-linux lscpu test data): never the boot CPU, and cpu.smt
# and cpu.cache_sharing pass with the planned set wherever the data allows.
for a in "$fx"/dumps/*.tar.gz; do
	name=$(basename "$a" .tar.gz)
	tar xzf "$a" -C "$tmp" || fail "$name: cannot unpack"
	d=$tmp/$name
	"$RTREADY" plan --root "$d" --format json >"$tmp/p.json" 2>"$tmp/err" ||
		{ cat "$tmp/err"; fail "$name: plan failed"; }
	rc=0
	"$RTREADY" check --root "$d" --rt-cpus auto --format json --only cpu.smt,cpu.cache_sharing \
		>"$tmp/c.json" 2>"$tmp/err" || rc=$?
	[ "$rc" -le 1 ] || { cat "$tmp/err"; fail "$name: check --rt-cpus auto: exit $rc"; }
	python3 - "$tmp/p.json" "$tmp/c.json" "$name" <<'PY' || fail "$name"
import json, sys
p = json.load(open(sys.argv[1]))["plan"]
c = json.load(open(sys.argv[2]))
checks = {x["id"]: x for x in c["checks"]}
# check --rt-cpus auto resolves through the same planner, and says so.
assert c["host"]["rt_cpus"] == p["rt_cpus"] + " (planned)", (name, c["host"], p["rt_cpus"])
assert "rtready plan" in checks["cpu.smt"]["evidence"], (name, checks["cpu.smt"])
name = sys.argv[3]
rt = set()
for part in p["rt_cpus"].split(","):
    a, _, b = part.partition("-")
    rt.update(range(int(a), int(b or a) + 1))
assert rt, name + ": empty plan"
assert p["boot_cpu"] not in rt, name + ": the boot CPU is RT"
assert checks["cpu.smt"]["status"] == "pass", (name, checks["cpu.smt"])
# Where the cache data exists, the L2 is kept whole unless the plan says it
# had to relax that rule (one L2 for every core).
l2_relaxed = any(r["rule"] == "l2_cluster" and r["relaxed"] for r in p["rules"])
want = {"pass", "skip"} if not l2_relaxed else {"warn"}
assert checks["cpu.cache_sharing"]["status"] in want, (name, checks["cpu.cache_sharing"])
print("%-24s rt %s" % (name, p["rt_cpus"]))
PY
	rm -rf "$d"
done
echo "plan: all cases passed"
