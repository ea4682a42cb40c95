#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The documentation: make install / make uninstall under DESTDIR and PREFIX
# (every file, its mode, the pkg-config file); a page for every command and
# format; the options of each command's -h against its page's SYNOPSIS and
# OPTIONS; every example command of README.md and of the pages' EXAMPLES
# runs; the pages lint clean (groff -ww, mandoc -T lint).
. "$(dirname "$0")/../lib.sh"

# make as a user runs it, not inheriting the flags of a `make check` above
mk() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$TOP" "$@"; }
version=$("$RR" --version | sed -n 's/^reclaim-replay //p')
pages=$(cd "$TOP" && ls man/*.[157])

# ---- (a) make install and make uninstall under DESTDIR --------------------
root=$TMP/root
if [ ! -x "$TOP/reclaim-replay" ]; then
	skip "make install: no $TOP/reclaim-replay built (make reclaim-replay); the test does not build it"
else
	before=$(stat -c %Y "$TOP/reclaim-replay")
	# -o reclaim-replay: install the binary as built, never relink it here
	# (make asan runs this test with another binary)
	check "make install DESTDIR=... PREFIX=/usr" \
		mk -o reclaim-replay install DESTDIR="$root" PREFIX=/usr
	check_eq "make install did not rebuild the binary" "$before" "$(stat -c %Y "$TOP/reclaim-replay")"
	{
		echo "755 usr/bin/reclaim-replay"
		echo "644 usr/include/reclaim-replay/policy.h"
		echo "644 usr/share/pkgconfig/reclaim-replay.pc"
		for p in $pages; do
			echo "644 usr/share/man/man${p##*.}/${p##*/}"
		done
	} | sort -k2 >"$TMP/want"
	(cd "$root" && find . -type f -printf '%m %P\n' | sort -k2) >"$TMP/got"
	check "exactly these files, with these modes: $(tr '\n' ' ' <"$TMP/want")" \
		diff "$TMP/want" "$TMP/got"
	check "the installed binary is the built one" cmp "$TOP/reclaim-replay" "$root/usr/bin/reclaim-replay"
	check "the installed header is include/reclaim-replay/policy.h" \
		cmp "$TOP/include/reclaim-replay/policy.h" "$root/usr/include/reclaim-replay/policy.h"
	for p in $pages; do
		check "installed ${p##*/} is the tree's" cmp "$TOP/$p" "$root/usr/share/man/man${p##*.}/${p##*/}"
	done
	check_eq "man finds markers(5) in the installed tree" \
		"$root/usr/share/man/man5/reclaim-replay-markers.5" \
		"$(man -w -M "$root/usr/share/man" 5 reclaim-replay-markers 2>&1)"
	pc() { PKG_CONFIG_SYSROOT_DIR=$root PKG_CONFIG_LIBDIR=$root/usr/share/pkgconfig pkg-config "$@"; }
	check_eq ".pc: includedir" "/usr/include" \
		"$(PKG_CONFIG_LIBDIR=$root/usr/share/pkgconfig pkg-config --variable=includedir reclaim-replay)"
	check_eq ".pc: version is the binary's" "$version" "$(pc --modversion reclaim-replay)"
	check_eq "pkg-config --cflags (sysroot)" "-I$root/usr/include" \
		"$(pc --cflags reclaim-replay | sed 's/ *$//')"
	check "a plug-in compiles with pkg-config --cflags alone" sh -c \
		"cc -std=gnu11 -Wall -Werror -fsyntax-only $(pc --cflags reclaim-replay) '$TOP/examples/senpai-chunk.c'"
	check "make uninstall with the same DESTDIR and PREFIX" \
		mk uninstall DESTDIR="$root" PREFIX=/usr
	check_eq "no file is left" "" "$(cd "$root" && find . -type f)"
	check_eq "nor the header's directory" "" "$(find "$root" -path '*reclaim-replay*')"
	check "make uninstall again is no error" mk uninstall DESTDIR="$root" PREFIX=/usr
fi

# ---- a page for every command and format ----------------------------------
cmds=$("$RR" -h | sed -n '/^commands:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p')
check_eq "-h lists the six commands" "record compare report merge verify policies" "$(echo $cmds)"
for c in $cmds; do
	check "$c has a page" test -f "$TOP/man/reclaim-replay-$c.1"
done
for p in reclaim-replay.1 reclaim-replay-json.5 reclaim-replay-scenario.5 \
	reclaim-replay-markers.5 reclaim-replay-policy.7; do
	check "man/$p exists" test -f "$TOP/man/$p"
