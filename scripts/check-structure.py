#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The shape of src/ (docs/ARCHITECTURE.md): stages in one order, no cycles.

A *stage* is a folder of src/; a *unit* is one file name of it without the
suffix (x.c with its x.h; a header without a .c, such as sim-local.h, is a
unit of its own, and so is the stage's public header S/S.h, which its
stage's files may include for the types without depending on S.c).  Unit A
depends on unit B when a file of A includes a file of B ("#include" lines)
or names a function or variable that B's .c defines (comments, strings and
the file's own statics aside): a declaration moved to another header hides
no dependency.

Fails (exit 1) on, naming the files and the include line or symbol:
  - a cycle of units (within a stage or across stages);
  - a back edge: a stage depending on a stage later in STAGES;
  - a file outside a stage including anything of it but its public header
    (src/S/S.h; every header of src/common is public), e.g. a *-local.h.

Usage: check-structure.py [--stages] [SRC_DIR]   (default: src/ beside
this script); --stages also prints each stage's dependencies.
"""
import os
import re
import sys

# The stages in data-flow order: each may depend on those before it only.
STAGES = [
    "common",	# errors, text, lru names, clean-up: used by all
    "markers",	# the recorder's marker lines: one writer, one parser
    "release",	# the modelled kernel release and its rules, per family
    "policies",	# hook table, built-ins, .so loader (the kernel's choices)
    "sim",	# the kernel's reclaim loops; no trace (run-sim links it alone)
    "record",	# the recorder: tracefs, snapshots as markers, trace.dat
    "trace",	# event source: trace.dat and text front ends, one decoder
    "episode",	# cgroup state, tasks, episodes, inferred inputs, sim input
    "scenario",	# what-if JSON scenarios as simulator input
    "fidelity",	# the recorded calls judged against the model: facts
    "timing",	# the per-call time model fitted on a trace
    "diff",	# per-episode decision diff and running totals, plain data
    "output",	# renderers: JSON, JSON lines, table, HTML, report, fidelity
    "replay",	# the driver: events -> episodes -> policies -> diffs -> renderers
    "merge",	# many JSON diffs into one
    "verify",	# a policy's prediction against a patched kernel's recording
    "cli",	# commands: options and exit codes
]


def strip_c(text):
    """Comments, string and character literals out, newlines kept."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("\n" * text.count("\n", i, j))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(" ")
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


NOT_NAMES = {"void", "int", "char", "bool", "long", "short", "unsigned", "signed",
             "float", "double", "const", "static", "inline", "__attribute__"}
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)
IDENT = re.compile(r"[A-Za-z_]\w*")


def uses(code):
    """The code that uses names rather than declares them: bodies and
    initializers (inside braces or after '=' at file scope) and macros."""
    out, depth, init = [], 0, False
    for line in code.split("\n"):
        if depth == 0 and re.match(r"\s*#\s*define\b", line):
            out.append(line)
            continue
        if re.match(r"\s*#", line) and depth == 0:
            continue
        for c in line:
            if c == "{":
                depth += 1
            elif c == "}":
                depth -= 1
            elif depth == 0 and c == "=":
                init = True
            elif depth == 0 and c == ";":
                init = False
            out.append(c if depth > 0 or init or c in "{}" else " ")
        out.append("\n")
    return "".join(out)


