#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# `reclaim-replay record` inside a container's view of the memory cgroups
# (needs root, tracefs and unshare): in a mount namespace of its own, a
# subtree of the hierarchy is bind-mounted over the controller's mount, as
# Docker does on cgroup v1, so /proc/self/cgroup names a path the mount
# does not show.  --cgroup must still land below the recorder's own cgroup;
# the start snapshot's "/" is that subtree's memcg, not the root memcg, and
# the replay says so instead of taking the memcgs outside it for dying.
. "$(dirname "$0")/../lib.sh"

need_root_tracefs
if ! command -v unshare >/dev/null || ! unshare -m true 2>/dev/null; then
	skip "no mount namespace here (unshare -m)"
	finish
fi
probe_record --duration 1
own=$(own_memcg)
mnt=$(awk '$3 == "cgroup" && $4 ~ /(^|,)memory(,|$)/ { print $2; exit }' /proc/mounts)
[ -n "$mnt" ] || mnt=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
view=$own/rrview-$$
at_exit "rmdir '$view/inner' '$view' 2>/dev/null"
mkdir "$view"
ino=$(stat -c %i "$view")

# a file that is not in the page cache: written with O_DIRECT
dd if=/dev/zero of="$TMP/big" bs=1M count=96 oflag=direct status=none
unshare -m sh -c 'mount --bind "$1" "$2" && echo $$ >"$2/cgroup.procs" &&
	exec "$3" record -q --cgroup inner --memory-max 24M -o "$4" -- sh -c "cat \"$5\" >/dev/null"' \
	sh "$view" "$mnt" "$RR" "$TMP/ct.dat" "$TMP/big" >"$TMP/ct.out" 2>&1
rc=$?
check_eq "record --cgroup inside the container's view exits 0" 0 "$rc" ||
	sed 's/^/    | /' "$TMP/ct.out" | head -10
check "the cgroup was made below the recorder's own (inside the view)" \
	grep -q "cgroup_mkdir:.*path=.*/rrview-$$/inner$" <(trace-cmd report "$TMP/ct.dat" 2>/dev/null)
check_eq "the start snapshot's \"/\" is the view's memcg ($ino), not the root memcg" "$ino" \
	"$(trace-cmd report "$TMP/ct.dat" 2>/dev/null | sed -n 's/.*reclaim-replay: memcg id=\([0-9]*\) level=0 .* path=\/$/\1/p' | head -1)"
"$RR" report -q --fidelity --json "$TMP/ct.dat" >"$TMP/ct.json" 2>"$TMP/ct.err"
check_eq "report exits 0" 0 "$?"
check "the replay says the snapshots hold the subtree of memcg $ino" \
	jq -e --arg ino "$ino" '.input.assumptions | any(test("subtree of memcg id " + $ino + " "))' "$TMP/ct.json"
check "no memcg taken for dying" \
	jq -e '[.inferred_inputs[] | select(test("taken as dying"))] | length == 0' "$TMP/ct.json"
check "memcg limit reclaim was recorded and replayed" \
	jq -e '.fidelity.decisions_checked > 0' "$TMP/ct.json"
check "its judged calls: exact share >= 0.99" jq -e '.fidelity.exact_share >= 0.99' "$TMP/ct.json"
check "the cgroup is gone" test ! -e "$view/inner"
check_eq "no instance left" "" "$(stale_instances)"
finish
