#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Output contract: -o FILE writes JSON and prints the table, -o - writes
# only JSON to stdout, same input gives the same bytes, v6 files replay
# like the v7 file they were converted from.
. "$(dirname "$0")/../lib.sh"

trace=$TOP/traces/offline-child.dat

"$RR" compare --episodes differing -q "$trace" -o "$TMP/a.json" >"$TMP/table.txt"
check "-o FILE: table on stdout" grep -q '^(recorded)' "$TMP/table.txt"
check "-o FILE: JSON in the file" jq -e '.schema_version == 1' "$TMP/a.json"
"$RR" compare --episodes differing -q "$trace" -o - >"$TMP/stdout.json"
check "-o -: stdout is JSON only" jq -e '.schema_version == 1' "$TMP/stdout.json"
check_eq "-o - and -o FILE give the same bytes" "$(md5sum <"$TMP/a.json")" "$(md5sum <"$TMP/stdout.json")"
"$RR" compare --episodes differing -q "$trace" -o "$TMP/b.json" >/dev/null
check_eq "deterministic output" "$(md5sum <"$TMP/a.json")" "$(md5sum <"$TMP/b.json")"
"$RR" compare --episodes differing -q "$trace" >"$TMP/only-table.txt"
check "no -o: table only" grep -q '^proportional ' "$TMP/only-table.txt"
check_eq "no -o: no JSON on stdout" "" "$(grep -c '"schema_version"' "$TMP/only-table.txt" | grep -v '^0$' || true)"

"$RR" compare --episodes differing -q "$trace" -p original -o "$TMP/one.json" >/dev/null
check_eq "-p selects policies after the baseline" '["kernel","original"]' \
	"$(jq -c '[.policies[].name]' "$TMP/one.json")"
"$RR" compare --episodes differing -q "$trace" -p original+cluster-cap -o "$TMP/comp.json" >/dev/null
check_eq "composed policy takes hooks from both" "original cluster-cap" \
	"$(jq -r '.policies[1] | "\(.scan_fract_target_from) \(.proactive_chunk_from)"' "$TMP/comp.json")"
"$RR" compare --episodes differing -q "$trace" --kernel 5.10 -o "$TMP/k510.json" >/dev/null
check_eq "--kernel overrides the release" "5.10 option" \
	"$(jq -r '.input | "\(.kernel_release) \(.kernel_release_source)"' "$TMP/k510.json")"

if trace-cmd convert -i "$trace" --file-version 6 --compression none -o "$TMP/v6.dat" >/dev/null 2>&1; then
	check "trace.dat v6: compare exits 0" sh -c "'$RR' compare --episodes differing -q '$TMP/v6.dat' -o '$TMP/v6.json' >/dev/null"
	check_eq "trace.dat v6 (uncompressed) replays like the v7 file" \
		"$(jq -c '.summary' "$TMP/a.json")" "$(jq -c '.summary' "$TMP/v6.json")"
	check_eq "v6 file version reported" 6 "$(jq '.input.file_version' "$TMP/v6.json")"
else
	skip "trace-cmd convert cannot write a v6 file here"
fi

# regression: -o onto a device or FIFO must write into it, not rename a
# regular file over it (that once replaced /dev/null)
mkfifo "$TMP/fifo"
cat "$TMP/fifo" >"$TMP/fifo.out" &
reader=$!
check "-o FIFO: exits 0" sh -c "'$RR' compare --episodes differing -q '$trace' -o '$TMP/fifo' >/dev/null"
wait $reader
check "-o FIFO: still a FIFO" test -p "$TMP/fifo"
check "-o FIFO: the reader got the JSON" jq -e '.schema_version == 1' "$TMP/fifo.out"
echo old >"$TMP/real.json"
ln -s real.json "$TMP/link.json"
check "-o symlink: exits 0" sh -c "'$RR' compare --episodes differing -q '$trace' -o '$TMP/link.json' >/dev/null"
check "-o symlink: still a symlink" test -L "$TMP/link.json"
check "-o symlink: its target holds the JSON" jq -e '.schema_version == 1' "$TMP/real.json"
check_fails "-o onto a directory" 1 "^reclaim-replay: $TMP: is a directory" \
	"$RR" compare --episodes differing -q "$trace" -o "$TMP"

plugin=$BUILD/tests/plugins/ceil-file.so
check "plug-in: compare exits 0" sh -c "'$RR' compare --episodes differing -q '$TOP/traces/anon-swap.dat' -p '$plugin' -o '$TMP/plug.json' >/dev/null"
check_eq "plug-in .so loads and names its hook" "ceil-file" \
	"$(jq -r '.policies[1].scan_fract_target_from' "$TMP/plug.json")"
