# SPDX-License-Identifier: MIT
# The systemd scenario (x86_64-rt-systemd), run by rtr-step.service under
# systemd as PID 1 in a Debian image: one step per boot, the step number
# kept on the disk. Judged by matrix.py (judge_systemd).
#   1: install the release tarball, tune --apply, --emit-boot, install the
#      emitted unit and sysctl file, enable the unit; reboot.
#   2: the unit put the settings back at boot; rtready-verify.service runs
#      (it sees the checklist as rtready check does outside it), and with a
#      failed verdict (exit 1) is still no unit failure;
#      the unit stopped (its revert) and disabled, tune --revert, the unit
#      and sysctl files removed; reboot.
#   3: nothing is left: the values are the first boot's, no unit, no file,
#      and the journal has no error of either unit; power off.
export PATH=/usr/sbin:/usr/bin:/sbin:/bin NO_COLOR=1 HOME=/root TERM=dumb
# Tasks are not compared across boots (their ids change).
export RTR_NO_TASKS=1
. /rtr/common.sh
state=/var/lib/rtr-step
n=$(cat "$state" 2>/dev/null || echo 1)
echo "@@RTR-STEP $n"
mkdir -p /opt
[ -x /opt/rtready/bin/rtready ] || {
	tar xzf /rtr/rtready.tar.gz -C /opt && ln -sfn "$(cd /opt && ls -d rtready-*-x86_64 | tail -1)" /opt/rtready
}
# The real path (the unit must name the binary, not the symlink).
R=$(readlink -f /opt/rtready/bin/rtready)
units="-u rtready-tune.service -u rtready-verify.service"
show() { systemctl show -p LoadState -p ActiveState -p SubState -p Result -p ExecMainStatus "$1"; }
case $n in
1)
	capture s1-tunables-boot tunables
	capture s1-irqbalance cat /etc/default/irqbalance
	run s1-apply 300 "$R" tune --rt-cpus 2-3 --apply
	capture s1-tunables-applied tunables
	capture s1-irqbalance-applied cat /etc/default/irqbalance
	run s1-emit 120 "$R" tune --rt-cpus 2-3 --emit-boot /root/boot
	capture s1-unit cat /root/boot/rtready-tune.service
	install -m 644 /root/boot/rtready-tune.service /etc/systemd/system/
	install -m 644 /root/boot/90-rtready.conf /etc/sysctl.d/
	run s1-enable 120 systemctl enable rtready-tune.service
	;;
2)
	capture s2-tunables-boot tunables
	capture s2-irqbalance cat /etc/default/irqbalance
	capture s2-tune-unit show rtready-tune.service
	run s2-status 120 "$R" tune --status --format json
	capture s2-tune-log journalctl -b --no-pager -o cat -u rtready-tune.service
	# rtready-verify.service as shipped (its @bindir@ the tarball's), with
	# the node exporter's textfile directory as its package makes it.
	mkdir -p /var/lib/prometheus/node-exporter
	install -m 644 /rtr/rtready-verify.service /rtr/rtready-verify.timer /etc/systemd/system/
	systemctl daemon-reload
	run s2-verify 1200 systemctl start rtready-verify.service
	capture s2-verify-unit show rtready-verify.service
	capture s2-verify-status systemctl status --no-pager -l rtready-verify.service
	capture s2-verify-files ls -la /var/lib/rtready /var/lib/rtready/verify /var/lib/prometheus/node-exporter
	capture s2-prom grep -E '^rtready_(verdict|check_status)' /var/lib/prometheus/node-exporter/rtready.prom
	# Only its checklist (the histograms would take minutes on the serial line).
	capture s2-verify-checks sed -n '/^  "check": {/,/^  },$/p' /var/lib/rtready/verify/verify.json
	# The same checklist outside the sandbox: the unit must see what it sees.
	run s2-check 300 "$R" check --format json
	# A failed verdict (a 1 us latency limit, as a drop-in would set one):
	# exit 1 is the verdict, not a failure of the unit.
	mkdir -p /etc/systemd/system/rtready-verify.service.d
	{
		echo "[Service]"
		echo "ExecStart="
		sed -n 's/^ExecStart=\(.*\)$/ExecStart=\1 --max-latency 1/p' \
			/etc/systemd/system/rtready-verify.service
		# What systemd saw of the run, kept where the sandbox lets it write.
		echo "ExecStopPost=/bin/sh -c 'echo \$\$SERVICE_RESULT \$\$EXIT_CODE \$\$EXIT_STATUS >/var/lib/rtready/exit'"
	} >/etc/systemd/system/rtready-verify.service.d/limit.conf
	capture s2-verify-dropin cat /etc/systemd/system/rtready-verify.service.d/limit.conf
	systemctl daemon-reload
	run s2-verify-fail 1200 systemctl start rtready-verify.service
	capture s2-verify-fail-unit show rtready-verify.service
	capture s2-verify-fail-exit cat /var/lib/rtready/exit
	rm -f /var/lib/rtready/exit
	capture s2-prom-fail grep -E '^rtready_verdict' /var/lib/prometheus/node-exporter/rtready.prom
	rm -r /etc/systemd/system/rtready-verify.service.d
	systemctl daemon-reload
	# Stopping runs the unit's own revert (ExecStop), in its sandbox: it
	# puts back irqbalance's file too. Then tune --revert finds nothing to do.
	run s2-disable 300 systemctl disable --now rtready-tune.service
	capture s2-tune-stopped show rtready-tune.service
	capture s2-irqbalance-stopped cat /etc/default/irqbalance
	run s2-revert 300 "$R" tune --revert
	rm -f /etc/systemd/system/rtready-tune.service /etc/sysctl.d/90-rtready.conf
	systemctl daemon-reload
	capture s2-tunables-reverted tunables
	capture s2-irqbalance-reverted cat /etc/default/irqbalance
	;;
3)
	capture s3-tunables-boot tunables
	capture s3-irqbalance cat /etc/default/irqbalance
	capture s3-tune-unit show rtready-tune.service
	run s3-status 120 "$R" tune --status --format json
	capture s3-leftovers ls -A /etc/systemd/system/sysinit.target.wants /etc/sysctl.d
	# Every boot's messages (the journal is persistent): none at error level.
	# shellcheck disable=SC2086 # two -u options
	capture s3-errors journalctl --no-pager -o short-iso -p err $units
	# shellcheck disable=SC2086
	capture s3-unit-log journalctl --no-pager -o short-iso $units
	capture s3-boots journalctl --list-boots --no-pager
	;;
esac
echo $((n + 1)) >"$state"
sync
echo "@@RTR-DONE $(cut -d' ' -f1 /proc/uptime)"
# What the UART still holds must reach the host before QEMU stops.
stty -F /dev/ttyS0 "$(stty -F /dev/ttyS0 -g)" 2>/dev/null
sleep 1
# Straight to PID 1 (systemctl reboot would ask logind first, over D-Bus,
# which this image has not).
if [ "$n" -lt 3 ]; then
	systemctl --no-block --job-mode=replace-irreversibly start reboot.target
else
	systemctl --no-block --job-mode=replace-irreversibly start poweroff.target
fi
