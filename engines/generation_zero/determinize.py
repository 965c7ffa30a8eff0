"""Determinization for Generation Zero's AI: a full position consistent with one seat's view.

What a seat cannot see (spec R14) is exactly: the identity of each Canon token that is neither
public nor known to it, the identity and Health of each living Monster token likewise, the other
seats' ``brought`` lists, and (during the draft) the game seed. Everything else, including every
token, where it lies and who knows it, is public, so the view already says how many cards are
hidden and where. :func:`determinize_position` fills the blanks:

* **Canons**: the Canons in play were drawn from the preset's pools (3.4 step 3). The seat's own
  ``brought`` Canons that it has not seen on a token must be among the hidden tokens; the other
  hidden tokens get a uniform random subset of the pools' Canons not accounted for (seen on a
  token, or brought by the seat), and the hidden cards are then spread over the hidden tokens in
  uniform random order. If the pools are too small (a hand-made position), the other Canons of
  the set make up the difference.
* **Monsters**: a uniform random choice among the assignments of the Monster cards not
  accounted for (seen on any token, dead ones included) to the hidden tokens that respect
  setup 3.4 step 5 (the Bree Monster only where a location hosts it, every other Monster only
  on a location whose ``monster_types`` holds its type). A hidden Monster has never fought
  (a fight makes it public), so it has its card's full Health. A hand-made position that no
  such assignment explains is filled without the homes rule.
* **Other seats' ``brought``**: when the seat brought a full group (``canons_per_player``) and
  the board holds exactly one group per seat, the Canons in play that the seat did not bring are
  dealt into groups in seat order; otherwise they stay ``[]``.
* **Seed**: during the draft the seed that will run setup steps 3–8 is drawn; else 0.

Everything random comes from ``Rng(seed)`` (:mod:`engines.rng`), so the result is a function of
the view and ``seed`` only: two states that differ only in what the seat cannot see give the
same view and therefore the same determinization.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from functools import lru_cache
from typing import Any

from engines.generation_zero.content import Content
from engines.generation_zero.rules import Doc
from engines.rng import Rng

__all__ = ["determinize_position"]

#: Seeds drawn for a draft are kept below 2**62 (a JSON and database friendly integer).
SEED_MASK = (1 << 62) - 1


def determinize_position(
    data: Mapping[str, Any], content: Content, options: Mapping[str, Any], seed: int
) -> Doc:
    """A full position object (spec section 7) consistent with the view object ``data``.

    ``data`` is :attr:`GenerationZeroView.data` of a seat (``data["viewer"]`` an int): the
    position with the seat's unknown cards blanked (R14). ``options`` are the game's resolved
    options. Returns a new position object (``data`` is not modified) whose R14 view for that
    seat is ``data`` again. Deterministic for ``seed``.
    """
    viewer = data["viewer"]
    doc: Doc = _copy(data)
    del doc["viewer"]
    rng = Rng(seed)
    players = int(doc["players"])
    preset = content.presets.get(players)
    _deal_canons(doc, content, viewer, preset, rng)
    _deal_monsters(doc, content, bool(options.get("bree_monster", True)), rng)
    _deal_brought(doc, viewer, preset, rng)
    doc["seed"] = rng.next64() & SEED_MASK if doc["part"] == "draft" else 0
    return doc


def _deal_canons(doc: Doc, content: Content, viewer: int, preset: Any, rng: Rng) -> None:
    canons = doc["canons"]
    hidden = sorted((t for t, c in canons.items() if not c["card"]), key=lambda t: int(t[1:]))
    if not hidden:
        return
    seen = {c["card"] for c in canons.values() if c["card"]}
    own = list(doc["seats"][viewer]["brought"])
    must = [card for card in own if card not in seen][: len(hidden)]
    pools = preset.canon_pools if preset is not None else ()
    taken = seen | set(own)
    rest = [c for c, card in content.canons.items() if card.pool in pools and c not in taken]
    need = len(hidden) - len(must)
    if len(rest) < need:
        rest += [c for c in content.canons if c not in taken and c not in rest]
    cards = must + rng.shuffled(rest)[:need]
    for token, card in zip(hidden, rng.shuffled(cards), strict=True):
        canons[token]["card"] = card


def _deal_monsters(doc: Doc, content: Content, bree_on: bool, rng: Rng) -> None:
    monsters = doc["monsters"]
    hidden = sorted(
        (t for t, m in monsters.items() if m["at"] and not m["card"]), key=lambda t: int(t[1:])
    )
    if not hidden:
        return
    seen = {m["card"] for m in monsters.values() if m["card"]}
    bree = content.bree_monster
    pool = [c for c in content.monsters if c not in seen]
    if bree_on and bree is not None and bree.id not in seen:
        pool.append(bree.id)
    homes = tuple(
        frozenset(c for c in pool if _may_live(content, c, monsters[t]["at"])) for t in hidden
    )
    choices = _assignments(homes)
    cards: Sequence[str] | None = None
    if choices:
        cards = choices[rng.below(len(choices))]
    elif choices is None:  # too many to list (a large custom set): greedy, most constrained first
        cards = _greedy(homes, rng)
    if cards is None:
        cards = rng.shuffled(pool)[: len(hidden)]
    for token, card in zip(hidden, cards, strict=True):
        monsters[token]["card"] = card
        monsters[token]["hp"] = content.monster(card).health


def _may_live(content: Content, card: str, location: str) -> bool:
    """3.4 step 5: the Bree Monster on a hosting location, others where their type lives."""
    place = content.locations[location]
    bree = content.bree_monster
    if bree is not None and card == bree.id:
        return place.hosts_bree_monster
    return content.monsters[card].type in place.monster_types


#: Most Monster assignments listed for an exact uniform choice (the default set has far fewer).
MAX_ASSIGNMENTS = 20_000


@lru_cache(maxsize=256)
def _assignments(homes: tuple[frozenset[str], ...]) -> tuple[tuple[str, ...], ...] | None:
    """Every injective choice of one card per token from its candidates, in a fixed order;
    ``None`` when there are more than :data:`MAX_ASSIGNMENTS`."""

    def extend(i: int, used: tuple[str, ...]) -> Iterator[tuple[str, ...]]:
        if i == len(homes):
            yield used
            return
        for card in sorted(homes[i]):
            if card not in used:
                yield from extend(i + 1, (*used, card))

    found: list[tuple[str, ...]] = []
    for choice in extend(0, ()):
        found.append(choice)
        if len(found) > MAX_ASSIGNMENTS:
            return None
    return tuple(found)


def _greedy(homes: tuple[frozenset[str], ...], rng: Rng) -> tuple[str, ...] | None:
    """One card per token, the tokens with fewest candidates first, each uniform among its
    candidates still free; ``None`` at a dead end."""
    chosen: dict[int, str] = {}
    for i in sorted(range(len(homes)), key=lambda i: (len(homes[i]), i)):
        free = sorted(homes[i] - set(chosen.values()))
        if not free:
            return None
        chosen[i] = free[rng.below(len(free))]
    return tuple(chosen[i] for i in range(len(homes)))


def _deal_brought(doc: Doc, viewer: int, preset: Any, rng: Rng) -> None:
    if preset is None:
        return
    per = preset.canons_per_player
    seats = doc["seats"]
    own = seats[viewer]["brought"]
    in_play = sorted(c["card"] for c in doc["canons"].values())
    if per == 0 or len(own) != per or len(in_play) != per * len(seats):
        return
    others = [card for card in in_play if card not in own]
    if len(others) != per * (len(seats) - 1):
        return
    dealt = rng.shuffled(others)
    groups = iter(dealt[i : i + per] for i in range(0, len(dealt), per))
    for index, seat in enumerate(seats):
        if index != viewer:
            seat["brought"] = sorted(next(groups))


#: The containers :func:`_copy` copies (tuples as lists); anything else is a scalar.
_NESTED = (dict, list, tuple)


def _copy(value: Any) -> Any:
    """A deep copy of JSON-shaped data (dicts, lists or tuples, scalars), as ``json.loads``
    of its text would give it: tuples become lists. Scalars are not recursed into (this runs
    once per ISMCTS iteration)."""
    if isinstance(value, dict):
        return {k: _copy(v) if isinstance(v, _NESTED) else v for k, v in value.items()}
    if isinstance(value, _NESTED):
        return [_copy(v) if isinstance(v, _NESTED) else v for v in value]
    return value
