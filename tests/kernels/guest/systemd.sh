# SPDX-License-Identifier: MIT
# The systemd scenario (x86_64-rt-systemd), run by rtr-step.service under
# systemd as PID 1 in a Debian image: one step per boot, the step number
# kept on the disk. Judged by matrix.py (judge_systemd). Boots 1-3 use the
# release tarball (blocks s1-, s2-, s3-), boots 3-5 the .deb (d1-, d2-, d3-):
#   apply (1, 3): tune --apply, --emit-boot, install the emitted unit and
#      sysctl file, enable the unit; reboot.
#   check (2, 4): the unit put the settings back at boot;
#      rtready-verify.service runs (it sees the checklist as rtready check
#      does outside it), the node exporter serves its textfile, and with a
#      failed verdict (exit 1) it is still no unit failure;
#      the unit stopped (its revert) and disabled, tune --revert, the unit
#      and sysctl files removed; reboot.
#   clean (3, 5): nothing is left: the values are the first boot's, no
#      unit, no file, and the journal has no error of either unit. Boot 3
#      then removes the tarball's verify unit and installs the .deb
#      (dpkg -i, offline: its dependencies are in the image); boot 5 powers
#      off.
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
# The binary under test: the tarball's (its real path: the unit must name
# the binary, not the symlink) until boot 3 installs the package.
if [ "$n" -le 3 ]; then
	R=$(readlink -f /opt/rtready/bin/rtready)
else
	R=/usr/bin/rtready
fi
units="-u rtready-tune.service -u rtready-verify.service"
show() { systemctl show -p LoadState -p ActiveState -p SubState -p Result -p ExecMainStatus "$1"; }

# The node exporter's /metrics (bash's /dev/tcp: the image has no HTTP
# client), its rtready series and what it says of the textfile collector.
scrape() {
	systemctl cat prometheus-node-exporter.service >/dev/null 2>&1 ||
		{ echo "no node exporter"; return; }
	systemctl start prometheus-node-exporter.service
	for _ in $(seq 60); do
		{ exec 3<>/dev/tcp/127.0.0.1/9100; } 2>/dev/null && break
		sleep 0.5
	done
	printf 'GET /metrics HTTP/1.0\r\nHost: localhost\r\n\r\n' >&3 &&
		grep -E '^(rtready_|node_textfile_)' <&3 >/tmp/rtr.scrape
	exec 3>&-
	# The collector's own series and the verdict; the rest counted (the serial line is slow).
	grep -E '^(node_textfile_|rtready_verdict)' /tmp/rtr.scrape
	echo "rtready series: $(grep -c '^rtready_' /tmp/rtr.scrape)"
}

# apply P: tune --apply with $R, emit the boot files, enable the unit.
apply() {
	p=$1
	capture "$p-tunables-boot" tunables
	capture "$p-irqbalance" cat /etc/default/irqbalance
	run "$p-apply" 300 "$R" tune --rt-cpus 2-3 --apply
	capture "$p-tunables-applied" tunables
	capture "$p-irqbalance-applied" cat /etc/default/irqbalance
	run "$p-emit" 120 "$R" tune --rt-cpus 2-3 --emit-boot /root/boot
	capture "$p-unit" cat /root/boot/rtready-tune.service
	install -m 644 /root/boot/rtready-tune.service /etc/systemd/system/
	install -m 644 /root/boot/90-rtready.conf /etc/sysctl.d/
	run "$p-enable" 120 systemctl enable rtready-tune.service
}

