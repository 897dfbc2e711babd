#!/bin/bash
# A check never passes on data it did not read. Every check id of
# `rtready check --list` runs on trees that hold nothing usable: an empty
# root, and trees shaped like real machines (rt-good, rt-bad and a snapshot
# of this host) with every file emptied, filled with NULs, or replaced by a
# directory. Each check must say skip (or info), never pass, warn or fail,
# with and without RT CPUs declared.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip "no python3"
fx=$SRCDIR/tests/fixtures
tmp=$(mktemp -d /tmp/rtr-unreadable-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

"$RTREADY" check --list >"$tmp/ids" || fail "check --list"
cut -d' ' -f1 "$tmp/ids" >"$tmp/want"
[ "$(wc -l <"$tmp/want")" -ge 30 ] || fail "check --list: too few ids"

# shapes SRC NAME: NAME-empty, NAME-nul and NAME-dirs, shaped like SRC.
shapes() {
	local src=$1 name=$2
	cp -r "$src" "$tmp/$name-empty" || fail "copy $src"
	rm -f "$tmp/$name-empty/expected.json" "$tmp/$name-empty/README.md"
	find "$tmp/$name-empty" -type l -delete
	find "$tmp/$name-empty" -type f -exec truncate -s 0 {} +
	cp -r "$tmp/$name-empty" "$tmp/$name-nul"
	find "$tmp/$name-nul" -type f -exec truncate -s 64 {} +
	cp -r "$tmp/$name-empty" "$tmp/$name-dirs"
	find "$tmp/$name-dirs" -type f -print0 |
		while IFS= read -r -d '' f; do rm -f "$f" && mkdir "$f"; done
}

mkdir "$tmp/bare"
trees="bare"
for src in rt-good rt-bad; do
	shapes "$fx/$src" "$src"
	trees="$trees $src-empty $src-nul $src-dirs"
done
if [ "$(id -u)" -eq 0 ]; then
	"$RTREADY" snapshot "$tmp/host" >/dev/null 2>&1 || fail "snapshot of this host"
	shapes "$tmp/host" host
	trees="$trees host-empty host-nul host-dirs"
fi

for t in $trees; do
	for opts in "" "--rt-cpus 1" "--rt-cpus 0-1"; do
		rc=0
		# shellcheck disable=SC2086
		timeout 60 "$RTREADY" check --root "$tmp/$t" --format json $opts >"$tmp/got.json" \
			2>"$tmp/err" || rc=$?
		[ "$rc" -eq 0 ] || { cat "$tmp/err"; fail "$t ($opts): exit $rc, expected 0"; }
		python3 - "$tmp/got.json" "$tmp/want" "$t $opts" <<'PY' || fail "$t ($opts)"
import json, sys
doc = json.load(open(sys.argv[1]))
want = [l.strip() for l in open(sys.argv[2]) if l.strip()]
got = {c["id"]: c for c in doc["checks"]}
bad = ["%s: not run" % i for i in want if i not in got]
for i, c in got.items():
    if c["status"] not in ("skip", "info"):
        bad.append("%s: %s on unreadable input (%s)" % (i, c["status"], c["evidence"][:300]))
    elif not c["evidence"]:
        bad.append("%s: %s without evidence" % (i, c["status"]))
if bad:
    print(sys.argv[3] + ":\n  " + "\n  ".join(bad))
    sys.exit(1)
PY
	done
done
echo "unreadable: $(wc -l <"$tmp/want") checks on $(echo $trees | wc -w) trees: none passed"
