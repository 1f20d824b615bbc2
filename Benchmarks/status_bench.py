#!/usr/bin/env python3
"""What a status bar's poll costs (issue 13, item 3): `status` over one connection, and
`reswatch status --format waybar` as a bar with an interval runs it (a process per poll), with
the daemon's CPU time per poll. Release daemon on the generated 10k-file tree (909 icon sets)."""
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from benchtree import generate  # noqa: E402
from latency_bench import Lines  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BINARY = os.path.join(ROOT, ".build", "release", "reswatch")
TREE = "/tmp/reswatch-bench/tree10k"


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main():
    generate(TREE, 909)
    sock = "/tmp/rw-status-bench.sock"
    if os.path.exists(sock):
        os.unlink(sock)
    daemon = subprocess.Popen([BINARY, "daemon", "--socket", sock, TREE], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        while True:
            try:
                c = Lines(sock)
                c.send({"jsonrpc": "2.0", "id": 0, "method": "status"})
                if all(r["state"] == "ready" for r in c.read(5)["result"]["roots"]):
                    break
            except (OSError, EOFError, KeyError):
                time.sleep(0.05)
        n = 2000
        cpu0 = cpu_seconds(daemon.pid)
        samples = []
        for i in range(n):
            t = time.perf_counter()
            c.send({"jsonrpc": "2.0", "id": i + 1, "method": "status"})
            c.read(5)
            samples.append(time.perf_counter() - t)
        cpu = cpu_seconds(daemon.pid) - cpu0
        samples.sort()
        print(f"status over one connection, {n} calls: median {samples[n // 2] * 1e6:.0f} µs, "
              f"p99 {samples[int(n * 0.99)] * 1e6:.0f} µs; daemon CPU {cpu / n * 1e6:.0f} µs per call")
        runs = 100
        cpu0 = cpu_seconds(daemon.pid)
        times = []
        for _ in range(runs):
            t = time.perf_counter()
            subprocess.run([BINARY, "status", "--socket", sock, "--format", "waybar"], stdout=subprocess.DEVNULL, check=True)
            times.append(time.perf_counter() - t)
        cpu = cpu_seconds(daemon.pid) - cpu0
        times.sort()
        print(f"`reswatch status --format waybar` (a process per poll), {runs} runs: median {times[runs // 2] * 1e3:.1f} ms, "
              f"max {times[-1] * 1e3:.1f} ms; daemon CPU {cpu / runs * 1e3:.2f} ms per poll")
    finally:
        daemon.terminate()
        daemon.wait()


if __name__ == "__main__":
    main()
