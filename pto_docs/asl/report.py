"""Writers for AVS results: the ``pto-docs.avs.v1`` JSON document and JUnit XML."""

from __future__ import annotations

import json
import statistics
from xml.sax.saxutils import escape, quoteattr


def write_json(doc: dict, path) -> None:
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(doc, handle, indent=1, sort_keys=False)
        handle.write("\n")


def junit_xml(doc: dict) -> str:
    s = doc["summary"]
    total_time = sum(t["seconds"] for t in doc["tests"])
    lines = ['<?xml version="1.0" encoding="UTF-8"?>',
             f'<testsuites name="pto-docs avs" tests="{s["total"]}" failures="{s["fail"]}" '
             f'errors="{s["error"]}" skipped="{s.get("needs-decoders", 0)}" time="{total_time:.3f}">',
             f'<testsuite name={quoteattr("avs " + doc.get("profile", ""))} tests="{s["total"]}" '
             f'failures="{s["fail"]}" errors="{s["error"]}" skipped="{s.get("needs-decoders", 0)}" '
             f'time="{total_time:.3f}">']
    for t in doc["tests"]:
        head = (f'<testcase classname={quoteattr(t["kind"])} name={quoteattr(t["id"])} '
                f'file={quoteattr(t["path"])} time="{t["seconds"]:.4f}"')
        if t["status"] == "pass":
            lines.append(head + "/>")
        elif t["status"] == "needs-decoders":  # not run: the decoders given lack its Validate* entry point
            lines += [head + ">", f'<skipped message={quoteattr(t["message"][:500])}/>', "</testcase>"]
        else:
            tag = "failure" if t["status"] == "fail" else "error"
            lines.append(head + ">")
            lines.append(f'<{tag} message={quoteattr(t["message"][:500])}>{escape(t["message"])}</{tag}>')
            lines.append("</testcase>")
    lines += ["</testsuite>", "</testsuites>", ""]
    return "\n".join(lines)


def write_junit(doc: dict, path) -> None:
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(junit_xml(doc))


def kind_medians(doc: dict) -> dict[str, float]:
    by_kind: dict[str, list[float]] = {}
    for t in doc["tests"]:
        by_kind.setdefault(t["kind"], []).append(t["seconds"])
    return {k: round(statistics.median(v), 4) for k, v in sorted(by_kind.items())}
