"""Map a JSON pointer to its offset in JSON text, so schema errors can name a column."""

from __future__ import annotations

import json

_WS = " \t\r\n"
_decoder = json.JSONDecoder()


def pointer_of(path) -> str:
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in path)


def _skip_ws(text: str, i: int) -> int:
    while i < len(text) and text[i] in _WS:
        i += 1
    return i


def _skip_value(text: str, i: int) -> int:
    _, end = _decoder.raw_decode(text, i)
    return end


def offset_of(text: str, path: list) -> int:
    """Offset of the value (or, for the last object key, of the key) at ``path``; best effort, never raises."""
    try:
        return _offset(text, _skip_ws(text, 0), list(path))
    except (ValueError, IndexError):
        return 0


def _offset(text: str, i: int, path: list) -> int:
    if not path:
        return i
    head, rest = path[0], path[1:]
    if text[i] == "{":
        i = _skip_ws(text, i + 1)
        while text[i] != "}":
            key_start = i
            key, i = _decoder.raw_decode(text, i)
            i = _skip_ws(text, i)
            i = _skip_ws(text, i + 1)  # ':'
            if key == head:
                return key_start if not rest else _offset(text, i, rest)
            i = _skip_ws(text, _skip_value(text, i))
            if text[i] == ",":
                i = _skip_ws(text, i + 1)
        return i
    if text[i] == "[":
        i = _skip_ws(text, i + 1)
        index = 0
        while text[i] != "]":
            if index == head:
                return _offset(text, i, rest)
            i = _skip_ws(text, _skip_value(text, i))
            if text[i] == ",":
                i = _skip_ws(text, i + 1)
            index += 1
        return i
    return i
