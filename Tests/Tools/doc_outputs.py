#!/usr/bin/env python3
"""Docs that quote output quote a real run (issue 26).

A Markdown file marks each quoted output with a comment on the line before its fenced block:

  <!-- output: reswatch check --no-color Examples/SampleApp -->
      the block is the standard output of that command;
  <!-- output, daemon on Examples/SampleApp: reswatch diagnostics -->
      the same, with a daemon watching that folder first ($RESWATCH_SOCKET and $S name its socket);
  <!-- session, daemon on Examples/SampleApp -->
      a console block: each `$ ` line is a command, the lines after it its output.

Every block runs in a fresh temporary folder holding a copy of Examples/ (so a session may edit
files), with `reswatch` the binary under test. Before comparing, what differs between runs is
masked in both the document and the run: the temporary folder and the repository become `/…`,
times and uptimes become placeholders, the daemon's socket becomes /tmp/reswatch-0/reswatch.sock.

  doc_outputs.py --check [--binary PATH] FILE...   exit 1 and a diff when a block drifted
  doc_outputs.py --write [--binary PATH] FILE...   rewrite the blocks from the runs
"""
import argparse
import difflib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
MARKER = re.compile(r"^<!-- (output|session)(?:, daemon on ([^:]+?))?(?:: (.*?))? -->$")
SOCKET_SHOWN = "/tmp/reswatch-0/reswatch.sock"


def shown(text, work):
    """As the document shows it: the temporary folder and the repository are `/…`."""
    if work:
        text = text.replace(os.path.realpath(work), "/…").replace(work, "/…")
    return text.replace(REPO, "/…")


def mask(text):
    """What differs from run to run, as placeholders (applied to both sides before comparing)."""
    text = re.sub(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z", "<time>", text)
    text = re.sub(r'"uptime_s":[0-9.]+', '"uptime_s":<n>', text)
    text = re.sub(r"up \d+ s", "up <n> s", text)
    text = re.sub(r"\d{8}T\d{6}\.\d{3}Z-\d+", "<stamp>", text)
    return text


class Workspace:
    """A temporary folder with a copy of Examples/, a `reswatch` on PATH, and maybe a daemon."""

    def __init__(self, binary, daemon_root):
        self.dir = tempfile.mkdtemp(prefix="reswatch-docs.")
        shutil.copytree(os.path.join(REPO, "Examples"), os.path.join(self.dir, "Examples"), symlinks=True)
        bindir = os.path.join(self.dir, ".bin")
        os.mkdir(bindir)
        os.symlink(binary, os.path.join(bindir, "reswatch"))
        self.env = dict(os.environ, PATH=bindir + ":" + os.environ.get("PATH", ""), NO_COLOR="1", LC_ALL="C.UTF-8")
        for key in ("RESWATCH_SOCKET", "NOTIFY_SOCKET", "JOURNAL_STREAM", "XDG_RUNTIME_DIR"):
            self.env.pop(key, None)
        self.daemon = None
        if daemon_root:
            self.socket = os.path.join(self.dir, "s.sock")
            self.env["RESWATCH_SOCKET"] = self.socket
            self.env["S"] = self.socket
            self.log = open(os.path.join(self.dir, "daemon.log"), "w")
            self.daemon = subprocess.Popen(
                [binary, "daemon", "--socket", self.socket, os.path.join(self.dir, daemon_root)],
                cwd=self.dir, env=self.env, stdout=self.log, stderr=self.log)
            deadline = time.time() + 30
            while time.time() < deadline:
                r = subprocess.run([binary, "sync", "--socket", self.socket], env=self.env, capture_output=True)
                if r.returncode == 0:
                    break
                time.sleep(0.05)
            else:
                raise RuntimeError("the daemon did not answer: " + open(os.path.join(self.dir, "daemon.log")).read())

    def run(self, command):
        r = subprocess.run(["bash", "-c", command], cwd=self.dir, env=self.env, capture_output=True, text=True, timeout=120)
        out = r.stdout
        if self.daemon:
            out = out.replace(self.socket, SOCKET_SHOWN)
        return shown(out, self.dir).rstrip("\n")

    def close(self):
        if self.daemon:
            self.daemon.terminate()
            try:
                self.daemon.wait(10)
            except subprocess.TimeoutExpired:
                self.daemon.kill()
            self.log.close()
        shutil.rmtree(self.dir, ignore_errors=True)


def blocks(lines):
    """(marker line index, kind, daemon root, command, block start, block end) for each marked block."""
    for i, line in enumerate(lines):
        m = MARKER.match(line.strip())
        if not m:
            continue
        start = i + 1
        if start >= len(lines) or not lines[start].startswith("```"):
            raise SystemExit(f"line {i + 1}: a marker must stand right before a fenced block")
        end = next((j for j in range(start + 1, len(lines)) if lines[j].startswith("```")), None)
        if end is None:
            raise SystemExit(f"line {i + 1}: the block is not closed")
        yield i, m.group(1), m.group(2), m.group(3), start, end


def produce(kind, daemon_root, command, body, binary):
    """What the block should hold, from a real run."""
    work = Workspace(binary, daemon_root)
    try:
        if kind == "output":
            return work.run(command).split("\n")
        out = []
        for line in body:
            if line.startswith("$ "):
                out.append(line)
                produced = work.run(line[2:])
                if produced:
                    out += produced.split("\n")
        return out
    finally:
        work.close()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--write", action="store_true")
    parser.add_argument("--binary", default=os.path.join(REPO, ".build", "debug", "reswatch"))
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    binary = os.path.abspath(args.binary)
    drifted = 0
    checked = 0
    for path in args.files:
        lines = open(path, encoding="utf-8").read().split("\n")
        for i, kind, daemon_root, command, start, end in reversed(list(blocks(lines))):
            body = lines[start + 1:end]
            actual = produce(kind, daemon_root, command, body, binary)
            checked += 1
            if args.write:
                lines[start + 1:end] = actual
            elif [mask(l) for l in actual] != [mask(l) for l in body]:
                drifted += 1
                print(f"{path}:{i + 1}: the quoted output differs from a real run:")
                sys.stdout.writelines(l + "\n" for l in difflib.unified_diff(body, actual, "document", "run", lineterm=""))
        if args.write:
            open(path, "w", encoding="utf-8").write("\n".join(lines))
    print(f"{checked} quoted outputs, {drifted} drifted")
    sys.exit(1 if drifted else 0)


if __name__ == "__main__":
    main()
