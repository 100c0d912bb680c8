"""Strict readers for text that comes from a spec tree or a user: JSON and YAML that cannot surprise.

* :func:`loads_json` is ``json.loads`` that also rejects a key given twice in one object and the non-JSON
  constants ``NaN``, ``Infinity`` and ``-Infinity``, each as a :class:`json.JSONDecodeError` at the exact
  position, so every caller's JSON-syntax diagnostic names the line and column.
* :func:`load_yaml` is ``yaml.safe_load`` without aliases (``*name``: an alias bomb expands exponentially) and
  with nesting capped at :data:`MAX_DEPTH`; both are reported as a ``yaml.YAMLError`` with a mark.

Stdlib and PyYAML only (the executor uses it for `pto-docs exec` and stays free of the rest of pto-docs).
"""

from __future__ import annotations

import json
import re
from json import decoder, scanner
from typing import Any

import yaml

MAX_DEPTH = 200
_WS = " \t\r\n"


class _Duplicate(Exception):
    pass


class _Constant(Exception):
    pass


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    if len(out) != len(pairs):
        raise _Duplicate
    return out


def _constant(name: str) -> Any:
    raise _Constant(name)


def _float(literal: str) -> float:
    value = float(literal)
    if value in (_INF, -_INF):  # 1e999: a finite literal that only Python turns into infinity
        raise _Constant(literal)
    return value


_INF = float("inf")


def loads_json(text: str) -> Any:
    """``json.loads(text)``, strict: duplicate keys and NaN/Infinity raise JSONDecodeError at their position."""
    try:
        return json.loads(text, object_pairs_hook=_pairs, parse_constant=_constant, parse_float=_float)
    except _Constant as exc:
        literal = exc.args[0]
        pattern = re.compile(r'"(?:[^"\\]|\\.)*"|(?<![\w.+-])(' + re.escape(literal) + r")(?![\w.])", re.S)
        at = next((m.start(1) for m in pattern.finditer(text) if m.group(1)), 0)
        raise json.JSONDecodeError(f"{literal} is not a finite JSON number (NaN and infinities are not allowed)",
                                   text, at) from None
    except _Duplicate:
        _locate_duplicate(text)
        raise json.JSONDecodeError("a key is given twice in one object", text, 0) from None


def _locate_duplicate(text: str) -> None:
    """Parse again, slowly, with an object parser that knows where it is; raise at the repeated key."""

    def parse_object(s_and_end, strict, scan_once, object_hook, object_pairs_hook, memo=None, _w=None, _ws=None):
        s, start = s_and_end
        pairs, end = decoder.JSONObject(s_and_end, strict, scan_once, None, list, memo)
        if len({k for k, _ in pairs}) != len(pairs):
            seen: set[str] = set()
            i = start
            while True:
                while s[i] in _WS:
                    i += 1
                key_at = i
                key, i = decoder.scanstring(s, i + 1, strict)
                if key in seen:
                    raise json.JSONDecodeError(f"key {key!r} is given twice in one object", s, key_at)
                seen.add(key)
                while s[i] in _WS + ":":
                    i += 1
                _value, i = scan_once(s, i)
                while s[i] in _WS + ",":
                    i += 1
        return dict(pairs), end

    dec = json.JSONDecoder()
    dec.parse_object = parse_object
    dec.scan_once = scanner.py_make_scanner(dec)
    dec.decode(text)


class CaseLoader(yaml.SafeLoader):
    """``yaml.SafeLoader`` that refuses aliases and nesting deeper than MAX_DEPTH."""

    def __init__(self, stream):
        super().__init__(stream)
        self._depth = 0

    def compose_node(self, parent, index):
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            raise yaml.composer.ComposerError(None, None, f"alias *{event.anchor} is not allowed (no anchors or "
                                              "aliases in case files)", event.start_mark)
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                raise yaml.composer.ComposerError(None, None, f"nests deeper than {MAX_DEPTH} levels",
                                                  self.peek_event().start_mark)
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


def load_yaml(text: str) -> Any:
    loader = CaseLoader(text)
    try:
        return loader.get_single_data()
    finally:
        loader.dispose()
