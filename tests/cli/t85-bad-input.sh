#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The bad-input corpus: each damaged, crafted or absurd input gives exit 1
# (2 for usage) and one message naming the file and the problem, or a
# warning saying what was dropped; never a crash, a hang, a sanitizer report
# (under `make asan` any report aborts: the exit status says so), an output
# file created by a failing run, or an existing one changed.
. "$(dirname "$0")/../lib.sh"

F=$TOP/tests/fixtures/text/linux-6.18.txt
D=$TOP/traces
C=$TMP/corpus
mkdir -p "$C"

# bad NAME WANT_EXIT PATTERN FILE [ARGS...]: report and compare (with -o onto
# a new file and onto an existing one) both fail the same way, name FILE,
# and leave no output behind.
bad() {
	local name=$1 want=$2 pat=$3 file=$4
	shift 4
	check_fails "$name: report" "$want" "$(printf '%s' "$file" | sed 's/[][\.*^$]/\\&/g'): .*$pat" \
		timeout 60 "$RR" report "$file" "$@"
	rm -f "$TMP/new.json"
	check_fails "$name: compare -o" "$want" "$pat" \
		timeout 60 "$RR" compare --episodes differing --kernel 6.18 -q "$file" -o "$TMP/new.json" "$@"
	check_eq "$name: no output file" "absent" "$([ -e "$TMP/new.json" ] && echo present || echo absent)"
	echo "an earlier result" >"$TMP/old.json"
	timeout 60 "$RR" compare --episodes differing --kernel 6.18 -q "$file" -o "$TMP/old.json" "$@" >/dev/null 2>&1
	check_eq "$name: an existing output left as it was" "an earlier result" "$(cat "$TMP/old.json")"
}

# warns NAME PATTERN FILE [ARGS...]: report succeeds and warns PATTERN
# (naming FILE); prints report's stdout to $TMP/out
warns() {
	local name=$1 pat=$2 file=$3 rc
	shift 3
	timeout 60 "$RR" report "$file" "$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	if [ $rc -ne 0 ]; then
		fail "$name: exit $rc, expected 0"
		sed 's/^/    | /' "$TMP/err" | head -5
	elif ! grep -Eq -- "$file: warning: .*$pat" "$TMP/err"; then
		fail "$name: no warning matching '$pat'"
		sed 's/^/    | /' "$TMP/err" | head -5
	else
		pass "$name"
	fi
}

episodes() {	# the "episodes the replay models (...): N" of the last report
	sed -nE 's/^episodes the replay models [^:]*: ([0-9]+) .*/\1/p' "$TMP/out"
}

# ---- files that are not traces
: >"$C/empty.txt"
bad "empty file" 1 "not a trace: empty" "$C/empty.txt"
printf '# tracer: nop\n#\n# entries-in-buffer/entries-written: 0/0   #P:2\n#\n' >"$C/paste.txt"
bad "a paste of an empty ftrace buffer" 1 "only comment and blank lines" "$C/paste.txt"
printf 'hello\nworld\n' >"$C/garbage.txt"
bad "text without one trace line" 1 "not a trace" "$C/garbage.txt"
head -c 4096 /dev/urandom | tr -d '\000' >"$C/random.bin"
printf '\000' >>"$C/random.bin"
bad "binary data, no magic" 1 "not a trace" "$C/random.bin"
cp "$D/file-limit.dat" "$C/magic.dat"
printf 'X' | dd of="$C/magic.dat" bs=1 seek=3 conv=notrunc 2>/dev/null
bad "trace.dat with a wrong magic" 1 "not a trace" "$C/magic.dat"
mkdir "$C/dir.dat"
bad "a directory" 1 "is a directory" "$C/dir.dat"

# ---- trace.dat cut short: v6 (record's) and v7 (trace-cmd extract's)
for t in file-limit extract-file-limit; do
	size=$(stat -c %s "$D/$t.dat")
	for pct in 1 10 50 90 99; do
		head -c $((size * pct / 100)) "$D/$t.dat" >"$C/$t-$pct.dat"
		bad "$t.dat cut at $pct %" 1 "(corrupt or truncated|cannot read trace.dat headers)" \
			"$C/$t-$pct.dat"
	done
done

