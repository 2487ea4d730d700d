#!/usr/bin/env python3
"""Race-condition lab on a GPU machine, in one go:

1. Every bug variant at TPB 64 and 1024 under compute-sanitizer racecheck (analysis mode); each
   pair of source lines racecheck reports must appear in the simulator's own report for the same
   configuration. Pairs only the simulator reports are listed with the reason.
2. Every variant's outcomes over R GPU runs at TPB 8, 32, 64, 256, 1024, next to what the
   simulator's lockstep schedule returns.

With --cuda DIR, the same for plain CUDA programs instead (DIR/*.cu, each BUG_ macro a file
tests): racecheck runs on the program nvcc builds from the untouched file with -DBUG_<NAME>, and
the GPU's outcomes are what main() returned (its own check), over R runs of `syncscope run FILE
--gpu-runs R`.

Writes racecheck-summary.md, gpu-histogram.md and the raw logs to --out.
    python3 scripts/racecheck_compare.py --syncscope .device/syncscope --out "$OUT" [--cuda DIR]
"""
import glob
import argparse
import json
import os
import re
import shutil
import subprocess
import sys

VARIANTS = [
    ("kogge-stone", "no-second-barrier"),
    ("kogge-stone", "no-first-barrier"),
    ("kogge-stone", "in-place"),
    ("two-phase-scan", "single-kernel"),
    ("axis-sum", "as-written"),
    ("axis-sum", "no-barrier"),
    ("block-exclusive-sum", "no-sync-before-offsets"),
    ("block-reduce", "warp-unrolled-no-sync"),
]


def config_args(algorithm, tpb):
    """A configuration that exercises the variant at this block size."""
    if algorithm == "two-phase-scan":
        return ["--n", str(3 * tpb), "--tpb", str(tpb)]  # three blocks: totals cross blocks
    if algorithm == "axis-sum":
        return ["--n", str(tpb - 2), "--rows", "4", "--tpb", str(tpb)]  # a row just shorter than the block
    return ["--n", str(tpb), "--tpb", str(tpb)]


def builtin_cases():
    """(label, TPB, the run's arguments) of every built-in bug variant at two block sizes."""
    return [(f"{algorithm} {bug}", str(tpb), [algorithm, "--bug", bug] + config_args(algorithm, tpb))
            for algorithm, bug in VARIANTS for tpb in (64, 1024)]


def cuda_cases(folder):
    """(label, "-", arguments) of every BUG_ variant of every .cu program in `folder`: it chose its own sizes."""
    cases = []
    for path in sorted(glob.glob(os.path.join(folder, "*.cu"))):
        with open(path) as f:
            macros = sorted(set(re.findall(r"\bBUG_[A-Z0-9_]+", f.read())))
        cases += [(f"{os.path.basename(path)} {macro}", "-", [path, "--bug", macro]) for macro in macros]
    return cases


def built_program(nvcc, path, macro, out):
    """The .cu at `path` built by nvcc as it stands, with -D<macro>=1, as `syncscope run --gpu` builds it."""
    exe = os.path.join(out, f"{os.path.basename(path)}-{macro}.exe")
    if not os.path.exists(exe):
        subprocess.run([nvcc, "--fmad=false", "-lineinfo", "-arch=native", f"-D{macro}=1", "-I", os.path.dirname(path),
                        path, "-o", exe], check=True, capture_output=True)
    return exe


def location(path, line):
    return f"{os.path.basename(path)}:{line}"


RACE = re.compile(r"(Error|Warning): Race reported between (\w+) access at .*? in (\S+):(\d+)")
AND = re.compile(r"and (\w+) access at .*? in (\S+):(\d+)")


def racecheck_pairs(log):
    """{frozenset({'kogge_stone.h:29', 'kogge_stone.h:31'}): 'Error'|'Warning'} from an analysis-mode log."""
    pairs = {}
    lines = log.splitlines()
    for i, text in enumerate(lines):
        m = RACE.search(text)
        if not m:
            continue
        for follow in lines[i + 1:i + 4]:
            n = AND.search(follow)
            if n:
                key = frozenset({location(m.group(3), m.group(4)), location(n.group(2), n.group(3))})
                if pairs.get(key) != "Error":
                    pairs[key] = m.group(1)
                break
    return pairs


def simulator_report(doc):
    """Race pairs (shared and global) and the other reports of a `syncscope run --json` document."""
    races, others = {}, []
    for h in doc["hazards"]:
        lines = [location(*l.rsplit(":", 1)) for l in h["lines"] if l]
        if h["kind"] in ("RAW", "WAR", "WAW"):
            key = frozenset(lines)
            races[key] = {"severity": h["severity"], "array": h["array"], "cross_block": h["cross_block"],
                          "kind": h["kind"]}
        else:
            others.append(f'{h["kind"]} {h["array"]} at {lines[-1]}')
    return races, others


def why_only_simulator(info, program):
    if info["cross_block"]:
        return "between blocks on global memory (racecheck checks shared memory)"
    if program:
        return "racecheck checks shared memory only; this GPU run's timing never produced it, or the array is global"
    if info["array"] not in ("shared", "cache", "partial", "warp_totals", "preceding"):
        return "global memory (racecheck checks shared memory)"
    return "shared memory; this GPU run's timing never produced it"


def show(pair):
    return " / ".join(sorted(pair))


