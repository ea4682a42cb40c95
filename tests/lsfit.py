#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
# An independent check of compare's time model (src/timing/cost-model.c):
# non-negative least squares of duration = fixed + a*scanned + b*reclaimed,
# here by brute force over the subsets of terms on the raw normal equations
# (Gauss-Jordan with pivoting), against the time_model of a diff.
#   usage: lsfit.py POINTS.json DIFF.json
# POINTS.json: [[scanned, reclaimed, duration_ns], ...], the recorded calls.
# Exit 0 when the terms kept, the coefficients and the RMS error agree
# (relative 1e-6), printing both.
import itertools
import json
import sys

pts = json.load(open(sys.argv[1]))
tm = json.load(open(sys.argv[2]))["time_model"]
names = ["fixed", "scan", "reclaim"]
cols = [lambda p: 1.0, lambda p: float(p[0]), lambda p: float(p[1])]
y = [float(p[2]) for p in pts]


def fit(subset):
    k = len(subset)
    X = [[cols[c](p) for c in subset] for p in pts]
    A = [[sum(r[i] * r[j] for r in X) for j in range(k)] + [sum(r[i] * v for r, v in zip(X, y))]
         for i in range(k)]
    for i in range(k):
        piv = max(range(i, k), key=lambda r: abs(A[r][i]))
        if abs(A[piv][i]) < 1e-12 * max(1.0, max(abs(v) for v in A[piv][:k])):
            return None
        A[i], A[piv] = A[piv], A[i]
        A[i] = [v / A[i][i] for v in A[i]]
        for r in range(k):
            if r != i:
                A[r] = [a - A[r][i] * b for a, b in zip(A[r], A[i])]
    beta = [A[i][k] for i in range(k)]
    if any(b < 0 for b in beta):
        return None
    rss = sum((v - sum(b * x for b, x in zip(beta, row))) ** 2 for row, v in zip(X, y))
    return rss, beta


best = None
for size in (1, 2, 3):
    for subset in itertools.combinations(range(3), size):
        r = fit(subset)
        if r and (best is None or r[0] < best[0] * (1 - 1e-9)):
            best = (r[0], subset, r[1])
rss, subset, beta = best
coef = [0.0, 0.0, 0.0]
for c, b in zip(subset, beta):
    coef[c] = b
rmse = (rss / (len(y) - len(subset))) ** 0.5
want = {"terms": [names[c] for c in subset], "coef": coef, "rms": rmse}
got = {"terms": tm["terms"], "coef": [tm["fixed_ns"], tm["scan_ns_per_page"],
                                       tm["reclaim_ns_per_page"]], "rms": tm["rms_error_ns"]}
print("want", want)
print("got ", got)
close = lambda a, b: abs(a - b) <= 1e-6 * max(1.0, abs(b))
ok = (got["terms"] == want["terms"] and all(close(g, w) for g, w in zip(got["coef"], want["coef"]))
      and close(got["rms"], want["rms"]) and tm["calls"] == len(pts))
sys.exit(0 if ok else 1)
