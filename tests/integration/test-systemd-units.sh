#!/bin/bash
# SPDX-License-Identifier: MIT
# rtready-verify.service (as this build configures it) and
# rtready-verify.timer pass `systemd-analyze verify` without a word, their
# man page included; the command line of the service is one that
# `rtready verify` accepts; and a unit with a misspelt key is caught, so the
# check cannot pass on anything. Both that service and the one
# `rtready tune --emit-boot` writes are sandboxed: `systemd-analyze security`
# rates each at most 4.0 (the same units without their sandbox are over it),
# and the emitted sandbox follows the paths it is given. Skipped without
# systemd-analyze.
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
cp "$SRCDIR/docs/man/rtready-verify.1" "$SRCDIR/docs/man/rtready-tune.1" "$T/man/man1/"
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

# ---- the sandboxes, measured
# score UNIT: the overall exposure `systemd-analyze security` gives it.
score() {
	timeout 60 systemd-analyze security --offline=true --no-pager "$1" >"$T/sec" 2>&1
	sed -n 's/^→ Overall exposure level for [^:]*: \([0-9.]*\) .*/\1/p' "$T/sec"
}
at_most() { # SCORE LIMIT
	awk -v s="$1" -v l="$2" 'BEGIN { exit !(s != "" && s + 0 <= l + 0) }'
}
"$RTREADY" tune --rt-cpus 1 --emit-boot "$T/boot" >/dev/null || fail "tune --emit-boot"
tune_unit=$T/boot/rtready-tune.service
for u in "$T/rtready-verify.service" "$tune_unit"; do
	s=$(score "$u")
	echo "systemd-analyze security: $(basename "$u") $s"
	at_most "$s" 4.0 || { cat "$T/sec"; fail "$(basename "$u") is rated ${s:-?}, above 4.0"; }
	# The limit bites: the same unit without its sandbox (the lines after
	# ExecStop=/ExecStart= up to the next section) is rated over it.
	awk '/^\[/ { cut = 0 } !cut { print } /^(ExecStop|TimeoutStartSec)=/ { cut = 1 }' "$u" \
		>"$T/bare.service"
	s=$(score "$T/bare.service")
	at_most "$s" 4.0 && { cat "$T/bare.service"; fail "$(basename "$u") without its sandbox is rated $s"; }
done
analyze "$tune_unit" || { cat "$T/out"; fail "systemd-analyze verify: the emitted unit"; }
# What the units must still reach (their jobs, see the comments in them).
key() { grep -qxF "$2" "$1" || fail "$(basename "$1") has no '$2'"; }
key "$unit" "CapabilityBoundingSet=CAP_SYS_NICE CAP_IPC_LOCK CAP_SYSLOG"
key "$unit" "DeviceAllow=/dev/cpu_dma_latency rw"
key "$unit" "ProtectSystem=strict"
key "$unit" "ReadWritePaths=-/var/lib/prometheus/node-exporter -/sys/kernel/tracing -/sys/kernel/debug/tracing"
grep -q '^RestrictRealtime=yes' "$unit" && fail "the verify unit forbids SCHED_FIFO"
key "$tune_unit" "ProtectSystem=strict"
key "$tune_unit" "CapabilityBoundingSet=CAP_SYS_NICE CAP_SYS_ADMIN CAP_DAC_OVERRIDE"
key "$tune_unit" "StateDirectory=rtready"
key "$tune_unit" "ReadWritePaths=-/etc/default -/etc/sysconfig"
key "$tune_unit" "PrivateTmp=yes"
grep -q '^ProtectKernelTunables=' "$tune_unit" && fail "the tune unit cannot write /proc/sys and /sys"
# A state directory of its own is the one writable path; irqbalance left
# alone, /etc stays read-only; a journal under /tmp keeps the real /tmp.
"$RTREADY" tune --rt-cpus 1 --no-irqbalance --state-dir "/srv/rt state" --emit-boot "$T/boot2" \
	>/dev/null || fail "tune --emit-boot --state-dir"
key "$T/boot2/rtready-tune.service" 'ReadWritePaths="-/srv/rt state"'
grep -q '^StateDirectory=' "$T/boot2/rtready-tune.service" && fail "StateDirectory= with --state-dir"
"$RTREADY" tune --rt-cpus 1 --state-dir "$T/st" --emit-boot "$T/boot3" >/dev/null ||
	fail "tune --emit-boot --state-dir under /tmp"
grep -q '^PrivateTmp=' "$T/boot3/rtready-tune.service" && [[ $T == /tmp/* ]] &&
	fail "a journal under /tmp is hidden by PrivateTmp="
for u in "$T/boot2/rtready-tune.service" "$T/boot3/rtready-tune.service"; do
	s=$(score "$u")
	at_most "$s" 4.0 || { cat "$T/sec"; fail "$u is rated ${s:-?}, above 4.0"; }
	analyze "$u" || { cat "$T/out"; fail "systemd-analyze verify: $u"; }
done
echo ok
