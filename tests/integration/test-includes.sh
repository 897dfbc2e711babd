#!/bin/bash
# SPDX-License-Identifier: MIT
# docs/ARCHITECTURE.md's "Who may include what" table, enforced: every
# '#include "X/..."' in src/M/ must name M itself or a module the table lets
# M include. src/cli/ may include everything above it.
. "$(dirname "$0")/lib.sh"
cd "$SRCDIR" || exit 1
python3 - <<'PY'
import glob, os, re, sys

doc = open("docs/ARCHITECTURE.md").read()
rows = {}
for line in doc.splitlines():
    m = re.match(r"\| `src/(\w+)/` \| (.*?) \| (.*?) \|$", line)
    if m:
        rows[m.group(1)] = m.group(2)
if not rows:
    sys.exit("FAIL: no include table found in docs/ARCHITECTURE.md")

def allowed(mod):
    cell = rows[mod]
    if "everything above" in cell:
        return None
    names = set(re.findall(r"`src/(\w+)/", cell))
    if "include/rtready/" in cell:
        names.add("rtready")
    names |= {os.path.basename(h) for h in re.findall(r"`lib/([\w.]+)`", cell)}
    names.add(mod)
    return names

bad = 0
modules = sorted(d for d in os.listdir("src") if os.path.isdir(os.path.join("src", d)))
for mod in modules:
    if mod not in rows:
        print("FAIL: src/%s/ has no row in the include table" % mod)
        bad += 1
        continue
    ok = allowed(mod)
    if ok is None:
        continue
    for path in sorted(glob.glob("src/%s/*.[ch]" % mod)):
        for n, line in enumerate(open(path, errors="replace"), 1):
            m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
            if not m:
                continue
            inc = m.group(1)
            key = inc.split("/")[0] if "/" in inc else inc
            if key not in ok:
                print("FAIL: %s:%d includes \"%s\": not allowed for src/%s/" % (path, n, inc, mod))
                bad += 1
if bad:
    sys.exit(1)
print("ok: the includes of %d modules follow docs/ARCHITECTURE.md" % len(modules))
PY
