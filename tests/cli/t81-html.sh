#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# compare --html: the page's numbers match the JSON diff, its SVG is
# well-formed, a failing page leaves no JSON behind, and a real browser
# (chromium, headless) renders it.
. "$(dirname "$0")/../lib.sh"

T=$TOP/traces/offline-anon.dat
check "--html with -o" "$RR" compare --episodes differing -q "$T" -p original --html "$TMP/p.html" -o "$TMP/p.json"

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

# What the checks below read of a page: `svg PAGE WHAT [ARG]` prints
#   series PLOT   the drawn lines of PLOT (reclaim or chunks), "LABEL:POINTS"
#   legend PLOT   PLOT's legend entries (their titles), then every name
#   chunk-y       each chunk line's points in decades above the 1-page tick
#                 (read back through the y axis' ticks)
#   bars PR       plot 2's bars at priority PR, "LABEL=PAGES:HEIGHT" each
#   bar-sum NAME  the pages of all plot 2 bars drawn for policy NAME
cat >"$TMP/svg.py" <<'PY'
import re, sys, xml.etree.ElementTree as ET
ns = '{http://www.w3.org/2000/svg}'
page = open(sys.argv[1]).read()
svgs = {t.get('id'): t for t in (ET.fromstring(s) for s in re.findall(r'<svg.*?</svg>', page, re.S))}
what, arg = sys.argv[2], (sys.argv[3] if len(sys.argv) > 3 else None)
def groups(svg, cls):
    return [g for g in svg.iter(ns + 'g') if g.get('class') == cls]
def label(g):
    return g.find(ns + 'title').text.rsplit(': ', 1)[0]
def points(g):
    return [tuple(map(float, p.split(',')))
            for p in g.find(ns + 'polyline').get('points').split()]
def bar(r):
    return re.match(r'priority \d+, (.*): (\d+) pages', r.find(ns + 'title').text).groups()
if what == 'series':
    print(' '.join('%s:%d' % (label(g), len(points(g)))
                   for g in groups(svgs['plot-' + arg], 'series')))
elif what == 'legend':
    leg = groups(svgs['plot-' + arg], 'legend')
    print(' | '.join(g.find(ns + 'title').text for g in leg))
    print(' '.join(t.text.removeprefix('= ') for g in leg for t in g.iter(ns + 'text')))
elif what == 'chunk-y':
    svg = svgs['plot-chunks']
    ticks = {int(t.get('data-pages-log10')): float(t.get('y')) - 4
             for t in svg.iter(ns + 'text') if t.get('data-pages-log10') is not None}
    top = max(ticks)
    decade = (ticks[0] - ticks[top]) / top
    assert decade > 10 and all(abs(ticks[0] - k * decade - y) < 0.11
                               for k, y in ticks.items()), ticks
    for g in groups(svg, 'series'):
        print('%s: %s' % (label(g), ' '.join('%.2f' % ((ticks[0] - y) / decade)
                                             for x, y in points(g))))
elif what == 'bars':
    panel = [g for g in svgs['plot-targets'].iter(ns + 'g') if g.get('data-priority') == arg][0]
    print(' '.join('%s=%s:%s' % (bar(r) + (r.get('height'),)) for r in panel.iter(ns + 'rect')))
elif what == 'bar-sum':
    print(sum(int(bar(r)[1]) for r in svgs['plot-targets'].iter(ns + 'rect')
              if r.find(ns + 'title') is not None and arg in bar(r)[0].split(' = ')))
PY
svg() { python3 "$TMP/svg.py" "$@"; }

# The chunk plot of a memory.reclaim scenario: one point per call, on log
# axes.  proportional (287d5fedb377) is the modelled kernel's own rule, so
# its calls are the kernel's: one line, named for both.
S=$TOP/scenarios/chunk-1gib-plus-batch.json
"$RR" compare --episodes differing -q "$S" -p cluster-cap -p proportional -p original --html "$TMP/c.html" \
	-o "$TMP/c.json" >/dev/null 2>&1
calls() { jq -c --arg p "$1" '.episodes[0].results[$p].call_requests_pages' "$TMP/c.json"; }
same() { [ "$(calls "$1")" = "$(calls "$2")" ] && echo yes || echo no; }
check_eq "the JSON: kernel and proportional make the same calls; original, cluster-cap others" \
	"yes no no" "$(same kernel proportional) $(same kernel original) $(same kernel cluster-cap)"
check_eq "chunk plot: one line for kernel = proportional (27 calls), cluster-cap 4096, original 1" \
	"kernel = proportional:27 cluster-cap:4096 original:1" "$(svg "$TMP/c.html" series chunks)"
check_eq "chunk plot's legend: one entry per line, every policy named once" \
	"kernel = proportional | cluster-cap | original
