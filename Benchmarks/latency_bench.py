#!/usr/bin/env python3
"""Write -> notification latency of the reswatch daemon, beside watchman, on generated trees.

For each tree size (1k, 10k, 100k files) and settle time (20 ms, 1 ms): start `reswatch daemon`
(release build) and a watchman watch of the same root with the same settle, subscribe to both,
then rewrite one icon PNG N times, alternating a valid and a wrong size, and time each write until
(a) reswatch's `diagnostics/changed` naming that file and (b) watchman's subscription PDU naming
it. Reswatch validates the change; watchman only reports it. Also prints both processes' RSS.

Usage: python3 Benchmarks/latency_bench.py [--sizes 1000,10000,100000] [--settles 20,1] [--writes 200]
"""
import argparse
import json
import os
import socket
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(__file__))
from benchtree import generate, png  # noqa: E402
from results import record  # noqa: E402

TARGET = "Module0/Assets.xcassets/Icon0.appiconset/iphone-60x60@2x.png"



class Lines:
    """Newline-delimited JSON over a Unix socket."""

    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.buf = b""

    def send(self, obj):
        self.sock.sendall(json.dumps(obj).encode() + b"\n")

    def read(self, timeout):
        self.sock.settimeout(timeout)
        while b"\n" not in self.buf:
            chunk = self.sock.recv(1 << 20)
            if not chunk:
                raise EOFError
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return json.loads(line)


def rss_kb(pid, field="VmRSS"):
    """Resident kB of a process; `field` RssAnon: only its anonymous pages (heap, stacks), not
    the pages of its executable and libraries, which the page cache shares."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def pct(samples, p):
    s = sorted(samples)
    return s[min(len(s) - 1, int(round(p / 100 * (len(s) - 1))))] * 1000


def wm(*args):
    return json.loads(subprocess.run(["watchman", *args], capture_output=True, text=True, timeout=600).stdout or "{}")


def run_one(binary, tree, settle, writes):
    sock_path = "/tmp/rw-bench.sock"
    with open(os.path.join(tree, TARGET), "wb") as f:  # start from the valid icon
        f.write(png(120, 120))
    for stale in (sock_path,):
        if os.path.exists(stale):
            os.unlink(stale)
    daemon = subprocess.Popen([binary, "daemon", "--settle-ms", str(settle), "--socket", sock_path, tree],
                              stderr=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
    try:
        deadline = time.time() + 600
        while True:
            try:
                c = Lines(sock_path)
                c.send({"jsonrpc": "2.0", "id": 1, "method": "status"})
                st = c.read(5)["result"]
                if st["roots"] and all(r["state"] == "ready" for r in st["roots"]):
                    break
            except (OSError, EOFError, KeyError):
                pass
            if time.time() > deadline:
                raise SystemExit("daemon did not become ready")
            time.sleep(0.05)
        files = st["roots"][0]["files"]
        # watchman on the same root with the same settle
        with open(os.path.join(tree, ".watchmanconfig"), "w") as f:
            json.dump({"settle": settle}, f)
        wm("watch-del-all")
        wm("watch", tree)
        wsock = wm("get-sockname")["sockname"]
        w = Lines(wsock)
        w.send(["subscribe", tree, "bench", {"expression": ["name", TARGET, "wholename"], "fields": ["name"]}])
        while True:  # the subscribe reply, then the initial fresh-instance PDU
            m = w.read(600)
            if m.get("subscription") == "bench" or "error" in m:
                break
        sub = Lines(sock_path)
        sub.send({"jsonrpc": "2.0", "id": 1, "method": "subscribe"})
        while "result" not in sub.read(30):
            pass
        target = os.path.join(tree, TARGET)
        good, bad = png(120, 120), png(121, 120)
        rs, ws = [], []
        for i in range(writes + 5):
            data = bad if i % 2 == 0 else good
            got = {}

            def wait_reswatch():
                while True:
                    m = sub.read(10)
                    p = m.get("params", {})
                    if m.get("method") == "diagnostics/changed" and any(
                            d["path"] == TARGET for d in p.get("added", []) + p.get("removed", [])):
                        got["r"] = time.perf_counter()
                        return

            def wait_watchman():
                while True:
                    m = w.read(10)
                    if m.get("subscription") == "bench" and TARGET in m.get("files", []):
                        got["w"] = time.perf_counter()
                        return

            threads = [threading.Thread(target=wait_reswatch), threading.Thread(target=wait_watchman)]
            for t in threads:
                t.start()
            t0 = time.perf_counter()
            fd = os.open(target, os.O_WRONLY | os.O_TRUNC)
            os.write(fd, data)
            os.close(fd)
            for t in threads:
                t.join(15)
            if "r" not in got or "w" not in got:
                raise SystemExit(f"write {i}: missing notification {sorted(got)}")
            if i >= 5:
                rs.append(got["r"] - t0)
                ws.append(got["w"] - t0)
            time.sleep(0.03)
        wpid = wm("get-pid")["pid"]
        return files, rs, ws, rss_kb(daemon.pid), rss_kb(wpid)
    finally:
        daemon.terminate()
        daemon.wait(30)
        wm("watch-del-all")
        try:
            os.unlink(os.path.join(tree, ".watchmanconfig"))
        except OSError:
            pass


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="1000,10000,100000")
    ap.add_argument("--settles", default="20,1")
    ap.add_argument("--writes", type=int, default=200)
    ap.add_argument("--binary", default=".build/strip/reswatch")
    a = ap.parse_args()
    if not os.path.exists(a.binary):
        sys.exit(f"{a.binary} missing: run 'swift build -c release' (make bench does)")
    print(f"{a.writes} writes per row, alternating a valid and a 121x120 icon; latency = write -> notification naming the file")
    print(f"{'files':>7} {'settle':>6} | {'reswatch p50':>12} {'p90':>7} {'p99':>7} | {'watchman p50':>12} {'p90':>7} {'p99':>7} | {'RSS reswatch':>12} {'watchman':>9}")
    for size in [int(s) for s in a.sizes.split(",")]:
        tree = f"/tmp/reswatch-bench/latency-{size}"
        generate(tree, max(1, size // 11))
        for settle in [int(s) for s in a.settles.split(",")]:
            files, rs, ws, rrss, wrss = run_one(a.binary, tree, settle, a.writes)
            print(f"{files:>7} {settle:>4}ms | {pct(rs, 50):>10.1f}ms {pct(rs, 90):>5.1f}ms {pct(rs, 99):>5.1f}ms | "
                  f"{pct(ws, 50):>10.1f}ms {pct(ws, 90):>5.1f}ms {pct(ws, 99):>5.1f}ms | {rrss / 1024:>10.1f}MB {wrss / 1024:>7.1f}MB",
                  flush=True)
            record(f"latency-{size}-{settle}", files=files, p50_ms=pct(rs, 50), p99_ms=pct(rs, 99),
                   watchman_p50_ms=pct(ws, 50), watchman_p99_ms=pct(ws, 99), rss_mb=rrss / 1024, watchman_rss_mb=wrss / 1024)


if __name__ == "__main__":
    main()
