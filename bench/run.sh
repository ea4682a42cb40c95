#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# bench/run.sh: measure how fast, and in how much memory, reclaim-replay
# replays large real traces, against `trace-cmd report > /dev/null` and
# against bench/floor.c (the least a libtracecmd reader can do), plus the
# cost of each extra policy and scenarios with 100,000 memcgs (a tree of
# 1,000 parents, and one flat list of siblings).
# Prints markdown tables on stdout, and writes the current figure of each
# target as one table to RESULTS (a full run only).  See bench/README.md.
#
#   usage: bench/run.sh [--quick]
#   environment:
#     BENCH_DIR  where t1m.dat, t10m.dat, t50m.dat are (default /var/tmp/rrbench;
#                make them with bench/make-traces.sh); a missing one is skipped
#     RR         the reclaim-replay binary (default: ./reclaim-replay of this repo)
#     FLOOR      the floor binary (default: bench/floor if it is newer than
#                bench/floor.c, else built into a temporary directory)
#     TMPDIR     where the JSON output and scenarios are written for a while
#     RESULTS    the table of targets a full run writes (default bench/RESULTS.md;
#                empty: none)
#   --quick      only t1m (also for the per-policy costs) and a 10,000-memcg
#                scenario; writes no RESULTS
#
# Exits 1 with a message naming the command if any command fails; the
# targets (see README.md) are reported in the tables, not in the exit code.

. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
note() { printf '%s\n' "$*" >&2; }
QUICK=0

for arg in "$@"; do
	case $arg in
	--quick) QUICK=1 ;;
	-h | --help)
		sed -n '4,26p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
		exit 0
		;;
	*) die "unknown argument '$arg' (try --help)" ;;
	esac
done

POLICIES=(original online-roundup cluster-cap proportional proportional-v1)
PFLAGS=()
for p in "${POLICIES[@]}"; do PFLAGS+=(-p "$p"); done

if ((QUICK)); then
	TRACES=(t1m)
	POLICY_TRACE=t1m
	SCEN_PARENTS=100
else
	TRACES=(t1m t10m t50m)
	POLICY_TRACE=t10m
	SCEN_PARENTS=1000
fi
SCEN_CHILDREN=100        # per parent
SCEN_PAGES=4096          # the one "limit" request at "/"
BIG_EVENTS=20000000      # from here on one run per timing, below it the best of 3
RESULTS=${RESULTS-$REPO/bench/RESULTS.md}

# ---- prerequisites -------------------------------------------------------

for cmd in trace-cmd jq awk date; do
	command -v "$cmd" >/dev/null || die "'$cmd' not found (apt-get install trace-cmd jq)"
done
[[ -x $RR ]] || die "RR=$RR is not an executable (build it with make, or set RR)"
"$RR" --version >/dev/null 2>&1 || die "'$RR --version' failed"
[[ -d $BENCH_DIR ]] || die "BENCH_DIR=$BENCH_DIR does not exist (make the traces with bench/make-traces.sh)"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/rrbench-run.XXXXXX") || die "mktemp -d in ${TMPDIR:-/tmp}"
cleanup() { rm -rf -- "$WORK"; }
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

if [[ -z ${FLOOR:-} ]]; then
	if [[ -x $REPO/bench/floor && $REPO/bench/floor -nt $REPO/bench/floor.c ]]; then
		FLOOR=$REPO/bench/floor
	else
		FLOOR=$WORK/floor
		# shellcheck disable=SC2046 # pkg-config prints several words on purpose
		gcc -O2 -o "$FLOOR" "$REPO/bench/floor.c" $(pkg-config --cflags --libs libtracecmd) ||
			die "building bench/floor.c (needs gcc, pkg-config, libtracecmd-dev)"
	fi
fi
[[ -x $FLOOR ]] || die "FLOOR=$FLOOR is not an executable"

# A sleep that forks nothing, for the 10 ms sampler: read with a timeout on
# a FIFO we hold open for writing ourselves, so it never sees data or EOF.
mkfifo "$WORK/tick"
exec {TICK}<>"$WORK/tick"

