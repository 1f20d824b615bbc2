#!/usr/bin/env python3
"""`make accuracy`: runs `reswatch check` at the root of each whole repository of
docs/accuracy/repositories.tsv (materialised from local bare mirrors at the listed commit) and
compares every error and warning with docs/accuracy/whole-repos.tsv, the judged ledger.

Prints, per repository and in total, the errors and warnings judged right (a defect) and wrong
(not a defect), and lists every finding the ledger does not judge yet. Exit 1 when a finding is
unjudged, judged not a defect, or its count differs; 2 when a mirror is missing.

Not part of `make test`: a lone clone has no mirrors. RESWATCH_MIRRORS names the folder of
mirrors (default ../.mirror beside the clone); RESWATCH_ACCURACY_WORK where trees are written."""
import json, os, subprocess, sys, tempfile

here = os.path.dirname(os.path.abspath(__file__))
repo = os.path.normpath(os.path.join(here, "..", ".."))
mirrors = os.environ.get("RESWATCH_MIRRORS", os.path.join(repo, "..", ".mirror"))
binary = os.environ.get("RESWATCH_BINARY", os.path.join(repo, ".build", "debug", "reswatch"))
work = os.environ.get("RESWATCH_ACCURACY_WORK") or tempfile.mkdtemp(prefix="reswatch-accuracy.")


def rows(path):
    with open(path, encoding="utf-8") as f:
        return [line.rstrip("\n").split("\t") for line in f if line.strip() and not line.startswith("#")]


def materialise(mirror, commit, out):
    """Writes the commit's files (the mirror may lack blobs of 4 MiB and more: left out, counted)."""
    if os.path.isdir(out):
        with open(out + ".missing", encoding="utf-8", errors="surrogateescape") as f:
            return [line.rstrip("\n") for line in f if line.strip()]
    listing = subprocess.run(["git", "--git-dir", mirror, "ls-tree", "-r", "-z", "--full-tree", commit],
                             capture_output=True, check=True).stdout
    entries = []
    for rec in listing.split(b"\0"):
        if not rec:
            continue
        meta, path = rec.split(b"\t", 1)
        mode, kind, sha = meta.split()
        if kind == b"blob":
            entries.append((mode, sha, path))
    cat = subprocess.Popen(["git", "--git-dir", mirror, "cat-file", "--batch"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    missing = []
    partial = out + ".part"
    for mode, sha, path in entries:
        cat.stdin.write(sha + b"\n")
        cat.stdin.flush()
        header = cat.stdout.readline().split()
        if header[1] == b"missing":
            missing.append(path.decode("utf-8", "surrogateescape"))
            continue
        data = cat.stdout.read(int(header[2]))
        cat.stdout.read(1)
        dest = os.path.join(partial.encode(), path)
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        if mode == b"120000":
            if not os.path.lexists(dest):
                os.symlink(data, dest)
        else:
            with open(dest, "wb") as f:
                f.write(data)
    cat.stdin.close()
    cat.wait()
    with open(out + ".missing", "w", encoding="utf-8", errors="surrogateescape") as f:
        f.writelines(p + "\n" for p in missing)
    os.rename(partial, out)
    return missing


def main():
    ledger = rows(os.path.join(repo, "docs", "accuracy", "whole-repos.tsv"))
    repos = rows(os.path.join(repo, "docs", "accuracy", "repositories.tsv"))
    status = 0
    totals = {"error": [0, 0], "warning": [0, 0]}
    lines = []
    for name, slug, commit in repos:
        mirror = os.path.join(mirrors, slug.replace("/", "+"), "repo")
        if not os.path.isdir(mirror):
            print(f"{name}: no mirror at {mirror} (fetch {slug} first)", file=sys.stderr)
            status = 2
            continue
        tree = os.path.join(work, name)
        missing = materialise(mirror, commit, tree)
        result = subprocess.run([binary, "check", "--format", "json", "--base-path", tree, tree], capture_output=True, text=True)
        found = json.loads(result.stdout)["diagnostics"] if result.stdout.startswith("{") else []
        counts = {}
        mine = [r for r in ledger if r[0] == name]
        per = {"error": [0, 0], "warning": [0, 0]}
        unverifiable = 0
        for d in found:
            if d["severity"] == "info":
                continue
            # A row names what the finding is about: the file it is shown on, or (a missing file,
            # a folder) the first related path, as docs/accuracy/ledger.tsv does for the corpus.
            places = [d["path"]] + (d.get("related") or [])[:1]
            # A file the mirror lacks (4 MiB and more) is missing from the checked tree, not from
            # the repository: a finding about it says nothing of reswatch's accuracy.
            if any(p in missing for p in places):
                unverifiable += 1
                continue
            row = next((r for r in mine if r[1] == d["rule"] and any(
                r[2] == p or (r[2].endswith("*") and p.startswith(r[2][:-1])) for p in places)), None)
            if row is None:
                lines.append(f"  unjudged: {name}\t{d['severity']}\t{d['rule']}\t{places[-1]}\t{d['message'][:200]}")
                status = max(status, 1)
                continue
            counts[id(row)] = counts.get(id(row), 0) + 1
            per[d["severity"]][0 if row[4] == "defect" else 1] += 1
            if row[4] != "defect":
                lines.append(f"  judged not a defect but reported: {name} {d['rule']} {d['path']}")
                status = max(status, 1)
        for r in mine:
            if r[4] == "defect" and counts.get(id(r), 0) != int(r[3]):
                lines.append(f"  count: {name} {r[1]} {r[2]}: ledger {r[3]}, reported {counts.get(id(r), 0)}")
                status = max(status, 1)
        for sev in per:
            for i in (0, 1):
                totals[sev][i] += per[sev][i]
        note = f" ({len(missing)} files over the mirror's size limit left out" if missing else ""
        note += f", {unverifiable} findings about them not counted)" if unverifiable else (")" if missing else "")
        print(f"{name:20} errors {per['error'][0]:3} right {per['error'][1]:3} wrong   warnings {per['warning'][0]:3} right {per['warning'][1]:3} wrong{note}")
    print(f"{'total':20} errors {totals['error'][0]:3} right {totals['error'][1]:3} wrong   warnings {totals['warning'][0]:3} right {totals['warning'][1]:3} wrong")
    for line in lines:
        print(line)
    return status


if __name__ == "__main__":
    sys.exit(main())
