#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Dependency detection (scripts/deps.sh, make's library check), with fake
# pkg-config / apt-get / id on PATH so nothing is really installed.
. "$(dirname "$0")/../lib.sh"

fake=$TMP/bin
mkdir -p "$fake"
# pkg-config that knows every library except jansson
cat >"$fake/pkg-config" <<'EOS'
#!/bin/sh
for a in "$@"; do case $a in jansson) exit 1;; esac; done
exec /usr/bin/pkg-config "$@"
EOS
cat >"$fake/apt-get" <<EOS
#!/bin/sh
echo "\$*" >>"$TMP/apt.log"
exit 0
EOS
chmod +x "$fake"/*
deps="$TOP/scripts/deps.sh libtracefs:libtracefs-dev jansson:libjansson-dev"

check "all present: nothing to do" "$TOP/scripts/deps.sh" libtracefs:libtracefs-dev
check_eq "all present: silent" "" "$(cat "$TMP/err")"

if [ "$(id -u)" -eq 0 ]; then
	PATH="$fake:$PATH" $deps >"$TMP/deps.out" 2>"$TMP/deps.err"
	check_eq "root: installs the missing package" "0" "$?"
	check "root: apt-get asked for libjansson-dev only" \
		grep -qx 'install -y -q libjansson-dev' "$TMP/apt.log"
else
	skip "not root: the apt-get path is not exercised"
fi
printf '#!/bin/sh\necho 1000\n' >"$fake/id"
chmod +x "$fake/id"
PATH="$fake:$PATH" $deps >"$TMP/deps.out" 2>"$TMP/deps.err"
check_eq "non-root: fails" "1" "$?"
check "non-root: prints the one command to run" \
	grep -q 'run: sudo apt-get install -y libjansson-dev' "$TMP/deps.err"

check_fails "make names the missing library and its package" 2 \
	"missing library 'jansson' \(Debian package: libjansson-dev\)" \
	make -s -C "$TOP" PKG_CONFIG="$fake/pkg-config" BUILD="$TMP/build" depcheck

finish
