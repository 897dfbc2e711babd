#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Golden test of `rtready check --root` on every machine tree with an expected.json.

For each directory under tests/fixtures that holds an expected.json
({"args": [...], "checks": {"id": "status", ...}, "summary": {...}}), run
`rtready check --root TREE --format json ARGS` and compare each check's
status (not its evidence text, which may be reworded) and the summary with
the expected file. Also hold the output to the JSON contract (one object,
unique ids, known statuses, a summary that counts the checks) and the exit
status to the checks: 1 when one failed, else 0; with --strict, 1 when one
warned too. The trees are found at run time, so a new tree with an
expected.json is tested without reconfiguring. A mismatch prints a diff a
person can act on: which check, what it said, what was expected, and why.

    check-golden.py [FIXTURES_DIR]   ($RTREADY is the binary)
"""

import json
import os
import subprocess
import sys

STATUSES = ("pass", "warn", "fail", "info", "skip")
TIMEOUT_S = 60


def run(rtready, tree, args, strict):
    cmd = [rtready, "check", "--root", tree, "--format", "json"] + args
    if strict:
        cmd.append("--strict")
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=TIMEOUT_S, check=False)
    return cmd, p.returncode, p.stdout.decode("utf-8", "replace"), \
        p.stderr.decode("utf-8", "replace")


def contract(doc, problems):
    """The parts of the JSON envelope (docs/CONTRACTS.md) this test relies on."""
    if not isinstance(doc, dict) or doc.get("tool") != "rtready" or \
            doc.get("command") != "check":
        problems.append("output is not a check envelope (tool/command)")
        return {}
    checks, seen = {}, set()
    for c in doc.get("checks", []):
        cid, st = c.get("id"), c.get("status")
        if cid in seen:
            problems.append("check id %r appears twice" % cid)
        seen.add(cid)
        if st not in STATUSES:
            problems.append("%s: unknown status %r" % (cid, st))
        for field in ("area", "title", "evidence", "why", "fix"):
            if not isinstance(c.get(field), str):
                problems.append("%s: field %r missing or not a string" % (cid, field))
        checks[cid] = c
    counted = {s: 0 for s in STATUSES}
    for c in checks.values():
        if c.get("status") in counted:
            counted[c["status"]] += 1
    if doc.get("summary") != counted:
        problems.append("summary %s does not count the checks %s" % (doc.get("summary"), counted))
    return checks


def compare(name, expected, got, problems):
    want = expected["checks"]
    for cid in want:
        if cid not in got:
            problems.append("%s: missing from the output (expected %s)" % (cid, want[cid]))
            continue
        c = got[cid]
        if c["status"] != want[cid]:
            problems.append("%s: got %s, expected %s\n      evidence: %s"
                            % (cid, c["status"], want[cid], c["evidence"][:600]))
    for cid in got:
        if cid not in want:
            problems.append("%s: a check not in %s/expected.json (status %s): add it there"
                            % (cid, name, got[cid]["status"]))


def check_tree(rtready, fixtures, name):
    tree = os.path.join(fixtures, name)
    with open(os.path.join(tree, "expected.json"), encoding="utf-8") as f:
        expected = json.load(f)
    args = expected.get("args", [])
    problems = []
    cmd, rc, out, err = run(rtready, tree, args, False)
    try:
        doc = json.loads(out)
    except ValueError as e:
        return ["'%s' exited %d without valid JSON (%s); stderr: %s"
                % (" ".join(cmd), rc, e, err.strip()[:2000])]
    got = contract(doc, problems)
    compare(name, expected, got, problems)
    if "summary" in expected and expected["summary"] != doc.get("summary"):
        problems.append("summary: got %s, expected %s" % (doc.get("summary"), expected["summary"]))
    failed = any(c.get("status") == "fail" for c in got.values())
    warned = any(c.get("status") == "warn" for c in got.values())
    if rc != (1 if failed else 0):
        problems.append("exit status %d, expected %d (%s); stderr: %s"
                        % (rc, 1 if failed else 0, "a check failed" if failed else
                           "no check failed", err.strip()[:2000]))
    elif err.strip():
        problems.append("unexpected stderr: %s" % err.strip()[:2000])
    cmd, rc, out, err = run(rtready, tree, args, True)
    if rc != (1 if failed or warned else 0):
        problems.append("with --strict: exit status %d, expected %d; stderr: %s"
                        % (rc, 1 if failed or warned else 0, err.strip()[:2000]))
    return problems


def main():
    rtready = os.environ.get("RTREADY")
    if not rtready:
        print("check-golden: set RTREADY to the rtready binary", file=sys.stderr)
        return 2
    here = os.path.dirname(os.path.abspath(__file__))
    fixtures = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "fixtures")
    names = sorted(n for n in os.listdir(fixtures)
                   if os.path.isfile(os.path.join(fixtures, n, "expected.json")))
    if not names:
        print("check-golden: no tree with an expected.json under %s" % fixtures,
              file=sys.stderr)
        return 1
    bad = 0
    for name in names:
        try:
            problems = check_tree(rtready, fixtures, name)
        except subprocess.TimeoutExpired:
            problems = ["rtready check did not finish within %d s" % TIMEOUT_S]
        except (OSError, ValueError, KeyError) as e:
            problems = ["cannot run the comparison: %s" % e]
        if problems:
            bad += 1
            print("FAIL %s:\n  %s" % (name, "\n  ".join(problems)))
        else:
            print("ok   %s" % name)
    print("%d of %d trees match their expected.json" % (len(names) - bad, len(names)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