check_eq "anon-only trace: file-only round-up changes nothing" 0 \
	"$(jq ".summary.policies[\"$plugin\"].episodes_differing_from_baseline" "$TMP/plug.json")"
check_fails "plug-in with a future ABI is refused" 1 "bad-abi.so: policy ABI version 99, this reclaim-replay speaks versions 1 to 2" \
	"$RR" compare --episodes differing -q "$trace" -p "$BUILD/tests/plugins/bad-abi.so"
check_fails ".so without the entry symbol" 1 "no-entry.so: not a reclaim-replay policy" \
	"$RR" compare --episodes differing -q "$trace" -p "$BUILD/tests/plugins/no-entry.so"
check_fails "a plug-in named like a built-in is refused" 1 \
	"named-kernel.so: policy name 'kernel' is taken by a built-in policy" \
	"$RR" compare --episodes differing -q "$trace" -p "$BUILD/tests/plugins/named-kernel.so"
check_fails "a failing hook stops the replay with its name" 1 \
	"policy hook scan_fract_target \(einval\) failed: Invalid argument" \
	"$RR" compare --episodes differing -q "$TOP/traces/anon-swap.dat" -p "$BUILD/tests/plugins/einval.so" -o "$TMP/einval.json"
check "a failing hook writes no output" test ! -e "$TMP/einval.json"

# -o through a symlink to a file not made yet: the file is made, the link kept (regression)
ln -s target.json "$TMP/dangling.json"
"$RR" compare --episodes differing -q "$TOP/scenarios/gavin-thresholds.json" -o "$TMP/dangling.json" >/dev/null
check_eq "-o dangling symlink: link kept, target written" "link 1" \
	"$([ -L "$TMP/dangling.json" ] && echo link || echo file) $(jq .schema_version "$TMP/target.json")"
ln -s loop2 "$TMP/loop1"
ln -s loop1 "$TMP/loop2"
check_fails "-o into a symlink loop is refused" 1 "loop1: too many levels of symbolic links" \
	"$RR" compare --episodes differing -q "$TOP/scenarios/gavin-thresholds.json" -o "$TMP/loop1"
check "and the loop is left as it was" test -L "$TMP/loop1"
check_fails "parameters for a policy without init" 1 "policy 'ceil-file' takes no parameters" \
	"$RR" compare --episodes differing -q "$trace" -p "$plugin:x=1"
check "a bare x.so is a file in the current directory" \
	sh -c "cd '$BUILD/tests/plugins' && '$RR' compare --episodes differing -q '$trace' -p ceil-file.so >/dev/null"

# the shipped example policy, with and without its parameter
example=$BUILD/examples/policy-example.so
ex="$TOP/traces/offline-anon.dat"
check "example policy loads" sh -c "'$RR' compare --episodes differing -q '$ex' -p '$example' -p '$example:offline_only=1' -o '$TMP/ex.json' >/dev/null"
check_eq "example policy: named round-nearest" "round-nearest round-nearest" \
	"$(jq -r '[.policies[1,2].scan_fract_target_from] | join(" ")' "$TMP/ex.json")"
check "example policy: nearest rounding changes SCAN_FRACT episodes" \
	jq -e ".summary.policies[\"$example\"].episodes_differing_from_baseline > 0" "$TMP/ex.json"
check_fails "example policy: an unknown parameter is refused, named" 1 \
	"init failed: unknown parameter 'bogus=1' \(offline_only=0 or offline_only=1\)" \
	"$RR" compare --episodes differing -q "$ex" -p "$example:bogus=1"
echo keep >"$TMP/mode.json"
chmod 600 "$TMP/mode.json"
"$RR" compare --episodes differing -q "$trace" -o "$TMP/mode.json" >/dev/null
check_eq "an existing output file keeps its mode" 600 "$(stat -c %a "$TMP/mode.json")"

# The probe that opens a trace in a child first must not leak (it once left
# the buffer-instance handles open, and valgrind's exit code in the child
# made a sound v7 file look corrupt).
if ! command -v valgrind >/dev/null 2>&1; then
	skip "valgrind is not installed (make test-deps installs it)"
elif ldd "$RR" | grep -q libasan; then
	: # an AddressSanitizer build checks itself; valgrind cannot run it
else
	check "valgrind: a v7 trace with buffer instances replays with no leak or error" \
		valgrind -q --suppressions="$TOP/tests/valgrind.supp" --error-exitcode=9 \
		--leak-check=full "$RR" compare --episodes differing -q "$TOP/traces/extract-file-limit.dat" -o "$TMP/vg.json"
fi

check_eq "--offline-delay-ms 0 is said as 0 (it was 1e-06: 1 ns stood for 0)" 0 \
	"$("$RR" compare --episodes differing -q "$TOP/traces/offline-child.dat" --offline-delay-ms 0 -o - | jq .input.offline_delay_ms_assumed)"

finish