kernel proportional cluster-cap original" "$(svg "$TMP/c.html" legend chunks)"
cy=$(svg "$TMP/c.html" chunk-y)
# log10 of 65536 pages is 4.82, of 49144 4.69, of 1 page 0
check_eq "log y axis: the kernel's first call (65536 pages) 4.82 decades above its last (1 page)" \
	"4.82 4.69 0.00 | $(calls kernel | jq -r '"\(.[0]) \(.[1]) \(.[-1])"')" \
	"$(echo "$cy" | awk '/^kernel = proportional:/ {print $4, $5, $NF}') | 65536 49144 1"
check_eq "  in pixels: the 1-page point is more than 150 px below the 65536-page one" yes \
	"$(python3 - "$TMP/c.html" <<'PY'
import re, sys, xml.etree.ElementTree as ET
svg = ET.fromstring(re.findall(r'<svg id="plot-chunks".*?</svg>', open(sys.argv[1]).read(), re.S)[0])
line = next(svg.iter('{http://www.w3.org/2000/svg}polyline')).get('points').split()
print('yes' if float(line[-1].split(',')[1]) - float(line[0].split(',')[1]) > 150 else 'no')
PY
)"
# log10(32) = 1.51, log10(262144) = 5.42
check_eq "  cluster-cap's 32-page calls at 1.51 decades, original's one call at 5.42" \
	"1.51 1.51 | 5.42 | 32 262144" \
	"$(echo "$cy" | awk '/^cluster-cap:/ {a = $2 " " $NF} /^original:/ {b = $2} END {print a " | " b}') | \
$(calls cluster-cap | jq '.[0]') $(calls original | jq '.[0]')"
"$RR" compare --episodes differing -q "$S" -p cluster-cap -p proportional -p original --html "$TMP/c2.html" >/dev/null 2>&1
check "the page is the same byte for byte on a second run" cmp "$TMP/c.html" "$TMP/c2.html"
check_eq "a one-call series is drawn as a dot (a line of one point shows nothing)" 1 \
	"$(grep -o '<g class="series"><title>original: 1 calls</title>.*</g>' "$TMP/c.html" |
	   grep -o '<circle' | wc -l)"

# The scan-targets plot at priority 12, where the rounding rules differ by
# one page: 76073c646f5f's floor gives the 0x4000-page cgroup 1 page,
# 68600f623d69's round-up 2.  Each priority has a panel of its own scale.
G=$TOP/scenarios/gavin-thresholds.json
"$RR" compare --episodes differing -q "$G" -p original -p online-roundup --html "$TMP/g.html" \
	--html-cgroup /anon-0x4000 -o "$TMP/g.json" --all-episodes >/dev/null 2>&1
prio_pages() {
	jq --arg p "$1" --argjson pr "$2" '[.episodes[] | select(.cgroup == "/anon-0x4000")
		| .results[$p].scan_targets[] | select(.priority == $pr) | .nr_pages] | add' "$TMP/g.json"
}
check_eq "the JSON: 1 page against 2 at priority 12 in /anon-0x4000" "1 2" \
	"$(prio_pages kernel 12) $(prio_pages original 12)"
check_eq "priority 12's panel: the 1-page bar half as tall as the 2-page one, 55 px apart" \
	"kernel = online-roundup=1:55.0 original=2:110.0" "$(svg "$TMP/g.html" bars 12)"
check_eq "  and its title is marked as differing" 1 \
	"$(grep -c '<g class="panel" data-priority="12" data-max-pages="2"><text [^>]*fill="#d62728">priority 12 &#8800;</text>' "$TMP/g.html")"
check_eq "priority 8's panel is scaled to its own largest bar, original's" \
	"$(prio_pages original 8)" \
	"$(grep -o '<g class="panel" data-priority="8" data-max-pages="[0-9]*"' "$TMP/g.html" |
	   sed 's/.*max-pages="//; s/"//')"
check_eq "the table under the plot: priority 12's cells, the original's shaded" \
	'<tr><th>kernel = online-roundup</th><td>1</td>
<tr><th>original</th><td class="differs">2</td>' \
	"$(grep -o '<tr><th>[^<]*</th><td[^>]*>[0-9]*</td>' "$TMP/g.html")"

# --html-cgroup picks the cgroup of the targets plot
O=$TOP/traces/offline-child.dat
"$RR" compare --episodes differing -q "$O" --all-episodes -o "$TMP/o.json" >/dev/null 2>&1
D=$(jq -r '[.episodes[].results.kernel.scan_targets[].cgroup] | unique | .[-1]' "$TMP/o.json")
"$RR" compare --episodes differing -q "$O" --html "$TMP/d.html" --html-cgroup "$D" >/dev/null 2>&1
check_eq "--html-cgroup: the targets plot is of that cgroup" "$D" \
	"$(grep -o 'cgroup <code>[^<]*' "$TMP/d.html" | sed 's/^cgroup <code>//')"
check_eq "--html-cgroup: the bars drawn for the kernel add up to that cgroup's kernel targets" \
	"$(jq --arg d "$D" '[.episodes[].results.kernel.scan_targets[] | select(.cgroup == $d) | .nr_pages] | add' "$TMP/o.json")" \
	"$(svg "$TMP/d.html" bar-sum kernel)"
