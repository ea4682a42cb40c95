#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The shape of src/ (docs/ARCHITECTURE.md): scripts/check-structure.py
# passes on the tree, and fails, naming the files, on a copy of it with a
# cycle, a back edge or a private header planted (never in the tree).
. "$(dirname "$0")/../lib.sh"

cs="$TOP/scripts/check-structure.py"
if ! command -v python3 >/dev/null; then
	skip "no python3: the structure check is not run"
	finish
fi

check "the tree: no cycle, no back edge, stages through their headers" python3 "$cs"
check "... the stage order is the one of docs/ARCHITECTURE.md" grep -qF \
	"$(python3 "$cs" | sed -n 's/.*(\(common < .*\))$/\1/p')" "$TOP/docs/ARCHITECTURE.md"

# plant NAME: a fresh copy of src/ in $TMP/NAME/src
plant() {
	rm -rf "$TMP/$1"
	mkdir -p "$TMP/$1"
	cp -r "$TOP/src" "$TMP/$1/src"
	echo "$TMP/$1/src"
}
# fails NAME DIR PATTERN...: the check on DIR exits 1 and says each PATTERN
fails() {
	local name=$1 dir=$2 rc p
	shift 2
	python3 "$cs" "$dir" >"$TMP/cs.out" 2>&1
	rc=$?
	if [ "$rc" -ne 1 ]; then
		fail "$name: exit $rc, expected 1"
		sed 's/^/    | /' "$TMP/cs.out" | head -10
		return
	fi
	for p in "$@"; do
		if ! grep -qF -- "$p" "$TMP/cs.out"; then
			fail "$name: does not say '$p'"
			sed 's/^/    | /' "$TMP/cs.out" | head -10
			return
		fi
	done
	pass "$name"
}

# a cycle across stages by an include: common/lru.c -> trace.h -> event.h -> lru.h
d=$(plant include-cycle)
sed -i 's|^#include "lru.h"|#include "lru.h"\n#include "../trace/trace.h"|' "$d/common/lru.c"
fails "a planted include cycle (common/lru.c includes trace.h)" "$d" \
	"cycle of" "src/common/lru.c" "includes \"../trace/trace.h\"" \
	"back edge common -> trace"

# a cycle inside a stage by a call, no include added: get_scan_count's
# file calling shrink_lruvec's (lruvec.c calls scan-count.c)
d=$(plant call-cycle)
printf '\nvoid rr_sim_planted(struct run *r);\nvoid rr_sim_planted(struct run *r)\n{\n\trr_sim_shrink_lruvec(r, 0);\n}\n' \
	>>"$d/sim/scan-count.c"
fails "a planted call cycle (scan-count.c calls lruvec.c)" "$d" \
	"cycle of 2 units (sim/lruvec, sim/scan-count)" \
	"src/sim/scan-count.c uses rr_sim_shrink_lruvec() of src/sim/lruvec.c"

# a dependency whose declaration is kept out of the headers (written in the
# caller): still seen, by the use
d=$(plant hidden-declaration)
printf '\nstruct rr_builder;\nint rr_builder_feed(struct rr_builder *b, const struct rr_event *ev);\nvoid rr_planted(struct rr_builder *b);\nvoid rr_planted(struct rr_builder *b)\n{\n\trr_builder_feed(b, 0);\n}\n' \
	>>"$d/trace/decode.c"
fails "a planted call with its declaration in the caller (trace/decode.c calls the builder)" "$d" \
	"back edge trace -> episode" \
	"src/trace/decode.c uses rr_builder_feed() of src/episode/builder.c"

# a back edge without a cycle: the simulator including the recorder
d=$(plant back-edge)
sed -i 's|^#include "sim-local.h"|#include "sim-local.h"\n#include "../record/record.h"|' "$d/sim/node.c"
fails "a planted back edge (sim/node.c includes record.h)" "$d" \
	"back edge sim -> record" "src/sim/node.c:" "includes \"../record/record.h\""

# another stage's private header
d=$(plant private-header)
sed -i 's|^#include "replay-local.h"|#include "replay-local.h"\n#include "../sim/sim-local.h"|' "$d/replay/run.c"
fails "another stage's private header (replay/run.c includes sim-local.h)" "$d" \
	"src/replay/run.c" "outside src/sim/ only its public header sim/sim.h"

# a folder of src/ that is no stage
d=$(plant new-stage)
mkdir -p "$d/extra" && printf '/* x */\n' >"$d/extra/x.h"
fails "a folder in no stage (src/extra)" "$d" "src/extra/x.h: in no stage"

finish
