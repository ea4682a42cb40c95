#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# compare --html: the page's numbers match the JSON diff, its SVG is
# well-formed, a failing page leaves no JSON behind, and a real browser
# (chromium, headless) renders it.
. "$(dirname "$0")/../lib.sh"

T=$TOP/traces/offline-anon.dat
check "--html with -o" "$RR" compare -q "$T" -p original --html "$TMP/p.html" -o "$TMP/p.json"

# Every <svg> is well-formed XML; print what the checks below need:
# the first plot's y-axis label, its number of lines, and the y of each
# line's last point (the top of the plot is y=10).
read_page() {
	python3 - "$1" <<'EOF'
import re, sys, xml.etree.ElementTree as ET
page = open(sys.argv[1]).read()
svgs = re.findall(r'<svg.*?</svg>', page, re.S)
ns = '{http://www.w3.org/2000/svg}'
trees = [ET.fromstring(s) for s in svgs]
first = trees[0]
label = [t.text for t in first.iter(ns + 'text') if t.text.endswith(' pg')][0]
ends = [p.get('points').split()[-1].split(',')[1] for p in first.iter(ns + 'polyline')]
rows = re.findall(r'<tr><td>([^<]*)</td><td>(\d+)</td><td>(\d+)</td>', page)
print(len(trees), label, len(ends), ' '.join(ends))
print(' '.join('%s=%s/%s' % r for r in rows))
EOF
}
page=$(read_page "$TMP/p.html")
check_eq "two plots (no memory.reclaim here), well-formed SVG; y axis tops at the larger total" \
	"2 $(jq -r '[.summary.policies[].nr_reclaimed] | max' "$TMP/p.json") pg 2" \
	"$(echo "$page" | head -1 | cut -d' ' -f1-4)"
check_eq "the larger total's line ends at the top" "10.0" \
	"$(echo "$page" | head -1 | tr ' ' '\n' | tail -2 | sort -n | head -1)"
check_eq "table rows equal the JSON totals" \
	"$(jq -r '[.summary.policies | to_entries[] | "\(.key)=\(.value.nr_reclaimed)/\(.value.nr_scanned)"] | join(" ")' "$TMP/p.json")" \
	"$(echo "$page" | tail -1)"

# The chunk plot of a memory.reclaim scenario: one point per call.
S=$TOP/scenarios/chunk-1gib-plus-batch.json
"$RR" compare -q "$S" -p original --html "$TMP/c.html" >/dev/null 2>&1
check_eq "chunk plot: the kernel makes 27 calls, original 1" "27 1" \
	"$(python3 - "$TMP/c.html" <<'EOF'
import re, sys, xml.etree.ElementTree as ET
svg = re.findall(r'<svg.*?</svg>', open(sys.argv[1]).read(), re.S)[-1]
lines = ET.fromstring(svg).iter('{http://www.w3.org/2000/svg}polyline')
print(' '.join(str(len(p.get('points').split())) for p in lines))
EOF
)"

# --html-cgroup picks the cgroup of the targets plot
O=$TOP/traces/offline-child.dat
"$RR" compare -q "$O" --all-episodes -o "$TMP/o.json" >/dev/null 2>&1
D=$(jq -r '[.episodes[].results.kernel.scan_targets[].cgroup] | unique | .[-1]' "$TMP/o.json")
"$RR" compare -q "$O" --html "$TMP/d.html" --html-cgroup "$D" >/dev/null 2>&1
check_eq "--html-cgroup: the targets plot is of that cgroup" "$D" \
	"$(grep -o 'cgroup <code>[^<]*' "$TMP/d.html" | sed 's/^cgroup <code>//')"
check_eq "--html-cgroup: the kernel's bars add up to that cgroup's kernel targets" \
	"$(jq --arg d "$D" '[.episodes[].results.kernel.scan_targets[] | select(.cgroup == $d) | .nr_pages] | add' "$TMP/o.json")" \
	"$(python3 - "$TMP/d.html" <<'EOF'
import re, sys, xml.etree.ElementTree as ET
svg = re.findall(r'<svg.*?</svg>', open(sys.argv[1]).read(), re.S)[1]
ns = '{http://www.w3.org/2000/svg}'
titles = [t.text for t in ET.fromstring(svg).iter(ns + 'title')]
print(sum(int(re.search(r'(\d+) pages', t).group(1)) for t in titles if ', kernel:' in t))
EOF
)"
check_fails "--html-cgroup with no targets names the cgroups that have some" 1 \
	"--html-cgroup /nope: no policy made a scan target in that cgroup \\(2 cgroups have targets: /" \
	"$RR" compare -q "$O" --html "$TMP/n.html" --html-cgroup /nope
check_fails "--html-cgroup needs --html" 2 "--html-cgroup needs --html FILE" \
	"$RR" compare -q "$O" --html-cgroup /a

