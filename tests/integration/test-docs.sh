#!/bin/bash
# docs/ stays true: every check id has a reference entry, every command a man
# page, and every man page and entry is for something that exists.
. "$(dirname "$0")/lib.sh"
cd "$SRCDIR" || fail "no source dir"
missing=0
for id in $("$RTREADY" check --list | awk '{print $1}'); do
	[ -f "docs/checks/$id.md" ] || { echo "no docs/checks/$id.md"; missing=1; }
done
for cmd in $("$RTREADY" --help | awk '/^Commands:/{on=1;next} on && /^  [a-z]/{print $1}'); do
	[ -f "docs/man/rtready-$cmd.1" ] || { echo "no docs/man/rtready-$cmd.1"; missing=1; }
	grep -q "^\.B $cmd\$" docs/man/rtready.1 || { echo "rtready.1 does not list $cmd"; missing=1; }
	# The man page documents every long option that --help lists.
	for opt in $("$RTREADY" "$cmd" --help | grep -oE -- '--[a-z][a-z0-9-]+' | grep -vxE -- '--(help|version)' | sort -u); do
		grep -q -- "$(echo "$opt" | sed 's/-/\\\\-/g')" "docs/man/rtready-$cmd.1" ||
			grep -q -- "$opt" "docs/man/rtready-$cmd.1" ||
			{ echo "rtready-$cmd.1 does not mention $opt"; missing=1; }
	done
done
[ -f docs/man/rtready.1 ] && [ -f docs/man/rtready.3 ] || { echo "no rtready(1) or rtready(3)"; missing=1; }
[ "$missing" -eq 0 ] || fail "docs out of date"
echo ok
