#!/usr/bin/env python3
"""Cold `reswatch check` on 10,000 icon PNGs in 1,000 asset sets, beside `find` and `pngcheck -q`.

Usage: python3 Benchmarks/check_bench.py [--sets N] [--runs N] [--pairs N] [--tree DIR]
Prints the median of N runs of each command (page cache warm for all: each tool gets one unmeasured
warm-up run), then the goal's figures: the C read floor and the check run in alternation (--pairs
of them), so both see the same load of a shared host. Needs a release build
(.build/strip/reswatch, the binary that ships) and pngcheck.
"""
import argparse
import os
import platform
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from benchtree import generate  # noqa: E402
from results import record  # noqa: E402



def timed(cmd, runs, stdin=None, ok=(0,)):
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, input=stdin)  # warm-up
    samples = []
    for _ in range(runs):
        t = time.perf_counter()
        r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, input=stdin)
        samples.append(time.perf_counter() - t)
        if r.returncode not in ok:
            sys.exit(f"{cmd[0]} failed ({r.returncode}): {r.stderr.decode()[:300]}")
    return statistics.median(samples), min(samples), max(samples)


def paired(floor_cmd, check_cmd, pairs):
    """Medians (ms) of the floor and the check run in alternation (which goes first alternates),
    and the median of each pair's ratio."""
    floors, checks, ratios = [], [], []
    for i in range(pairs):
        order = [(floors, floor_cmd, (0,)), (checks, check_cmd, (0, 1))]
        pair = {}
        for samples, cmd, ok in (order if i % 2 == 0 else order[::-1]):
            t = time.perf_counter()
            r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            pair[id(samples)] = (time.perf_counter() - t) * 1000
            if r.returncode not in ok:
                sys.exit(f"{cmd[0]} failed ({r.returncode}): {r.stderr.decode()[:300]}")
            samples.append(pair[id(samples)])
        ratios.append(pair[id(checks)] / pair[id(floors)])
    return statistics.median(floors), statistics.median(checks), statistics.median(ratios)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sets", type=int, default=1000)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--pairs", type=int, default=15, help="alternated runs of the C floor and the check, for the goal's ratio")
    ap.add_argument("--tree", default="/tmp/reswatch-bench/check-tree")
    ap.add_argument("--binary", default=".build/strip/reswatch")
    a = ap.parse_args()
    if not os.path.exists(a.binary):
        sys.exit(f"{a.binary} missing: run 'swift build -c release' (make bench does)")
    files = generate(a.tree, a.sets)
    total = sum(1 for _, _, n in os.walk(a.tree) for _ in n)
    print(f"tree: {a.tree}: {a.sets} asset sets, {len(files)} PNGs, {total} files")
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, {platform.platform()}; median of {a.runs} runs (warm cache)\n")
    empty = "/tmp/reswatch-bench/empty"
    os.makedirs(empty, exist_ok=True)
    rows = [
        ("find TREE -type f", ["find", a.tree, "-type", "f"], None, (0,)),
        ("cat every PNG (read floor)", ["xargs", "-0", "cat"], "\0".join(files).encode(), (0,)),
        ("pngcheck -q (all PNGs)", ["xargs", "-0", "pngcheck", "-q"], "\0".join(files).encode(), (0, 1, 123)),
        ("reswatch check --format json", [a.binary, "check", "--format", "json", a.tree], None, (0, 1)),
        # The fixed cost of a run: process start, loading the built-in rule modules, an empty walk.
        ("reswatch check (empty folder)", [a.binary, "check", "--allow-empty", "--format", "json", empty], None, (0, 1)),
    ]
    # The C floor of issue 11: walk + open/fstat/read/close every PNG once, single-threaded
    # (../shared/bench/readfloor.c beside the clone; compiled here with -O2).
    floor_src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared", "bench", "readfloor.c")
    floor_bin = "/tmp/reswatch-bench/readfloor"
    if os.path.exists(floor_src):
        subprocess.run(["cc", "-O2", "-o", floor_bin, floor_src], check=True)
        rows.insert(2, ("C read floor (readfloor.c)", [floor_bin, a.tree], None, (0,)))
    else:
        print(f"(no C read floor row: {floor_src} is not there)")
    results = {}
    print(f"{'command':34} {'median':>9} {'min':>9} {'max':>9}")
    for label, cmd, stdin, ok in rows:
        med, lo, hi = timed(cmd, a.runs, stdin, ok)
        results[label] = med
        print(f"{label:34} {med * 1000:8.1f}ms {lo * 1000:8.1f}ms {hi * 1000:8.1f}ms")
    r = results["reswatch check --format json"]
    floor_ms, check_ms, ratio = results.get("C read floor (readfloor.c)", 0) * 1000, r * 1000, None
    if "C read floor (readfloor.c)" in results:
        # The goal's ratio from runs side by side: the blocks above run minutes apart on a
        # shared host, whose load moves either median by a third.
        check_cmd = [a.binary, "check", "--format", "json", a.tree]
        floor_ms, check_ms, ratio = paired([floor_bin, a.tree], check_cmd, a.pairs)
        print(f"\n{a.pairs} pairs alternating the C floor and `reswatch check` (the goal's figures): "
              f"floor {floor_ms:.1f} ms, reswatch {check_ms:.1f} ms (medians), median ratio of a pair {ratio:.2f}x")
    # A run's fixed cost (issue 63): an empty folder's check against the bare process start
    # (`--version`: the loader, the Swift runtime, ArgumentParser), side by side.
    empty_cmd = [a.binary, "check", "--allow-empty", "--format", "json", empty]
    version_ms, empty_ms, _ = paired([a.binary, "--version"], empty_cmd, 2 * a.pairs)
    print(f"{2 * a.pairs} pairs alternating `reswatch --version` and an empty folder's check: "
          f"{version_ms:.1f} ms and {empty_ms:.1f} ms (medians): the fixed cost is {empty_ms - version_ms:.1f} ms over the process start")
    print(f"\nreswatch / find     = {r / results['find TREE -type f']:.2f}x  (goal <= 2x)")
    print(f"reswatch / pngcheck = {r / results['pngcheck -q (all PNGs)']:.2f}x  (goal < 1x)")
    print(f"reswatch / cat      = {r / results['cat every PNG (read floor)']:.2f}x  (reading every file is the floor for a validator)")
    if ratio is not None:
        print(f"reswatch / C floor  = {check_ms / floor_ms:.2f}x  (goal <= 1.5x; the paired runs' medians)")
    block_ratio = r / results["C read floor (readfloor.c)"] if ratio is not None else None
    record("check", reswatch_ms=check_ms, floor_ms=floor_ms, block_ratio=block_ratio,
           find_ms=results["find TREE -type f"] * 1000, pngcheck_ms=results["pngcheck -q (all PNGs)"] * 1000,
           empty_ms=empty_ms, version_ms=version_ms)


if __name__ == "__main__":
    main()