# ---- damaged trace.dat data: named, flagged, never silent
# a byte that makes an isolate event's lru -1090519040 (an array index)
cp "$D/anon-swap.dat" "$C/lru.dat"
printf '\277' | dd of="$C/lru.dat" bs=1 seek=1522223 conv=notrunc 2>/dev/null
warns "a negative lru in a trace.dat is dropped and named" \
	"1 event dropped: .*mm_vmscan_lru_isolate at 4287.791718 s \\(CPU 1\\): lru = -1090519040" "$C/lru.dat"
check_eq "... and its episode is flagged lost_events" "1" \
	"$("$RR" report --json "$C/lru.dat" 2>/dev/null | jq '.episodes_by_kind.memcg.lost_events')"
# 8 bytes of CPU 1's compressed v7 data: its records stop 0.39 s early
cp "$D/extract-file-limit.dat" "$C/chunk.dat"
printf '\377\377\377\377\377\377\377\377' | dd of="$C/chunk.dat" bs=1 seek=1157179 conv=notrunc 2>/dev/null
warns "a damaged v7 chunk is named with the time its CPU's records stop" \
	"CPU 1 of buffer rr-6245: its records stop at 294.131482 s, but its last record is at 294.517923 s" \
	"$C/chunk.dat"
check_eq "... its episodes are flagged lost_events" "1" \
	"$("$RR" report --json "$C/chunk.dat" 2>/dev/null | jq '.episodes_by_kind.memcg.lost_events')"
# the time delta of a page's first event set to its most (134 ms): the rest
# of the page follows it, the next page's absolute time is earlier
cp "$D/file-limit.dat" "$C/time.dat"
printf '\350\377\377\377' | dd of="$C/time.dat" bs=1 seek=$((98304 + 4096 + 16)) conv=notrunc 2>/dev/null
warns "records going back in time within a CPU are named" \
	"1 record of a CPU goes back in time \\(first: CPU 1: 4135.780303 s after 4135.914520 s\\)" \
	"$C/time.dat"

# a page header (v6, CPU 1's fourth page) whose commit says 128 MiB of data:
# libtraceevent read past the page (found by fuzzing); now refused, and
# libtracecmd goes on with the next page
cp "$D/file-limit.dat" "$C/page.dat"
printf '\377\377\377\007\000\000\000\000' | dd of="$C/page.dat" bs=1 seek=$((98304 + 4096 * 3 + 8)) conv=notrunc 2>/dev/null
warns "a page saying it holds more than a page is refused and named" \
	"1 page of event data refused, a header claiming more data than a page holds \\(first: the page of 4135.783049 s\\)" \
	"$C/page.dat"
check_eq "... the rest is read: the episodes are all there" \
	"$("$RR" report --json "$D/file-limit.dat" 2>/dev/null | jq '.episodes_by_kind.memcg.count')" \
	"$("$RR" report --json "$C/page.dat" 2>/dev/null | jq '.episodes_by_kind.memcg.count')"
# the same in CPU 1's first page, which the open itself loads
cp "$D/file-limit.dat" "$C/first-page.dat"
printf '\377\377\377\007\000\000\000\000' | dd of="$C/first-page.dat" bs=1 seek=$((98304 + 8)) conv=notrunc 2>/dev/null
warns "a damaged first page (loaded by the open) is named too" \
	"1 page of event data refused, a header claiming more data than a page holds \\(first: the page of 4135.758721 s\\)" "$C/first-page.dat"
# the same in CPU 0's last page: the probe's end of that CPU is unknown
cp "$D/file-limit.dat" "$C/last-page.dat"
printf '\377\377\377\007\000\000\000\000' | dd of="$C/last-page.dat" bs=1 seek=$((90112 + 4096 + 8)) conv=notrunc 2>/dev/null
warns "a damaged last page: its CPU's end is not known, and said so" \
	"CPU 0: its last page cannot be read; its records stop at 4135.782238 s" "$C/last-page.dat"
# the file header's long size is trace-cmd's own (a 32-bit trace-cmd says 4
# on a 64-bit kernel): the page layout comes from header_page, no false alarm
cp "$D/file-limit.dat" "$C/long4.dat"
printf '\004' | dd of="$C/long4.dat" bs=1 seek=13 conv=notrunc 2>/dev/null
check "a trace.dat saying 4-byte longs reads as the kernel wrote it" "$RR" report "$C/long4.dat"
check_eq "... without a warning" "" "$(cat "$TMP/err")"

