"""Game options typed as ``key=value …`` text: parsing, validation and autocomplete.

The bot never keeps its own list of options: everything here is derived from the engine's
:class:`~engines.base.GameInfo` (option specs and presets) and validated by
:meth:`~engines.base.Engine.resolve_options`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from bot.service import _codec
from engines import get_engine
from engines.base import Engine, GameInfo, OptionSpec, OptionValue, UsageError, quoted

__all__ = [
    "MAX_SUGGESTIONS",
    "format_options",
    "parse_options_text",
    "resolve_challenge_options",
    "sides_of",
    "suggest_options",
]

#: Discord shows at most 25 autocomplete choices, each at most 100 characters long.
MAX_SUGGESTIONS = 25
MAX_CHOICE_LENGTH = 100

#: Between pairs: spaces and semicolons; commas are split apart after (see parse_options_text).
_SEPARATORS = re.compile(r"[\s;]+")


def parse_options_text(text: str) -> dict[str, str]:
    """Split ``"refill=all start_supply=20"`` into ``{"refill": "all", "start_supply": "20"}``.

    Pairs are separated by spaces, commas or semicolons; spaces around ``=`` are allowed and
    keys are case-insensitive. A comma followed by no ``key=`` goes on the value before it,
    so a list value reads as typed (Orbs' ``holes=G7,I5``, ``holes=G7, I5``). Raises
    :class:`UsageError` for a token without ``=``, an empty key or value, or a key given
    twice. Values are left as typed: the engine parses them.
    """
    normalised = re.sub(r"\s*,\s*", ",", re.sub(r"\s*=\s*", "=", text.strip()))
    tokens: list[str] = []
    for word in _SEPARATORS.split(normalised):
        first, *rest = word.split(",")
        tokens.append(first)
        for piece in rest:
            if piece and "=" not in piece and tokens[-1]:
                tokens[-1] = f"{tokens[-1]},{piece}"  # a list value: holes=G7,I5
            else:
                tokens.append(piece)
    pairs: dict[str, str] = {}
    for token in tokens:
        if not token:
            continue
        key, sep, value = token.partition("=")
        if not sep or not key or not value:
            raise UsageError(
                f"options are written key=value separated by spaces (e.g. refill=all), "
                f"not {quoted(token)}"
            )
        key = key.lower()
        if key in pairs:
            raise UsageError(f"option {key} is given twice")
        pairs[key] = value
    return pairs


def resolve_challenge_options(
    engine: Engine[Any, Any], options_text: str | None, preset_id: str | None
) -> dict[str, OptionValue]:
    """The effective options of a challenge: preset first, typed options over it.

    Returns every option of the game with its value, in the engine's declared order.
    Raises :class:`UsageError` (from the engine) for an unknown preset, key or value; the
    message lists what is allowed. A number above an option's ``chat_maximum`` (the spec
    sets no bound, but the posts that show the options must fit Discord) is refused too.
    """
    raw: dict[str, str] = {}
    if preset_id:
        raw.update(engine.info.preset(preset_id).options)
    if options_text:
        raw.update(parse_options_text(options_text))
    for key in raw:
        if engine.info.option(key, in_chat=True).cli_only:
            raise UsageError(
                f"option {key} can only be set on the command line (python -m engines); "
                "games in chat use its default"
            )
    resolved = engine.resolve_options(raw)
    for spec in engine.info.options:
        value = resolved[spec.name]
        cap = spec.chat_maximum
        if cap is not None and isinstance(value, int) and value > cap:
            raise UsageError(
                f"option {spec.name} is too large for a game in chat; use {spec.minimum}–{cap}"
            )
    return resolved


def format_options(info: GameInfo, options: Mapping[str, OptionValue]) -> str:
    """The options that differ from their declared defaults as ``key=value`` text.

    Empty when every option has its default (a standard game).
    """
    parts = []
    for spec in info.options:
        if spec.name in options and options[spec.name] != spec.default:
            parts.append(f"{spec.name}={spec.format(options[spec.name])}")
    return " ".join(parts)


def suggest_options(info: GameInfo, typed: str) -> list[str]:
    """Autocomplete for the ``options`` text: whole replacement values, at most 25.

    The last token is the one being typed. Without ``=`` it completes to ``key=`` for every
    option not used yet whose name starts with it; after ``key=`` (a key not used yet) it
    completes the allowed values of that key (``true``/``false``, the choices, the minimum,
    default and maximum of an integer, or a text option's examples: ``colours=RB``,
    ``teams=02-13``). Everything before the last token is kept as typed.
    """
    head, _, last = typed.rpartition(" ") if not typed.endswith(" ") else (typed, "", "")
    head = head.rstrip()
    used = {token.partition("=")[0].lower() for token in head.split() if "=" in token}
    prefix = f"{head} " if head else ""
    key, sep, value = last.partition("=")
    key = key.lower()
    suggestions: list[str] = []
    if not sep:
        for spec in info.options:
            if spec.name not in used and spec.name.startswith(key) and not spec.cli_only:
                suggestions.append(f"{prefix}{spec.name}=")
    elif key not in used:  # a key given already would be refused as given twice
        for spec in info.options:
            if spec.name == key:
                for candidate in _values_of(spec):
                    if candidate.startswith(value.lower()):
                        suggestions.append(f"{prefix}{key}={candidate}")
    return [s for s in suggestions if len(s) <= MAX_CHOICE_LENGTH][:MAX_SUGGESTIONS]


def _values_of(spec: OptionSpec) -> list[str]:
    if spec.type == "bool":
        return ["true", "false"]
    if spec.type == "int":
        bounds = (spec.minimum, spec.default, spec.maximum or spec.chat_maximum)
        return list(dict.fromkeys(spec.format(v) for v in bounds if v is not None))
    if spec.type == "text":
        return list(spec.examples)
    return list(spec.choices)


@lru_cache(maxsize=512)
def sides_of(game: str, options_json: str, players: int) -> tuple[tuple[int, ...], ...]:
    """The seats grouped by side: the game's ``view.sides`` of a new game with these
    options (Orbs teams), else every seat alone."""
    alone = tuple((seat,) for seat in range(players))
    try:
        engine = get_engine(game)
        view = engine.view(engine.new_game(players, _codec.load_options(options_json), 0), None)
    except Exception:  # an engine that cannot set this up has no teams to tell
        return alone
    sides = getattr(view, "sides", None)
    if not sides:
        return alone
    groups = tuple(tuple(int(s) for s in group) for group in sides)
    if sorted(s for g in groups for s in g) != list(range(players)):
        return alone
    return groups