done

# ---- (b) the options of -h and of the page agree ---------------------------
# options: words -x or --xx, at the start or after a space, '[', '|', ','
# or '(' (so "reclaim-replay" is no option and "--" alone is none)
opts() { grep -oE -- '(^|[][ |,(])--?[a-zA-Z][a-zA-Z0-9-]*' | sed 's/^[^-]*//' | sort -u; }
# the -h text's usage line and its option lines (indented, starting with -)
help_opts() { "$RR" "$@" -h | sed -n -e '1s/^usage: //p' -e '/^ \{1,8\}-/p' | opts; }
# the page's SYNOPSIS and the tag line after each .TP/.TQ of OPTIONS
man_opts() {
	awk '/^\.SH/ { sec = $2; next }
		sec == "SYNOPSIS" && !/^\.\\"/ { print }
		sec == "OPTIONS" && tag { print; tag = 0 }
		sec == "OPTIONS" && /^\.T[PQ]/ { tag = 1 }' "$1" |
		sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/\\f([A-Z][A-Z]//g' -e 's/"//g' | opts
}
check_eq "reclaim-replay -h and reclaim-replay(1)" "$(help_opts | tr '\n' ' ')" \
	"$(man_opts "$TOP/man/reclaim-replay.1" | tr '\n' ' ')"
for c in $cmds; do
	h=$(help_opts "$c" | tr '\n' ' ')
	m=$(man_opts "$TOP/man/reclaim-replay-$c.1" | tr '\n' ' ')
	check_eq "$c -h and reclaim-replay-$c(1) have the same options" "$h" "$m"
	case $h in *--help*) ;; *) fail "$c -h lists no --help: the parse found nothing real ($h)" ;; esac
done

