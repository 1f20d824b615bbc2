#!/usr/bin/env python3
"""`reswatch check` and the daemon's initial scan on whole real repositories (issue 63), beside
what the same work costs without reswatch.

The repositories are the ones `make accuracy` judges (docs/accuracy/repositories.tsv), written
from their local bare mirrors at the listed commit (RESWATCH_MIRRORS, default ../.mirror; trees
kept in RESWATCH_ACCURACY_WORK, default /tmp/reswatch-bench/repos). Rows:

* cold `check` at each repository's root against the floor of the same work without judging:
  a small C program walks the tree (nftw, links not followed: every entry stat-ed, as the check
  walks it) and reads the files the check opens (found once with strace: regular files under
  the tree; open, fstat, read to the end, close; single-threaded, like Benchmarks/'s C floor), in
  `--pairs` alternating runs with the page cache warm. Each repository's figure is the median of
  its runs; the row sums the medians, and prints each repository's spread (fastest–slowest).
* the daemon watching every repository at once, time to all roots `ready`, beside watchman's
  crawl of the same roots (memory_bench.py's procedure).

Records `wholerepo` for summary.py. A repository whose mirror is missing is skipped, said.

Usage: python3 Benchmarks/wholerepo_bench.py [--binary PATH] [--pairs N] [--only NAME,...] [--no-watchman]
"""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, ".."))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(REPO, "Tests", "Tools"))
from accuracy import materialise, rows  # noqa: E402
from memory_bench import daemon_row, watchman_row  # noqa: E402
from results import record  # noqa: E402

READLIST_C = r"""
#define _XOPEN_SOURCE 700
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
static char buf[1 << 20];
static long entries;
static int visit(const char *p, const struct stat *sb, int type, struct FTW *ftw) { (void)p; (void)sb; (void)type; (void)ftw; entries++; return 0; }
int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: readlist TREE LIST\n"); return 2; }
    if (nftw(argv[1], visit, 64, FTW_PHYS) != 0) { perror(argv[1]); return 2; }
    FILE *list = fopen(argv[2], "r");
    if (!list) { perror(argv[1]); return 2; }
    static char path[8192];
    long files = 0, bytes = 0;
    while (fgets(path, sizeof path, list)) {
        path[strcspn(path, "\n")] = 0;
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0) continue;
        struct stat st;
        if (fstat(fd, &st) == 0) { ssize_t r; while ((r = read(fd, buf, sizeof buf)) > 0) bytes += r; }
        close(fd);
        files++;
    }
    printf("%ld entries walked, %ld files %ld bytes read\n", entries, files, bytes);
    return 0;
}
"""

OPENAT = re.compile(r'openat\(AT_FDCWD, "((?:[^"\\]|\\.)*)", ([A-Z_|]+)')


def readlist_binary(work):
    src = os.path.join(work, "readlist.c")
    out = os.path.join(work, "readlist")
    with open(src, "w") as f:
        f.write(READLIST_C)
    subprocess.run(["cc", "-O2", "-o", out, src], check=True)
    return out


def files_read(binary, tree, work):
    """The regular files under `tree` that one `check` of it opens, in the order first opened."""
    log = os.path.join(work, "strace.log")
    subprocess.run(["strace", "-f", "-qq", "-e", "trace=openat", "-e", "status=successful", "-o", log,
                    binary, "check", "--allow-empty", "--format", "json", tree],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    seen, out = set(), []
    with open(log, errors="surrogateescape") as f:
        for line in f:
            m = OPENAT.search(line)
            if not m or "O_DIRECTORY" in m.group(2):
                continue
            path = m.group(1).encode("latin-1", "backslashreplace").decode("unicode_escape").encode("latin-1").decode(
                "utf-8", "surrogateescape")
            if path.startswith(tree + "/") and path not in seen and os.path.isfile(path):
                seen.add(path)
                out.append(path)
    return out


def timed(argv):
    start = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return (time.perf_counter() - start) * 1000


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", default=".build/strip/reswatch")
    ap.add_argument("--pairs", type=int, default=7)
    ap.add_argument("--only", default="", help="comma-separated names from repositories.tsv")
    ap.add_argument("--no-watchman", action="store_true")
    a = ap.parse_args()
    binary = os.path.abspath(a.binary)
    mirrors = os.environ.get("RESWATCH_MIRRORS", os.path.join(REPO, "..", ".mirror"))
    work = os.environ.get("RESWATCH_ACCURACY_WORK") or "/tmp/reswatch-bench/repos"
    os.makedirs(work, exist_ok=True)
    scratch = tempfile.mkdtemp(prefix="reswatch-wholerepo.")
    readlist = readlist_binary(scratch)
    wanted = set(filter(None, a.only.split(",")))
    trees = []
    for name, slug, commit in rows(os.path.join(REPO, "docs", "accuracy", "repositories.tsv")):
        if wanted and name not in wanted:
            continue
        mirror = os.path.join(mirrors, slug.replace("/", "+"), "repo")
        if not os.path.isdir(mirror):
            print(f"{name}: no mirror at {mirror}: skipped")
            continue
        tree = os.path.join(work, name)
        materialise(mirror, commit, tree)
        trees.append((name, os.path.realpath(tree)))
    if not trees:
        raise SystemExit("no repository to measure (RESWATCH_MIRRORS?)")

    total_check, total_floor, total_files = 0.0, 0.0, 0
    print(f"{'repository':<18} {'files read':>10} {'check ms (spread)':>22} {'floor ms (spread)':>22} {'ratio':>6}")
    for name, tree in trees:
        listed = files_read(binary, tree, scratch)
        list_path = os.path.join(scratch, name + ".list")
        with open(list_path, "w", errors="surrogateescape") as f:
            f.writelines(p + "\n" for p in listed)
        timed([readlist, tree, list_path])  # the page cache warm for both
        timed([binary, "check", "--allow-empty", "--format", "json", tree])
        checks, floors = [], []
        for _ in range(a.pairs):
            floors.append(timed([readlist, tree, list_path]))
            checks.append(timed([binary, "check", "--allow-empty", "--format", "json", tree]))
        c, fl = statistics.median(checks), statistics.median(floors)
        total_check += c
        total_floor += fl
        total_files += len(listed)
        print(f"{name:<18} {len(listed):>10} {c:>9.1f} ({min(checks):.0f}-{max(checks):.0f}) {fl:>11.1f} ({min(floors):.0f}-{max(floors):.0f}) "
              f"{c / fl:>6.2f}")
    ratio = total_check / total_floor
    print(f"{'all':<18} {total_files:>10} {total_check:>22.1f} {total_floor:>22.1f} {ratio:>6.2f}")
    values = dict(check_ms=total_check, floor_ms=total_floor, ratio=ratio, repositories=len(trees), files=total_files,
                  pairs=a.pairs)

    roots = [tree for _, tree in trees]
    files, ready, rss, anon = daemon_row(binary, roots)
    values.update(scan_s=ready, scan_files=files, rss_mb=rss / 1024)
    line = f"daemon on all {len(roots)} roots: ready in {ready:.2f} s ({files} files judged), RSS {rss / 1024:.1f} MB"
    if not a.no_watchman and shutil.which("watchman"):
        crawl, wrss, _ = watchman_row(roots)
        values.update(watchman_crawl_s=crawl, watchman_rss_mb=wrss / 1024)
        line += f"; watchman's crawl {crawl:.2f} s, RSS {wrss / 1024:.1f} MB"
    print(line)
    record("wholerepo", **values)
    shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
