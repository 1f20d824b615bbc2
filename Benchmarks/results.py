"""Figures of one `make bench` run, kept for `summary.py` (stdlib only).

Each benchmark records what it measured under a key (`record("check", reswatch_ms=...)`); a
benchmark run on its own records too. `make bench` empties the file first, so the summary holds
one run's figures only. The file: $RESWATCH_BENCH_RESULTS, else /tmp/reswatch-bench/results.json.
"""
import json
import os
import platform
import subprocess

PATH = os.environ.get("RESWATCH_BENCH_RESULTS", "/tmp/reswatch-bench/results.json")


def load():
    try:
        with open(PATH) as f:
            return json.load(f)
    except (OSError, ValueError):
        return {}


def record(key, **values):
    """Stores `values` under `key`, beside what the run recorded before."""
    data = load()
    data.setdefault(key, {}).update(values)
    os.makedirs(os.path.dirname(PATH), exist_ok=True)
    tmp = PATH + ".tmp"
    with open(tmp, "w") as f:
        json.dump(data, f, indent=1, sort_keys=True)
    os.replace(tmp, PATH)


def machine():
    """One line: CPU model, cores, memory, kernel and distribution."""
    model = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            model = next((line.split(":", 1)[1].strip() for line in f if line.startswith("model name")), model)
        with open("/proc/meminfo") as f:
            mem = int(next(line.split()[1] for line in f if line.startswith("MemTotal"))) / 1024 / 1024
    except (OSError, StopIteration, ValueError):
        mem = 0
    distro = platform.platform()
    try:
        with open("/etc/os-release") as f:
            distro = next((line.split("=", 1)[1].strip().strip('"') for line in f if line.startswith("PRETTY_NAME")), distro)
    except OSError:
        pass
    swift = subprocess.run(["swift", "--version"], capture_output=True, text=True).stdout.splitlines()
    return f"{platform.machine()} {model}, {os.cpu_count()} cores, {mem:.0f} GiB, {distro}, Linux {platform.release()}" + (
        f", {swift[0]}" if swift else "")
