#!/usr/bin/env python3
"""Daemon memory per file and initial scan time, beside watchman, on generated trees (issue 11).

Rows: an empty root (the bare daemon), the 100k-file icon tree of the other benchmarks (9,091
app icon sets: real PNGs and Contents.json), and 1M files named `img-N.png` in 1,000 folders,
each folder's files hard links to one valid 1x1 PNG (no data to write, and no finding: empty files would be 1M
`image.not-png` errors, and the row would measure diagnostics, not the index).
For each: start `reswatch daemon` (release build), time until its root is `ready`, wait 5 s,
read VmRSS; then the same root in watchman (a fresh server: time from `watch` until a query
answers, which waits for the crawl, and the server's RSS). Bytes per file = (RSS - bare daemon RSS) / files.

Usage: python3 Benchmarks/memory_bench.py [--binary PATH] [--rows 100k,1m] [--no-watchman]
"""
import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from benchtree import generate, png  # noqa: E402
from latency_bench import rss_kb  # noqa: E402


def call(sock_path, method):
    s = socket.socket(socket.AF_UNIX)
    s.settimeout(10)
    s.connect(sock_path)
    s.sendall((json.dumps({"jsonrpc": "2.0", "id": 1, "method": method}) + "\n").encode())
    buf = b""
    while b"\n" not in buf:
        chunk = s.recv(65536)
        if not chunk:
            raise EOFError
        buf += chunk
    s.close()
    return json.loads(buf.split(b"\n")[0])["result"]


def linked_pngs(tree, count):
    marker = os.path.join(tree, f".generated-links-{count}")
    if os.path.exists(marker):
        return
    subprocess.run(["rm", "-rf", tree], check=True)
    os.makedirs(tree)
    per = 1000  # a file system allows some 65,000 links to one inode: one source per folder
    for d in range(count // per):
        folder = os.path.join(tree, f"Folder{d}")
        os.makedirs(folder)
        source = os.path.join(folder, "img-0.png")
        with open(source, "wb") as f:
            f.write(png(1, 1))
        for i in range(1, per):
            os.link(source, os.path.join(folder, f"img-{i}.png"))
    open(marker, "w").close()


def daemon_row(binary, tree, settle_s=5):
    sock_path = "/tmp/rw-membench.sock"
    if os.path.exists(sock_path):
        os.unlink(sock_path)
    start = time.time()
    daemon = subprocess.Popen([binary, "daemon", "--socket", sock_path, tree],
                              stderr=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
    try:
        st = wait_ready(sock_path, daemon)
        ready = time.time() - start
        time.sleep(settle_s)
        return st["roots"][0]["files"], ready, rss_kb(daemon.pid)
    finally:
        daemon.terminate()
        daemon.wait()


def wait_ready(sock_path, daemon):
    """Polls `status` until every root is ready; returns that status."""
    while True:
        try:
            st = call(sock_path, "status")
            if st["roots"] and all(r["state"] == "ready" for r in st["roots"]):
                return st
        except (OSError, EOFError, KeyError, ValueError):
            pass
        if daemon.poll() is not None:
            raise SystemExit("daemon exited")
        time.sleep(0.05)


def wm(*args, stdin=None):
    for _ in range(50):
        r = subprocess.run(["watchman", "--no-pretty", *args], capture_output=True, text=True, input=stdin)
        if r.returncode == 0:
            return json.loads(r.stdout)
        time.sleep(0.1)  # the server is (re)starting
    raise SystemExit(f"watchman {args}: {r.stderr or r.stdout}")


def watchman_row(tree):
    subprocess.run(["watchman", "shutdown-server"], capture_output=True)
    pid = wm("get-pid")["pid"]  # a fresh server, started before the clock
    start = time.time()
    wm("watch", tree)
    # A query waits until the initial crawl has finished.
    wm("-j", stdin=json.dumps(["query", tree, {"expression": ["false"], "fields": ["name"]}]))
    crawl = time.time() - start
    time.sleep(1)
    rss = rss_kb(pid)
    subprocess.run(["watchman", "shutdown-server"], capture_output=True)
    return crawl, rss


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", default=".build/release/reswatch")
    ap.add_argument("--rows", default="100k,1m")
    ap.add_argument("--no-watchman", action="store_true")
    a = ap.parse_args()
    base = "/tmp/rw-membench"
    os.makedirs(base, exist_ok=True)
    empty = os.path.join(base, "empty")
    os.makedirs(empty, exist_ok=True)
    _, _, bare = daemon_row(a.binary, empty)
    print(f"bare daemon (empty root): {bare / 1024:.1f} MB")
    watchman = not a.no_watchman and shutil.which("watchman") is not None
    print(f"{'tree':>22} {'files':>9} | {'ready':>7} {'RSS':>9} {'B/file':>7} | {'watchman crawl':>14} {'RSS':>9}")
    for row in a.rows.split(","):
        if row == "100k":
            tree = os.path.join(base, "icons-100k")
            generate(tree, 9091)
            label = "icons (100k)"
        elif row == "1m":
            tree = os.path.join(base, "links-1m")
            linked_pngs(tree, 1_000_000)
            label = "1x1 img-N.png (1M)"
        else:
            raise SystemExit(f"unknown row {row}")
        files, ready, rss = daemon_row(a.binary, tree)
        per = (rss - bare) * 1024 / max(files, 1)
        print(f"{label:>22} {files:>9} | {ready:>6.2f}s {rss / 1024:>7.1f}MB {per:>7.0f} | ", end="", flush=True)
        wcrawl, wrss = watchman_row(tree) if watchman else (float("nan"), 0)
        print(f"{wcrawl:>13.2f}s {wrss / 1024:>7.1f}MB", flush=True)


if __name__ == "__main__":
    main()
