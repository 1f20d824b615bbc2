#!/usr/bin/env python3
"""CPU and wakeups of the reswatch daemon while idle and during a write storm, beside watchman (issue 11).

Start `reswatch daemon` (release build) on the generated 10k-file icon tree and a fresh watchman
server watching the same tree. Once both are ready:

* idle: both left alone for --idle seconds (default 60): CPU seconds (utime + stime of every
  thread, /proc/PID/task/*/stat) and wakeups (context switches of every thread,
  /proc/PID/task/*/status) during that time. Expect zero wakeups: nothing is owed, so no timer.
* storm: --rate writes a second (default 1,000) for --storm seconds (default 10), round robin over
  50 icons, alternating a valid and a wrong size; CPU used during the storm and in the 2 s after,
  and whether the daemon's findings match the last write of each icon once it is over (a `sync`).

Usage: python3 Benchmarks/idle_bench.py [--binary PATH] [--idle 60] [--storm 10] [--rate 1000]
"""
import argparse
import glob
import json
import os
import socket
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from benchtree import generate, png  # noqa: E402
from memory_bench import wait_ready, wm  # noqa: E402

TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    """utime + stime of the whole process (threads that have exited included)."""
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def switches(pid):
    """Context switches of each live thread: {tid: (name, count)}."""
    out = {}
    for status in glob.glob(f"/proc/{pid}/task/*/status"):
        tid = status.split("/")[-2]
        try:
            n, name = 0, "?"
            for line in open(status):
                if line.startswith("Name:"):
                    name = line.split(None, 1)[1].strip()
                if line.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")):
                    n += int(line.split()[1])
            out[tid] = (name, n)
        except OSError:
            pass
    return out


def wakeups(before, after):
    """Switches since `before`, by thread name: a thread that started counts all of its own, one
    that exited at least the one that ended it."""
    by_name = {}
    for tid, (name, n) in after.items():
        by_name[name] = by_name.get(name, 0) + n - before.get(tid, (name, 0))[1]
    for tid, (name, _) in before.items():
        if tid not in after:
            by_name[name] = by_name.get(name, 0) + 1
    return by_name


def call(sock_path, method, params=None, timeout=30):
    s = socket.socket(socket.AF_UNIX)
    s.settimeout(timeout)
    s.connect(sock_path)
    req = {"jsonrpc": "2.0", "id": 1, "method": method}
    if params is not None:
        req["params"] = params
    s.sendall((json.dumps(req) + "\n").encode())
    buf = b""
    while b"\n" not in buf:
        chunk = s.recv(1 << 20)
        if not chunk:
            raise EOFError
        buf += chunk
    s.close()
    return json.loads(buf.split(b"\n")[0])


def measure(pids, seconds, during=None):
    before = {name: (cpu_seconds(pid), switches(pid)) for name, pid in pids.items()}
    if during:
        during(seconds)
    else:
        time.sleep(seconds)
    return {name: (cpu_seconds(pid) - before[name][0], wakeups(before[name][1], switches(pid))) for name, pid in pids.items()}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", default=".build/strip/reswatch")
    ap.add_argument("--idle", type=float, default=60)
    ap.add_argument("--storm", type=float, default=10)
    ap.add_argument("--rate", type=int, default=1000)
    ap.add_argument("--no-watchman", action="store_true")
    a = ap.parse_args()
    if not os.path.exists(a.binary):
        sys.exit(f"{a.binary} missing: run 'swift build -c release' (make bench does)")
    tree = "/tmp/reswatch-bench/idle-10k"
    pngs = generate(tree, 1000)
    icons = [p for p in pngs if p.endswith("iphone-60x60@2x.png")][:50]
    good, bad = png(120, 120), png(121, 120)
    for p in icons:
        with open(p, "wb") as f:
            f.write(good)
    sock_path = "/tmp/rw-idlebench.sock"
    if os.path.exists(sock_path):
        os.unlink(sock_path)
    daemon = subprocess.Popen([a.binary, "daemon", "--socket", sock_path, tree], stderr=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
    try:
        st = wait_ready(sock_path, daemon)
        pids = {"reswatch": daemon.pid}
        if not a.no_watchman:
            subprocess.run(["watchman", "shutdown-server"], capture_output=True)
            pids["watchman"] = wm("get-pid")["pid"]
            wm("watch", tree)
            wm("-j", stdin=json.dumps(["query", tree, {"expression": ["false"], "fields": ["name"]}]))
        time.sleep(8)  # let both finish what the start left (the scan's worker threads time out)
        print(f"{st['roots'][0]['files']} files; release daemon {a.binary}" + ("" if a.no_watchman else ", watchman beside it"))

        idle = measure(pids, a.idle)
        for name, (cpu, sw) in idle.items():
            threads = ", ".join(f"{t} {n}" for t, n in sorted(sw.items()) if n)
            print(f"idle {a.idle:.0f} s    {name:>9}: {cpu:6.2f} CPU s, {sum(sw.values()):6d} wakeups (context switches)"
                  + (f": {threads}" if threads else ""))
        print("  (libdispatch on Linux runs a 1 Hz monitor of its worker pool on its manager thread once any worker"
              " has started: src/event/workqueue.c, _dispatch_workq_init_once; that thread is '-qos.overcommit')")

        writes = []

        def storm(seconds):
            interval = 1.0 / a.rate
            start = time.perf_counter()
            i = 0
            while time.perf_counter() - start < seconds:
                target = icons[i % len(icons)]
                with open(target, "wb") as f:
                    f.write(bad if (i // len(icons) + i) % 2 == 0 else good)
                i += 1
                delay = start + i * interval - time.perf_counter()
                if delay > 0:
                    time.sleep(delay)
            writes.append(i)

        during = measure(pids, a.storm, storm)
        after = measure(pids, 2)
        n = writes[0]
        for name in pids:
            print(f"storm {n / a.storm:,.0f} writes/s for {a.storm:.0f} s ({n:,} writes) {name:>9}: "
                  f"{during[name][0]:6.2f} CPU s during ({100 * during[name][0] / a.storm:.0f} % of a core), "
                  f"{after[name][0]:.2f} in the 2 s after")
        # The last write of each icon decides its finding: wrong size or none.
        call(sock_path, "sync", {"timeout_ms": 30000}, timeout=60)
        diags = call(sock_path, "diagnostics")["result"]["diagnostics"]
        flagged = {d["path"] for d in diags if d["path"].endswith("iphone-60x60@2x.png")}
        last_bad = {os.path.relpath(icons[i % len(icons)], tree) for i in range(max(0, n - len(icons)), n)
                    if (i // len(icons) + i) % 2 == 0}
        print(f"after the storm: {len(flagged)} icons flagged, {len(last_bad)} last written wrong: "
              + ("converged" if flagged == last_bad else "NOT converged"))
    finally:
        daemon.terminate()
        daemon.wait(30)
        if not a.no_watchman:
            subprocess.run(["watchman", "shutdown-server"], capture_output=True)


if __name__ == "__main__":
    main()
