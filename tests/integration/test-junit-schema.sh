#!/bin/bash
# SPDX-License-Identifier: MIT
# rtready report --junit against the Jenkins xunit plugin's junit-10.xsd
# (tests/schema/, MIT, kept unchanged): every kind of result the report
# takes (check, latency, both merged, verify before/after, a latency limit,
# --strict, hostile text) gives a file that validates with xmllint --schema.
# A document the schema refuses (skipped on <testsuites>) is refused, so a
# validator that accepts anything cannot pass this test.
. "$(dirname "$0")/lib.sh"
command -v xmllint >/dev/null || skip "xmllint missing (libxml2-utils)"
XSD="$SRCDIR/tests/schema/junit-10.xsd"
FIX="$SRCDIR/tests/fixtures/results"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

valid() { # FILE
	xmllint --noout --schema "$XSD" "$1" >"$T/xmllint.out" 2>&1 || {
		cat "$T/xmllint.out"
		fail "$1 does not validate against junit-10.xsd"
	}
}

# report exits 1 when a result failed; both are results, 2 is not.
junit() { # NAME ARGS...
	local name=$1 rc=0
	shift
	timeout 60 "$RTREADY" report "$@" --junit "$T/$name.xml" >/dev/null 2>"$T/$name.err" || rc=$?
	[ "$rc" -le 1 ] || { cat "$T/$name.err"; fail "report for $name exited $rc"; }
	[ -s "$T/$name.xml" ] || fail "report for $name wrote no JUnit file"
	valid "$T/$name.xml"
}

junit check "$FIX/check.json"
junit latency "$FIX/latency-idle.json"
junit merged "$FIX/check.json" "$FIX/latency-idle.json" "$FIX/latency-load.json"
junit before-after "$FIX/verify-before.json" "$FIX/verify-after.json"
junit limit "$FIX/verify-after.json" --max-latency 10us
junit strict "$FIX/check.json" --strict
junit hostile "$FIX/hostile.json"
echo '{"tool":"rtready","command":"check","checks":[{"id":"a.b","status":"skip"}]}' >"$T/s.json"
junit skipped "$T/s.json"
grep -q '<skipped' "$T/skipped.xml" || fail "a skipped check is not a skipped test case"

# The attributes CI systems read: time on both levels, a timestamp per suite.
grep -q '<testsuites [^>]*time="' "$T/merged.xml" || fail "no time on <testsuites>"
grep -q '<testsuite [^>]*timestamp="[0-9-]*T[0-9:]*"' "$T/merged.xml" ||
	fail "no ISO 8601 timestamp on <testsuite>"

# The schema bites: skipped is not an attribute of <testsuites> in junit-10.
sed 's/<testsuites /<testsuites skipped="1" /' "$T/merged.xml" >"$T/bad.xml"
if xmllint --noout --schema "$XSD" "$T/bad.xml" >/dev/null 2>&1; then
	fail "junit-10.xsd accepted skipped on <testsuites>"
fi
echo "9 JUnit files valid against junit-10.xsd"