# one byte of an event header inside a page: libtraceevent skips the rest
# of the page without a word (2 of 58 episodes went missing silently)
cp "$D/offline-child.dat" "$C/header.dat"
printf ' ' | dd of="$C/header.dat" bs=1 seek=198256 conv=notrunc 2>/dev/null
warns "a damaged event header inside a page is named" \
	"1 page of event data refused, event headers that do not add up to the page's data \\(first: the page of 4136.903234 s\\)" \
	"$C/header.dat"
check_eq "... and the episodes around it are flagged lost_events" "1" \
	"$("$RR" report --json "$C/header.dat" 2>/dev/null | jq '.episodes_by_kind.memcg.lost_events')"

# an event header whose length is near 2^32: kbuffer's 32-bit sum wraps to
# no progress and it read the same event for ever (a hang found by fuzzing)
cp "$D/file-limit.dat" "$C/loop.dat"
printf '\075\000\000\000\374\377\377\377' | dd of="$C/loop.dat" bs=1 seek=$((90112 + 4096 + 16)) conv=notrunc 2>/dev/null
warns "an event length that wraps in the library does not hang; the page is refused and named" \
	"1 page of event data refused, event headers that do not add up to the page's data \\(first: the page of 4135.782238 s\\)" \
	"$C/loop.dat"

# one byte of a record's event id: an id no format defines (the begin of an
# episode went missing without a word); said, not flagged (a valid file may
# hold events whose formats were not saved)
cp "$D/offline-child.dat" "$C/id.dat"
printf '\323' | dd of="$C/id.dat" bs=1 seek=260137 conv=notrunc 2>/dev/null
warns "a record of an id no format defines is named" \
	"1 record of an event id no format in the file defines \\(first: id 54140 at 4137.090106 s \\(CPU 1\\)\\): damaged data, or events recorded without their format" \
	"$C/id.dat"

# ---- text: values no kernel prints, dropped and named
sed '4s/nr_scanned=32 /nr_scanned=18446744073709551615 /' "$F" >"$C/huge.txt"
warns "2^64-1 pages scanned" "1 event dropped: .*line 4: mm_vmscan_lru_isolate" "$C/huge.txt"
sed '7s/priority=12/priority=-3/' "$F" >"$C/prio.txt"
warns "a negative priority" "1 event dropped: .*line 7: mm_vmscan_lru_shrink_inactive" "$C/prio.txt"
sed '4s/ 0d\.\.1\. / [2147483647] 0d..1. /' "$F" >"$C/cpu.txt"
warns "a CPU column of 2^31-1" "1 event dropped: .*line 4" "$C/cpu.txt"
{ head -3 "$F"; echo "this line is not a trace event"; echo "(nor is this one)"; tail -n +4 "$F"; } >"$C/mixed.txt"
warns "garbage lines among events are counted and the first named" \
	"2 of 26 lines are no trace event.* \\(first: line 4: this line is not a trace event\\)" "$C/mixed.txt"
# (the fixture's memcg call, direct reclaim call and kswapd run)
check_eq "... and the events around them still replay" "3" "$(episodes)"
{ head -c 3000000 /dev/zero | tr '\000' x; echo; cat "$F"; } >"$C/long-line.txt"
warns "a 3 MB line is skipped as not understood, not read into memory whole" \
	"1 of 25 lines are no trace event.* \\(first: line 1: longer than 1 MiB\\)" "$C/long-line.txt"
check_eq "... and the events after it replay" "3" "$(episodes)"
sed 's/100\.000190: mm_vmscan_memcg_reclaim_end/50.000000: mm_vmscan_memcg_reclaim_end/' "$F" >"$C/back.txt"
warns "a text event earlier than the line before is named" \
	"1 event is earlier than the line before \\(first: line 16: 50.000000 s after 100.000180 s\\)" "$C/back.txt"
check_eq "... and its episode flagged lost_events" "1" \
	"$("$RR" report --json "$C/back.txt" 2>/dev/null | jq '.episodes_by_kind.memcg.lost_events')"
