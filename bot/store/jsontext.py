"""The JSON text the store writes (a row's columns, a move-log entry), shared by both back ends."""

from __future__ import annotations

import json
from typing import Any

import orjson

_JSON = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)  # the stdlib's, made once
# What orjson must refuse rather than write its own way (the stdlib then writes it, or refuses it):
# subclasses of str, int, dict and list (an IntEnum writes its number), dataclasses, dates.
_ORJSON_STRICT = (orjson.OPT_PASSTHROUGH_SUBCLASS | orjson.OPT_PASSTHROUGH_DATACLASS
                  | orjson.OPT_PASSTHROUGH_DATETIME)


def dumps(value: Any) -> str:
    """A value as compact JSON text (non-ASCII as it is), as the store writes it: by orjson (a
    save's columns cost about a tenth of the stdlib's), which reads back with ``json.loads``
    exactly as the stdlib's text does. The stdlib writes what orjson refuses (keys that are not
    text, integers beyond 64 bits, lone surrogates, subclasses…) and any text where orjson wrote
    ``null``, which may be a float that is not a number (orjson's ``null``, the stdlib's ``NaN``)."""
    try:
        out = orjson.dumps(value, option=_ORJSON_STRICT)
    except TypeError:
        return _JSON.encode(value)
    if b"null" in out:
        return _JSON.encode(value)
    return out.decode()
