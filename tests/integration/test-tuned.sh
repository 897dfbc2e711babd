#!/bin/bash
# sys.tuned and tune's tuned warning on the fixture trees: rt-bad runs tuned
# with throughput-performance (check warns, the dry run of tune says so on
# stderr, a snapshot keeps /etc/tuned), rt-good has no tuned (pass, no line).
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip "no python3"
fx=$SRCDIR/tests/fixtures
tmp=$(mktemp -d /tmp/rtr-tuned-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# status TREE: the status and evidence of sys.tuned on TREE.
status() {
	"$RTREADY" check --root "$1" --only sys.tuned --format json |
		python3 -c 'import json,sys; c=json.load(sys.stdin)["checks"][0]; print(c["status"], c["evidence"])'
}

got=$(status "$fx/rt-bad")
case $got in "warn "*"profile 'throughput-performance' (auto)"*) ;; *) fail "rt-bad: $got" ;; esac
got=$(status "$fx/rt-good")
case $got in "pass "*) ;; *) fail "rt-good: $got" ;; esac

# A snapshot keeps the files and gives the same verdict.
"$RTREADY" snapshot --root "$fx/rt-bad" "$tmp/snap" >/dev/null 2>&1 || fail "snapshot rt-bad"
[ "$(cat "$tmp/snap/etc/tuned/active_profile")" = throughput-performance ] ||
	fail "snapshot: no /etc/tuned/active_profile"
[ -f "$tmp/snap/etc/tuned/profile_mode" ] || fail "snapshot: no /etc/tuned/profile_mode"
got=$(status "$tmp/snap")
case $got in "warn "*"throughput-performance"*) ;; *) fail "snapshot of rt-bad: $got" ;; esac

# tuned-adm off (an empty file) with the daemon still running: pass.
cp -r "$fx/rt-bad" "$tmp/off"
: >"$tmp/off/etc/tuned/active_profile"
got=$(status "$tmp/off")
case $got in "pass "*"tuned-adm off"*) ;; *) fail "tuned-adm off: $got" ;; esac

# tune (dry run, text and JSON) warns on stderr only where a profile is active.
"$RTREADY" tune --root "$fx/rt-bad" --rt-cpus 2-3 >"$tmp/out" 2>"$tmp/err" ||
	fail "tune --root rt-bad"
grep -q "warning: .*tuned profile 'throughput-performance' is active" "$tmp/err" ||
	{ cat "$tmp/err"; fail "tune: no tuned warning on rt-bad"; }
grep -q "tuned profile" "$tmp/out" && fail "tune: the tuned warning went to stdout"
"$RTREADY" tune --root "$fx/rt-bad" --rt-cpus 2-3 --format json >"$tmp/out" 2>"$tmp/err" ||
	fail "tune --format json on rt-bad"
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$tmp/out" ||
	fail "tune --format json: the warning broke the JSON"
grep -q "tuned profile 'throughput-performance'" "$tmp/err" || fail "tune json: no warning"
"$RTREADY" tune --root "$fx/rt-good" --rt-cpus 2-3 >"$tmp/out" 2>"$tmp/err" ||
	fail "tune --root rt-good"
grep -q "tuned" "$tmp/err" && { cat "$tmp/err"; fail "tune: a tuned warning on rt-good"; }
"$RTREADY" tune --root "$tmp/off" --rt-cpus 2-3 >"$tmp/out" 2>"$tmp/err" || fail "tune off"
grep -q "tuned profile" "$tmp/err" && fail "tune: a warning after tuned-adm off"
echo "tuned: all cases passed"
