#!/bin/bash
# SPDX-License-Identifier: MIT
# rtready-verify.service (as this build configures it) and
# rtready-verify.timer pass `systemd-analyze verify` without a word, their
# man page included; the command line of the service is one that
# `rtready verify` accepts; and a unit with a misspelt key is caught, so the
# check cannot pass on anything. Skipped without systemd-analyze.
. "$(dirname "$0")/lib.sh"
command -v systemd-analyze >/dev/null || skip "systemd-analyze missing"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
unit=$BUILDDIR/data/rtready-verify.service
timer=$SRCDIR/data/systemd/rtready-verify.timer
[ -f "$unit" ] || fail "$unit was not configured"

# The binary under test stands for the installed one (the unit names
# PREFIX/bin/rtready, which need not exist here); man:rtready-verify(1) is
# looked up in the source tree's pages.
mkdir -p "$T/man/man1"
cp "$SRCDIR/docs/man/rtready-verify.1" "$T/man/man1/"
grep -q "^ExecStart=.*/bin/rtready verify " "$unit" || fail "no ExecStart of rtready verify"
sed "s|^ExecStart=[^ ]*|ExecStart=$RTREADY|" "$unit" >"$T/rtready-verify.service"
cp "$timer" "$T/"
analyze() { # UNIT...: systemd-analyze verify, which must say nothing
	local rc=0
	MANPATH=$T/man timeout 60 systemd-analyze verify "$@" >"$T/out" 2>&1 || rc=$?
	[ "$rc" -eq 0 ] && [ ! -s "$T/out" ]
}
analyze "$T/rtready-verify.service" "$T/rtready-verify.timer" ||
	{ cat "$T/out"; fail "systemd-analyze verify found problems in the units"; }

# The service's command line parses (--help after it: parsed, nothing run).
args=$(sed -n 's/^ExecStart=[^ ]* verify //p' "$unit")
# shellcheck disable=SC2086 # the unit's words, split as systemd splits them
expect_rc 0 "$RTREADY" verify $args --help
# The path it writes is the node exporter's textfile directory, a .prom file.
[[ " $args " == *" --prometheus /var/lib/prometheus/node-exporter/"*".prom "* ]] ||
	fail "the service does not write the node exporter's textfile directory: $args"
grep -q '^StateDirectory=rtready$' "$unit" || fail "/var/lib/rtready is not the unit's state directory"
grep -q '^WantedBy=timers.target$' "$timer" || fail "the timer cannot be enabled"

# The check bites: a misspelt key is reported.
sed 's/^OnCalendar=/OnCalender=/' "$timer" >"$T/bad.timer"
sed "s|^ExecStart=[^ ]*|ExecStart=$RTREADY|" "$unit" >"$T/bad.service"
analyze "$T/bad.timer" && fail "systemd-analyze accepted a misspelt key"
grep -q "OnCalender" "$T/out" || { cat "$T/out"; fail "the misspelt key is not named"; }
echo ok
