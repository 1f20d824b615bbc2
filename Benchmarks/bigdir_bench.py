#!/usr/bin/env python3
"""A 50,000-file folder: how long the daemon needs to take in files created in one directory, and
to let them go after `rm -rf` (issue 10, item 9: listing updates were quadratic, 149 s and 100 s).

Starts `reswatch daemon` (release build) on an empty root, creates N empty files in one folder,
then times `sync` (every change applied); then removes the folder and times `rm -rf` + `sync`.
Prints both, and the daemon's file count after each step as a check.

Usage: python3 Benchmarks/bigdir_bench.py [--files 50000]
"""
import argparse
import os
import shutil
import subprocess
import tempfile
import time

BIN = os.environ.get("RESWATCH_BIN") or os.path.join(os.path.dirname(__file__), "..", ".build", "release", "reswatch")


def run(*args):
    return subprocess.run([BIN, *args], capture_output=True, text=True, check=True).stdout


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--files", type=int, default=50000)
    n = parser.parse_args().files
    work = tempfile.mkdtemp(prefix="reswatch-bigdir.")
    root = os.path.join(work, "root")
    os.makedirs(os.path.join(root, "dir"))
    sock = os.path.join(work, "s.sock")
    daemon = subprocess.Popen([BIN, "daemon", "--socket", sock, root], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(200):
            if os.path.exists(sock):
                break
            time.sleep(0.05)
        run("sync", "--socket", sock)
        start = time.monotonic()
        for i in range(n):
            open(os.path.join(root, "dir", "f%06d.txt" % i), "w").close()
        written = time.monotonic()
        run("sync", "--socket", sock, "--timeout-ms", "600000")
        synced = time.monotonic()
        files = run("status", "--socket", sock).splitlines()[1]
        print(f"create {n} files in one folder: written in {written - start:.2f} s, sync {synced - written:.2f} s later ({files.strip()})")
        start = time.monotonic()
        shutil.rmtree(os.path.join(root, "dir"))
        run("sync", "--socket", sock, "--timeout-ms", "600000")
        done = time.monotonic()
        files = run("status", "--socket", sock).splitlines()[1]
        print(f"rm -rf of it + sync: {done - start:.2f} s ({files.strip()})")
    finally:
        daemon.terminate()
        daemon.wait()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
