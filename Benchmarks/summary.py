#!/usr/bin/env python3
"""The goals of issue 30 and this run's figures, in one table (the last thing `make bench` prints).

Reads what the benchmarks recorded (results.py) and prints, per row: what is measured, the goal,
reswatch's figure, the peer's (the C read floor, watchman) from the same run, whether the goal
holds, and the command that produced it. A row no benchmark of this run recorded says so.

Usage: python3 Benchmarks/summary.py [--markdown]
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from results import PATH, load, machine  # noqa: E402

CHECK = "Benchmarks/check_bench.py"
LATENCY = "Benchmarks/latency_bench.py --sizes 1000,100000"
MEMORY = "Benchmarks/memory_bench.py --rows 100k,1m,roots"
SIZE = "Benchmarks/size_bench.py"
WHOLE = "Benchmarks/wholerepo_bench.py"


def rows(r):
    """(what, goal, reswatch, peer, met or None, command) per goal."""
    out = []
    c = r.get("check")
    if c and c.get("floor_ms"):
        # Judged on the paired runs and, where recorded, on the blocks' medians too: met only if both are.
        ratio = c["reswatch_ms"] / c["floor_ms"]
        block = c.get("block_ratio")
        shown = f"{c['reswatch_ms']:.1f} ms ({ratio:.2f}x" + (f"; {block:.2f}x in blocks)" if block else ")")
        out.append(("cold `check`, 11,002-file icon tree", "<= 1.5x the C read floor",
                    shown, f"C floor {c['floor_ms']:.1f} ms", ratio <= 1.5 and (block is None or block <= 1.5), CHECK))
    else:
        out.append(("cold `check`, 11,002-file icon tree", "<= 1.5x the C read floor", None, None, None, CHECK))
    if c and c.get("version_ms"):
        # Issue 63: the rules ready to use, not parsed at each start.
        over = c["empty_ms"] - c["version_ms"]
        out.append(("fixed cost of a run: `check` of an empty folder", "<= `--version` + 5 ms",
                    f"{c['empty_ms']:.1f} ms (+{over:.1f} ms)", f"--version {c['version_ms']:.1f} ms", over <= 5, CHECK))
    m = r.get("memory-100k")
    if m:
        # Without watchman (--no-watchman, or not installed) the figure is shown, the goal not judged.
        w = m.get("watchman_rss_mb") is not None
        # Anonymous pages beside each (recorded since 2026-11-27): the rest is executable and libraries.
        def anon(rec, key):
            return f" (anon {rec[key]:.1f})" if rec.get(key) is not None else ""
        # The row's figures are medians when it ran more than once (memory_bench.py --scan-runs).
        runs = f", median of {m['runs']}" if m.get("runs", 1) > 1 else ""
        out.append(("daemon RSS after the initial scan, 100k files", "<= watchman's",
                    f"{m['rss_mb']:.1f} MB{anon(m, 'anon_mb')}{runs}",
                    f"watchman {m['watchman_rss_mb']:.1f} MB{anon(m, 'watchman_anon_mb')}" if w else "watchman not run",
                    m["rss_mb"] <= m["watchman_rss_mb"] if w else None, MEMORY))
        out.append(("initial scan to `ready`, 100k files", "<= watchman's crawl", f"{m['ready_s']:.2f} s{runs}",
                    f"watchman {m['watchman_crawl_s']:.2f} s" if w else "watchman not run",
                    m["ready_s"] <= m["watchman_crawl_s"] if w else None, MEMORY))
    else:
        out.append(("daemon RSS and initial scan, 100k files", "<= watchman's", None, None, None, MEMORY))
    for files, settle in [(1000, 20), (1000, 1), (100000, 20), (100000, 1)]:
        what = f"change -> diagnostic, {files:,} files, settle {settle} ms: p50 (p99)"
        lat = r.get(f"latency-{files}-{settle}")
        if lat:
            out.append((what, "p50 <= watchman's", f"{lat['p50_ms']:.2f} ({lat['p99_ms']:.2f}) ms",
                        f"watchman {lat['watchman_p50_ms']:.2f} ({lat['watchman_p99_ms']:.2f}) ms",
                        lat["p50_ms"] <= lat["watchman_p50_ms"], LATENCY))
        else:
            out.append((what, "p50 <= watchman's", None, None, None, LATENCY))
    base = m["per_file_b"] if m else None
    for key, what in [("memory-1m", "memory per file, 1,000,000 files in one root"),
                      ("memory-roots", "memory per file, 1,000 roots of 100 files")]:
        s = r.get(key)
        if s and base is not None:
            peer = f"watchman {s['watchman_rss_mb']:.1f} MB" if s.get("watchman_rss_mb") is not None else "watchman not run"
            runs = f", median of {s['runs']}" if s.get("runs", 1) > 1 else ""
            out.append((what, "<= the 100k figure", f"{s['per_file_b']:.0f} B ({s['rss_mb']:.1f} MB{runs})",
                        f"100k: {base:.0f} B; {peer}", s["per_file_b"] <= base, MEMORY))
        else:
            out.append((what, "<= the 100k figure", None, None, None, MEMORY))
    w = r.get("wholerepo")
    what = "cold `check`, whole repositories (make accuracy's)"
    if w:
        out.append((f"{what}: {w['repositories']} repositories, {w['files']:,} files read", "<= 1.5x reading the files it reads",
                    f"{w['check_ms']:.0f} ms ({w['ratio']:.1f}x)", f"read floor {w['floor_ms']:.0f} ms", w["ratio"] <= 1.5, WHOLE))
        if w.get("watchman_crawl_s") is not None:
            out.append(("daemon's initial scan, the same repositories as roots", "<= watchman's crawl", f"{w['scan_s']:.2f} s",
                        f"watchman {w['watchman_crawl_s']:.2f} s", w["scan_s"] <= w["watchman_crawl_s"], WHOLE))
    else:
        out.append((what, "<= 1.5x reading the files it reads", None, None, None, WHOLE))
    z = r.get("size")
    if z:
        out.append(("the binary that ships (stripped; debug info apart)", f"<= {z['goal_mb']} MB",
                    f"{z['shipped_mb']:.1f} MB (ICU data {z['icu_mb']:.1f} MB)",
                    f"release build {z['release_mb']:.1f} MB, debug info {z['debug_mb']:.1f} MB",
                    z["shipped_mb"] <= z["goal_mb"] and z["stripped"], SIZE))
    else:
        out.append(("the binary that ships (stripped; debug info apart)", "<= 85 MB", None, None, None, SIZE))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--markdown", action="store_true", help="print a Markdown table (docs/performance.md)")
    a = ap.parse_args()
    r = load()
    print(f"\nGoals of issue 30 ({PATH}); machine: {machine()}")
    table = [(w, g, v or "not measured in this run", p or "", {True: "met", False: "NOT MET", None: "-"}[ok], cmd)
             for w, g, v, p, ok, cmd in rows(r)]
    if a.markdown:
        print("| what | goal | reswatch | beside it | | command |\n|---|---|---|---|---|---|")
        for row in table:
            print("| " + " | ".join(row[:5]) + f" | `python3 {row[5]}` |")
        return
    widths = [max(len(row[i]) for row in table) for i in range(5)]
    for row in table:
        print("  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row[:5])) + f"  python3 {row[5]}")


if __name__ == "__main__":
    main()
