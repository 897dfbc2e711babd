#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The committed rt-good and rt-bad trees are exactly what tools/gen-fixtures.py writes.

Regenerates both trees into a temporary directory and compares them file by
file with tests/fixtures (expected.json, written by hand, is not generated).
This keeps the trees consistent with their generator (edit the script, not
the files) and proves the script is deterministic.

    check-generated.py [SRCDIR]
"""

import filecmp
import os
import subprocess
import sys
import tempfile

TREES = ("rt-good", "rt-bad")
HAND_WRITTEN = ("expected.json",)


def files(root):
    out = set()
    for d, dirs, names in os.walk(root):
        dirs.sort()
        for n in names:
            rel = os.path.relpath(os.path.join(d, n), root)
            if rel not in HAND_WRITTEN:
                out.add(rel)
    return out


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else os.environ.get(
        "SRCDIR", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    gen = os.path.join(src, "tools", "gen-fixtures.py")
    problems = []
    with tempfile.TemporaryDirectory(prefix="rtr-gen-") as tmp:
        subprocess.run([sys.executable, gen, "fixtures", tmp], check=True,
                       stdout=subprocess.DEVNULL, timeout=120)
        for name in TREES:
            want, have = os.path.join(tmp, name), os.path.join(src, "tests", "fixtures", name)
            a, b = files(want), files(have)
            for rel in sorted(a - b):
                problems.append("%s/%s: generated but not committed" % (name, rel))
            for rel in sorted(b - a):
                problems.append("%s/%s: committed but not generated" % (name, rel))
            for rel in sorted(a & b):
                if not filecmp.cmp(os.path.join(want, rel), os.path.join(have, rel),
                                   shallow=False):
                    problems.append("%s/%s: differs from what the generator writes" % (name, rel))
    if problems:
        print("The committed trees differ from tools/gen-fixtures.py's output; run\n"
              "  python3 tools/gen-fixtures.py fixtures\nand commit the result "
              "(or undo the hand edits):")
        print("  " + "\n  ".join(problems[:50]))
        if len(problems) > 50:
            print("  ... and %d more" % (len(problems) - 50))
        return 1
    print("ok: %s match tools/gen-fixtures.py" % ", ".join(TREES))
    return 0


if __name__ == "__main__":
    sys.exit(main())
