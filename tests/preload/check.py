#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Run one preload test program under `rtready run --check` and compare the
JSON report with what the program is meant to trigger.

usage: check.py [--expect ID]... [--records ID=N] [--each-count ID=N]
                [--frame ID=FUNCTION] [--obj ID=FILE] [--evidence ID=TEXT] [--in-child ID] [--min-procs N]
                [--attached yes|no] -- PROG [ARGS]

The set of finding ids must equal the --expect ids exactly (none given: no
finding at all). Exit 77 (skip) when not root: the programs need SCHED_FIFO.
"""
import json
import os
import subprocess
import sys
import tempfile


def fail(msg, report=None):
    print("FAIL: " + msg, file=sys.stderr)
    if report is not None:
        print(json.dumps(report, indent=1)[:6000], file=sys.stderr)
    sys.exit(1)


def main():
    args = sys.argv[1:]
    if "--" not in args:
        fail("usage: check.py [options] -- PROG [ARGS]")
    sep = args.index("--")
    opts, cmd = args[:sep], args[sep + 1:]
    expect, records, each, child, min_procs, attached = set(), {}, {}, set(), 1, "yes"
    frames, evidence, objs = {}, {}, {}
    i = 0
    while i < len(opts):
        o, v = opts[i], opts[i + 1]
        if o == "--expect":
            expect.add(v)
        elif o == "--records":
            k, n = v.split("=")
            records[k] = int(n)
        elif o == "--each-count":
            k, n = v.split("=")
            each[k] = int(n)
        elif o == "--frame":
            k, n = v.split("=")
            frames[k] = n
        elif o == "--obj":
            k, n = v.split("=", 1)
            objs[k] = n
        elif o == "--evidence":
            k, n = v.split("=", 1)
            evidence[k] = n
        elif o == "--in-child":
            child.add(v)
        elif o == "--min-procs":
            min_procs = int(v)
        elif o == "--attached":
            attached = v
        else:
            fail("unknown option " + o)
        i += 2
    if os.geteuid() != 0:
        print("SKIP: needs root for SCHED_FIFO", file=sys.stderr)
        sys.exit(77)
    rtready = os.environ["RTREADY"]
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "report.json")
        p = subprocess.run([rtready, "run", "--check", "--format", "json", "--report", out,
                            "--"] + cmd, capture_output=True, text=True, timeout=60)
        if p.returncode != 0:
            fail("rtready run exited %d\nstdout: %s\nstderr: %s" %
                 (p.returncode, p.stdout, p.stderr))
        with open(out) as f:
            report = json.load(f)
    found = report["findings"]
    ids = {f["id"] for f in found}
    if ids != expect:
        fail("finding ids %s, expected %s" % (sorted(ids), sorted(expect)), report)
    checker = report["checker"]
    if (attached == "yes") != checker["attached"]:
        fail("attached is %s, expected %s" % (checker["attached"], attached), report)
    if attached == "yes" and len(checker["processes"]) < min_procs:
        fail("%d processes attached, expected at least %d" %
             (len(checker["processes"]), min_procs), report)
    for k, n in records.items():
        got = sum(1 for f in found if f["id"] == k)
        if got != n:
            fail("%d records of %s, expected %d" % (got, k, n), report)
    for k, n in each.items():
        bad = [f["count"] for f in found if f["id"] == k and f["count"] != n]
        if bad:
            fail("%s counts %s, expected %d each" % (k, bad, n), report)
    top = report["program"]["pid"]
    for k in child:
        if any(f["pid"] == top for f in found if f["id"] == k):
            fail("%s attributed to the program itself, expected a child" % k, report)
    for k, name in frames.items():
        for f in found:
            if f["id"] == k and f["backtrace"][0].get("sym") != name:
                fail("%s: first frame %s, expected function %s" %
                     (k, f["backtrace"][0], name), report)
    for k, name in objs.items():
        for f in found:
            if f["id"] == k and not f["backtrace"][0].get("obj", "").endswith("/" + name):
                fail("%s: first frame in %s, expected the file %s" %
                     (k, f["backtrace"][0].get("obj"), name), report)
    for k, text in evidence.items():
        if not any(text in c["evidence"] for c in found if c["id"] == k):
            fail("no %s finding says '%s'" % (k, text), report)
    if len({(f["id"], f.get("tid"), f.get("site")) for f in found}) != len(found):
        fail("duplicate (id, tid, site) records", report)
    if attached == "yes":
        for f in found:
            if f["id"] != "app.checker" and not f.get("backtrace"):
                fail("%s has no backtrace" % f["id"], report)
    print("ok: %s" % (sorted(ids) or "no findings"))


main()