# check P: the boot unit's work, the verify service, then revert.
check() {
	p=$1
	capture "$p-tunables-boot" tunables
	capture "$p-irqbalance" cat /etc/default/irqbalance
	capture "$p-tune-unit" show rtready-tune.service
	run "$p-status" 120 "$R" tune --status --format json
	capture "$p-tune-log" journalctl -b --no-pager -o cat -u rtready-tune.service
	# The node exporter's textfile directory, as its package makes it.
	mkdir -p /var/lib/prometheus/node-exporter
	systemctl daemon-reload
	capture "$p-verify-fragment" systemctl show -P FragmentPath rtready-verify.service
	run "$p-verify" 1200 systemctl start rtready-verify.service
	capture "$p-verify-unit" show rtready-verify.service
	capture "$p-verify-status" systemctl status --no-pager -l rtready-verify.service
	capture "$p-verify-files" ls -la /var/lib/rtready /var/lib/rtready/verify /var/lib/prometheus/node-exporter
	capture "$p-prom" grep -E '^rtready_(verdict|check_status)' /var/lib/prometheus/node-exporter/rtready.prom
	capture "$p-scrape" scrape
	# Only its checklist (the histograms would take minutes on the serial line).
	capture "$p-verify-checks" sed -n '/^  "check": {/,/^  },$/p' /var/lib/rtready/verify/verify.json
	# The same checklist outside the sandbox: the unit must see what it sees.
	run "$p-check" 300 "$R" check --format json
	# A failed verdict (a 1 us latency limit, as a drop-in would set one):
	# exit 1 is the verdict, not a failure of the unit. The unit's file is
	# asked for before the drop-in exists: systemd loads a drop-in it sees
	# half-written ("no ExecStart=", an error in the journal).
	frag=$(systemctl show -P FragmentPath rtready-verify.service)
	mkdir -p /etc/systemd/system/rtready-verify.service.d
	{
		echo "[Service]"
		echo "ExecStart="
		sed -n 's/^ExecStart=\(.*\)$/ExecStart=\1 --max-latency 1/p' "$frag"
		# What systemd saw of the run, kept where the sandbox lets it write.
		echo "ExecStopPost=/bin/sh -c 'echo \$\$SERVICE_RESULT \$\$EXIT_CODE \$\$EXIT_STATUS >/var/lib/rtready/exit'"
	} >/etc/systemd/system/rtready-verify.service.d/limit.conf
	capture "$p-verify-dropin" cat /etc/systemd/system/rtready-verify.service.d/limit.conf
	systemctl daemon-reload
	run "$p-verify-fail" 1200 systemctl start rtready-verify.service
	capture "$p-verify-fail-unit" show rtready-verify.service
	capture "$p-verify-fail-exit" cat /var/lib/rtready/exit
	rm -f /var/lib/rtready/exit
	capture "$p-prom-fail" grep -E '^rtready_verdict' /var/lib/prometheus/node-exporter/rtready.prom
	rm -r /etc/systemd/system/rtready-verify.service.d
	systemctl daemon-reload
	# Stopping runs the unit's own revert (ExecStop), in its sandbox: it
	# puts back irqbalance's file too. Then tune --revert finds nothing to do.
	run "$p-disable" 300 systemctl disable --now rtready-tune.service
	capture "$p-tune-stopped" show rtready-tune.service
	capture "$p-irqbalance-stopped" cat /etc/default/irqbalance
	run "$p-revert" 300 "$R" tune --revert
	rm -f /etc/systemd/system/rtready-tune.service /etc/sysctl.d/90-rtready.conf
	systemctl daemon-reload
	capture "$p-tunables-reverted" tunables
	capture "$p-irqbalance-reverted" cat /etc/default/irqbalance
}

# clean P: nothing is left after the reboot.
clean() {
	p=$1
	capture "$p-tunables-boot" tunables
	capture "$p-irqbalance" cat /etc/default/irqbalance
	capture "$p-tune-unit" show rtready-tune.service
	run "$p-status" 120 "$R" tune --status --format json
	capture "$p-leftovers" ls -A /etc/systemd/system/sysinit.target.wants /etc/sysctl.d
	# Every boot's messages (the journal is persistent): none at error level.
	# shellcheck disable=SC2086 # two -u options
	capture "$p-errors" journalctl --no-pager -o short-iso -p err $units
	# shellcheck disable=SC2086
	capture "$p-unit-log" journalctl --no-pager -o short-iso $units
	capture "$p-boots" journalctl --list-boots --no-pager
}
case $n in
1)
	# The verify unit as shipped in the tarball's tree (its @bindir@ the tarball's).
	install -m 644 /rtr/rtready-verify.service /rtr/rtready-verify.timer /etc/systemd/system/
	apply s1
	;;
2)
	check s2
	;;
3)
	clean s3
	# From here on the package: its binary, its own verify unit.
	rm -f /etc/systemd/system/rtready-verify.service /etc/systemd/system/rtready-verify.timer
	run d1-dpkg 300 dpkg -i /rtr/rtready.deb
	# shellcheck disable=SC2016 # dpkg-query's own ${field} syntax
	capture d1-package dpkg-query -W -f '${Package} ${Version} ${db:Status-Status}\n' rtready
	systemctl daemon-reload
	R=/usr/bin/rtready
	apply d1
	;;
4)
	check d2
	;;
5)
	clean d3
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
if [ "$n" -lt 5 ]; then
	systemctl --no-block --job-mode=replace-irreversibly start reboot.target
else
	systemctl --no-block --job-mode=replace-irreversibly start poweroff.target
fi
