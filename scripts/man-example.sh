#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Make man/reclaim-replay-policy.7 from its .in file, with the source of
# examples/senpai-chunk.c as the EXAMPLE, escaped for troff (backslash,
# hyphen, a leading dot or quote).  --extract PAGE prints the example of a
# page (its first .EX block) back as C source (tests/cli/t82-plugins.sh
# compares it with the file).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
if [ "${1:-}" = --extract ]; then
	sed -n '/^\.EX$/,/^\.EE$/{p;/^\.EE$/q}' "$2" | sed '1d;$d' |
		sed -e 's/^\\&//' -e 's/\\-/-/g' -e 's/\\e/\\/g'
	exit 0
fi
src=$top/examples/senpai-chunk.c
out=$top/man/reclaim-replay-policy.7
sed -e 's/\\/\\e/g' -e 's/-/\\-/g' -e "s/^\\([.']\\)/\\\\\&\\1/" "$src" >"$out.example"
awk -v ex="$out.example" '
	$0 == "@EXAMPLE@" { while ((getline l < ex) > 0) print l; next }
	{ print }' "$top/man/reclaim-replay-policy.7.in" >"$out.tmp"
rm -f "$out.example"
mv "$out.tmp" "$out"
