#!/bin/bash
# The CLI contract: --help/--version everywhere, exit 2 on bad usage.
. "$(dirname "$0")/lib.sh"
expect_rc 0 "$RTREADY" --help
expect_rc 0 "$RTREADY" --version
"$RTREADY" --version | grep -Eq '^rtready [0-9]+\.[0-9]+' || fail "--version output"
expect_rc 2 "$RTREADY"
expect_rc 2 "$RTREADY" no-such-command
expect_rc 2 "$RTREADY" chec   # no prefix matching
for cmd in $("$RTREADY" --help | awk '/^Commands:/{on=1;next} on && /^  [a-z]/{print $1}'); do
	expect_rc 0 "$RTREADY" "$cmd" --help
	expect_rc 0 "$RTREADY" "$cmd" --version
	expect_rc 2 "$RTREADY" "$cmd" --no-such-option
done
echo ok