def definitions(code):
    """(non-static, static) names a .c file defines at file scope."""
    glob, stat = set(), set()
    code = re.sub(r"^\s*#.*?(?<!\\)$", "", code, flags=re.M | re.S)
    depth, decl, body_is_func = 0, [], False
    for c in code:
        if depth:
            depth += (c == "{") - (c == "}")
            if not depth and body_is_func:
                decl = []
            continue
        if c == "{":
            h = " ".join("".join(decl).split())
            body_is_func = "(" in h and "=" not in h
            if body_is_func:	# the name: the first word called that is no type
                m = next(m for m in re.finditer(r"(\w+)\s*\(", h)
                         if m.group(1) not in NOT_NAMES and not m.group(1).endswith("_t"))
                (stat if re.match(r"(static|inline)\b", h) else glob).add(m.group(1))
            else:
                decl.append(" {} ")	# a type's body or an initializer
            depth = 1
        elif c == ";":
            h = " ".join("".join(decl).split())
            decl = []
            lhs = h.split("=")[0]
            if "(" in lhs or lhs.startswith(("typedef", "extern")):
                continue	# a prototype, a type, a declaration
            if re.fullmatch(r"(struct|union|enum)\s+\w+\s*(\{\})?\s*", lhs):
                continue	# a type's definition
            for part in h.split(","):	# each declarator
                m = re.search(r"(\w+)\s*(\[[^\]]*\]\s*)*$", part.split("=")[0])
                if m:
                    (stat if lhs.startswith("static") else glob).add(m.group(1))
        else:
            decl.append(c)
    return glob, stat


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    args = [a for a in sys.argv[1:] if a != "--stages"]
    src = os.path.abspath(args[0] if args else os.path.join(here, "..", "src"))
    files = {}
    for d, _, names in os.walk(src):
        for f in names:
            if f.endswith((".c", ".h")):
                p = os.path.relpath(os.path.join(d, f), src)
                with open(os.path.join(d, f), encoding="utf-8") as fh:
                    files[p] = fh.read()
    problems = []
    stage = lambda p: p.split(os.sep)[0] if os.sep in p else ""
    # a stage's public header is a unit of its own, even beside an S.c
    unit = lambda p: p if p == os.path.join(stage(p), stage(p) + ".h") \
        else os.path.splitext(p)[0]
    for p in files:
        if stage(p) not in STAGES:
            problems.append(f"src/{p}: in no stage of {os.path.basename(__file__)} STAGES")
    # who defines what, and each file's code without comments and strings
    code = {p: strip_c(t) for p, t in files.items()}
    owner, statics = {}, {}
    for p in files:
        if p.endswith(".c"):
            g, s = definitions(code[p])
            statics[p] = g | s
            for name in g:
                owner[name] = p
    # edges unit -> unit, each with the first reason seen
    edges = {}
    for p, text in files.items():
        u = unit(p)
        for m in INCLUDE.finditer(text):
            target = os.path.normpath(os.path.join(os.path.dirname(p), m.group(1)))
            line = text.count("\n", 0, m.start()) + 1
            if target not in files:
                problems.append(f"src/{p}:{line}: includes {m.group(1)}, not a file of src/")
                continue
            edges.setdefault((u, unit(target)), f"src/{p}:{line} includes \"{m.group(1)}\"")
            st = stage(target)
            if st != stage(p) and st != "common" and target != os.path.join(st, st + ".h"):
                problems.append(f"src/{p}:{line}: includes \"{m.group(1)}\": outside "
                                f"src/{st}/ only its public header {st}/{st}.h")
        mine = statics.get(p, set())
        used = re.sub(r"\b(struct|union|enum)\s+\w+", " ", uses(code[p]))
        for name in sorted(set(IDENT.findall(used))):
            d = owner.get(name)
            if d and unit(d) != u and name not in mine:
                edges.setdefault((u, unit(d)), f"src/{p} uses {name}() of src/{d}")
    graph = {}
    for (a, b), why in edges.items():
        if a != b:
            graph.setdefault(a, {})[b] = why
    # back edges between stages
    rank = {s: i for i, s in enumerate(STAGES)}
    for (a, b), why in sorted(edges.items()):
        sa, sb = stage(a), stage(b)
        if sa in rank and sb in rank and rank[sb] > rank[sa]:
            problems.append(f"back edge {sa} -> {sb} ({sb} comes after {sa} in STAGES): {why}")
    # cycles: strongly connected units (Tarjan), each shown as one cycle
    index, low, stack, sccs = {}, {}, [], []

    def connect(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph.get(v, {})):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = stack[stack.index(v):]
            del stack[stack.index(v):]
            if len(comp) > 1:
                sccs.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            connect(v)
    for comp in sccs:
        inside = set(comp)
        # one shortest cycle through the first unit, breadth first
        start, prev, todo = comp[0], {comp[0]: None}, [comp[0]]
        end = None
        while todo and end is None:
            nxt = []
            for v in todo:
                for w in sorted(graph.get(v, {})):
                    if w == start:
                        end = v
                        break
                    if w in inside and w not in prev:
                        prev[w] = v
                        nxt.append(w)
                if end is not None:
                    break
            todo = nxt
        path = [end]
        while prev[path[-1]] is not None:
            path.append(prev[path[-1]])
        path.reverse()
        path.append(start)
        lines = [f"cycle of {len(comp)} units ({', '.join(comp)}), e.g.:"]
        for a, b in zip(path, path[1:]):
            lines.append(f"    {a} -> {b}: {graph[a][b]}")
        problems.append("\n".join(lines))
    if "--stages" in sys.argv[1:]:
        deps = {}
        for a, b in edges:
            if stage(a) != stage(b):
                deps.setdefault(stage(a), set()).add(stage(b))
        for st in STAGES:
            print(f"{st}: {' '.join(sorted(deps.get(st, ()), key=STAGES.index))}")
    for p in problems:
        print(p)
    if problems:
        print(f"check-structure: {len(problems)} problem(s) in {src}")
        return 1
    print(f"check-structure: {len(files)} files, {len(set(map(unit, files)))} units, "
          f"{sum(len(v) for v in graph.values())} edges: "
          f"no cycle, no back edge ({' < '.join(STAGES)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
