#!/bin/bash
# SPDX-License-Identifier: MIT
# The bash completion (data/bash-completion/rtready), driven as bash does:
# COMP_WORDS and COMP_CWORD set, _rtready called, COMPREPLY checked.
# Commands, options and values complete; and for every command, the options
# offered are exactly those its --help lists, and the options that take a
# value are exactly those --help shows with one. Both come from the
# command's option table (src/cli/opt.c, `rtready --complete`); this checks
# that the script reads that table right.
. "$(dirname "$0")/lib.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# `rtready` on PATH is the binary under test (the completion asks it for
# the check ids).
mkdir "$T/bin" && ln -s "$RTREADY" "$T/bin/rtready"
PATH=$T/bin:$PATH
# shellcheck source=../../data/bash-completion/rtready
. "$SRCDIR/data/bash-completion/rtready"
complete -p rtready >/dev/null || fail "the script does not register a completion for rtready"
pass=0
ok() { pass=$((pass + 1)); }

# comp WORD...: complete the last word; the sorted replies in $got.
comp() {
	COMP_WORDS=("$@")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMP_LINE="$*"
	COMP_POINT=${#COMP_LINE}
	COMPREPLY=()
	_rtready rtready "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
	got=$(printf '%s\n' "${COMPREPLY[@]}" | sort -u | tr '\n' ' ')
	got=${got% }
}
is() { # WANT WORD...: the replies are exactly WANT (sorted, space-separated)
	local want=$1
	shift
	comp "$@"
	[ "$got" = "$want" ] || fail "'$*<TAB>' offered '$got', expected '$want'"
	ok
}
has() { # ITEM WORD...: the replies include ITEM
	local item=$1
	shift
	comp "$@"
	[[ " $got " == *" $item "* ]] || fail "'$*<TAB>' offered '$got', not '$item'"
	ok
}
lacks() { # ITEM WORD...
	local item=$1
	shift
	comp "$@"
	[[ " $got " != *" $item "* ]] || fail "'$*<TAB>' offered '$item'"
	ok
}

# Commands: exactly those of `rtready --help`.
commands=$("$RTREADY" --help | sed -n '/^Commands:/,/^$/s/^  \([a-z]\+\) .*/\1/p' | sort | tr '\n' ' ')
[ -n "$commands" ] || fail "no command list in rtready --help"
is "${commands% }" rtready ''
is check rtready ch
is "--help --version" rtready --
is "" rtready nosuch --

# Values.
is "deadline fifo other rr" rtready run --policy ''
is "deadline fifo rr" rtready latency --policy ''
is "json text" rtready check --format ''
is "json text" rtready check -f ''
is "json text" rtready verify --format=''
is "json text" rtready verify --format = ''
is "json" rtready inspect --format j
is "all cpu hackbench memory" rtready verify --load ''
is "all cpu hackbench memory" rtready latency --load ''
has irq.affinity rtready check --only irq.
has irq rtready check --only ''
has irq.affinity rtready check --skip irq.
has kernel.preempt,irq.affinity rtready check --only kernel.preempt,irq.
lacks kernel.preempt rtready check --only irq.
has auto rtready check --rt-cpus ''
has auto rtready latency -a ''
# load -f is --fds N (no format), snapshot -f is --force.
is "" rtready load -f ''
lacks json rtready snapshot -f ''
is "unlimited" rtready run --memlock-limit u
has lo rtready plan --near ''
has $$ rtready tune --pid ''
has $$ rtready inspect ''
comm=$(cat /proc/$$/comm)
has "$comm" rtready inspect --name ''
# Files and directories.
mkdir "$T/dir" && : >"$T/r1.json" && : >"$T/notes.txt"
has "$T/dir" rtready check --root "$T/d"
lacks "$T/r1.json" rtready check --root "$T/"
has "$T/notes.txt" rtready check --output "$T/n"
has "$T/r1.json" rtready report "$T/"
lacks "$T/notes.txt" rtready report "$T/"
has "$T/dir" rtready snapshot "$T/"
has "$T/dir" rtready verify --report "$T/d"
# run: options before the program, then the program and its own words.
has --policy rtready run --pol
has sleep rtready run --policy fifo -p 80 slee
has sleep rtready run -- slee
has sleep rtready run --cpus=1 slee
lacks --policy rtready run sleep --pol
is "" rtready run --prio ''

# Every command's options, and those taking a value, match its --help.
for cmd in $commands; do
	"$RTREADY" "$cmd" --help >"$T/help" || fail "$cmd --help failed"
	# Option lines: "  -c, --rt-cpus LIST  text", "      --only AREA|ID  text",
	# "  -s, --strict  text", "  -t, --threads [N]  text".
	grep -oE '^ {2,6}(-[A-Za-z0-9], )?--[a-z0-9-]+( [A-Z][^ ]*| \[[A-Z]+\])?' "$T/help" \
		>"$T/optlines"
	want=$(grep -oE -- '(^| )--?[A-Za-z0-9][a-z0-9-]*' "$T/optlines" | tr -d ' ' | sort -u |
		tr '\n' ' ')
	want=${want% }
	comp rtready "$cmd" -
	[ "$got" = "$want" ] || {
		diff <(tr ' ' '\n' <<<"$want") <(tr ' ' '\n' <<<"$got")
		fail "$cmd: the completion's options differ from --help (< help, > completion)"
	}
	ok
	# A value is an upper-case word after the option; [N] is optional, not one.
	wantv=$(grep -E ' [A-Z][^ ]*$' "$T/optlines" | grep -oE -- '(^| )--?[A-Za-z0-9][a-z0-9-]*' |
		tr -d ' ' | sort -u | tr '\n' ' ')
	gotv=$(for o in $want; do _rtready_takes_value "$cmd" "$o" && printf "%s\n" "$o"; done |
		sort -u | tr '\n' ' ')
	[ "$gotv" = "$wantv" ] || fail "$cmd: options taking a value: help '$wantv', completion '$gotv'"
	ok
	if grep -q -- '--format FMT' "$T/help"; then
		is "json text" rtready "$cmd" --format ''
	fi
done
echo "$pass completion cases passed"