sed 's/100\.000190: mm_vmscan_memcg_reclaim_end/18446744079.000000: mm_vmscan_memcg_reclaim_end/' "$F" >"$C/wrap.txt"
warns "a timestamp whose nanoseconds pass 2^64 is not read (it wrapped to 5 s)" \
	"1 of 24 lines are no trace event.*first: line 16" "$C/wrap.txt"
sed 's/memcg_id=1234/memcg_id=987654321/' "$F" >"$C/unknown-id.txt"
check "a memcg id no cgroup event named replays" timeout 60 "$RR" report "$C/unknown-id.txt"

# a cgroup id named first /a/b, then /a: the tree must stay a tree
body=$(sed -n '3,16p' "$F" | sed 's/memcg_id=1234/memcg_id=10/')
{
	echo "   mkdir-4241    1d..1.   100.000100: cgroup_mkdir:         root=4 id=10 level=2 path=/a/b"
	echo "   mkdir-4241    1d..1.   100.000101: cgroup_mkdir:         root=4 id=10 level=1 path=/a"
	echo "$body"
} >"$C/self-parent.txt"
check "an id renamed from /a/b to /a (its own stand-in parent) ends" \
	timeout 20 "$RR" report "$C/self-parent.txt"
check "... compare too" timeout 20 "$RR" compare --episodes differing --kernel 6.18 -q "$C/self-parent.txt"
{
	echo "   mkdir-4241    1d..1.   100.000100: cgroup_mkdir:         root=4 id=10 level=1 path=/a"
	echo "   mkdir-4241    1d..1.   100.000101: cgroup_mkdir:         root=4 id=11 level=2 path=/a/b"
	echo "   mkdir-4241    1d..1.   100.000102: cgroup_mkdir:         root=4 id=10 level=3 path=/a/b/c"
	echo "$body"
} >"$C/cycle.txt"
warns "an id renamed under its own child is refused and counted" \
	"1 cgroup path would make a memcg its own ancestor" "$C/cycle.txt"

# cgroup names may hold spaces and "=": "/job x=1" and "/job x=2" are two
# cgroups (both were read as "/job"); a name with escape sequences is
# printed escaped, not sent to the terminal
mk() { echo "   mkdir-4241    1d..1.   100.000100: cgroup_mkdir:         root=4 id=$1 level=1 path=$2"; }
{
	mk 1234 "/job x=1"
	mk 1235 "/job x=2"
	sed -n '3,16p' "$F"
	sed -n '3,16p' "$F" | sed 's/memcg_id=1234/memcg_id=1235/; s/stress-4242/stress-4243/; s/100\.0001/100.0002/'
} >"$C/spaces.txt"
check "two cgroups named with a space and '='" "$RR" report "$C/spaces.txt"
check_eq "... are two rows with their whole names" "/job x=1|/job x=2" \
	"$("$RR" report --json "$C/spaces.txt" | jq -r '[.cgroups[].path | select(startswith("/job"))] | join("|")')"
{ mk 1234 "$(printf '/\033]0;pwned\007\033[31mred')"; sed -n '3,16p' "$F"; } >"$C/escape.txt"
check "a cgroup name holding escape sequences" "$RR" report "$C/escape.txt"
check_eq "... is printed with them escaped" "1 0" \
	"$(grep -c '\\x1b\]0;pwned\\x07' "$TMP/out") $(grep -c "$(printf '\033')" "$TMP/out")"

# a cgroup path of 30000 levels (63 KB; no kernel prints more than 1023
# bytes): it was minutes and gigabytes (a path per ancestor, quadratic)
{
	printf '   mkdir-4241    1d..1.   100.000100: cgroup_mkdir:         root=4 id=1234 level=30000 path='
	head -c 60000 /dev/zero | tr '\000' x | sed 's/x/\/a/g'
	echo
	sed -n '3,16p' "$F"
} >"$C/deep.txt"
warns "a 60,000-byte cgroup path is refused with a warning, quickly" \
	"1 cgroup path longer than 4096 bytes \\(no kernel gives one\\): not taken" "$C/deep.txt"
# 100,000 reclaimers open at once: each begin and end walked all open ones
awk 'BEGIN { for (i = 1; i <= 100000; i++) printf "t-%d [000] 100.%06d: mm_vmscan_memcg_reclaim_begin: order=0\n", i, i }' \
	>"$C/begins.txt"
