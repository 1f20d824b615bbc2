#!/usr/bin/env python3
"""Daemon memory per file and initial scan time, beside watchman, on generated trees (issue 11).

Rows: an empty root (the bare daemon), the 100k-file icon tree of the other benchmarks (9,091
app icon sets: real PNGs and Contents.json), the same files as 1,000 roots of 100 files (9 sets
each: one daemon watching 1,000 roots; watchman watching each), and 1M files named `img-N.png` in 1,000 folders,
each folder's files hard links to one valid 1x1 PNG (no data to write, and no finding: empty files would be 1M
`image.not-png` errors, and the row would measure diagnostics, not the index).
For each: start `reswatch daemon` (release build), time until its root is `ready` (for one
root told by the daemon's own `status/changed` notification, not by polling `status` every 50 ms,
which added up to 50 ms; 1,000 roots are polled), wait 5 s,
read VmRSS and RssAnon (its heap and stacks, without the executable's and libraries' pages); then the same root in watchman (a fresh server: time from `watch` until a query
answers, which waits for the crawl, and the server's RSS). Bytes per file = (RSS - bare daemon RSS) / files.

The 100k row and the 1,000 roots' row run `--scan-runs` times (3), alternating with watchman's,
and print each figure's median with every run's time beside it (the roots' row is a goal beside
the 100k row's figure, and one run of it moved by 6 B a file with the host's load).

Usage: python3 Benchmarks/memory_bench.py [--binary PATH] [--rows 100k,1m,roots] [--no-watchman] [--scan-runs N]
"""
import argparse
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from benchtree import generate, png  # noqa: E402
from latency_bench import Lines, rss_kb  # noqa: E402
from results import record  # noqa: E402


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


def many_roots(base, count, sets):
    """`count` roots of `sets` icon sets each (11 files a set, and a .reswatch.yaml)."""
    roots = [os.path.join(base, f"Root{i}") for i in range(count)]
    for r in roots:
        generate(r, sets)
    return roots


