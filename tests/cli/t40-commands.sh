#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# --version, -h on every command, `policies`, and the man pages agree with -h.
. "$(dirname "$0")/../lib.sh"

check "--version" sh -c "'$RR' --version | grep -Eq '^reclaim-replay [0-9]+\.[0-9]+\.[0-9]+$'"
check "-h lists the commands" sh -c "'$RR' -h | grep -q '^  compare '"
for cmd in record compare report merge policies; do
	check "$cmd -h exits 0" "$RR" "$cmd" -h
	"$RR" "$cmd" -h >"$TMP/h.txt"
	usage=$(head -1 "$TMP/h.txt" | sed 's/^usage: //')
	check "man page of $cmd shows the -h synopsis" \
		grep -qF -- "$(echo "$usage" | sed 's/-/\\-/g')" "$TOP/man/reclaim-replay-$cmd.1"
	# every long option of -h is documented in the man page
	for opt in $(grep -o -- '--[a-z-]*' "$TMP/h.txt" | sort -u); do
		check "man reclaim-replay-$cmd documents $opt" \
			grep -qF -- "$(echo "$opt" | sed 's/-/\\-/g')" "$TOP/man/reclaim-replay-$cmd.1"
	done
done
"$RR" policies >"$TMP/pol.txt"
for p in kernel original roundup-all whole-remainder online-roundup cluster-cap proportional proportional-v1; do
	check "policies lists $p" grep -q "^$p " "$TMP/pol.txt"
done
check "policies names the commits" grep -q '76073c646f5f' "$TMP/pol.txt"
check "man pages render" sh -c "for f in '$TOP'/man/*.[15]; do MANWIDTH=80 man -l \"\$f\" >/dev/null 2>\"$TMP/man.err\" || exit 1; test ! -s \"$TMP/man.err\" || exit 1; done"

finish