# ---- (c) every example runs ------------------------------------------------
# Each page (and README.md) runs in a fresh directory holding what the
# examples name: the bundled traces and scenarios, trace.dat, the built
# plug-ins, hosts/*.dat, BIGFILE; reclaim-replay is $RR on the PATH.
can_record=
root_ok() {	# can a root example run? (probed once, as tests/root/t61 does)
	if [ -z "$can_record" ]; then
		can_record=no
		if [ "$(id -u)" -ne 0 ]; then
			why="not root"
		elif ! grep -qw tracefs /proc/filesystems; then
			why="no tracefs in this kernel"
		elif ! "$RR" record -q --duration 1 -o "$TMP/probe.dat" >"$TMP/probe.out" 2>&1; then
			why="record cannot run here: $(grep -m1 '^reclaim-replay:' "$TMP/probe.out")"
		else
			can_record=yes
		fi
	fi
	[ "$can_record" = yes ]
}
scratch() {
	local d=$TMP/ex-$1 f
	mkdir -p "$d/bin" "$d/examples" "$d/hosts"
	ln -s "$RR" "$d/bin/reclaim-replay"
	ln -s "$RR" "$d/reclaim-replay"
	ln -s "$TOP/traces" "$TOP/scenarios" "$d/"
	ln -s "$TOP/traces/anon-swap.dat" "$d/trace.dat"
	ln -s "$TOP/traces/anon-swap.dat" "$d/hosts/host1.dat"
	ln -s "$TOP/traces/file-limit.dat" "$d/hosts/host2.dat"
	for f in "$TOP"/examples/*.c "$BUILD"/examples/*.so; do
		[ -e "$f" ] && ln -s "$f" "$d/examples/"
	done
	ln -s "$BUILD/examples/policy-example.so" "$d/mypolicy.so"
	ln -s "$BUILD/examples/senpai-chunk.so" "$d/senpai-chunk.so"
	head -c 4M /dev/zero >"$d/BIGFILE"
	echo "$d"
}
# run_block DIR NAME: the commands of $TMP/block, one per line (joined)
run_block() {
	local d=$1 name=$2 cmd n=0
	if grep -qE '(^|[ ;&|])sudo |reclaim-replay record|/sys/kernel/tracing' "$TMP/block"; then
		if ! root_ok; then
			skip "$name: needs root and tracefs ($why): $(head -1 "$TMP/block")"
			return
		fi
	fi
	while IFS= read -r cmd; do
		n=$((n + 1))
		# tiny durations, a cgroup name of its own, no sudo (root already)
		cmd=$(printf '%s' "$cmd" | sed -E -e 's/(^|[ ;&|])sudo /\1/' \
			-e "s/--cgroup [^ ]+/--cgroup rr-t86-$$-$n/" \
			-e 's/reclaim-replay record /reclaim-replay record --duration 5 /')
		# a block of output or of a file, left unmarked, is no command
		if ! PATH="$d/bin:$PATH" command -v "${cmd%% *}" >/dev/null; then
			fail "$name: '${cmd%% *}' is no command: mark the block '.\\\" t86: text'"
			continue
		fi
		check "$name: $cmd" env -C "$d" PATH="$d/bin:$PATH" bash -o pipefail -c "$cmd"
	done <"$TMP/block.cmds"
}
# join continued lines: a trailing \ or |, or an open single quote
join_lines() {
	awk '{ line = (acc == "" ? $0 : acc " " $0)
		q = gsub(/\047/, "\047", line)
		if (line ~ /\\$/) { sub(/\\$/, "", line); acc = line; next }
		if (line ~ /(\||&&)[ \t]*$/ || q % 2) { acc = line; next }
		print line; acc = "" }'
}
# the man pages: .EX/.EE blocks of EXAMPLE(S), unless the comment line
# before the block says '.\" t86: text', 't86: file NAME' or 't86: skip WHY'
nblocks=0
for p in $pages; do
	d=$(scratch "${p##*/}")
	awk -v out="$TMP/mblk" '
		/^\.SH/ { sec = $2 }
		sec !~ /^EXAMPLES?$/ { next }
		/^\.\\" t86: / { mark = $0; sub(/^\.\\" t86: /, "", mark); next }
		/^\.EX/ { n++; f = out "." n; printf "%s\n", (mark == "" ? "run" : mark) > (f ".kind"); mark = ""; inex = 1; next }
		/^\.EE/ { inex = 0; next }
		inex { gsub(/\\-/, "-"); gsub(/\\\(aq/, "\047"); gsub(/\\\(dq/, "\""); gsub(/\\&/, "");
			gsub(/\\e/, "\\"); print > (f ".txt") }' "$TOP/$p"
	for k in "$TMP"/mblk.*.kind; do
		[ -e "$k" ] || continue
		nblocks=$((nblocks + 1))
		kind=$(cat "$k")
		cp "${k%.kind}.txt" "$TMP/block"
		case $kind in
		run) join_lines <"$TMP/block" >"$TMP/block.cmds"; run_block "$d" "${p##*/} example" ;;
		text) ;;
		file\ *) cp "$TMP/block" "$d/${kind#file }" ;;
		skip\ *) skip "${p##*/} example not run, ${kind#skip }: $(head -1 "$TMP/block")" ;;
		*) fail "${p##*/}: unknown t86 mark '$kind'" ;;
		esac
	done
	rm -f "$TMP"/mblk.*
done
check "the pages' EXAMPLES blocks were found (>= 10: $nblocks)" test "$nblocks" -ge 10
# README.md: in ```sh blocks, the lines starting with ./reclaim-replay
# (after a '$ ' prompt or sudo); the first block, the set-up, is not run
d=$(scratch README)
awk -v out="$TMP/rblk" '
	/^```sh/ { n++; insh = 1; next }
	/^```/ { insh = 0; next }
	insh && n > 1 { print > (out "." n) }' "$TOP/README.md"
nreadme=0
for b in $(ls "$TMP"/rblk.* 2>/dev/null | sort -t. -k2 -n); do
	join_lines <"$b" | sed -n 's/^\$ //; /^\(sudo \)\{0,1\}\.\/reclaim-replay /p' >"$TMP/block.cmds"
	[ -s "$TMP/block.cmds" ] || continue
	nreadme=$((nreadme + $(wc -l <"$TMP/block.cmds")))
	cp "$TMP/block.cmds" "$TMP/block"
	run_block "$d" "README"
done
check "README's examples were found (>= 8: $nreadme)" test "$nreadme" -ge 8

# ---- (d) the pages lint clean ----------------------------------------------
for p in $pages; do
	check "groff -ww -man -z ${p##*/}: no warning" \
		sh -c "groff -ww -man -z '$TOP/$p' 2>&1 | { ! grep .; }"
done
if command -v mandoc >/dev/null 2>&1; then
	for p in $pages; do
		check "mandoc -T lint ${p##*/}: clean" sh -c "mandoc -T lint -W style '$TOP/$p' 2>&1 | { ! grep .; }"
	done
else
	skip "mandoc is not installed (make test-deps installs it): the pages are not linted with it"
fi

finish