check "100,000 episodes open at once replay in linear time" timeout 30 "$RR" report "$C/begins.txt"

# a snapshot claiming 2^62 pages on a list
meta="   reclaim-replay-1  [000]    99.000000: tracing_mark_write: reclaim-replay: meta version=1 kernel_release=6.18.0 page_size=4096"
snap() {
	echo "$meta"
	echo "   reclaim-replay-1  [000]    99.000001: tracing_mark_write: reclaim-replay: snapshot begin when=start"
	echo "   reclaim-replay-1  [000]    99.000002: tracing_mark_write: reclaim-replay: memcg id=1234 level=1 swappiness=60 inactive_anon=0 active_anon=0 inactive_file=$1 active_file=0 unevictable=0 limit_bytes=-1 min_bytes=0 low_bytes=0 path=/work"
	echo "   reclaim-replay-1  [000]    99.000003: tracing_mark_write: reclaim-replay: snapshot end when=start cgroups=1"
	tail -n +2 "$F"
}
{ echo "$meta" | sed 's/page_size=4096/page_size=3/'; tail -n +2 "$F"; } >"$C/page-size.txt"
warns "a page size of 3 bytes is said and replaced" \
	"page size: the trace says 3 bytes, not a power of two from 512 bytes to 1 GiB; 4096 bytes assumed" \
	"$C/page-size.txt"
check_eq "... and listed as an assumption of compare's JSON" "1" \
	"$("$RR" compare --episodes differing -q "$C/page-size.txt" -o - 2>/dev/null | jq '[.input.assumptions[] | select(startswith("page size: the trace says 3"))] | length')"
snap 4611686018427387904 >"$C/snap-huge.txt"
warns "a snapshot line of 2^62 pages is dropped and named" \
	"1 marker line refused: .*memcg id=1234: inactive_file not a number in range" "$C/snap-huge.txt"
snap 5000abc >"$C/snap-garbage.txt"
warns "a snapshot size of '5000abc' is dropped (it was read as 5000)" \
	"1 marker line refused: .*memcg id=1234: inactive_file not a number in range" "$C/snap-garbage.txt"
snap -5 >"$C/snap-negative.txt"
warns "a negative snapshot size is dropped" "1 marker line refused" "$C/snap-negative.txt"

# ---- scenarios
sc() { printf '%s\n' "$1" >"$C/$2.json"; }
sc '{ "scenario": 1 }' no-kernel
bad "scenario without kernel" 1 "kernel: missing" "$C/no-kernel.json"
sc '{ "scenario": 1, "kernel": "6.18", "cgroups": [ { "path": "/" }, { "path": "/a", "lru": { "inactive_file": "many" } } ], "requests": [ { "kind": "limit", "cgroup": "/a" } ] }' wrong-type
bad "scenario with a string page count" 1 "cgroups\\[1\\]\\.lru" "$C/wrong-type.json"
sc '{ "scenario": 1, "kernel": "6.18", "cgroups": [ { "path": "/" } ], "requests": [ { "cgroup": "/" } ] }' no-kind
bad "scenario request without kind" 1 "kind missing" "$C/no-kind.json"
sc '{ "scenario": 1, "kernel": "6.18", "cgroups": [ { "path": "/" }, { "path": "/a" } ], "requests": [ { "kind": "limit", "cgroup": "/a", "nr_pages": 9223372036854775808 } ] }' limit-2-63
bad "a limit request of 2^63 pages" 1 "not valid JSON: too big integer" "$C/limit-2-63.json"
sc '{ "scenario": 1, "kernel": "6.18", "cgroups": [ { "path": "/" }, { "path": "/a" } ], "requests": [ { "kind": "limit", "cgroup": "/a", "nr_pages": 4611686018427387904 } ] }' limit-2-62
bad "a limit request of 2^62 pages" 1 "requests\\[0\\].*larger than 2\\^40 pages" "$C/limit-2-62.json"
sc '{ "scenario": 1, "kernel": "6.18", "cgroups": [ { "path": "/" }, { "path": "/a", "lru": { "inactive_file": 1099511627777 } } ], "requests": [ { "kind": "limit", "cgroup": "/a" } ] }' lru-2-40
bad "an LRU list of 2^40 + 1 pages" 1 "larger than 2\\^40 pages" "$C/lru-2-40.json"
sc '{ "scenario": 1, "kernel": "6.18", "swap": false, "cgroups": [ { "path": "/" }, { "path": "/a", "lru": { "inactive_file": 1099511627776 } } ], "requests": [ { "kind": "proactive", "cgroup": "/a", "nr_pages": 1099511627776 } ] }' work
check_fails "2^40 pages to reclaim: the work bound ends it with the reason" 1 \
	"work.json: policy kernel, requests\\[0\\]: the simulation exceeds 67108864 LRU batches" \
	timeout 120 "$RR" compare --episodes differing -q "$C/work.json"
