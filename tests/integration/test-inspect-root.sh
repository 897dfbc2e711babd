#!/bin/bash
# rtready inspect --root: the processes of a fixture tree are judged like
# live ones (one look, no window, no perf), bad input exits 2, and a
# hostile tree is survived and its unreadable threads are reported.
. "$(dirname "$0")/lib.sh"
fx=$SRCDIR/tests/fixtures
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# py FILE EXPR: evaluate a Python expression on the JSON in FILE (as d).
py() { python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$@"; }

# rt-bad: a FIFO 99 thread (1301) in an unlocked process (1300), an unlocked DEADLINE task.
rc=0
"$RTREADY" inspect --root "$fx/rt-bad" --all --format json >"$tmp/bad.json" || rc=$?
[ "$rc" -eq 1 ] || fail "rt-bad: exit $rc, expected 1"
[ "$(py "$tmp/bad.json" 'd["host"]["root"]')" = "$fx/rt-bad" ] || fail "host.root is not the tree"
[ "$(py "$tmp/bad.json" 'd["window_ns"]')" = 0 ] || fail "a tree must be looked at once"
[ "$(py "$tmp/bad.json" 'd["perf"]["requested"]')" = False ] || fail "perf requested on a tree"
got=$(py "$tmp/bad.json" '" ".join("%s:%s:%s" % (f["id"], f["status"], f.get("tid", "-"))
	for f in d["findings"] if f["id"] in ("proc.prio99", "proc.memory_locked"))')
[ "$got" = "proc.prio99:fail:1301 proc.memory_locked:fail:- proc.memory_locked:fail:-" ] ||
	fail "rt-bad findings: $got"
# The memory comes from the threads' status files (the tree has no /proc/PID/status).
[ "$(py "$tmp/bad.json" '[p["vm_lck_kb"] for p in d["processes"] if p["pid"] == 1300][0]')" = 0 ] ||
	fail "VmLck of 1300"
[ "$(py "$tmp/bad.json" '[p["rt_threads"] for p in d["processes"] if p["pid"] == 1300][0]')" = 2 ] ||
	fail "RT threads of 1300"

# rt-good: the RT application is locked and pinned: nothing fails.
expect_rc 0 "$RTREADY" inspect --root "$fx/rt-good" --all
"$RTREADY" inspect --root "$fx/rt-good" --name rtapp --format json >"$tmp/good.json" ||
	fail "rt-good --name rtapp failed"
[ "$(py "$tmp/good.json" '[(p["pid"], p["vm_lck_kb"] > 0, p["rt_threads"]) for p in d["processes"]]')" = \
	"[(387, True, 2)]" ] || fail "rt-good rtapp: $(py "$tmp/good.json" 'd["processes"]')"
# Explicit PIDs are looked up in the tree, not on this machine.
expect_rc 0 "$RTREADY" inspect --root "$fx/rt-good" 387
"$RTREADY" inspect --root "$fx/rt-good" 999999 >/dev/null 2>"$tmp/err" && fail "missing PID accepted"
grep -q "no process with PID 999999" "$tmp/err" || fail "missing PID: $(cat "$tmp/err")"

# Bad input: a window on a tree, a root that is not there, an empty root.
rc=0
"$RTREADY" inspect --root "$fx/rt-good" --all --window 1s 2>"$tmp/err" >/dev/null || rc=$?
[ "$rc" -eq 2 ] && grep -q "needs the live system" "$tmp/err" || fail "--window on a tree: $rc"
expect_rc 0 "$RTREADY" inspect --root "$fx/rt-good" --all --window 0
expect_rc 2 "$RTREADY" inspect --root "$tmp/none" --all
expect_rc 2 "$RTREADY" inspect --root "" --all
: >"$tmp/file"
expect_rc 2 "$RTREADY" inspect --root "$tmp/file" --all

# A root whose name is not UTF-8 is still named in the JSON (bad bytes as '?').
odd=$tmp/$'snap\xff'
ln -s "$fx/rt-good" "$odd"
"$RTREADY" inspect --root "$odd" --all --format json >"$tmp/odd.json" || fail "odd root name"
[ "$(py "$tmp/odd.json" 'd["host"]["root"].endswith("/snap?")')" = True ] ||
	fail "host.root of an odd name: $(py "$tmp/odd.json" 'd["host"]')"

# A hostile tree: no crash, no hang, the unreadable thread is named.
rc=0
timeout 20 "$RTREADY" inspect --root "$fx/hostile" --all --format json >"$tmp/h.json" || rc=$?
[ "$rc" -le 1 ] || fail "hostile tree: exit $rc"
[ "$(py "$tmp/h.json" 'd["unreadable"]["threads"] >= 1')" = True ] || fail "unreadable not reported"
timeout 20 "$RTREADY" inspect --root "$fx/hostile" --all >"$tmp/h.txt" || [ $? -eq 1 ] ||
	fail "hostile tree (text)"
grep -q "could not be read" "$tmp/h.txt" || fail "text does not say what could not be read"
echo "ok"
