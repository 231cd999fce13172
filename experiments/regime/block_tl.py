#!/usr/bin/env python3
"""block_tl.py: write a sweep config in the load regime of the paper's experiments.

The regime identified from the paper's times (experiments/regime/README.md) is a number K of
load changes, on average, while a slave computes its initial block:

    tl = W / P x (1 + ml / 2) / K

with W / P the oracle bound of the run without load (a slave's share of the work at the
calibrated t_op, as each run reports it in oracle_s). paper.conf writes that tl per
configuration; this tool does the same for any other config (the studies of `make beyond`):
it runs every (section, P, size) of CONFIG once under NONE without load (simulated, seed 1),
reads its oracle_s, and writes OUT: CONFIG's defaults and comments unchanged, then one section
per (section, P, size) with its own `tl` (sections without load, ml = 0, keep the defaults' tl).

    python3 experiments/regime/block_tl.py --config experiments/configs/X.conf \
        --bin-dir build/apps [--changes 10] --out experiments/configs/X.conf

OUT may be CONFIG (it is written atomically, after every run succeeded). Exit 2 on bad input.
"""
import argparse
import csv
import os
import re
import subprocess
import sys
import tempfile


def die(msg):
    print("block_tl.py: " + msg, file=sys.stderr)
    sys.exit(2)


def strip_comment(line):
    return line.split("#", 1)[0].strip()


def parse(text, source):
    """Returns (preamble lines, defaults dict, sections [(header, [(key, value, raw)], lead)]):
    lead, the comment lines just before a section's header (kept with it)."""
    preamble, defaults, sections, pending = [], {}, [], []
    for n, raw in enumerate(text.splitlines(), 1):
        s = strip_comment(raw)
        if raw.strip().startswith("#") or (not raw.strip() and pending):
            pending.append(raw.rstrip())
            continue
        if s.startswith("["):
            if not re.fullmatch(r"\[app [a-z]+\]", s):
                die("%s:%d: bad section header '%s'" % (source, n, s))
            while pending and not pending[-1].strip():
                pending.pop()
            sections.append((s, [], pending))
            pending = []
            continue
        if not sections:
            preamble += pending
            pending = []
        if not sections:
            preamble.append(raw)
            if s:
                if "=" not in s:
                    die("%s:%d: expected 'key = value', got '%s'" % (source, n, s))
                k, v = (x.strip() for x in s.split("=", 1))
                defaults[k] = v
            continue
        pending = []
        if not s:
            continue
        if "=" not in s:
            die("%s:%d: expected 'key = value', got '%s'" % (source, n, s))
        k, v = (x.strip() for x in s.split("=", 1))
        sections[-1][1].append((k, v, s))
    if not sections:
        die("%s: no [app ...] section" % source)
    return preamble, defaults, sections


def expand(defaults, sections):
    """One entry per (section, P, size): dict(app, P, size, args, ml, lines)."""
    out = []
    for header, kv, lead in sections:
        d = {k: v for k, v, _ in kv}
        app = header[len("[app "):-1]
        procs = d.get("procs", defaults.get("procs", "")).split()
        sizes = [s.strip() for s in d.get("sizes", "").split(";") if s.strip()]
        if not procs or not sizes:
            die("section %s lacks procs or sizes" % header)
        ml = float(d.get("ml", defaults.get("ml", "0")))
        keep = [raw for k, v, raw in kv if k not in ("procs", "sizes", "tl")]
        for p in procs:
            for size in sizes:
                out.append(dict(app=app, P=int(p), size=size, args=" ".join(d.get("args", "").split()),
                                ml=ml, lines=keep, lead=lead))
                lead = []
    return out


