#!/bin/bash
# SPDX-License-Identifier: MIT
# Bad input to `rtready report` that is not malformed JSON (test-report.sh
# has those): a latency run that took no sample must warn in every output,
# never pass; and parts of one result (a check, an idle and a loaded
# latency run) from two hosts, or from a snapshot and a live system, are
# refused with exit 2, both files and the differing facts named, nothing
# written. Results of one host still merge, and verify's own result still
# reports. Prints "N passed, N failed" at the end.
. "$(dirname "$0")/lib.sh"
need_root

ROW_TIMEOUT=120
. "$INTEG_DIR/table.sh"
# edit IN OUT PYTHON: OUT is IN with the Python statement run on its document d.
edit() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
exec(sys.argv[3])
json.dump(d, open(sys.argv[2], "w"))' "$1" "$2" "$3"
}

# ---- a latency run without samples warns, in every output -------------------------------
# An interval longer than the run: no wake-up is ever measured.
"$R" latency -q -i 10s -D 1 --json zero.json >/dev/null 2>&1
[ -s zero.json ] || fail "cannot make a latency result"
assert "the run took no sample" python3 -c 'import json, sys
d = json.load(open("zero.json")); sys.exit(any(t["samples"] for t in d["threads"]))'
row "report -m 100 of a run without samples: warn, exit 0" 0 "" \
	"$R" report -m 100 zero.json -o zero.html --junit zero.xml --prometheus zero.prom
assert "Prometheus verdict warn" grep -qx 'rtready_verdict{status="warn"} 1' zero.prom
assert "Prometheus verdict not pass" grep -qx 'rtready_verdict{status="pass"} 0' zero.prom
assert "Prometheus max of CPU 0 is NaN, not 0" \
	grep -qx 'rtready_latency_max_seconds{cpu="0",phase="idle"} NaN' zero.prom
assert "JUnit: the verdict property says warn" grep -q 'name="verdict" value="warn"' zero.xml
assert "JUnit: cases skipped for no samples" grep -q '<skipped message="no samples' zero.xml
assert "JUnit: no failure without --strict" grep -q '<testsuites [^>]*failures="0"' zero.xml
assert "HTML: the card warns" grep -q '<div class="card s-warn">' zero.html
assert "HTML: the reason names the CPUs" grep -q 'no samples on idle CPU 0' zero.html
assert "HTML: the figures say not measured" grep -q 'no samples (not measured)' zero.html
row "report --strict of a run without samples: exit 1" 1 "" \
	"$R" report -m 100 zero.json --junit strict.xml --strict
assert "JUnit --strict: a failure per CPU" grep -q '<failure type="warn" message="no samples' \
	strict.xml
if command -v xmllint >/dev/null; then
	for f in zero.xml strict.xml; do
		assert "$f validates against junit-10.xsd" xmllint --noout --schema \
			"$SRCDIR/tests/schema/junit-10.xsd" "$f"
	done
fi
# No limit, and a check beside it whose every item passes: still a warning.
edit zero.json clean.json 'd.update(command="check", checks=[{"id": "mem.swap", "status": "pass"}])
for k in ("threads", "summary", "config"): d.pop(k, None)'
row "report check + run without samples, no limit: exit 0" 0 "" \
	"$R" report clean.json zero.json --prometheus clean.prom
assert "a clean check does not make it pass" grep -qx 'rtready_verdict{status="warn"} 1' \
	clean.prom
# verify's text and JSON say the same (a short run: an interval longer than each phase).
rc=0
timeout 120 "$R" verify -D 1 -i 10s -m 100 --report v >v.out 2>v.err || rc=$?
assert "verify ran (exit $rc)" test "$rc" -le 1
assert "verify text: the verdict names the CPUs" grep -q 'no samples on idle CPU' v.out
assert "verify text: not a clean PASS" sh -c "! grep -q '^Verdict: PASS:' v.out"
assert "verify.json: the verdict is not pass" python3 -c 'import json, sys
v = json.load(open("v/verify.json"))["verdict"]
sys.exit(v["status"] == "pass" or "no samples on idle CPU" not in v["reason"])'
assert "verify metrics: not pass" grep -Eq '^rtready_verdict\{(host="[^"]*",)?status="pass"\} 0$' \
	v/metrics.prom

# ---- parts of two hosts do not make one result ------------------------------------------
"$R" check --format json -o live.json >/dev/null 2>&1
"$R" check --root "$SRCDIR/tests/fixtures/rt-good" --format json -o snap.json >/dev/null 2>&1
[ -s live.json ] && [ -s snap.json ] || fail "cannot make check results"
# A check of a snapshot (another root, another kernel) and a latency run of this machine.
row "check of a snapshot + live latency" 2 \
	"snap.json and zero.json are results of different hosts \(.*root \"[^\"]*rt-good\" and \"/\"" \
	"$R" report snap.json zero.json -o mixed.html --junit mixed.xml
assert "nothing written for mixed hosts" test ! -e mixed.html -a ! -e mixed.xml
# One fact at a time, in hand-edited copies of this machine's latency run.
edit zero.json kernel.json 'd["host"]["kernel"] = "5.10.0-other"'
row "other kernel" 2 "live.json and kernel.json are results of different hosts \(kernel \"[^\"]+\" and \"5.10.0-other\"\)" \
	"$R" report live.json kernel.json -o k.html
edit zero.json cpus.json 'd["host"]["cpus_online"] = "0-255"'
row "other online CPUs" 2 "\(cpus_online \"[^\"]+\" and \"0-255\"\)" \
	"$R" report live.json cpus.json -o c.html
edit zero.json host.json 'd["host"]["hostname"] = "rig-99"'
edit live.json hostc.json 'd["host"]["hostname"] = "rig-01"'
row "other hostname" 2 "\(hostname \"rig-01\" and \"rig-99\"\)" \
	"$R" report hostc.json host.json -o h.html
# The third file is compared with the first two; the file of the differing value is named.
edit zero.json load.json 'd["config"]["load"] = "all"; d["host"]["kernel"] = "9.9"'
row "third part of another kernel" 2 "live.json and load.json are results of different hosts \(kernel" \
	"$R" report live.json zero.json load.json -o t.html
assert "no page for refused inputs" test ! -e k.html -a ! -e c.html -a ! -e h.html -a ! -e t.html

# ---- parts of one host still merge; verify's result still reports ------------------------
edit zero.json rt.json 'd["host"]["rt_cpus"] = "1"; d["threads"][0]["samples"] = 1'
edit live.json livepass.json 'for c in d["checks"]: c["status"] = "pass"'
row "same host (rt_cpus differs: a choice of the run)" 0 "" \
	"$R" report livepass.json rt.json -o same.html --prometheus same.prom
assert "one result of one host" grep -q '1 result:' same.html
row "verify's result" "$(python3 -c 'import json
print({"pass": 0, "warn": 0, "fail": 1}[json.load(open("v/verify.json"))["verdict"]["status"]])')" \
	"" "$R" report v/verify.json -o vr.html
# A verify result never merges: beside a check of another host it is shown side by side.
rc=0
"$R" report v/verify.json snap.json -o side.html >/dev/null 2>&1 || rc=$?
assert "side by side, not refused (exit $rc)" test "$rc" -le 1
assert "two results side by side" grep -q '2 results:' side.html

assert "no temporary output files left" sh -c "! ls -a | grep -q '\.tmp\.'"
table_end