# ---- measuring -----------------------------------------------------------

# run_once OUT CMD...: run CMD with stdout to OUT (stderr kept, for its
# error messages), sampling /proc/PID/status RssAnon every 10 ms.  Sets
# T (wall seconds) and RSS (peak RssAnon, KiB); dies if CMD fails.
run_once() {
	local out=$1 t0 t1 pid rc=0 rssf=$WORK/rss
	shift
	: >"$rssf"
	t0=$(date +%s.%N)
	"$@" >"$out" {TICK}>&- &
	pid=$!
	# The sampler runs beside CMD (2nd core) and writes its maximum when
	# CMD has become a zombie (no RssAnon line) or is gone.
	(
		max=0
		while :; do
			cur=
			while read -r key val _; do
				[[ $key == RssAnon: ]] && { cur=$val; break; }
			done 2>/dev/null <"/proc/$pid/status" || true
			[[ -n $cur ]] || break
			if ((cur > max)); then max=$cur; fi
			read -r -t 0.01 -u "$TICK" _ || true
		done
		echo "$max" >"$rssf"
	) &
	local sampler=$!
	wait "$pid" || rc=$?
	t1=$(date +%s.%N)
	wait "$sampler" || true
	((rc == 0)) || die "'$*' exited with status $rc"
	T=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
	RSS=$(<"$rssf")
}

# measure N OUT CMD...: the best of N runs of run_once.  Sets T (the
# least time) and RSS (the largest peak of all runs).
measure() {
	local n=$1 out=$2 best='' peak=0 i
	shift 2
	for ((i = 0; i < n; i++)); do
		run_once "$out" "$@"
		if [[ -z $best ]] || awk -v a="$T" -v b="$best" 'BEGIN { exit !(a < b) }'; then
			best=$T
		fi
		if ((RSS > peak)); then peak=$RSS; fi
	done
	T=$best
	RSS=$peak
}

# numbers: rate EVENTS SECONDS, ratio A B (A/B), mib KIB, pct PART WHOLE
rate() { awk -v e="$1" -v t="$2" 'BEGIN { if (t > 0) printf "%.2f M/s", e / t / 1e6; else print "-" }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'; }
mib() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }
pct() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%+.1f%%", 100 * a / b; else print "-" }'; }
atleast() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a >= b) }'; }
below() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a < b) }'; }

# ---- header --------------------------------------------------------------