def size_key(size):
    return " ".join(size.split())


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--config", required=True)
    ap.add_argument("--bin-dir", required=True)
    ap.add_argument("--changes", type=float, default=10.0, help="K, load changes per initial block")
    ap.add_argument("--out", required=True)
    ap.add_argument("--sweep", help="dlb_sweep (default: BIN_DIR/../experiments/dlb_sweep)")
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    if not a.changes > 0:
        die("--changes must be > 0, got %g" % a.changes)
    try:
        text = open(a.config).read()
    except OSError as e:
        die("cannot read --config %s: %s" % (a.config, e.strerror))
    sweep = a.sweep or os.path.join(a.bin_dir, "..", "experiments", "dlb_sweep")
    if not os.access(sweep, os.X_OK):
        die("no dlb_sweep at %s (build first, or pass --sweep)" % sweep)
    preamble, defaults, sections = parse(text, a.config)
    entries = expand(defaults, sections)
    loaded = [e for e in entries if e["ml"] > 0]

    with tempfile.TemporaryDirectory(prefix="block_tl.") as tmp:
        probe = [l for l in preamble if strip_comment(l).split("=")[0].strip()
                 not in ("strategies", "seeds", "repetitions", "ml", "timeout", "backend")]
        probe += ["backend = sim", "strategies = NONE", "seeds = 1", "repetitions = 1", "ml = 0",
                  "timeout = 900"]
        seen = set()
        for e in loaded:
            key = (e["app"], e["P"], size_key(e["size"]), e["args"])
            if key in seen:
                continue
            seen.add(key)
            probe += ["", "[app %s]" % e["app"], "procs = %d" % e["P"], "sizes = %s" % e["size"]]
            if e["args"]:
                probe.append("args = %s" % e["args"])
        cfg = os.path.join(tmp, "probe.conf")
        with open(cfg, "w") as f:
            f.write("\n".join(probe) + "\n")
        res = os.path.join(tmp, "probe.csv")
        r = subprocess.run([sweep, "--config", cfg, "--backend", "sim", "--jobs", str(a.jobs),
                            "--out", res, "--bin-dir", a.bin_dir], stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, text=True)
        if r.returncode != 0:
            die("the runs without load failed (dlb_sweep exit %d): %s" % (r.returncode, r.stderr[-2000:]))
        oracle = {}
        with open(res) as f:
            for row in csv.DictReader(l for l in f if not l.startswith("#")):
                if row["status"] != "ok":
                    die("run %s P=%s %s failed: %s" % (row["app"], row["P"], row["size"], row["note"]))
                key = (row["app"], int(row["P"]), size_key(row["size"]), " ".join(row["extra_args"].split()))
                oracle[key] = float(row["oracle_s"])

    out = [l.rstrip("\n") for l in preamble]
    while out and not out[-1].strip():
        out.pop()
    out += ["",
            "# The load's persistence tl per configuration: %g load changes, on average, while a slave"
            % a.changes,
            "# computes its initial block (tl = W / P x (1 + ml/2) / %g, W / P the oracle bound of the run"
            % a.changes,
            "# without load; experiments/regime/README.md). Sections written by",
            "#   python3 experiments/regime/block_tl.py --config %s --bin-dir BUILD/apps --changes %g --out %s"
            % (os.path.relpath(a.config), a.changes, os.path.relpath(a.out)),
            "# (one per configuration; a section without load keeps the defaults' tl)."]
    for e in entries:
        out += [""] + e["lead"] + ["[app %s]" % e["app"], "procs = %d" % e["P"]]
        out += e["lines"]
        if e["ml"] > 0:
            w = oracle[(e["app"], e["P"], size_key(e["size"]), e["args"])]
            out.append("tl = %.3g  # W / P = %.4g s" % (w * (1 + e["ml"] / 2) / a.changes, w))
        out.append("sizes = %s" % e["size"])
    fd, tmpname = tempfile.mkstemp(dir=os.path.dirname(os.path.abspath(a.out)), prefix=".block_tl.")
    with os.fdopen(fd, "w") as f:
        f.write("\n".join(out) + "\n")
    os.replace(tmpname, a.out)
    print("block_tl.py: %d sections (%d under load) -> %s" % (len(entries), len(loaded), a.out))


if __name__ == "__main__":
    main()