sc '{ "scenario": 1, "kernel": "6.18", "swap": true, "cgroups": [ { "path": "/" }, { "path": "/a", "lru": { "inactive_anon": 1099511627776, "active_file": 1099511627776 }, "scan_fraction": { "anon": 4503599627370496, "file": 1, "denominator": 2 } } ], "requests": [ { "kind": "limit", "cgroup": "/a", "nr_pages": 32 } ] }' fraction
check_fails "a scan fraction whose product passes 2^64 is an error, not a wrap" 1 \
	"fraction.json: policy kernel, requests\\[0\\]: scan target of [0-9]+ pages times a fraction of 4503599627370496/2 overflows 64 bits" \
	timeout 60 "$RR" compare --episodes differing -q "$C/fraction.json"

python3 -c "
import json
cg = [{'path': '/'}]; p = ''
for i in range(2001):
    p += '/a'; cg.append({'path': p})
print(json.dumps({'scenario': 1, 'kernel': '6.18', 'cgroups': cg,
                  'requests': [{'kind': 'limit', 'cgroup': '/a', 'nr_pages': 32}]}))" >"$C/long-path.json"
bad "a scenario path over 4000 bytes says so" 1 "cgroups\\[2001\\]: path longer than 4000 bytes" \
	"$C/long-path.json"
check_fails "a --kernel of 300 characters is a usage error (it was cut to 63)" 2 "at most 64 characters" \
	"$RR" compare --episodes differing --kernel "6.18.$(head -c 300 /dev/zero | tr '\000' a)" "$D/file-limit.dat"

# ---- a policy built for another ABI
if [ -e "$BUILD/tests/plugins/bad-abi.so" ]; then
	check_fails "a plug-in of the wrong ABI is refused, naming it" 1 "bad-abi.so: .*ABI" \
		"$RR" compare --episodes differing -q "$D/file-limit.dat" -p "$BUILD/tests/plugins/bad-abi.so" -o "$TMP/p.json"
	check_eq "... and writes nothing" "absent" "$([ -e "$TMP/p.json" ] && echo present || echo absent)"
else
	skip "the test plug-ins are not built (make check builds them)"
fi

# ---- usage errors are exit 2
check_fails "an unknown option is a usage error" 2 "unknown option|unrecognized option|invalid option" \
	"$RR" report --no-such-option "$F"
check_fails "a negative --offline-delay-ms is a usage error" 2 "offline-delay-ms" \
	"$RR" compare --episodes differing --offline-delay-ms -5 "$F"
check_fails "--proactive of 8 EiB (it wrapped negative) is a usage error" 2 "--proactive takes SIZE" \
	"$RR" record --cgroup x --proactive 8589934592G -o "$TMP/r.dat" -- true
for sw in 201 -1 sixty MAX ""; do
	check_fails "--proactive swappiness='$sw' is a usage error (memory.reclaim takes 0..200 or max)" \
		2 "--proactive swappiness takes 0..200 or max, not '$sw'" \
		"$RR" record --cgroup x --proactive "1M,swappiness=$sw" -o "$TMP/r.dat" -- true
done
check_fails "--proactive with an unknown key is a usage error" 2 "unknown key 'swap=0'" \
	"$RR" record --cgroup x --proactive 1M,swap=0 -o "$TMP/r.dat" -- true
check_fails "--memory-max of 2^64 bytes is a usage error" 2 "memory-max" \
	"$RR" record --cgroup x --memory-max 18446744073709551616 -o "$TMP/r.dat" -- true

finish