cpu=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo)
ram=$(awk '/^MemTotal:/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)
tcver=$(dpkg-query -W -f '${Version}' libtracecmd1 2>/dev/null || pkg-config --modversion libtracecmd 2>/dev/null || echo unknown)
commit=$(git -C "$REPO" rev-parse --short HEAD 2>/dev/null || echo unknown)
if [[ $commit != unknown && -n $(git -C "$REPO" status --porcelain --untracked-files=no 2>/dev/null) ]]; then
	commit="$commit (work tree has uncommitted changes)"
fi

echo "# reclaim-replay benchmark$( ((QUICK)) && echo ' (--quick)')"
echo
echo "| | |"
echo "|---|---|"
echo "| date | $(date -u '+%Y-%m-%d %H:%M:%S UTC') |"
echo "| CPU | ${cpu:-unknown} |"
echo "| cores | $(nproc) |"
echo "| RAM | $ram |"
echo "| kernel | $(uname -r) |"
echo "| libtracecmd | $tcver |"
echo "| trace-cmd | $( (trace-cmd --version 2>/dev/null || true) | awk '/version/ { print $3; exit }') |"
echo "| reclaim-replay commit | $commit |"
echo "| RR | \`$RR\` ($("$RR" --version 2>&1 | head -n1)) |"
echo "| BENCH_DIR | \`$BENCH_DIR\` |"
echo "| timings | best of 3 below $((BIG_EVENTS / 1000000)) M events, 1 run above; RssAnon sampled every 10 ms |"
echo

# The rows of RESULTS: one per target and trace, as they are measured.
DATE=$(date -u '+%Y-%m-%d %H:%M UTC')
ROWS=()
row() { ROWS+=("| $1 | $2 | $3 | $DATE | $commit |"); }
verdict() { if "$@"; then echo met; else echo "**missed**"; fi; }

# ---- traces --------------------------------------------------------------

declare -A EV T_REP T_FLOOR T_TAB T_JSON T_JSONL RSS_TAB RSS_JSON JSON_MB
PRESENT=()
for t in "${TRACES[@]}"; do
	f=$BENCH_DIR/$t.dat
	if [[ ! -f $f ]]; then
		note "note: $f is missing: skipped (bench/make-traces.sh makes it)"
		continue
	fi
	PRESENT+=("$t")
	note "measuring $t ..."
	EV[$t]=$(events_of "$f")
	n=3
	((EV[$t] >= BIG_EVENTS)) && n=1
	measure "$n" /dev/null trace-cmd report "$f"
	T_REP[$t]=$T
	measure "$n" /dev/null "$FLOOR" "$f"
	T_FLOOR[$t]=$T
	measure "$n" /dev/null "$RR" compare -q "${PFLAGS[@]}" "$f"
	T_TAB[$t]=$T RSS_TAB[$t]=$RSS
	json=$WORK/$t.json
	measure "$n" /dev/null "$RR" compare -q "${PFLAGS[@]}" "$f" -o "$json"
	T_JSON[$t]=$T RSS_JSON[$t]=$RSS
	jq -e .schema_version "$json" >/dev/null || die "$json: not valid JSON with a schema_version"
	JSON_MB[$t]=$(awk -v b="$(stat -c %s "$json")" 'BEGIN { printf "%.1f", b / 1048576 }')
	rm -f -- "$json"
	# every episode, streamed (--jsonl --episodes all)
	measure "$n" /dev/null "$RR" compare -q "${PFLAGS[@]}" "$f" --jsonl --episodes all
	T_JSONL[$t]=$T
done

if ((${#PRESENT[@]} == 0)); then
	echo "_No trace in $BENCH_DIR: make them with bench/make-traces.sh._"
	echo
else
	echo "## Speed (compare: all built-in policies; table = \`> /dev/null\`, json = \`-o FILE.json\`)"
	echo
	echo "Targets on t10m and t50m: compare ≥ 10x the event rate of \`trace-cmd report > /dev/null\`, ≥ 0.5x the floor's."
	echo
	echo "| trace | events | trace-cmd report | floor | compare table | compare json | json size | jsonl, every episode |"
	echo "|---|---:|---:|---:|---:|---:|---:|---:|"
	for t in "${PRESENT[@]}"; do
		e=${EV[$t]}
		printf '| %s | %s | %s s (%s) | %s s (%s) | %s s (%s) | %s s (%s) | %s MiB | %s s (%s) |\n' "$t" "$e" \
			"${T_REP[$t]}" "$(rate "$e" "${T_REP[$t]}")" \
			"${T_FLOOR[$t]}" "$(rate "$e" "${T_FLOOR[$t]}")" \
			"${T_TAB[$t]}" "$(rate "$e" "${T_TAB[$t]}")" \
			"${T_JSON[$t]}" "$(rate "$e" "${T_JSON[$t]}")" "${JSON_MB[$t]}" \
			"${T_JSONL[$t]}" "$(rate "$e" "${T_JSONL[$t]}")"
	done
	echo
	echo "## Ratios (events/s of compare over events/s of the other; ≥ 10 and ≥ 0.5 are the targets)"
	echo
	echo "| trace | table / trace-cmd report | table / floor | json / trace-cmd report | json / floor | targets |"
	echo "|---|---:|---:|---:|---:|---|"
	for t in "${PRESENT[@]}"; do
		r1=$(ratio "${T_REP[$t]}" "${T_TAB[$t]}")
		r2=$(ratio "${T_FLOOR[$t]}" "${T_TAB[$t]}")
		r3=$(ratio "${T_REP[$t]}" "${T_JSON[$t]}")
		r4=$(ratio "${T_FLOOR[$t]}" "${T_JSON[$t]}")
		if [[ $t == t1m ]]; then
			verdict="(not a target trace)"
		elif atleast "$r1" 10 && atleast "$r3" 10 && atleast "$r2" 0.5 && atleast "$r4" 0.5; then
			verdict=met
		else
			verdict="**MISSED**"
		fi
		echo "| $t | $r1 | $r2 | $r3 | $r4 | $verdict |"
		if [[ $t != t1m ]]; then
			in="$t, ${EV[$t]} events"
			row "compare, every built-in policy, table: >= 10x the event rate of \`trace-cmd report\`" \
				"${r1}x: $(rate "${EV[$t]}" "${T_TAB[$t]}") against $(rate "${EV[$t]}" "${T_REP[$t]}") ($(verdict atleast "$r1" 10))" "$in"
			row "compare, every built-in policy, table: >= 0.5x the event rate of the floor" \
				"${r2}x: against $(rate "${EV[$t]}" "${T_FLOOR[$t]}") ($(verdict atleast "$r2" 0.5))" "$in"
			row "the same with \`-o FILE.json\`: >= 10x \`trace-cmd report\`" \
				"${r3}x: $(rate "${EV[$t]}" "${T_JSON[$t]}") ($(verdict atleast "$r3" 10))" "$in"
			row "the same with \`-o FILE.json\`: >= 0.5x the floor" \
				"${r4}x ($(verdict atleast "$r4" 0.5))" "$in"
			r5=$(ratio "${T_REP[$t]}" "${T_JSONL[$t]}")
			row "\`--jsonl --episodes all\` (every episode streamed): >= 5x \`trace-cmd report\`" \
				"${r5}x: $(rate "${EV[$t]}" "${T_JSONL[$t]}") ($(verdict atleast "$r5" 5))" "$in"
			if [[ $t == t10m ]]; then
				row "default \`-o\` of the 10 M-event trace: <= 5 MiB" \
					"${JSON_MB[$t]} MiB ($(verdict below "${JSON_MB[$t]}" 5.0000001))" "$in"
			fi
		fi
	done
	echo
	echo "## Peak anonymous memory of compare (RssAnon, MiB)"
	echo
	echo "Target: at t50m within 1.2x of t1m."
	echo
	echo "| trace | events | table | json | table / t1m | json / t1m |"
	echo "|---|---:|---:|---:|---:|---:|"
	for t in "${PRESENT[@]}"; do
		if [[ -n ${RSS_TAB[t1m]:-} ]]; then
			g1=$(ratio "${RSS_TAB[$t]}" "${RSS_TAB[t1m]}")
			g2=$(ratio "${RSS_JSON[$t]}" "${RSS_JSON[t1m]}")
			if [[ $t == t50m ]]; then
				if below "$g1" 1.2000001 && below "$g2" 1.2000001; then
					g2="$g2 (met)"
				else
					g2="$g2 (**MISSED**)"
				fi
			fi
		else
			g1=- g2=-
		fi
		echo "| $t | ${EV[$t]} | $(mib "${RSS_TAB[$t]}") | $(mib "${RSS_JSON[$t]}") | $g1 | $g2 |"
		if [[ $t == t50m && -n ${RSS_TAB[t1m]:-} ]]; then
			in="t50m and t1m, ${EV[t50m]} and ${EV[t1m]} events"
			row "peak RssAnon of compare, table, at 50 M events: within 1.2x of 1 M" \
				"$(mib "${RSS_TAB[t50m]}") against $(mib "${RSS_TAB[t1m]}") MiB, ${g1}x ($(verdict below "$g1" 1.2000001))" "$in"
			row "the same with \`-o FILE.json\`" \
				"$(mib "${RSS_JSON[t50m]}") against $(mib "${RSS_JSON[t1m]}") MiB, ${g2% (*}x ($(verdict below "${g2% (*}" 1.2000001))" "$in"
		fi
	done
	echo
fi

# ---- plain inputs: trace-cmd extracts (bench/make-plain-traces.sh) --------

# fidelity_share ARGS...: the share (%) of `report -q --fidelity ARGS` that
# rr_fidelity_check() and its callees take, from perf's call graphs; "-"
# without perf (or when it cannot record)
fidelity_share() {
	local data=$WORK/fid.perf v
	command -v perf >/dev/null || { echo -; return; }
	perf record -q --call-graph dwarf -F 499 -o "$data" -- "$RR" report -q --fidelity "$@" \
		>/dev/null 2>&1 || { echo -; return; }
	v=$(perf report -i "$data" --children --stdio -g none --sort sym 2>/dev/null |
		awk '$NF == "rr_fidelity_check" { sub("%", "", $1); print $1; exit }')
	rm -f -- "$data"
	echo "${v:-0}"
}

PLAIN_DIR=$BENCH_DIR/plain
PLAIN=()
for p in ext-anon global-file-plain; do
	[[ -f $PLAIN_DIR/$p.dat ]] && PLAIN+=("$p")
done
if ((${#PLAIN[@]} == 0)); then
	note "note: no plain inputs in $PLAIN_DIR: skipped (bench/make-plain-traces.sh makes them)"
elif ((!QUICK)); then
	echo "## Plain inputs (\`trace-cmd extract\` only: no markers, no snapshots)"
	echo
	echo "Targets: compare table and default \`-o\` ≥ 10x \`trace-cmd report\`, \`--jsonl --episodes all\` ≥ 5x;"
	echo "the fidelity check (the inference of swap, swappiness and the hidden inputs, and the judging"
	echo "of every call: \`rr_fidelity_check()\` and what it calls, in a \`perf record --call-graph dwarf\`"
	echo "of \`report --fidelity\`; \`report\` alone replays nothing, so the difference of the two is more"
	echo "than the check) ≤ 10 % of \`report --fidelity\`."
	echo
	echo "The floor (libtracecmd's own iteration, one open) bounds what any reader of the file reaches;"
	echo "compare opens a trace.dat three times (a probe child, the meta scan, the walk), which small files feel."
	echo
	echo "| input | events | trace-cmd report | floor | compare table | compare -o | jsonl, every episode | report | report --fidelity | fidelity check share |"
	echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
	for p in "${PLAIN[@]}"; do
		f=$PLAIN_DIR/$p.dat
		z=()
		[[ -f $PLAIN_DIR/$p.zoneinfo ]] && z=(--zoneinfo "$PLAIN_DIR/$p.zoneinfo")
		note "measuring plain $p ..."
		e=$("$RR" compare -q -p kernel "${z[@]}" "$f" -o - | jq -e .input.stats.events) ||
			die "$f: cannot count its events"
		measure 3 /dev/null trace-cmd report "$f"
		tr=$T
		measure 3 /dev/null "$FLOOR" "$f"
		tf=$T
		measure 3 /dev/null "$RR" compare -q "${PFLAGS[@]}" "${z[@]}" "$f"
		tt=$T
		measure 3 /dev/null "$RR" compare -q "${PFLAGS[@]}" "${z[@]}" "$f" -o "$WORK/plain.json"
		tj=$T
		measure 3 /dev/null "$RR" compare -q "${PFLAGS[@]}" "${z[@]}" "$f" --jsonl --episodes all
		tl=$T
		measure 3 /dev/null "$RR" report -q "${z[@]}" "$f"
		rp=$T
		measure 3 /dev/null "$RR" report -q --fidelity "${z[@]}" "$f"
		rf=$T
		share=$(fidelity_share "${z[@]}" "$f")
		printf '| %s | %s | %s s | %s s (%sx) | %s s (%sx) | %s s (%sx) | %s s (%sx) | %s s | %s s | %s %% |\n' "$p" "$e" "$tr" \
			"$tf" "$(ratio "$tr" "$tf")" "$tt" "$(ratio "$tr" "$tt")" "$tj" "$(ratio "$tr" "$tj")" \
			"$tl" "$(ratio "$tr" "$tl")" "$rp" "$rf" "$share"
		in="plain $p, $e events"
		row "compare, every built-in policy, table, plain extract: >= 10x \`trace-cmd report\`" \
			"$(ratio "$tr" "$tt")x ($(verdict atleast "$(ratio "$tr" "$tt")" 10); the floor itself: $(ratio "$tr" "$tf")x)" "$in"
		row "the same: >= 0.5x the event rate of the floor" \
			"$(ratio "$tf" "$tt")x ($(verdict atleast "$(ratio "$tf" "$tt")" 0.5))" "$in"
		row "the same with the default \`-o FILE.json\`" \
			"$(ratio "$tr" "$tj")x ($(verdict atleast "$(ratio "$tr" "$tj")" 10))" "$in"
		row "the same with \`--jsonl --episodes all\`: >= 5x" \
			"$(ratio "$tr" "$tl")x ($(verdict atleast "$(ratio "$tr" "$tl")" 5))" "$in"
		if [[ $share == - ]]; then
			row "the fidelity check (inference and judging): <= 10 % of \`report --fidelity\`" \
				"not measured (no perf)" "$in"
		else
			row "the fidelity check (inference and judging): <= 10 % of \`report --fidelity\`" \
				"$share % of its samples ($(verdict below "$share" 10.0000001))" "$in"
		fi
	done
	rm -f -- "$WORK/plain.json"
	echo
fi

# ---- cost of each extra policy -------------------------------------------

f=$BENCH_DIR/$POLICY_TRACE.dat
echo "## Cost of each extra policy ($POLICY_TRACE, table mode)"
echo
if [[ ! -f $f ]]; then
	echo "_Skipped: $f is missing._"
	echo
	note "note: $f is missing: per-policy costs skipped"
else
	note "measuring the cost of each policy on $POLICY_TRACE ..."
	e=${EV[$POLICY_TRACE]:-$(events_of "$f")}
	n=3
	((e >= BIG_EVENTS)) && n=1
	echo "Target: each added policy < 10% of the baseline-only replay time."
	echo
	echo "| policies | time | events/s | added | added, % of kernel only | target |"
	echo "|---|---:|---:|---:|---:|---|"
	flags=(-p kernel)
	measure "$n" /dev/null "$RR" compare -q "${flags[@]}" "$f"
	base=$T prev=$T worst=''
	echo "| kernel only | $T s | $(rate "$e" "$T") | - | - | |"
	for p in "${POLICIES[@]}"; do
		flags+=(-p "$p")
		measure "$n" /dev/null "$RR" compare -q "${flags[@]}" "$f"
		d=$(awk -v a="$T" -v b="$prev" 'BEGIN { printf "%+.3f", a - b }')
		pc=$(pct "$d" "$base")
		if below "$(awk -v d="$d" -v b="$base" 'BEGIN { print 100 * d / b }')" 10; then v=met; else v="**MISSED**"; fi
		echo "| + $p | $T s | $(rate "$e" "$T") | $d s | $pc | $v |"
		if [[ -z $worst ]] || awk -v a="$d" -v b="$worst" 'BEGIN { exit !(a > b) }'; then
			worst=$d worst_p=$p worst_pc=$pc
		fi
		prev=$T
	done
	row "each extra policy adds < 10% of the kernel-only replay time (table)" \
		"at most $worst_pc ($worst s, + $worst_p) of $base s ($(verdict below "$(awk -v d="$worst" -v b="$base" 'BEGIN { print 100 * d / b }')" 10))" \
		"$POLICY_TRACE, ${#POLICIES[@]} policies added one by one"
	echo
fi

# ---- scenarios with many memcgs -----------------------------------------

# scenario_row PARENTS CHILDREN: "/", PARENTS parents with CHILDREN children
# each (PARENTS 0: CHILDREN children of "/" itself), each child some
# inactive anon and file pages (deterministic), one limit request at "/";
# measured, and one table row printed
scenario_row() {
	local P=$1 C=$2 n scen v shape
	n=$(( P ? P * C : C ))
	scen=$WORK/memcgs-$P-$C.json
	note "measuring a scenario with $n memcgs ($P parents) ..."
	awk -v P="$P" -v C="$C" -v R="$SCEN_PAGES" 'function child(dir, c, i) {
		printf ",\n    { \"path\": \"%s/c%06d\", \"lru\": { \"inactive_anon\": %d, \"inactive_file\": %d } }", dir, c, 64 + (i * 37) % 512, 128 + (i * 91) % 1024
	}
	BEGIN {
		printf "{\n  \"scenario\": 1,\n  \"kernel\": \"6.11\",\n  \"swap\": true,\n  \"cgroups\": [\n    { \"path\": \"/\" }"
		if (!P)
			for (c = 0; c < C; c++)
				child("", c, c)
		for (p = 0; p < P; p++) {
			printf ",\n    { \"path\": \"/p%04d\" }", p
			for (c = 0; c < C; c++)
				child(sprintf("/p%04d", p), c, p * C + c)
		}
		printf "\n  ],\n  \"requests\": [ { \"kind\": \"limit\", \"cgroup\": \"/\", \"nr_pages\": %d } ]\n}\n", R
	}' >"$scen" || die "writing the scenario $scen"
	jq -e '.cgroups | length' "$scen" >/dev/null || die "$scen: not valid JSON"
	measure 3 /dev/null "$RR" compare -q "${PFLAGS[@]}" "$scen"
	if ((n >= 100000)); then
		if below "$T" 5; then v=met; else v="**MISSED**"; fi
	else
		v="(100,000 only)"
	fi
	if ((P)); then shape="$P parents x $C children"; else shape="$C children of /"; fi
	echo "| $n | $shape | $(awk -v b="$(stat -c %s "$scen")" 'BEGIN { printf "%.1f MiB", b / 1048576 }') | $T s | $(mib "$RSS") MiB | $v |"
	if ((n >= 100000)); then
		row "a scenario of 100,000 memcgs, every built-in policy: under 5 s" \
			"$T s, peak RssAnon $(mib "$RSS") MiB ($v)" "$n memcgs: $shape"
	fi
}

echo "## Scenarios with $((SCEN_PARENTS * SCEN_CHILDREN)) memcgs (all built-in policies, table mode)"
echo
echo "\"/\" and its tree (each leaf some inactive_anon and inactive_file pages), one limit request of $SCEN_PAGES pages at \"/\"; as a deep tree and as one flat list of siblings. Target (100,000 memcgs): under 5 s."
echo
echo "| memcgs | shape | scenario size | time | peak RssAnon | target |"
echo "|---:|---|---:|---:|---:|---|"
scenario_row "$SCEN_PARENTS" "$SCEN_CHILDREN"
scenario_row 0 $((SCEN_PARENTS * SCEN_CHILDREN))
echo

# ---- the table of targets ------------------------------------------------

if ((QUICK)) || [[ -z $RESULTS ]]; then
	note "done (no RESULTS written$( ((QUICK)) && echo ': --quick'))."
	exit 0
fi
{
	echo "# Benchmark results"
	echo
	echo "The figure of each target of bench/README.md in the last full run,"
	echo "written by \`make bench\` (bench/run.sh; its output has every table);"
	echo "the runs before, with their notes, are in bench/HISTORY.md.  Machine:"
	echo "${cpu:-unknown CPU}, $(nproc) cores, $ram, kernel $(uname -r), libtracecmd $tcver."
	echo "Traces: bench/make-traces.sh (an anonymous-memory loop reclaiming in a"
	echo "limited cgroup with swap, recorded with \`reclaim-replay record\`)."
	echo
	echo "| target | figure | input | date | commit |"
	echo "|---|---|---|---|---|"
	for r in "${ROWS[@]}"; do
		echo "$r"
	done
	((${#PRESENT[@]})) || echo "| (no trace in $BENCH_DIR: bench/make-traces.sh) | | | $DATE | $commit |"
} >"$RESULTS.tmp" && mv "$RESULTS.tmp" "$RESULTS" || die "writing $RESULTS"
note "done: $RESULTS written."