def warm(roots):
    """Stats and reads every file once, so that the daemon and watchman both start on a tree the
    kernel's inode, dentry and page caches hold (whichever ran first on a tree the kernel had
    dropped took 3-4x longer: 6.0 s, not 1.7; reswatch reads every PNG, watchman only stats)."""
    subprocess.run(["du", "-s", *roots], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    subprocess.run(["find", *roots, "-type", "f", "-exec", "cat", "{}", "+"], stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)


def daemon_row(binary, roots, settle_s=5):
    """Starts the daemon on `roots`; (files in all roots, seconds to every root ready, RSS in kB,
    anonymous RSS in kB)."""
    warm(roots)
    sock_path = "/tmp/rw-membench.sock"
    if os.path.exists(sock_path):
        os.unlink(sock_path)
    start = time.time()
    daemon = subprocess.Popen([binary, "daemon", "--socket", sock_path, *roots],
                              stderr=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
    try:
        # One root: told. Many: polled as before, since a subscriber would have the daemon encode
        # the whole status of 1,000 roots at each root's change of state (the row's scan is 4 s
        # against watchman's 8; 50 ms do not matter there).
        if len(roots) == 1:
            st, ready_at = told_ready(sock_path, daemon)
        else:
            st, ready_at = wait_ready(sock_path, daemon, len(roots)), time.time()
        ready = ready_at - start
        time.sleep(settle_s)
        return sum(r["files"] for r in st["roots"]), ready, rss_kb(daemon.pid), rss_kb(daemon.pid, "RssAnon")
    finally:
        daemon.terminate()
        daemon.wait()


def wait_ready(sock_path, daemon, count=1):
    """Polls `status` until all `count` roots are ready; returns that status."""
    while True:
        try:
            st = call(sock_path, "status")
            if all_ready(st, count):
                return st
        except (OSError, EOFError, KeyError, ValueError):
            pass
        if daemon.poll() is not None:
            raise SystemExit("daemon exited")
        time.sleep(0.05)


def all_ready(st, count):
    return len(st["roots"]) == count and all(r["state"] == "ready" for r in st["roots"])


def told_ready(sock_path, daemon, count=1):
    """When the daemon said that all `count` roots are ready: (that status, time.time() when its
    line arrived). Subscribes as soon as the socket is there and asks `status` once (a root
    ready before the subscription shows there); then each `status/changed` is read as it comes.
    The caller's clock started before the daemon did: its start-up (loading, rule modules) is in
    the time, as it is when `wait_ready` polls."""
    while not os.path.exists(sock_path):
        if daemon.poll() is not None:
            raise SystemExit("daemon exited")
        time.sleep(0.001)
    for _ in range(1000):  # the path exists a moment before the daemon listens on it
        try:
            c = Lines(sock_path)
            break
        except OSError:
            time.sleep(0.001)
    else:
        raise SystemExit(f"cannot connect to {sock_path}")
    try:
        c.send({"jsonrpc": "2.0", "id": 1, "method": "subscribe"})
        c.send({"jsonrpc": "2.0", "id": 2, "method": "status"})
        while True:
            try:
                msg = c.read(timeout=600)
            except EOFError:
                try:
                    status = f"it exited with {daemon.wait(timeout=2)}"
                except subprocess.TimeoutExpired:
                    status = "it is still running"
                raise SystemExit(f"the daemon closed {sock_path} before its root was ready; {status}") from None
            except socket.timeout:
                raise SystemExit(f"no word from the daemon on {sock_path} in 600 s, and its root not ready") from None
            st = msg.get("result") if msg.get("id") == 2 else msg.get("params") if msg.get("method") == "status/changed" else None
            if st is not None and all_ready(st, count):
                return st, time.time()
    finally:
        c.sock.close()


def wm(*args, stdin=None):
    for _ in range(50):
        r = subprocess.run(["watchman", "--no-pretty", *args], capture_output=True, text=True, input=stdin)
        if r.returncode == 0:
            return json.loads(r.stdout)
        time.sleep(0.1)  # the server is (re)starting
    raise SystemExit(f"watchman {args}: {r.stderr or r.stdout}")


def watchman_stop():
    """Stops the server and forgets its watches: a restarted server re-watches what its state
    file lists, and would carry one row's roots into the next."""
    subprocess.run(["watchman", "watch-del-all"], capture_output=True)
    subprocess.run(["watchman", "shutdown-server"], capture_output=True)


def watchman_row(roots):
    watchman_stop()
    warm(roots)
    pid = wm("get-pid")["pid"]  # a fresh server, started before the clock
    start = time.time()
    for tree in roots:
        wm("watch", tree)
    # A query waits until the initial crawl has finished.
    for tree in roots:
        wm("-j", stdin=json.dumps(["query", tree, {"expression": ["false"], "fields": ["name"]}]))
    crawl = time.time() - start
    time.sleep(1)
    rss, anon = rss_kb(pid), rss_kb(pid, "RssAnon")
    watchman_stop()
    return crawl, rss, anon


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", default=".build/strip/reswatch")
    ap.add_argument("--rows", default="100k,1m,roots")
    ap.add_argument("--no-watchman", action="store_true")
    ap.add_argument("--scan-runs", type=int, default=3, help="runs of the 100k and roots rows, alternating with watchman's (medians)")
    a = ap.parse_args()
    base = "/tmp/rw-membench"
    os.makedirs(base, exist_ok=True)
    empty = os.path.join(base, "empty")
    os.makedirs(empty, exist_ok=True)
    _, bare_ready, bare, bare_anon = daemon_row(a.binary, [empty])
    # Each row's `ready` counts from the daemon's start: its start-up is in it, which watchman's
    # crawl (a server started before the clock) does not have. This is that start-up's share.
    print(f"bare daemon (empty root): {bare / 1024:.1f} MB, of which {bare_anon / 1024:.1f} MB anonymous; "
          f"ready {bare_ready * 1000:.0f} ms after its start")
    record("memory-bare", rss_mb=bare / 1024, anon_mb=bare_anon / 1024, ready_s=bare_ready)
    watchman = not a.no_watchman and shutil.which("watchman") is not None
    print(f"{'tree':>22} {'files':>9} | {'ready':>7} {'RSS':>9} {'anon':>9} {'B/file':>7} | {'watchman crawl':>14} {'RSS':>9} {'anon':>9}")
    for row in a.rows.split(","):
        if row == "100k":
            roots = [os.path.join(base, "icons-100k")]
            generate(roots[0], 9091)
            label = "icons (100k)"
        elif row == "1m":
            roots = [os.path.join(base, "links-1m")]
            linked_pngs(roots[0], 1_000_000)
            label = "1x1 img-N.png (1M)"
        elif row == "roots":
            roots = many_roots(os.path.join(base, "roots-1000"), 1000, 9)
            label = "1,000 roots (100k)"
        else:
            raise SystemExit(f"unknown row {row}")
        # The 100k row, whose scan is a goal beside watchman's crawl, runs both `--scan-runs`
        # times in alternation and gives each figure's median: one run of each moved by a fifth
        # with the host's load (0.79-1.01 s within an hour, the same code), watchman's by less.
        # So does the roots' row, whose memory is a goal beside the 100k row's median: one run
        # of the same build gave 268 and 274 B a file within minutes.
        runs = max(1, a.scan_runs) if row in ("100k", "roots") else 1
        ours, theirs = [], []
        for _ in range(runs):
            ours.append(daemon_row(a.binary, roots))
            theirs.append(watchman_row(roots) if watchman else (float("nan"), 0, 0))
        files = ours[0][0]
        ready, rss, anon = (statistics.median(r[i] for r in ours) for i in (1, 2, 3))
        wcrawl, wrss, wanon = (statistics.median(t[i] for t in theirs) for i in (0, 1, 2))
        per = (rss - bare) * 1024 / max(files, 1)
        print(f"{label:>22} {files:>9} | {ready:>6.2f}s {rss / 1024:>7.1f}MB {anon / 1024:>7.1f}MB {per:>7.0f} | "
              f"{wcrawl:>13.2f}s {wrss / 1024:>7.1f}MB {wanon / 1024:>7.1f}MB", flush=True)
        if runs > 1:
            print(f"{'':>22} medians of {runs} runs in alternation; ready " + " ".join(f"{r[1]:.2f}" for r in ours)
                  + " s; watchman's crawl " + " ".join(f"{t[0]:.2f}" for t in theirs) + " s", flush=True)
        record(f"memory-{row}", files=files, ready_s=ready, rss_mb=rss / 1024, anon_mb=anon / 1024, per_file_b=per,
               watchman_crawl_s=wcrawl if watchman else None, watchman_rss_mb=wrss / 1024 if watchman else None,
               watchman_anon_mb=wanon / 1024 if watchman else None, runs=runs, ready_runs_s=[r[1] for r in ours],
               watchman_crawl_runs_s=[t[0] for t in theirs] if watchman else None)

if __name__ == "__main__":
    main()
