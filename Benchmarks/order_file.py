#!/usr/bin/env python3
"""Writes the link order of the functions reswatch runs (issue 30): every function executed in a
profiling workload, under valgrind's callgrind, part by part of the workload.

The release link places them together at the start of .text (lld --symbol-ordering-file), so the
pages of code the daemon touches are few and adjacent: the kernel maps an executable's pages
64 kB at a time around each one touched (fault-around), and code the daemon never runs then
stays out of its resident set. A stale list costs only memory: a function it does not name is
linked after the ones it does, as before.

Workload: `reswatch check` of Examples/SampleApp and of a generated icon tree (text and json);
the daemon on both trees: ready, status, subscribe, diagnostics, changes of every kind (PNG,
Contents.json, Info.plist, storyboard, .reswatch.yaml, a new and a removed set), sync, shutdown.

Usage: python3 Benchmarks/order_file.py --binary .build/release/reswatch --out Benchmarks/hot-functions.txt
       python3 Benchmarks/order_file.py --check (`make dist-check`: the release binary was linked in that order)
"""
import argparse
import collections
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
from benchtree import generate, png  # noqa: E402
from latency_bench import Lines  # noqa: E402
from memory_bench import wait_ready  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLE = os.path.join(HERE, "..", "Examples", "SampleApp")


class Client(Lines):
    """A socket client that waits for the reply to each request (notifications in between are skipped)."""

    requests = 0

    def call(self, method, params=None, timeout=120):
        self.requests += 1
        msg = {"jsonrpc": "2.0", "id": self.requests, "method": method}
        if params is not None:
            msg["params"] = params
        self.send(msg)
        while True:
            m = self.read(timeout)
            if m.get("id") == self.requests:
                return m


def valgrind(out, *args):
    return ["valgrind", "--tool=callgrind", "--demangle=no", "--compress-strings=no",
            "--callgrind-out-file=" + out, *args]


def functions(path):
    """Self cost (instructions) per function in one callgrind profile (--compress-strings=no)."""
    cost = collections.Counter()
    current = None
    call_line = False
    with open(path, errors="replace") as f:
        for line in f:
            if line.startswith("fn="):
                current = line[3:].strip()
                cost[current] += 0
            elif line.startswith("calls="):
                call_line = True  # the next cost line is that call's inclusive cost
            elif line[:1].isdigit() or line[:1] in "+-*":
                parts = line.split()
                if call_line:
                    call_line = False
                elif current and len(parts) >= 2 and parts[1].isdigit():
                    cost[current] += int(parts[1])
    return cost


