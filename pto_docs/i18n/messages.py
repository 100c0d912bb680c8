"""The report's generated messages: one template per kind in report.yaml (``msg_*``, both languages), the English
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
    """The report page's labels in ``locale`` (report.yaml; English where a key has no translation)."""
    data = yaml.safe_load(resources.files("pto_docs.i18n").joinpath("report.yaml").read_text("utf-8"))
    if locale not in data:
        raise KeyError(f"no labels for locale {locale!r} (have {', '.join(sorted(data))})")
    return {**data["en"], **data[locale]}


_labels = labels


def say(name: str, /, **params: object) -> str:
    """The English message ``name`` (without its ``msg_`` prefix) with ``params``."""
    return _labels("en")[PREFIX + name].format(**params)


@cache
def _templates(prefix: str = PREFIX) -> tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...]:
    """(key, literals, fields) of every English template of the group: literals[0] fields[0] literals[1] ... ."""
    out = []
    for key, template in _labels("en").items():
        if not key.startswith(prefix):
            continue
        literals, fields = [""], []
        for literal, field, _spec, _conv in string.Formatter().parse(template):
            literals[-1] += literal
            if field is not None:
                fields.append(field)
                literals.append("")
        if any(not lit for lit in literals[1:-1]):
            raise ValueError(f"report.yaml {key}: two parameters side by side cannot be read back")
        out.append((key, tuple(literals), tuple(fields)))
    # the longest literal text first: a template that is all parameters ("{basis}: now …") is tried after others
    return tuple(sorted(out, key=lambda t: -sum(len(re.escape(lit)) for lit in t[1])))


def _read(message: str, literals: tuple[str, ...], fields: tuple[str, ...]) -> dict[str, str] | None:
    """The parameters of ``message`` if the template made it: each parameter at least one character, ended by the
    first occurrence of the literal after it (the last one by the template's end). Linear in the message (a regular
    expression of lazy groups backtracks: minutes on a hostile 9 KB operand); a message whose parameter holds the
    next literal text is read at that text's first occurrence, which still gives back the same words."""
    first, last = literals[0], literals[-1]
    if not fields:
        return {} if message == first else None
    if not message.startswith(first) or not message.endswith(last):
        return None
    pos, end = len(first), len(message) - len(last)
    values = {}
    for field, literal in zip(fields[:-1], literals[1:-1]):
        found = message.find(literal, pos + 1, end)
        if found < 0:
            return None
        values[field] = message[pos:found]
        pos = found + len(literal)
    if pos >= end:
        return None
    values[fields[-1]] = message[pos:end]
    return values


def localise(message: str, locale: str, escape: Callable[[str], str], prefix: str = PREFIX) -> str | None:
    """``message`` in ``locale`` (parameters passed through ``escape``), or None when no template of the group
    ``prefix`` made it."""
    for key, literals, fields in _templates(prefix):
        values = _read(message, literals, fields)
        if values is not None:
            return _labels(locale)[key].format(**{k: escape(v) for k, v in values.items()})
    return None
