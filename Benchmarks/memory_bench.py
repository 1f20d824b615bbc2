#!/usr/bin/env python3
"""Daemon memory per file and initial scan time, beside watchman, on generated trees (issue 11).

Rows: an empty root (the bare daemon), the 100k-file icon tree of the other benchmarks (9,091
app icon sets: real PNGs and Contents.json), and 1M empty files named `img-N.png` in 1,000
folders (not icons: loose PNGs no rule reads, so the row measures the index, not findings).
For each: start `reswatch daemon` (release build), time until its root is `ready`, wait 5 s,
read VmRSS; then the same root in watchman (`watch-project`, crawl time until `watch` returns
and RSS of its server). Bytes per file = (RSS - bare daemon RSS) / files.

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
from benchtree import generate  # noqa: E402


def rss_kb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


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


def empty_pngs(tree, count):
    marker = os.path.join(tree, f".generated-empty-{count}")
    if os.path.exists(marker):
        return
    subprocess.run(["rm", "-rf", tree], check=True)
    per = 1000
    for d in range(count // per):
        folder = os.path.join(tree, f"Folder{d}")
        os.makedirs(folder)
        for i in range(per):
            open(os.path.join(folder, f"img-{i}.png"), "wb").close()
    open(marker, "w").close()


def daemon_row(binary, tree, settle_s=5):
    sock_path = "/tmp/rw-membench.sock"
    if os.path.exists(sock_path):
        os.unlink(sock_path)
    start = time.time()
    daemon = subprocess.Popen([binary, "daemon", "--socket", sock_path, tree],
                              stderr=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
    try:
        while True:
            try:
                st = call(sock_path, "status")
                if st["roots"] and all(r["state"] == "ready" for r in st["roots"]):
                    break
            except (OSError, EOFError, KeyError, ValueError):
                pass
            if daemon.poll() is not None:
                raise SystemExit("daemon exited")
            time.sleep(0.05)
        ready = time.time() - start
        time.sleep(settle_s)
        return st["roots"][0]["files"], ready, rss_kb(daemon.pid)
    finally:
        daemon.terminate()
        daemon.wait()


def watchman_row(tree):
    def wm(*args):
        return json.loads(subprocess.run(["watchman", "--no-pretty", *args], check=True,
                                         capture_output=True, text=True).stdout)
    subprocess.run(["watchman", "shutdown-server"], capture_output=True)
    start = time.time()
    wm("watch", tree)
    wm("find", tree, "-X")  # waits for the crawl (settles the initial scan)
    crawl = time.time() - start
    pid = wm("get-pid")["pid"]
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
            tree = os.path.join(base, "empty-1m")
            empty_pngs(tree, 1_000_000)
            label = "empty img-N.png (1M)"
        else:
            raise SystemExit(f"unknown row {row}")
        files, ready, rss = daemon_row(a.binary, tree)
        per = (rss - bare) * 1024 / max(files, 1)
        wcrawl, wrss = watchman_row(tree) if watchman else (float("nan"), 0)
        print(f"{label:>22} {files:>9} | {ready:>6.2f}s {rss / 1024:>7.1f}MB {per:>7.0f} | {wcrawl:>13.2f}s {wrss / 1024:>7.1f}MB",
              flush=True)


if __name__ == "__main__":
    main()
