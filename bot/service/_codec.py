"""JSON text for the database's opaque columns: options, events and outcomes.

The database stores these as text it never parses; this module is the one place that knows
their shape. Keys are sorted and separators compact, so equal values give equal text.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from engines.base import Event, OptionValue, Outcome

__all__ = [
    "dump_events",
    "dump_options",
    "dump_outcome",
    "load_events",
    "load_options",
    "load_outcome",
]


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False)


def dump_options(options: Mapping[str, OptionValue]) -> str:
    """``{"refill": "all", "move_limit": 400}`` as JSON text (insertion order kept)."""
    return json.dumps(dict(options), separators=(",", ":"), ensure_ascii=False)


def load_options(text: str) -> dict[str, OptionValue]:
    """Inverse of :func:`dump_options`; raises :class:`ValueError` for a non-object."""
    data = json.loads(text)
    if not isinstance(data, dict):
        raise ValueError(f"stored options are not a JSON object: {text[:80]!r}")
    return data


def dump_events(events: Iterable[Event]) -> str:
    """A list of event objects: ``kind``, ``seat``, ``text``, ``cells``, ``visible_to``."""
    return _dumps(
        [
            {
                "kind": e.kind,
                "seat": e.seat,
                "text": e.text,
                "cells": list(e.cells),
                "visible_to": None if e.visible_to is None else sorted(e.visible_to),
            }
            for e in events
        ]
    )


def load_events(text: str) -> tuple[Event, ...]:
    """Inverse of :func:`dump_events`."""
    return tuple(
        Event(
            kind=str(item["kind"]),
            seat=None if item.get("seat") is None else int(item["seat"]),
            text=str(item["text"]),
            cells=tuple(str(c) for c in item.get("cells", ())),
            visible_to=(
                None
                if item.get("visible_to") is None
                else frozenset(int(s) for s in item["visible_to"])
            ),
        )
        for item in json.loads(text)
    )


def dump_outcome(outcome: Outcome | None) -> str | None:
    """:meth:`Outcome.to_json` as text, or ``None`` while the game goes on."""
    return None if outcome is None else _dumps(outcome.to_json())


def load_outcome(text: str | None) -> Outcome | None:
    """Inverse of :func:`dump_outcome`."""
    return None if text is None else Outcome.from_json(json.loads(text))