check_eq "identical targets: all five policies share one bar, and the legend names each" \
	"kernel = original = online-roundup = cluster-cap = proportional
kernel original online-roundup cluster-cap proportional" "$(svg "$TMP/d.html" legend targets)"
check_eq "  as the JSON has it: in every episode, all policies' targets in that cgroup are equal" 1 \
	"$(jq --arg d "$D" '[.episodes[].results | [.[] | [.scan_targets[] | select(.cgroup == $d)]]
	   | unique | length] | max' "$TMP/o.json")"
check_fails "--html-cgroup with no targets names the cgroups that have some" 1 \
	"--html-cgroup /nope: no policy made a scan target in that cgroup \\(2 cgroups have targets: /" \
	"$RR" compare --episodes differing -q "$O" --html "$TMP/n.html" --html-cgroup /nope
check_fails "--html-cgroup needs --html" 2 "--html-cgroup needs --html FILE" \
	"$RR" compare --episodes differing -q "$O" --html-cgroup /a

# output paths that must be refused (regressions)
cp "$T" "$TMP/in.dat"
check_fails "--html onto the input trace is refused" 1 "in.dat: is the input trace; refusing to overwrite it" \
	"$RR" compare --episodes differing -q "$TMP/in.dat" --html "$TMP/./in.dat"
check_eq "and the trace is intact" "$(md5sum <"$T")" "$(md5sum <"$TMP/in.dat")"
check_fails "--html and -o naming one file is a usage error" 2 "--html and -o name the same file" \
	"$RR" compare --episodes differing -q "$T" --html "$TMP/same.out" -o "$TMP/./same.out"

# with --jsonl, a page that cannot be written stops the stream before its last line
"$RR" compare --episodes differing -q "$O" --jsonl --html "$TMP/j.html" --html-cgroup /nope >"$TMP/j.out" 2>/dev/null
check_eq "--jsonl + failing --html: exit 1, header only, no summary line" "1 0" \
	"$? $(jq -s '[.[] | select(.summary | type == "object")] | length' "$TMP/j.out")"

# names with markup are escaped everywhere, bar tooltips included (regression)
cp "$BUILD/tests/plugins/ceil-file.so" "$TMP/p<b>|x.so"
"$RR" compare --episodes differing -q "$TOP/traces/anon-swap.dat" -p "$TMP/p<b>|x.so" --html "$TMP/m.html" >/dev/null 2>&1
check_eq "a policy named p<b>|x.so puts no <b> into the page" 0 "$(grep -c '<b>' "$TMP/m.html")"
check_eq "its tooltips carry the escaped name" yes \
	"$(grep -q '<title>priority [0-9]*, [^<]*p&lt;b&gt;|x.so: [0-9]* pages</title>' "$TMP/m.html" && echo yes || echo no)"
check_eq "--html-cgroup with no memory.reclaim there says where it looked" 1 \
	"$("$RR" compare --episodes differing -q "$O" --html "$TMP/w.html" --html-cgroup "$D" >/dev/null 2>&1;
	   grep -c "No proactive (memory.reclaim) request at <code>$D</code>" "$TMP/w.html")"

check_fails "--html into a missing directory fails, naming it" 1 \
	"nonexistent-dir/p.html: cannot create" \
	"$RR" compare --episodes differing -q "$T" --html "$TMP/nonexistent-dir/p.html" -o "$TMP/no.json"
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
"$RR" compare --episodes differing -q "$TOP/scenarios/gavin-thresholds.json" -o /dev/full --html "$TMP/full.html" \
	>/dev/null 2>&1
check_eq "-o fails: exit 1 and no page left" "1 no" "$? $(test -e "$TMP/full.html" && echo yes || echo no)"
check "  nor its temporary file" sh -c "! ls '$TMP'/full.html.tmp.* 2>/dev/null"
# the other way round: a page for a full device fails before the JSON is put
# in place (a JSON file was left, and -o - printed the whole document)
echo "an earlier result" >"$TMP/kept.json"
"$RR" compare --episodes differing -q "$TOP/traces/file-limit.dat" -o "$TMP/kept.json" --html /dev/full 2>"$TMP/full.err"
check_eq "--html /dev/full: exit 1, -o's existing file untouched" "1 an earlier result" \
	"$? $(cat "$TMP/kept.json")"
check "  the message names the page" grep -q "/dev/full: write failed" "$TMP/full.err"
check_eq "--html /dev/full with -o -: nothing on stdout" "0" \
	"$("$RR" compare --episodes differing -q "$TOP/traces/file-limit.dat" -o - --html /dev/full 2>/dev/null | wc -c)"

# a page that cannot be written fails before the replay, naming it
check_fails "--html into a missing directory fails at once" 1 "nodir/p.html: cannot create" \
	"$RR" compare --episodes differing -q "$TOP/traces/anon-swap.dat" --html "$TMP/nodir/p.html"

finish
