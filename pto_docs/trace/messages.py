"""The report's generated messages: one template per kind in labels.yaml (``msg_*``, both languages), the English
one formatted into the report (its JSON and the CLI's findings stay English), and read back on a page in another
language: the parameters are recovered from the English text by the same template (format and parse are one
source), then put into that language's template as text (escaped by the caller). Messages that are not ours
(the loader's diagnostics, an executor's problem) match no template and stay English (marked so by the page).

A second group, ``check_*``, holds the reasons of the model checks (the assembler's and the reference executor's
bundle parser) that a finding's detail shows on the pages (render/env.py's ``message`` filter); the groups are
read back apart, so a loader diagnostic is never taken for an assembler's reason or the other way round."""

from __future__ import annotations

import re
import string
from collections.abc import Callable, Mapping
from functools import cache
from importlib import resources

import yaml

PREFIX = "msg_"
CHECK_PREFIX = "check_"


@cache
def labels(locale: str) -> Mapping[str, str]:
    """The report page's labels in ``locale`` (labels.yaml; English where a key has no translation)."""
    data = yaml.safe_load(resources.files("pto_docs.trace").joinpath("labels.yaml").read_text("utf-8"))
    if locale not in data:
        raise KeyError(f"no labels for locale {locale!r} (have {', '.join(sorted(data))})")
    return {**data["en"], **data[locale]}


_labels = labels


def say(name: str, /, **params: object) -> str:
    """The English message ``name`` (without its ``msg_`` prefix) with ``params``."""
    return _labels("en")[PREFIX + name].format(**params)


@cache
def _patterns(prefix: str = PREFIX) -> tuple[tuple[str, re.Pattern], ...]:
    out = []
    for key, template in _labels("en").items():
        if not key.startswith(prefix):
            continue
        parts = []
        for literal, field, _spec, _conv in string.Formatter().parse(template):
            parts.append(re.escape(literal))
            if field is not None:
                parts.append(f"(?P<{field}>.+?)")
        out.append((key, re.compile("".join(parts) + r"\Z", re.S)))
    # the longest literal text first: a template that is all parameters ("{basis}: now …") is tried after others
    return tuple(sorted(out, key=lambda kp: -len(re.sub(r"\(\?P<\w+>\.\+\?\)", "", kp[1].pattern))))


def localise(message: str, locale: str, escape: Callable[[str], str], prefix: str = PREFIX) -> str | None:
    """``message`` in ``locale`` (parameters passed through ``escape``), or None when no template of the group
    ``prefix`` made it."""
    for key, pattern in _patterns(prefix):
        m = pattern.match(message)
        if m:
            template = _labels(locale)[key]
            return template.format(**{k: escape(v) for k, v in m.groupdict().items()})
    return None
