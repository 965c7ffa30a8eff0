"""Move notation (spec section 6): reading a typed move into its canonical string.

:func:`read_move` checks the shape of the words (6.1, 6.2; :class:`NotationError`), turns slots,
location ids and paths into canonical slot labels, and returns the canonical candidate; the
engine then checks it against the legal decisions (``illegal`` with a reason otherwise).
"""

from __future__ import annotations

import re

from engines.base import MAX_DIGITS, SEAT_DIGITS, IllegalMoveError, NotationError, quoted
from engines.generation_zero.content import STATS
from engines.generation_zero.rules import UPGRADE_STATS, Game

__all__ = ["SEAT_PREFIX", "read_move", "split_words"]

SEAT_PREFIX = re.compile(rf"^\s*\[({SEAT_DIGITS})\]\s*")
CHAR = re.compile(r"^[ast][1-9][0-9]*$")
CANON = re.compile(r"^c[1-9][0-9]*$")
MONSTER = re.compile(r"^m[1-9][0-9]*$")
SLOT = re.compile(r"^l[1-9][0-9]*$")
ID_SHAPED = re.compile(r"^[astcml][0-9]+$")
WORD = re.compile(r"^[a-z][a-z0-9_]*$")
VERBS = [
    "pick",
    "rest",
    "hold",
    "move",
    "chapter",
    "engage",
    "special",
    "dept",
    "fight",
    "end",
    "attack",
    "flee",
    "rescue",
    "steer",
    "stay",
    "ensnare",
    "decline",
    "upgrade",
    "crown",
    "resign",
]


#: The verbs of 6.2 in the order of a turn, for the refusal of an unknown one (``resign`` is a
#: command of its own, not a move).
MOVE_VERBS = (
    "rest, hold, move, chapter, engage, special, dept, fight, end, attack, flee, rescue, steer, "
    "stay, ensnare, decline, upgrade, crown or pick"
)


def split_words(text: str, *, lower: bool = True) -> list[str]:
    """Lower-case words of a move: spaces and commas separate; ``-`` and ``>`` join slots
    (spec generation_zero 6.1), also with spaces around them (``L8 - L10``, as a phone
    types it) and as an arrow (``L8->L10``). A ``-`` joins only two words: a leading or
    trailing one stays a word of its own, which no move has (a notation error). ``lower``
    false: the words as typed, for quoting them."""
    text = text.strip().lower() if lower else text.strip()
    return [w for w in re.split(r"(?<=\w)\s*(?:->|-|>)\s*(?=\w)|[\s,>]+", text) if w]


def _fail(text: str, message: str) -> NotationError:
    return NotationError(message, text=text)


def _char(word: str, text: str) -> str:
    if not CHAR.match(word):
        raise _fail(text, f"{word!r} is not a character id such as A1, S2 or T1")
    return word.upper()


def _slot(game: Game, word: str, text: str) -> str:
    """A slot label or location id -> canonical slot label (``L7``)."""
    if SLOT.match(word):
        if len(word) > MAX_DIGITS:
            raise _fail(text, f"there is no slot {quoted(word.upper())} on this board")
        n = int(word[1:])
        if n > len(game.d["map"]):
            raise _fail(text, f"there is no slot {word.upper()} on this board")
        return f"L{n}"
    if word in game.content.locations:
        if word not in game.slot:
            raise IllegalMoveError(f"{word} is not on this map", text=text)
        return game.label(word)
    raise _fail(text, f"{word!r} is not a slot (L1…) or a location id")


def _is_card(game: Game, word: str) -> bool:
    """Whether ``word`` is the id of a card of the content set (any kind: Agent, temp Agent,
    'Sue, Canon, Monster or Location)."""
    return game.content.card_name(word) is not None


