#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# lab/kernel.sh: build the kernel lab's bzImages from Debian's
# linux-source-6.1, one per variant, cached outside the tree.
#
#   usage: lab/kernel.sh [VARIANT...]     (default: every variant)
#   VARIANT: stock, or the name of a patch in lab/patches/ (NAME.patch)
#   environment: LAB_CACHE  the cache (default /var/tmp/reclaim-replay-lab)
#                JOBS       make -j (default: the number of CPUs)
#
# Prints one line per variant on stdout: "VARIANT RELEASE PATH-TO-bzImage".
# Progress and the build's own output go to LAB_CACHE/build.log; errors to
# stderr.  An image is keyed by the source package's version, lab/kconfig
# and the variant's patch: a second run with the same three builds nothing.
# The variants share one object tree: stock is built first (about 10 min on
# 2 cores), each patch is applied, built (one file: about 30 s) and taken
# out again.  The release is 6.1.N-lab-VARIANT, so a recording says which
# kernel made it (uname -r, record's meta marker).
# Exit 0; 1 on a failed build; 2 on usage; 3 when a package is missing
# (the message names it).
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
LAB_CACHE=${LAB_CACHE:-/var/tmp/reclaim-replay-lab}
JOBS=${JOBS:-$(nproc)}
PKG=linux-source-6.1
TARBALL=/usr/src/$PKG.tar.xz

die() { echo "lab/kernel.sh: $*" >&2; exit 1; }
need_pkg() { echo "lab/kernel.sh: $1 is missing: apt-get install $2" >&2; exit 3; }

variants_all() {
	echo stock
	for p in "$top"/lab/patches/*.patch; do basename "$p" .patch; done
}
[ $# -gt 0 ] || set -- $(variants_all)
for v in "$@"; do
	[ "$v" = stock ] || [ -f "$top/lab/patches/$v.patch" ] ||
		{ echo "lab/kernel.sh: unknown variant '$v' (one of: $(variants_all | tr '\n' ' '))" >&2; exit 2; }
done

[ -f "$TARBALL" ] || need_pkg "the kernel source ($TARBALL)" "$PKG"
for t in make gcc flex bison bc patch xz; do
	command -v $t >/dev/null || need_pkg "'$t'" "build-essential flex bison bc patch xz-utils"
done
command -v pahole >/dev/null || need_pkg "pahole (BTF for the guest's /sys/kernel/btf/vmlinux)" dwarves
for h in /usr/include/libelf.h /usr/include/openssl/ssl.h; do
	[ -f $h ] || need_pkg "$h" "libelf-dev libssl-dev"
done

srcver=$(dpkg-query -W -f '${Version}' "$PKG" 2>/dev/null || stat -c %Y "$TARBALL")
mkdir -p "$LAB_CACHE"
LOG=$LAB_CACHE/build.log
exec 9>"$LAB_CACHE/.kernel.lock"
flock 9

sha() { sha256sum "$@" | sha256sum | cut -c1-16; }
cfgkey=$(printf '%s\n' "$srcver" | cat - "$top/lab/kconfig" | sha256sum | cut -c1-16)
src=$LAB_CACHE/src-$srcver/$PKG
obj=$LAB_CACHE/obj-$cfgkey

if [ ! -f "$src/.lab-extracted" ]; then
	echo "lab: extracting $TARBALL ($PKG $srcver)" >&2
	rm -rf "$LAB_CACHE/src-$srcver"
	mkdir -p "$LAB_CACHE/src-$srcver"
	tar -xJf "$TARBALL" -C "$LAB_CACHE/src-$srcver" || die "cannot extract $TARBALL"
	[ -f "$src/Makefile" ] || die "$TARBALL does not hold $PKG/Makefile"
	touch "$src/.lab-extracted"
fi
release_base=$(make -s -C "$src" kernelversion 2>/dev/null) || die "cannot read the kernel version of $src"

# A patch left applied by a run that was killed is taken out first; patch
# -R leaves the files newer than their objects, so make rebuilds them.
unapply() {
	if [ -f "$src/.lab-applied" ]; then
		patch -s -d "$src" -p1 -R <"$src/.lab-applied" >>"$LOG" 2>&1 ||
			die "cannot take out the patch left in $src (see $LOG); remove $LAB_CACHE/src-$srcver"
		rm -f "$src/.lab-applied"
	fi
}

configure() {
	[ -f "$obj/.config" ] && [ -f "$obj/.lab-configured" ] && return 0
	echo "lab: configuring $obj (tinyconfig + lab/kconfig)" >&2
	mkdir -p "$obj"
	{
		make -C "$src" O="$obj" tinyconfig &&
		"$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "$top/lab/kconfig" &&
		make -C "$src" O="$obj" olddefconfig
	} >>"$LOG" 2>&1 || die "configuring failed (see $LOG)"
	# Every option the fragment asks for must have stuck.
	local miss=""
	while read -r line; do
		case $line in
		CONFIG_*=*) grep -qxF "$line" "$obj/.config" || miss="$miss ${line%%=*}" ;;
		"# CONFIG_"*" is not set")
			o=${line#\# }; o=${o%% *}
			! grep -q "^$o=" "$obj/.config" || miss="$miss $o(off)" ;;
		esac
	done <"$top/lab/kconfig"
	[ -z "$miss" ] || die "lab/kconfig options not in the final config (missing dependencies?):$miss"
	touch "$obj/.lab-configured"
	# the object trees of older configs are 1 GB each; their images stay
	for o in "$LAB_CACHE"/obj-*; do
		[ "$o" = "$obj" ] || rm -rf "$o"
	done
}

build() {	# VARIANT
	local v=$1 patch="" key out t0
	[ "$v" = stock ] || patch=$top/lab/patches/$v.patch
	key=$(printf '%s\n' "$srcver" | cat - "$top/lab/kconfig" ${patch:+"$patch"} | sha256sum | cut -c1-16)
	out=$LAB_CACHE/images/$v-$key
	if [ ! -f "$out/bzImage" ]; then
		configure
		unapply
		if [ -n "$patch" ]; then
			patch -s -d "$src" -p1 --forward <"$patch" >>"$LOG" 2>&1 ||
				die "$patch does not apply to $PKG $srcver (see $LOG)"
			cp "$patch" "$src/.lab-applied"
		fi
		echo "lab: building $v ($release_base-lab-$v; see $LOG)" >&2
		t0=$(date +%s)
		make -C "$src" O="$obj" -j"$JOBS" LOCALVERSION="-lab-$v" bzImage >>"$LOG" 2>&1 ||
			{ unapply; die "building $v failed (see the end of $LOG)"; }
		mkdir -p "$out.tmp"
		cp "$obj/arch/x86/boot/bzImage" "$out.tmp/bzImage"
		cat >"$out.tmp/info" <<EOF
variant=$v
release=$(cat "$obj/include/config/kernel.release")
source=$PKG $srcver
patch=${patch:+lab/patches/$v.patch $(sha256sum <"$patch" | cut -c1-16)}
kconfig=$(sha256sum <"$top/lab/kconfig" | cut -c1-16)
built=$(date -u +%FT%TZ) in $(( $(date +%s) - t0 )) s
EOF
		unapply
		rm -rf "$out"
		mv "$out.tmp" "$out"
	fi
	printf '%s %s %s\n' "$v" "$(sed -n 's/^release=//p' "$out/info")" "$out/bzImage"
}

# stock first: it is the full build the patched variants reuse.
for v in "$@"; do [ "$v" != stock ] || build stock; done
for v in "$@"; do [ "$v" = stock ] || build "$v"; done
