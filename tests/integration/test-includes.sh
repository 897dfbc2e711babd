#!/bin/bash
# SPDX-License-Identifier: MIT
# docs/ARCHITECTURE.md, enforced:
# - its "Who may include what" table: every '#include "X/..."' in src/M/
#   must name M itself or a module the table lets M include (src/cli/ may
#   include everything above it);
# - its table of the files that open files by name outside rootfs: no other
#   file of src/ or lib/ calls open, stat, access, mkdir and their kin;
# - src/cli/ holds no writable variable but the stop flag of common.c (read
#   from the symbol tables of the built objects);
# and every docs page the sources cite exists.
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
    names |= {os.path.basename(h) for h in re.findall(r"`preload/([\w.]+)`", cell)}
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

# Files that open, create or stat files by name: only those the table names.
openers = set()
for line in doc.splitlines():
    m = re.match(r"\| (`(?:src|lib)/[^|]*) \| .* \|$", line)
    if m:
        openers |= set(re.findall(r"`((?:src|lib)/[\w/.]+\.c)`", m.group(1)))
if not openers:
    sys.exit("FAIL: no table of the files that open files by name in docs/ARCHITECTURE.md")
by_name = re.compile(r"(?<![\w.>])(open|openat|openat2|fopen|freopen|opendir|stat|lstat|"
                     r"fstatat|statx|access|faccessat|euidaccess|mkdir|mkdirat|mkfifo|mknod|"
                     r"creat|mkstemp|mkostemp|unlink|unlinkat|rename|renameat|rmdir|"
                     r"realpath|readlink|readlinkat|symlink|symlinkat|link|linkat|chmod|"
                     r"chown|truncate|scandir|nftw|ftw)\s*\(")
def code_only(text):
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    return re.sub(r'"(?:\\.|[^"\\\n])*"', '""', text)
for path in sorted(glob.glob("src/*/*.c") + glob.glob("lib/*.c")):
    if path == "src/probe/rootfs.c" or path in openers:
        continue
    for n, line in enumerate(code_only(open(path, errors="replace").read()).splitlines(), 1):
        m = by_name.search(line)
        if m:
            print("FAIL: %s:%d calls %s(): files are opened through src/probe/rootfs.c, "
                  "or the file is listed in docs/ARCHITECTURE.md with its reason" %
                  (path, n, m.group(1)))
            bad += 1

# Every docs page a source cites exists (docs/X.md, or a bare NAME.md in docs/ or the top).
for path in sorted(glob.glob("src/*/*.[ch]") + glob.glob("lib/*.[ch]") +
                   glob.glob("include/rtready/*.h") + glob.glob("tests/*/*.[ch]") +
                   glob.glob("tests/*/*.py") + glob.glob("tests/*/*.sh")):
    if path.endswith("test-includes.sh"):
        continue
    for n, line in enumerate(open(path, errors="replace"), 1):
        for ref in re.findall(r"(?<![\w/.-])((?:docs/[\w/.-]+|[A-Z][A-Z_]+)\.md)\b", line):
            if not (os.path.exists(ref) or os.path.exists(os.path.join("docs", ref))):
                print("FAIL: %s:%d cites %s, which the repository does not have" %
                      (path, n, ref))
                bad += 1
if bad:
    sys.exit(1)
print("ok: the includes of %d modules and the file openers follow docs/ARCHITECTURE.md"
      % len(modules))
PY
[ $? -eq 0 ] || exit 1

# Writable variables of src/cli: only the stop flag of common.c.
objs=$(ls "$BUILDDIR"/src/librtready-core.a.p/cli_*.o "$BUILDDIR"/src/rtready.p/cli_*.o 2>/dev/null)
command -v objdump >/dev/null || skip "objdump missing: the state of src/cli is not checked"
[ -n "$objs" ] || skip "no built objects of src/cli under $BUILDDIR"
found=$(for o in $objs; do
	objdump -t "$o" | awk -v o="$(basename "$o")" '
		$3 == "O" && $4 ~ /^\.(data|bss|tdata|tbss)($|\.)/ && $4 !~ /^\.data\.rel\.ro/ {
			print o ": " $NF }'
done)
want="cli_common.c.o: stop_signal"
[ "$found" = "$want" ] || { echo "$found"; fail "src/cli holds writable variables other than the stop flag of common.c (docs/ARCHITECTURE.md)"; }
echo "ok: src/cli holds no writable variable but the stop flag"