# output paths that must be refused (regressions)
cp "$T" "$TMP/in.dat"
check_fails "--html onto the input trace is refused" 1 "in.dat: is the input trace; refusing to overwrite it" \
	"$RR" compare -q "$TMP/in.dat" --html "$TMP/./in.dat"
check_eq "and the trace is intact" "$(md5sum <"$T")" "$(md5sum <"$TMP/in.dat")"
check_fails "--html and -o naming one file is a usage error" 2 "--html and -o name the same file" \
	"$RR" compare -q "$T" --html "$TMP/same.out" -o "$TMP/./same.out"

# with --jsonl, a page that cannot be written stops the stream before its last line
"$RR" compare -q "$O" --jsonl --html "$TMP/j.html" --html-cgroup /nope >"$TMP/j.out" 2>/dev/null
check_eq "--jsonl + failing --html: exit 1, header only, no summary line" "1 0" \
	"$? $(jq -s '[.[] | select(.summary | type == "object")] | length' "$TMP/j.out")"

# names with markup are escaped everywhere, bar tooltips included (regression)
cp "$BUILD/tests/plugins/ceil-file.so" "$TMP/p<b>|x.so"
"$RR" compare -q "$TOP/traces/anon-swap.dat" -p "$TMP/p<b>|x.so" --html "$TMP/m.html" >/dev/null 2>&1
check_eq "a policy named p<b>|x.so puts no <b> into the page" 0 "$(grep -c '<b>' "$TMP/m.html")"
check_eq "its tooltips carry the escaped name" yes \
	"$(grep -q '<title>priority [0-9]*, [^<]*p&lt;b&gt;|x.so: [0-9]* pages</title>' "$TMP/m.html" && echo yes || echo no)"
check_eq "--html-cgroup with no memory.reclaim there says where it looked" 1 \
	"$("$RR" compare -q "$O" --html "$TMP/w.html" --html-cgroup "$D" >/dev/null 2>&1;
	   grep -c "No proactive (memory.reclaim) request at <code>$D</code>" "$TMP/w.html")"

check_fails "--html into a missing directory fails, naming it" 1 \
	"nonexistent-dir/p.html: cannot create" \
	"$RR" compare -q "$T" --html "$TMP/nonexistent-dir/p.html" -o "$TMP/no.json"
check_eq "and leaves no JSON file" "absent" "$([ -e "$TMP/no.json" ] && echo present || echo absent)"

# Render it.  An empty page's screenshot is the yardstick: two plots
# compress to a far bigger PNG than white space does.
if ! command -v chromium >/dev/null 2>&1; then
	skip "chromium is not installed (make test-deps installs it); page not rendered"
else
	shot() {
		timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-dev-shm-usage \
			--enable-logging=stderr --v=0 \
			--hide-scrollbars --window-size=1000,1500 --screenshot="$2" "file://$1" \
			>"$TMP/chromium.log" 2>&1
	}
	# console messages (errors included) are logged as ...:CONSOLE...
	console() { grep -c ':CONSOLE' "$TMP/chromium.log"; }
	echo '<!DOCTYPE html><html><body><script>nosuchfn();</script></body></html>' >"$TMP/bad.html"
	shot "$TMP/bad.html" "$TMP/bad.png"
	check_eq "chromium reports a broken page's console error (the check below can fail)" 1 "$(console)"
	echo '<!DOCTYPE html><html><body></body></html>' >"$TMP/empty.html"
	shot "$TMP/empty.html" "$TMP/empty.png"
	shot "$TMP/p.html" "$TMP/p.png"
	check_eq "the page loads without console errors" 0 "$(console)"
	if [ ! -s "$TMP/p.png" ] || [ ! -s "$TMP/empty.png" ]; then
		fail "chromium wrote no screenshot"
		sed 's/^/    | /' "$TMP/chromium.log" | tail -5
	else
		check_eq "the screenshot is a PNG" "PNG" "$(head -c 4 "$TMP/p.png" | tail -c 3)"
		e=$(stat -c %s "$TMP/empty.png")
		p=$(stat -c %s "$TMP/p.png")
		check_eq "the plots render (screenshot $p bytes, empty page $e)" yes \
			"$([ "$p" -gt $((e * 5)) ] && echo yes || echo no)"
	fi
fi

# the page and the JSON go in place together: when the JSON cannot be
# written (here a full device), no page is left either (it was, before)
"$RR" compare -q "$TOP/scenarios/gavin-thresholds.json" -o /dev/full --html "$TMP/full.html" \
	>/dev/null 2>&1
check_eq "-o fails: exit 1 and no page left" "1 no" "$? $(test -e "$TMP/full.html" && echo yes || echo no)"
check "  nor its temporary file" sh -c "! ls '$TMP'/full.html.tmp.* 2>/dev/null"
# a page that cannot be written fails before the replay, naming it
check_fails "--html into a missing directory fails at once" 1 "nodir/p.html: cannot create" \
	"$RR" compare -q "$TOP/traces/anon-swap.dat" --html "$TMP/nodir/p.html"

finish
