#!/bin/bash
# rtready verify as root on this machine, with short runs: the files it
# leaves (verify.json of the documented shape, report.html, junit.xml that
# validates against junit-10.xsd, metrics.prom), the verdict against --max-latency and the exit
# status that follows it, JSON on stdout, a clean stop on SIGTERM with
# partial results, and refusals before any measurement.
. "$(dirname "$0")/lib.sh"
need_root
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
ncpus=$(nproc)

# A generous limit: every CPU is a threshold, and all of them pass.
rc=0
timeout 60 "$RTREADY" verify -q --duration 1s --report "$T/a" --max-latency 1h >"$T/a.out" 2>"$T/a.err" || rc=$?
[ "$rc" -le 1 ] || { cat "$T/a.err"; fail "verify exited $rc"; }
for f in verify.json report.html junit.xml metrics.prom; do
	[ -s "$T/a/$f" ] || fail "verify did not write $f"
done
grep -q "^Report: .*/a/report.html" "$T/a.out" || fail "the report path is not on screen"
grep -q "^Verdict: " "$T/a.out" || fail "no verdict line"
grep -q "under load (all)" "$T/a.out" || fail "no loaded latency in the summary"
python3 - "$T/a/verify.json" "$ncpus" "$rc" <<'PY' || fail "verify.json has the wrong shape"
import json, sys
d = json.load(open(sys.argv[1])); n = int(sys.argv[2]); rc = int(sys.argv[3])
assert d["tool"] == "rtready" and d["command"] == "verify", d.get("command")
assert d["host"]["hostname"] and d["host"]["kernel"]
assert len(d["check"]["checks"]) > 0 and "summary" in d["check"]
pi = [c for c in d["check"]["checks"] if c["id"] == "sync.priority_inheritance"]
assert pi and pi[0]["status"] == "pass", pi
for key, load in (("latency_idle", None), ("latency_load", "all")):
    lat = d[key]
    assert lat["config"].get("load") == load, (key, lat["config"].get("load"))
    assert len(lat["threads"]) == n, (key, len(lat["threads"]))
    for t in lat["threads"]:
        # 1 s at 1 ms: about 1000 wake-ups (a loaded VM may miss some).
        assert 500 <= t["samples"] <= 1100, (key, t["cpu"], t["samples"])
        assert t["min_ns"] <= t["p50_ns"] <= t["p99_ns"] <= t["max_ns"], t
        assert sum(c for _, c in t["histogram"]["counts"]) + t["overflows"] == t["samples"], t["cpu"]
assert d["latency_load"]["load"]["kind"] == "all"
v = d["verdict"]
assert v["status"] in ("pass", "warn", "fail") and v["reason"]
assert len(v["thresholds"]) == 2 * n and all(t["status"] == "pass" for t in v["thresholds"])
fails = sum(c["status"] == "fail" for c in d["check"]["checks"])
assert (v["status"] == "fail") == (fails > 0), (v["status"], fails)
assert rc == (1 if v["status"] == "fail" else 0), (rc, v["status"])
PY
xmllint --noout --schema "$SRCDIR/tests/schema/junit-10.xsd" "$T/a/junit.xml" ||
	fail "junit.xml does not validate against junit-10.xsd"
[ "$(grep -c '<testcase classname="rtready.latency' "$T/a/junit.xml")" -eq $((2 * ncpus)) ] ||
	fail "one JUnit case per CPU and run expected"
grep -q '^rtready_latency_max_seconds{host=".*",cpu="0",phase="load"} ' "$T/a/metrics.prom" ||
	fail "metrics.prom lacks the loaded maximum of CPU 0"
[ "$(grep -c '<svg class="hist"' "$T/a/report.html")" -eq "$ncpus" ] || fail "one plot per CPU expected"

# An impossible limit fails the verdict, and the exit status says so.
expect_rc 1 "$RTREADY" verify -q --duration 500ms --report "$T/b" --max-latency 1us --load cpu
python3 -c 'import json,sys; v=json.load(open(sys.argv[1]))["verdict"]; assert v["status"] == "fail" and "exceeds the 1 us limit" in v["reason"], v' \
	"$T/b/verify.json" || fail "a 1 us limit did not fail"

# --format json: the document on stdout, the report path on stderr.
# --prometheus: the metrics also go to a collector's file, which is
# replaced (temp file and rename: no half-written file is ever read).
mkdir "$T/textfile" && echo "old" >"$T/textfile/rtready.prom"
rc=0
timeout 60 "$RTREADY" verify --format json --duration 500ms --report "$T/c" --load hackbench \
	--prometheus "$T/textfile/rtready.prom" >"$T/c.json" 2>"$T/c.err" || rc=$?
[ "$rc" -le 1 ] || { cat "$T/c.err"; fail "verify --format json exited $rc"; }
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["command"] == "verify" and "verdict" in d' \
	"$T/c.json" || fail "stdout is not the verify document"
grep -q "Report: " "$T/c.err" || fail "the report path is not on stderr with --format json"
cmp -s "$T/c/metrics.prom" "$T/textfile/rtready.prom" ||
	fail "--prometheus file differs from metrics.prom"
[ "$(ls "$T/textfile")" = rtready.prom ] || fail "a temporary file was left: $(ls "$T/textfile")"

# SIGTERM in the middle of a run: a prompt stop, exit 2, partial results written, no load left.
"$RTREADY" verify -q --duration 20s --report "$T/d" >"$T/d.out" 2>"$T/d.err" &
pid=$!
sleep 3
kill -TERM "$pid"
start=$(date +%s)
rc=0
wait "$pid" || rc=$?
[ $(( $(date +%s) - start )) -le 5 ] || fail "verify took more than 5 s to stop after SIGTERM"
[ "$rc" -eq 2 ] || { cat "$T/d.err"; fail "verify exited $rc after SIGTERM, expected 2"; }
grep -q "interrupted" "$T/d.err" || fail "no word about the interruption"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d.get("interrupted") is True, d.keys()' \
	"$T/d/verify.json" || fail "partial results not marked interrupted"
grep -q "Interrupted:" "$T/d/report.html" || fail "the page does not say the run was interrupted"
sleep 0.5
pgrep -f "rtready verify" >/dev/null && fail "a verify process is still running"

# Refused before measuring: a report path that is a file, a bad CPU list, bad options.
touch "$T/file"
start=$(date +%s%N)
expect_rc 2 "$RTREADY" verify -q --duration 5s --report "$T/file"
[ $(( ($(date +%s%N) - start) / 1000000 )) -lt 3000 ] || fail "refusal came after a measurement"
expect_rc 2 "$RTREADY" verify -q --rt-cpus 4095 --report "$T/e"
expect_rc 2 "$RTREADY" verify -q --report "$T/f" --prometheus "$T/nodir/rtready.prom"
[ ! -e "$T/f" ] || fail "an unwritable --prometheus was found only after the report directory"
expect_rc 2 "$RTREADY" verify --prometheus ""
expect_rc 2 "$RTREADY" verify --duration 0
expect_rc 2 "$RTREADY" verify --load everything
expect_rc 2 "$RTREADY" verify --max-latency fast
expect_rc 2 "$RTREADY" verify --trace          # needs --max-latency
echo ok
