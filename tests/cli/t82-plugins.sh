#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The plug-in ABI across versions: the example plug-in of ABI version 1,
# built then and kept as a binary, loads into this host and decides as the
# same source built against today's header; a stateful version 2 plug-in
# (examples/senpai-chunk.c, the EXAMPLE of reclaim-replay-policy(7)) learns
# across memory.reclaim writes; the page's example is that file; and
# `pkg-config --cflags reclaim-replay` builds a plug-in after make install.
. "$(dirname "$0")/../lib.sh"

T=$TOP/traces/anon-swap.dat
V1=$TOP/tests/plugins/abi-v1/round-nearest-v1.so
NOW=$BUILD/examples/policy-example.so
SENPAI=$BUILD/examples/senpai-chunk.so

totals() {	# totals JSON POLICY: the policy's summary numbers
	jq -c --arg p "$2" '.summary.policies[$p] | [.nr_scanned, .nr_reclaimed, .calls,
		.episodes_differing_from_baseline, .scan_target_pages]' "$1"
}

if [ "$(uname -m)" != x86_64 ]; then
	skip "the kept version 1 binary ($V1) is x86-64 code; ceil-file-v1.so covers version 1 here"
else
	check "the version 1 binary and today's build replay the bundled trace" \
		sh -c "'$RR' compare --episodes differing -q '$T' -p '$V1' -p '$NOW' -o '$TMP/ab.json' >/dev/null"
	# (its totals are the replay's under today's outcome model: 0.5.0's
	# tape moved them from 0.1.0's [23124,2186,49,49,23125]; the decisions
	# of each call are the plug-in's, the pages each batch frees the model's)
	check_eq "the version 1 binary loads and replays as pinned" \
		"[20818,2234,49,49,23290]" "$(totals "$TMP/ab.json" "$V1")"
	check_eq "... and as its example, on version 2 now, built today" \
		"$(totals "$TMP/ab.json" "$V1")" "$(totals "$TMP/ab.json" "$NOW")"
	"$RR" policies "$V1" >"$TMP/pol.txt"
	check "policies shows what the host sees of it: ABI v1, one decision" \
		grep -q "component 2: round-nearest    ABI v1, sets scan_fract_target" "$TMP/pol.txt"
	check "... and the kernel deciding the rest" grep -q "proactive_chunk    decided by kernel" "$TMP/pol.txt"
fi
check_fails "a plug-in of a later ABI is refused, naming both versions" 1 \
	"future-abi.so: policy ABI version 3, this reclaim-replay speaks versions 1 to 2" \
	"$RR" compare --episodes differing -q "$T" -p "$RR_TEST_PLUGIN_DIR/future-abi.so"

# a stateful controller: two 1 GiB writes (262144 pages), each call
# reclaiming its chunk + 32 pages.  The first asks 4096 a call while the
# kernel's remainder / 4 is larger: 60 calls leave 14464 pages, 17 more of
# the kernel's size finish it: 77; it overshot, so the second write steps
# 2048: 123 calls leave 2304, 14 more: 137.
cat >"$TMP/two.json" <<'JSON'
{ "scenario": 1, "kernel": "6.18", "swap": false,
  "cgroups": [ { "path": "/" }, { "path": "/job", "lru": { "inactive_file": 1048576 } } ],
  "requests": [ { "kind": "proactive", "cgroup": "/job", "bytes": 1073741824 },
                { "kind": "proactive", "cgroup": "/job", "bytes": 1073741824 } ],
  "outcome": { "model": "exact", "extra_pages": 32 } }
JSON
check "senpai-chunk replays a scenario" \
	sh -c "'$RR' compare --episodes differing -q '$TMP/two.json' -p '$SENPAI:step=4096' -o '$TMP/s.json' >/dev/null"
calls=$(jq -c --arg p "$SENPAI:step=4096" '[.episodes[].results[$p].calls]' "$TMP/s.json")
check_eq "the first write: 77 calls; the second, after the overshoot, 137" \
	"[77,137]" "$calls"
check_eq "its chunks: 4096, then 2048 pages" "[4096,2048]" \
	"$(jq -c --arg p "$SENPAI:step=4096" '[.episodes[].results[$p].call_requests_pages[0]]' "$TMP/s.json")"
check_fails "a bad parameter is refused with the plug-in's own reason" 1 \
	"policy 'senpai-chunk' init failed: step must be 32..1048576 pages, not '7'" \
	"$RR" compare --episodes differing -q "$TMP/two.json" -p "$SENPAI:step=7"

# the man page's example is the example file, and builds and runs as such
"$TOP/scripts/man-example.sh" --extract "$TOP/man/reclaim-replay-policy.7" >"$TMP/ex.c"
check "reclaim-replay-policy(7)'s EXAMPLE is examples/senpai-chunk.c" \
	cmp "$TMP/ex.c" "$TOP/examples/senpai-chunk.c"
check "the page's example builds as a plug-in" \
	cc -std=gnu11 -Wall -Wextra -Werror -shared -fPIC -I"$TOP/include" -o "$TMP/ex.so" "$TMP/ex.c"
check "and replays" sh -c "'$RR' compare --episodes differing -q '$TMP/two.json' -p '$TMP/ex.so:step=4096' -o '$TMP/e.json' >/dev/null"
check_eq "as the built example does" "$calls" \
	"$(jq -c --arg p "$TMP/ex.so:step=4096" '[.episodes[].results[$p].calls]' "$TMP/e.json")"

# after make install, pkg-config gives the flags of an out-of-tree build
check "make install-dev into a prefix" \
	make -s -C "$TOP" install-dev PREFIX="$TMP/prefix"
check_eq "pkg-config --cflags reclaim-replay" "-I$TMP/prefix/include" \
	"$(PKG_CONFIG_PATH=$TMP/prefix/share/pkgconfig pkg-config --cflags reclaim-replay | sed 's/ *$//')"
mkdir -p "$TMP/out-of-tree"
cp "$TOP/examples/senpai-chunk.c" "$TMP/out-of-tree/"
check "an out-of-tree plug-in builds with it" sh -c "cd '$TMP/out-of-tree' &&
	cc -shared -fPIC \$(PKG_CONFIG_PATH='$TMP/prefix/share/pkgconfig' pkg-config --cflags reclaim-replay) \
		-o senpai.so senpai-chunk.c"
check "the installed page" test -f "$TMP/prefix/share/man/man7/reclaim-replay-policy.7"
finish
