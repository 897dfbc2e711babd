#!/bin/sh
# Install the Debian packages named as arguments that are not installed yet.
# As root it runs apt-get; otherwise it says what is missing and fails.
set -eu
missing=""
for p in "$@"; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
		missing="$missing $p"
	fi
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
	echo "rtready: missing Debian packages:$missing" >&2
	echo "rtready: run as root, or: sudo apt-get install$missing" >&2
	exit 1
fi
echo "rtready: installing:$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $missing >/dev/null
