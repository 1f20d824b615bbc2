#!/usr/bin/env python3
"""The size of the binary that ships (`make stripped`: the tarball's and the Debian package's),
beside the release build it comes from and the debug info kept apart, and what its largest
parts are. Records `size` for summary.py.

Goal: the shipped binary <= 85 MB (MiB). Of today's 72.6, 32.4 are ICU's data table (icudt*_dat,
linked through Foundation's internationalization, which Yams imports whole: code of ours that
imported only FoundationEssentials would not drop it while Yams is linked) and 26 are code
(the Swift runtime and Foundation, swift-syntax for Tuist manifests, SwiftNIO, the rule kinds).
The goal keeps 10 % over that: it fails when debug info ships again or a dependency adds tens of
megabytes, not on the growth of a rule.

Usage: python3 Benchmarks/size_bench.py [--binary .build/strip/reswatch]
"""
import argparse
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
from results import record  # noqa: E402

GOAL_MB = 85


def sections(path):
    """Section name -> size in bytes (`size -A`)."""
    out = subprocess.run(["size", "-A", path], capture_output=True, text=True, check=True).stdout
    sizes = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[1].isdigit():
            sizes[parts[0]] = int(parts[1])
    return sizes


def icu_bytes(path):
    """The size of ICU's data table, from the unstripped build's symbols (0 if none)."""
    out = subprocess.run(["nm", "-S", path], capture_output=True, text=True).stdout
    for line in out.splitlines():
        m = re.match(r"[0-9a-f]+ ([0-9a-f]+) \w icudt\d+_dat$", line)
        if m:
            return int(m.group(1), 16)
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", default=".build/strip/reswatch")
    ap.add_argument("--release", default=".build/release/reswatch")
    a = ap.parse_args()
    mb = 1 << 20
    shipped = os.path.getsize(a.binary)
    debug = os.path.getsize(os.path.join(os.path.dirname(a.binary), "reswatch.debug"))
    release = os.path.getsize(a.release)
    s = sections(a.binary)
    icu = icu_bytes(a.release)
    debug_sections = [name for name in s if name.startswith(".debug_")]
    print(f"shipped binary {shipped / mb:.1f} MB (goal <= {GOAL_MB} MB); release build {release / mb:.1f} MB; "
          f"debug info apart {debug / mb:.1f} MB")
    print(f"  .text {s.get('.text', 0) / mb:.1f} MB, .rodata {s.get('.rodata', 0) / mb:.1f} MB "
          f"(ICU data {icu / mb:.1f} MB), .eh_frame {s.get('.eh_frame', 0) / mb:.1f} MB; debug sections left: {debug_sections or 'none'}")
    record("size", shipped_mb=shipped / mb, release_mb=release / mb, debug_mb=debug / mb, icu_mb=icu / mb,
           text_mb=s.get(".text", 0) / mb, rodata_mb=s.get(".rodata", 0) / mb, goal_mb=GOAL_MB,
           stripped=not debug_sections)


if __name__ == "__main__":
    main()
