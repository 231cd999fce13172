#!/usr/bin/env python3
"""The transpose test of issue 46, as stated in experiments/regime/transpose.md.

Fits one constant c_T (trfd --transpose-cost, base seconds per transposed element) to the three
P = 4 TRFD no-DLB entries of Table 1.2 (rms of ln(ours / paper), seeds 1-5, median), then predicts
with the simulator the three P = 16 entries, the P = 16 / P = 4 ratios and the six loop times
implied by Table 1.4, and applies the adoption criterion fixed in transpose.md. Writes a markdown
page and a CSV. Everything runs on --backend sim (deterministic); runs are cached in --cache.

usage: python3 experiments/regime/transpose_test.py --bin-dir build/apps --jobs 2 \
         --out experiments/regime/transpose-result.md --csv experiments/regime/transpose-result.csv
"""
import argparse
import concurrent.futures as cf
import csv
import json
import math
import os
import statistics
import subprocess
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
PAPER = os.path.join(HERE, "..", "paper")
CONF = os.path.join(HERE, "..", "configs", "paper.conf")
SEEDS = [1, 2, 3, 4, 5]
TOL, RATIO_TOL = 0.25, 0.15


def read_csv(path):
    with open(path) as f:
        return list(csv.DictReader(line for line in f if not line.startswith("#")))


def trfd_tl(conf):
    """paper.conf's tl per (P, n) for the loaded TRFD sections."""
    out, sec = {}, None
    for raw in open(conf):
        line = raw.split("#", 1)[0].strip()
        if line.startswith("["):
            sec = {"app": line.strip("[]").split()[-1]}
        elif "=" in line and sec is not None:
            k, v = (x.strip() for x in line.split("=", 1))
            sec[k] = v
            if k == "sizes" and sec["app"] == "trfd" and "tl" in sec and "procs" in sec:
                out[(int(sec["procs"]), int(v.split("=")[1]))] = float(sec["tl"])
    return out