def phase(pid):
    """Ends a part of the daemon's profile (callgrind writes `<out>.<n>`)."""
    subprocess.run(["callgrind_control", "--dump", str(pid)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   check=True)


def daemon_workload(binary, work, trees, profile):
    sock = os.path.join(work, "d.sock")
    d = subprocess.Popen(valgrind(profile, binary, "daemon", "--settle-ms", "20", "--socket", sock, *trees),
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_ready(sock, d, count=len(trees))
        c = Client(sock)
        phase(d.pid)  # part 1: start-up and the initial scans
        c.call("initialize")
        sub = Client(sock)
        sub.call("subscribe")
        c.call("diagnostics")
        c.call("rules/list")
        c.call("metrics")
        c.call("watch/list")
        icons, sample = trees
        pngs = sorted(glob.glob(os.path.join(icons, "**", "*.png"), recursive=True))
        contents = sorted(glob.glob(os.path.join(icons, "**", "Contents.json"), recursive=True))

        def settle():
            c.call("sync", {"timeout_ms": 120000}, timeout=180)

        for i in range(6):  # PNG rewritten: a wrong size, then the right one
            with open(pngs[i % 3], "wb") as f:
                f.write(png(121, 120) if i % 2 == 0 else png(120, 120))
            settle()
        with open(contents[0]) as f:
            text = f.read()
        with open(contents[0], "w") as f:
            f.write(text.replace('"scale" : "2x"', '"scale" : "3x"', 1))
        settle()
        with open(contents[0], "w") as f:
            f.write("{ broken")
        settle()
        with open(contents[0], "w") as f:
            f.write(text)
        settle()
        for path in glob.glob(os.path.join(sample, "**", "*"), recursive=True):
            if os.path.isfile(path) and not path.endswith(".png"):
                with open(path, "ab") as f:
                    f.write(b"\n")
                settle()
        new = os.path.join(os.path.dirname(os.path.dirname(pngs[0])), "New.appiconset")
        shutil.copytree(os.path.dirname(pngs[0]), new)
        settle()
        os.remove(os.path.join(new, os.path.basename(pngs[0])))
        settle()
        shutil.rmtree(new)
        settle()
        with open(os.path.join(icons, ".reswatch.yaml"), "a") as f:
            f.write("# changed\n")
        settle()
        phase(d.pid)  # part 2: clients and changes
        c.call("fix", {"path": sample})
        c.call("recheck")
        c.call("diagnostics", {"root": sample})
        c.call("status")
        c.call("shutdown")
        d.wait(600)
    finally:
        if d.poll() is None:
            d.terminate()
            d.wait()


def check(binary, listing):
    """Fails unless `binary` was linked in the order of `listing`: most listed functions lie in the
    first quarter of its code. A build that lost the order (flags dropped from `make release`)
    spreads them over all of it: 47-48 % in the first quarter; ordered (2026-11-27): 68 % (not
    more: the toolchain's static libraries move whole objects, listed or not)."""
    wanted = set(line.strip() for line in open(listing))
    text = []
    nm = subprocess.run(["nm", "-n", "--defined-only", binary], capture_output=True, text=True, check=True).stdout
    for line in nm.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "tTwW":
            text.append((int(parts[0], 16), parts[2]))
    if not text:
        raise SystemExit(f"order check: {binary} has no symbols (stripped?)")
    low, high = text[0][0], text[-1][0]
    listed = [address for address, name in text if name in wanted]
    early = sum(1 for address in listed if address < low + (high - low) / 4) / max(1, len(listed))
    if early < 0.6:
        raise SystemExit(f"order check: {binary} is not linked in the order of {listing} "
                         f"({early:.0%} of the listed functions in the first quarter of the code, not 60 %)")
    print(f"order check: {len(listed)} listed functions, {early:.0%} of them in the first quarter of the code")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", default=os.path.join(HERE, "..", ".build", "release", "reswatch"))
    ap.add_argument("--out", default=os.path.join(HERE, "hot-functions.txt"))
    ap.add_argument("--check", action="store_true", help="only check that --binary was linked in the order of --out")
    args = ap.parse_args()
    binary = os.path.abspath(args.binary)
    if args.check:
        check(binary, args.out)
        return
    if not shutil.which("valgrind"):
        raise SystemExit("order_file.py needs valgrind (apt-get install valgrind)")
    with tempfile.TemporaryDirectory(prefix="reswatch-order-") as work:
        # valgrind 3.19 (Debian 12) cannot read the DWARF 5 of a Swift 6 build: profile a copy without it.
        stripped = os.path.join(work, "reswatch")
        subprocess.run(["objcopy", "--strip-debug", binary, stripped], check=True)
        binary = stripped
        icons = os.path.join(work, "icons")
        generate(icons, 60)
        sample = os.path.join(work, "SampleApp")
        shutil.copytree(SAMPLE, sample)
        profiles = []
        for n, cmd in enumerate([["check", sample], ["check", "--format", "json", sample], ["check", icons]]):
            out = os.path.join(work, f"check{n}.out")
            subprocess.run(valgrind(out, binary, *cmd), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            profiles.append(out)
        out = os.path.join(work, "daemon.out")
        daemon_workload(binary, work, [icons, sample], out)
        parts = sorted(glob.glob(out + ".*"), key=lambda p: int(p.rsplit(".", 1)[1])) + [out]
        # The daemon's start-up and scan first (what an idle daemon keeps resident), then its
        # changes and clients, then what it runs last, then what only `check` runs. Within a
        # part, by name: every function of a part is touched anyway, and a sorted list changes
        # only where the code did (a diff a reviewer can read).
        names, seen = [], set()
        for p in parts + profiles:
            part = sorted(n for n in functions(p) if n not in seen and re.match(r"^[A-Za-z_$.][\w$.@]*$", n))
            seen.update(part)
            names.extend(part)
    with open(args.out, "w") as f:
        for n in names:
            f.write(n + "\n")
    print(f"{len(names)} functions in {args.out} ({len(parts)} parts of the daemon's profile)")


if __name__ == "__main__":
    main()