def gpu_histogram(app, runs):
    """What the GPU returns for each built-in variant over `runs` runs, next to the simulator's lockstep."""
    sizes = (8, 32, 64, 256, 1024)
    hist = ["| variant | " + " | ".join(f"TPB {t}: GPU ({runs} runs) / lockstep" for t in sizes) + " |",
            "|---|" + "---|" * len(sizes)]
    for algorithm, bug in VARIANTS:
        cells = []
        for tpb in sizes:
            args = [algorithm, "--bug", bug] + config_args(algorithm, tpb)
            doc = json.loads(subprocess.run([app, "run", *args, "--gpu-runs", str(runs), "--json"],
                                            capture_output=True, text=True, check=True).stdout)
            g = doc["gpu_runs"]
            if g.get("error"):
                gpu = f"failed after {g['runs']} runs: {g['error']}"
            elif g["correct_runs"] == g["runs"]:
                gpu = f"correct {g['correct_runs']}/{g['runs']}"
            else:
                gpu = f"{len(g['distinct'])} distinct, {g['runs'] - g['correct_runs']} wrong"
            cells.append(f"{gpu} / {'correct' if doc['match'] else 'wrong'}")
        hist.append(f"| {algorithm} {bug} | " + " | ".join(cells) + " |")
        print(hist[-1], flush=True)
    return hist


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--syncscope", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--runs", type=int, default=200)
    ap.add_argument("--cuda", help="a folder of .cu programs: their bug variants instead of the built-in ones")
    ap.add_argument("--nvcc", default=shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc")
    ap.add_argument("--sanitizer", default=shutil.which("compute-sanitizer") or "/usr/local/cuda/bin/compute-sanitizer")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    app = os.path.abspath(a.syncscope)
    ok = True

    # 1. racecheck against the simulator
    rows = ["| variant | TPB | racecheck pairs | in the simulator's report | simulator only (why) | other simulator reports |",
            "|---|---|---|---|---|---|"]
    cases = cuda_cases(a.cuda) if a.cuda else builtin_cases()
    for label, tpb, args in cases:
        ran = subprocess.run([app, "run", *args, "--json"], capture_output=True, text=True)
        if not ran.stdout.strip():
            ok = False
            rows.append(f"| {label} | {tpb} | - | NO: the simulator's run failed: {ran.stderr.strip()[:200]} | - | - |")
            print(rows[-1], flush=True)
            continue
        races, others = simulator_report(json.loads(ran.stdout))
        log_path = os.path.join(a.out, "racecheck-" + re.sub(r"[^\w.-]+", "-", f"{label}-{tpb}") + ".log")
        target = [app, "run", *args, "--gpu"]
        if a.cuda:  # the program itself, as nvcc builds it: the sanitizer need not follow syncscope's children
            target = [built_program(a.nvcc, args[0], args[2], a.out)]
        run = subprocess.run([a.sanitizer, "--tool", "racecheck", "--racecheck-report", "analysis", "--print-limit",
                              "10000", "--log-file", log_path, *target], capture_output=True, text=True)
        gpu_failed = re.search(r"^gpu: failed \((.*)\)$", run.stdout, re.M)
        rc = {}
        if os.path.exists(log_path):
            with open(log_path) as f:
                rc = racecheck_pairs(f.read())
        missing = [p for p in rc if p not in races]
        ok &= not missing
        found = ", ".join(f"{show(p)} ({rc[p].lower()})" for p in rc) or "none"
        if gpu_failed:
            found += f" (the GPU run failed: {gpu_failed.group(1)})"
        covered = "yes" if not missing else "NO: " + ", ".join(show(p) for p in missing)
        only = "; ".join(f"{show(p)} {races[p]['kind']}: {why_only_simulator(races[p], bool(a.cuda))}"
                         for p in races if p not in rc)
        rows.append(f"| {label} | {tpb} | {found} | {covered} | {only or '-'} | {'; '.join(others) or '-'} |")
        print(rows[-1], flush=True)
    with open(os.path.join(a.out, "racecheck-summary.md"), "w") as f:
        f.write("\n".join(rows) + "\n")

    # 2. what the GPU returns, next to the simulator's lockstep
    if a.cuda:
        hist = [f"| variant | GPU ({a.runs} runs): what main() returned | simulator (lockstep) |", "|---|---|---|"]
        for label, _, args in cases:
            ran = subprocess.run([app, "run", *args, "--gpu-runs", str(a.runs), "--json"], capture_output=True, text=True)
            if not ran.stdout.strip():
                hist.append(f"| {label} | the run failed: {ran.stderr.strip()[:200]} | - |")
                continue
            doc = json.loads(ran.stdout)
            g = doc["gpu_runs"]
            if g.get("error"):
                gpu = f"failed after {g['runs']} runs: {g['error']}"
            else:
                gpu = ", ".join(f"{d['runs']}x {d['output'][0]}" for d in g["distinct"])
            hist.append(f"| {label} | {gpu} | {doc['program']['main_returned']} |")
            print(hist[-1], flush=True)
    else:
        hist = gpu_histogram(app, a.runs)
    with open(os.path.join(a.out, "gpu-histogram.md"), "w") as f:
        f.write("\n".join(hist) + "\n")
    print("every racecheck pair is in the simulator's report" if ok else "SOME racecheck pairs are missing")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
