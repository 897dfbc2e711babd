#!/bin/bash
# SPDX-License-Identifier: MIT
# Every JSON document rtready writes holds to its schema in docs/schema/:
# check (live and on every fixture tree), latency, inspect, run, pi, tune,
# verify (stdout and verify.json), load, plan, noise and the snapshot metadata.
# Validated with Debian's python3-jsonschema; a broken copy must fail.
. "$(dirname "$0")/lib.sh"
need_root
PY=/usr/bin/python3
$PY -c 'import jsonschema' 2>/dev/null || skip "python3-jsonschema is not installed"
R=$RTREADY
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cd "$T" || exit 1

"$R" check --format json >doc-check.json || true
for tree in "$SRCDIR"/tests/fixtures/*/; do
	[ -d "$tree/proc" ] || [ -d "$tree/sys" ] || continue
	"$R" check --root "$tree" --format json >"doc-check-$(basename "$tree").json" 2>/dev/null ||
		true
done
"$R" latency -D 200ms -i 1000 --format json >doc-latency.json || true
"$R" latency -D 200ms --policy deadline --runtime 100 --period 1000 --format json \
	>doc-latency-deadline.json || true
# --trace and --trace-all (a 1 us threshold: every wake-up is a hit), where tracing works.
"$R" latency -D 200ms -b 1 --trace --trace-file "$T/tr.txt" --format json \
	>doc-latency-trace.json 2>/dev/null || true
"$R" latency -D 200ms -b 1 --trace-all --format json >doc-latency-trace-all.json 2>/dev/null ||
	true
"$R" inspect --all -w 0 --format json >doc-inspect.json 2>/dev/null || true
"$R" pi --format json >doc-pi.json || true
"$R" run --check --format json -- /bin/true 2>doc-run.json || true
"$R" tune --rt-cpus 1 --format json >doc-tune.json || true
"$R" tune --status --state-dir "$T/state" --format json >doc-tune-status.json || true
"$R" load -D 200ms -c 1 --format json >doc-load.json 2>/dev/null || true
"$R" plan --format json >doc-plan.json 2>/dev/null || true
last=$($PY -c 'import os; print(max(os.sched_getaffinity(0)))')
if [ "$last" -gt 0 ]; then
	"$R" noise -a "$last" -D 200ms --format json >doc-noise.json 2>/dev/null || true
fi
"$R" verify -D 200ms -q -r "$T/v" --format json >doc-verify.json 2>/dev/null || true
cp "$T/v/verify.json" doc-verify-file.json
"$R" snapshot "$T/snap" >/dev/null 2>&1 || true
cp "$T/snap/rtready-snapshot.json" doc-snapshot.json

$PY - "$SRCDIR/docs/schema" "$T"/doc-*.json <<'PY'
import copy, json, sys
import jsonschema

schema_dir, docs = sys.argv[1], sys.argv[2:]
bad = seen = 0
commands = set()
for path in docs:
    try:
        doc = json.load(open(path))
    except ValueError as e:
        print("FAIL: %s is not JSON: %s" % (path, e))
        bad += 1
        continue
    cmd = doc.get("command")
    commands.add(cmd)
    schema = json.load(open("%s/%s.schema.json" % (schema_dir, cmd)))
    try:
        jsonschema.validate(doc, schema)
        seen += 1
    except jsonschema.ValidationError as e:
        print("FAIL: %s (%s): %s at %s" % (path, cmd, e.message[:200], list(e.absolute_path)))
        bad += 1
    # The schema must be able to say no.
    broken = copy.deepcopy(doc)
    broken["schema_version"] = 999
    try:
        jsonschema.validate(broken, schema)
        print("FAIL: %s accepts schema_version 999" % cmd)
        bad += 1
    except jsonschema.ValidationError:
        pass
want = {"check", "latency", "inspect", "run", "pi", "tune", "load", "plan", "verify",
        "snapshot"}
# noise keeps a CPU to housekeeping: it needs two.
if len(__import__("os").sched_getaffinity(0)) > 1:
    want.add("noise")
if want - commands:
    print("FAIL: no document of %s" % sorted(want - commands))
    bad += 1
print("%d documents valid, %d failures, commands: %s" % (seen, bad, " ".join(sorted(commands))))
sys.exit(1 if bad else 0)
PY