class Runner:
    def __init__(self, bin_dir, cache, jobs):
        self.bin, self.path, self.jobs = os.path.join(bin_dir, "trfd"), cache, jobs
        self.lock = threading.Lock()
        self.cache = json.load(open(cache)) if cache and os.path.exists(cache) else {}

    def one(self, args):
        key = " ".join(args)
        with self.lock:
            if key in self.cache:
                return self.cache[key]
        out = subprocess.run([self.bin] + args, capture_output=True, text=True, timeout=900)
        res = None
        for line in out.stdout.splitlines():
            if line.startswith("RESULT "):
                res = dict(f.split("=", 1) for f in line[7:].split() if "=" in f)
        if res is None or res.get("verified") != "1":
            raise RuntimeError("run failed: trfd %s\n%s%s" % (key, out.stdout, out.stderr))
        keep = {k: float(res[k]) for k in ("total_s", "loop1_s", "loop2_s")}
        with self.lock:
            self.cache[key] = keep
        return keep

    def median(self, P, n, tl, c, strategy="NONE", field="total_s"):
        argvs = [["--backend", "sim", "--procs", str(P), "--group", str(P // 2), "--strategy",
                  strategy, "--ml", "5", "--tl", "%.6g" % tl, "--n", str(n), "--seed", str(s),
                  "--transpose-cost", "%.6g" % c, "--quiet"] for s in SEEDS]
        with cf.ThreadPoolExecutor(self.jobs) as ex:
            res = list(ex.map(self.one, argvs))
        return statistics.median(r[field] for r in res)

    def save(self):
        if self.path:
            with open(self.path + ".tmp", "w") as f:
                json.dump(self.cache, f)
            os.replace(self.path + ".tmp", self.path)


def fit(run, tl, paper4):
    """c_T minimizing the rms of ln(ours / paper) over the P = 4 entries: log grid, then golden
    section on ln c_T."""
    def loss(lc):
        c = math.exp(lc)
        return math.sqrt(sum(math.log(run.median(4, n, tl[(4, n)], c) / t) ** 2
                             for n, t in paper4.items()) / len(paper4))
    grid = [math.log(10.0 ** (e / 4.0)) for e in range(-32, -11)]  # 1e-8 .. 1e-3
    vals = [loss(g) for g in grid]
    i = min(range(len(grid)), key=lambda j: vals[j])
    a, b = grid[max(0, i - 1)], grid[min(len(grid) - 1, i + 1)]
    g = (math.sqrt(5) - 1) / 2
    x1, x2 = b - g * (b - a), a + g * (b - a)
    f1, f2 = loss(x1), loss(x2)
    while b - a > 1e-3:
        if f1 < f2:
            b, x2, f2 = x2, x1, f1
            x1 = b - g * (b - a)
            f1 = loss(x1)
        else:
            a, x1, f1 = x1, x2, f2
            x2 = a + g * (b - a)
            f2 = loss(x2)
    lc = (a + b) / 2
    return math.exp(lc), loss(lc)


def elements(n):
    N = n * (n + 1) // 2
    return N * (N - 1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin-dir", default="build/apps")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--cache", default="/tmp/transpose_test_cache.json")
    ap.add_argument("--out", required=True)
    ap.add_argument("--csv", required=True)
    a = ap.parse_args()
    run = Runner(a.bin_dir, a.cache, a.jobs)
    tl = trfd_tl(CONF)
    table = {(int(r["P"]), int(r["n"])): float(r["time_s"])
             for r in read_csv(os.path.join(PAPER, "table1_2_trfd_nodlb.csv"))}
    paper4 = {n: t for (P, n), t in table.items() if P == 4}
    try:
        c, rms = fit(run, tl, paper4)
        rows = []
        for (P, n), t in sorted(table.items()):
            rows.append(dict(kind="no-DLB", P=P, n=n, what="NONE total", paper=t, lo=t, hi=t,
                             ours0=run.median(P, n, tl[(P, n)], 0.0),
                             ours=run.median(P, n, tl[(P, n)], c)))
        for n in sorted(paper4):
            r4 = next(r for r in rows if r["P"] == 4 and r["n"] == n)
            r16 = next(r for r in rows if r["P"] == 16 and r["n"] == n)
            rows.append(dict(kind="ratio", P=16, n=n, what="P=16 / P=4", paper=r16["paper"] / r4["paper"],
                             lo=None, hi=None, ours0=r16["ours0"] / r4["ours0"], ours=r16["ours"] / r4["ours"]))
        for r in read_csv(os.path.join(PAPER, "implied_times.csv")):
            if r["app"] != "TRFD" or r["role"] == "stated":
                continue
            n, loop = int(r["size"].split("=")[1]), r["loop"]
            field = "loop1_s" if loop == "L1" else "loop2_s"
            rows.append(dict(kind="loop", P=4, n=n, what="%s %s (%s)" % (loop, r["scheme"], r["role"]),
                             paper=float(r["time_s"]), lo=float(r["time_lo"]), hi=float(r["time_hi"]),
                             ours0=run.median(4, n, tl[(4, n)], 0.0, r["scheme"], field),
                             ours=run.median(4, n, tl[(4, n)], c, r["scheme"], field)))
    finally:
        run.save()
    write(a, c, rms, rows)


def verdicts(rows):
    p16 = [r for r in rows if r["kind"] == "no-DLB" and r["P"] == 16]
    ratios = [r for r in rows if r["kind"] == "ratio"]
    ok16 = sum(1 for r in p16 if abs(r["ours"] / r["paper"] - 1) <= TOL)
    okr = sum(1 for r in ratios if abs(r["ours"] - r["paper"]) <= RATIO_TOL)
    return ok16, okr, ok16 == len(p16) and okr == len(ratios)


def write(a, c, rms, rows):
    ok16, okr, adopt = verdicts(rows)
    with open(a.csv, "w") as f:
        f.write("# transpose_test.py (issue 46): the fitted c_T and every prediction; seeds 1-5, median; "
                "ours0 at c_T = 0 (the current default), ours at the fitted c_T\n")
        f.write("# c_T_s=%.6g rms_ln_P4=%.4f p16_within=%d/3 ratios_within=%d/3 adopt=%s\n"
                % (c, rms, ok16, okr, "yes" if adopt else "no"))
        w = csv.writer(f)
        w.writerow(["kind", "P", "n", "what", "paper", "paper_lo", "paper_hi", "ours0", "ours"])
        for r in rows:
            w.writerow([r["kind"], r["P"], r["n"], r["what"], "%.4g" % r["paper"],
                        "" if r["lo"] is None else "%.4g" % r["lo"], "" if r["hi"] is None else "%.4g" % r["hi"],
                        "%.4g" % r["ours0"], "%.4g" % r["ours"]])
    L = ["# The transpose test: outcome (written by transpose_test.py)", "",
         "The test as stated before it was run: `transpose.md`. Command: `python3 "
         "experiments/regime/transpose_test.py --bin-dir build/apps --jobs 2 --out "
         "experiments/regime/transpose-result.md --csv experiments/regime/transpose-result.csv` "
         "(simulated backend, seeds 1-5, median).", "",
         "## Fit (the three P = 4 entries only)", "",
         "c_T = **%.3g s base per transposed element** (%.3g us); rms of ln(ours / paper) over the "
         "P = 4 entries %.3f." % (c, c * 1e6, rms), ""]
    L += ["| n | transposed elements N(N-1) | seconds added at P = 4 (median total, c_T against 0) | per element |",
          "|---|---|---|---|"]
    for r in rows:
        if r["kind"] == "no-DLB" and r["P"] == 4:
            add = r["ours"] - r["ours0"]
            L.append("| %d | %d | %.1f | %.0f us |" % (r["n"], elements(r["n"]), add, add / elements(r["n"]) * 1e6))
    L += ["", "## Predictions against the paper", "",
          "| what | P | n | paper | ours at c_T = 0 | ours at c_T | ours / paper (ratio: ours - paper) | within |",
          "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        if r["kind"] == "no-DLB":
            q = r["ours"] / r["paper"]
            L.append("| no-DLB total | %d | %d | %.1f s | %.1f s | %.1f s | %.2f | %s |" % (
                r["P"], r["n"], r["paper"], r["ours0"], r["ours"], q, "yes" if abs(q - 1) <= TOL else "no"))
        elif r["kind"] == "ratio":
            d = r["ours"] - r["paper"]
            L.append("| P=16 / P=4 | | %d | %.2f | %.2f | %.2f | %+.2f | %s |" % (
                r["n"], r["paper"], r["ours0"], r["ours"], d, "yes" if abs(d) <= RATIO_TOL else "no"))
        else:
            inside = r["lo"] <= r["ours"] <= r["hi"]
            L.append("| loop %s | 4 | %d | %.1f [%.1f, %.1f] s | %.1f s | %.1f s | %.2f | %s |" % (
                r["what"], r["n"], r["paper"], r["lo"], r["hi"], r["ours0"], r["ours"], r["ours"] / r["paper"],
                "inside" if inside else "outside"))
    loops = [r for r in rows if r["kind"] == "loop"]
    in0 = sum(1 for r in loops if r["lo"] <= r["ours0"] <= r["hi"])
    in1 = sum(1 for r in loops if r["lo"] <= r["ours"] <= r["hi"])
    L += ["", "Loop times inside the paper's intervals: %d of %d at c_T = 0, %d of %d at the fitted c_T "
          "(the transpose adds time between the loops only; loop 2 meets the load later)."
          % (in0, len(loops), in1, len(loops))]
    L += ["", "## Verdict", "",
          "P = 16 entries within 25 %%: %d of 3; ratios within 0.15: %d of 3. By the criterion fixed in "
          "`transpose.md`: **%s**." % (ok16, okr, "adopted" if adopt else "rejected"), "",
          "## Is c_T physical?", "",
          "The seconds added per element are close to c_T itself: the master (slave 1's workstation) "
          "runs the transpose at about its base speed in these runs (transpose.md expected it stretched "
          "by the master's external load; the runs say the master's own computation is not), so c_T is "
          "what the paper's master spent per transposed element. transpose.md put a cache and TLB miss per strided "
          "swap on a SPARCstation LX (no second-level cache, a 32-entry TLB, memory latency of the "
          "time ~100-300 ns) at about 0.2-2 us per element: c_T = %.0f us is %.0f-%.0f times that. "
          "The numbers fit, the cache does not explain them: only paging does (a 10-20 ms disk fault "
          "every %.0f-%.0f elements), and whether the master paged is not in the paper. What the test "
          "establishes is that one cost per transposed element, fitted at P = 4, carries over to "
          "P = 16 and to the ratios; the mechanism behind its size stays an assumption." % (
              c * 1e6, c * 1e6 / 2.0, c * 1e6 / 0.2, 0.010 / c, 0.020 / c), ""]
    with open(a.out, "w") as f:
        f.write("\n".join(L))


if __name__ == "__main__":
    main()