def read_move(game: Game, text: str, thrust: bool) -> tuple[str, list[str]]:
    """``(verb, canonical argument words)`` of ``text`` (seat prefix already removed).

    ``thrust`` tells whether the decision pending is a thrust (``special [params]``) rather than
    an order (``special X [params]``). Raises :class:`NotationError` for a malformed move.
    """
    words = split_words(text)
    if not words:
        raise _fail(text, "empty move")
    verb, args = words[0], words[1:]
    if verb not in VERBS:
        # 6.4: an unknown verb, quoted as typed, with the verbs there are; `pass` (Arbos',
        # Orbs' word) is answered with the move that ends a turn here.
        typed = split_words(text, lower=False)[0]
        hint = "; to end your turn, play `end`" if verb == "pass" else ""
        raise _fail(text, f"unknown verb {typed!r}; a move starts with {MOVE_VERBS}{hint}")
    for word in args:
        if ID_SHAPED.match(word) and not re.match(r"^[astcml][1-9][0-9]*$", word):
            raise _fail(text, f"{word!r} is a malformed id")
    if verb in ("end", "stay", "decline", "resign"):
        if args:
            raise _fail(text, f"{verb} takes no argument")
        return verb, []
    if verb in ("special", "dept") and not thrust and (not args or not CHAR.match(args[0])):
        # The thrust form (6.2: `special [params]`, `dept temp_dic`) is well-formed, so outside
        # a thrust it is the wrong part (6.4 `illegal`) once its parameters read.
        _ability_words(game, args, text, thrust=True)
        raise IllegalMoveError(
            f"`{verb}` without a character is a thrust; outside a battle or fight name who uses "
            f"the ability: `{verb} X …`",
            text=text,
        )
    if not args and not (thrust and verb in ("special", "dept")):
        raise _fail(text, f"{verb} needs an argument")
    if verb == "pick":
        if len(args) != 1 or not WORD.match(args[0]) or ID_SHAPED.match(args[0]):
            raise _fail(text, "pick takes one card id")
        if not _is_card(game, args[0]):
            # 6.4 / engine-cli.md: a card the content set does not have is not a move of
            # this game at all; a real card that may not be picked now is illegal (3.5).
            raise _fail(text, f"{args[0]!r} is not a card of the content set")
        return verb, [args[0]]
    if verb in ("rest", "hold", "engage"):
        if len(args) != 1:
            raise _fail(text, f"{verb} takes one character id")
        return verb, [_char(args[0], text)]
    if verb == "move":
        if len(args) < 2:
            raise _fail(text, "move needs a character and at least one slot")
        return verb, [_char(args[0], text), *(_slot(game, w, text) for w in args[1:])]
    if verb in ("flee", "steer"):
        return verb, [_slot(game, w, text) for w in args]
    if verb == "chapter":
        if len(args) != 2 or not CANON.match(args[1]):
            raise _fail(text, "chapter takes a 'Sue and a Canon token")
        return verb, [_char(args[0], text), args[1].upper()]
    if verb == "fight":
        if len(args) != 1:
            raise _fail(text, "fight takes one slot or Monster")
        if MONSTER.match(args[0]):
            return verb, [args[0].upper()]
        return verb, [_slot(game, args[0], text)]
    if verb == "attack":
        if len(args) != 1 or not (CHAR.match(args[0]) or MONSTER.match(args[0])):
            raise _fail(text, "attack takes one character or Monster")
        return verb, [args[0].upper()]
    if verb == "rescue":
        if len(args) != 1 or not CANON.match(args[0]):
            raise _fail(text, "rescue takes one Canon token")
        return verb, [args[0].upper()]
    if verb == "ensnare":
        if not all(CANON.match(w) for w in args):
            raise _fail(text, "ensnare takes Canon tokens")
        return verb, sorted({w.upper() for w in args}, key=lambda t: int(t[1:]))
    if verb == "upgrade":
        if len(args) != 1:
            raise _fail(text, "upgrade takes one stat")
        stat = "defence" if args[0] == "defense" else args[0]
        if stat not in STATS:
            raise _fail(
                text, f"{args[0]!r} is not a stat; a 'Sue upgrades {', '.join(UPGRADE_STATS)} (3.2)"
            )
        if stat not in UPGRADE_STATS:
            # A stat (6.1: "Stats as in 3.2") that R10.3 does not let a 'Sue upgrade.
            raise IllegalMoveError(
                f"{stat} cannot be upgraded; a 'Sue upgrades {', '.join(UPGRADE_STATS)} (R10.3)",
                text=text,
            )
        return verb, [stat]
    if verb == "crown":
        if len(args) != 1 or not CHAR.match(args[0]):
            raise _fail(text, "crown takes one 'Sue")
        return verb, [args[0].upper()]
    return verb, _ability_words(game, args, text, thrust=thrust)


def _ability_words(game: Game, args: list[str], text: str, *, thrust: bool) -> list[str]:
    """The canonical words of ``special`` / ``dept``: in an order (not ``thrust``) the
    character first, then the parameters (6.3). Raises :class:`NotationError`."""
    out: list[str] = []
    for i, word in enumerate(args):
        if i == 0 and not thrust:
            out.append(_char(word, text))
        elif CHAR.match(word) or CANON.match(word) or MONSTER.match(word):
            out.append(word.upper())
        elif SLOT.match(word) or (word in game.content.locations):
            out.append(_slot(game, word, text))
        elif word in STATS or word == "defense":
            out.append("defence" if word == "defense" else word)
        elif word in game.content.temp_agents:
            out.append(word)
        else:
            raise _fail(text, f"{word!r} is not a parameter of an ability")
    return out
