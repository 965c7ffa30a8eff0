"""What one viewer may see of a Generation Zero game (spec R14, section 10).

:class:`GenerationZeroView` is what the renderer and the bot receive: never the full state.
Its ``data`` is the R14 view object, i.e. the canonical position object (spec section 7) with

* ``seed`` 0;
* ``card`` ``""`` for every Canon that is not public and not known to the viewer's seat;
* ``card`` ``""`` and ``hp`` 0 for every living Monster that is not public and not known to
  the viewer's seat;
* ``seats[s].brought`` ``[]`` for every seat but the viewer's;
* ``"viewer"``: the viewer's seat, or ``None`` for a spectator.

The :class:`~engines.generation_zero.content.Content` catalogue is public (the set is a
published file); which token is which card comes only from ``data``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engines.base import OptionValue, Outcome
from engines.generation_zero.content import Content, Layout

__all__ = ["GenerationZeroView", "LastDecision", "blank_position"]


@dataclass(frozen=True, slots=True)
class LastDecision:
    """What the last decision did, for highlights; public facts only.

    ``kind`` is the verb of the canonical move (``pick``, ``rest``, ``hold``, ``move``,
    ``chapter``, ``steer``, ``stay``, ``engage``, ``special``, ``dept``, ``fight``, ``end``,
    ``attack``, ``flee``, ``rescue``, ``ensnare``, ``decline``, ``upgrade``, ``crown``) or
    ``resign``. ``seat`` the seat that decided; ``char`` the character that acted (``""`` when
    none, e.g. ``end``); ``path`` the location ids walked, origin first (moves, flees, steers
    and teleports; empty otherwise); ``location`` the location the decision happened at (the
    fight or battle location, the landing of a move; ``""`` when none); ``target`` the id it
    was aimed at (``S2``, ``M1``, ``C4``; ``""`` when none); ``text`` the canonical move.
    """

    kind: str
    seat: int
    char: str
    path: tuple[str, ...]
    location: str
    target: str
    text: str


@dataclass(frozen=True, slots=True)
class GenerationZeroView:
    """Everything a renderer or presenter needs, for one viewer.

    * ``data``: the R14 view object (module docstring); JSON-able, nothing secret.
    * ``content``: the public card catalogue (names, terrain, stats, abilities, layouts).
    * ``viewer``: the seat, or ``None`` for a spectator.
    * ``last``: the last decision, or ``None`` at the start.
    * ``combat_log``: compact public lines of the thrusts of the last fight or battle
      (``"A1 attacks S2: 4 vs 3, 1 damage (S2 5 → 4)"``), oldest first.
    * ``to_act``: id of the character whose decision is pending (``None`` when a seat orders
      any of its characters, during the draft, or once over).
    * ``prompt``: one public sentence: what is pending and for whom.
    * ``to_move``: the seats that decide now (``()`` once over).
    * ``outcome``: how the game ended, or ``None``.
    * ``scores``: each seat's current score (R12.1), seat order.
    * ``max_health``: character id -> effective maximum Health (R11.1) of living characters.
    * ``options``: the game's resolved options (``max_rounds``, ``kill_points``…).
    """

    data: Mapping[str, Any]
    content: Content
    viewer: int | None
    last: LastDecision | None
    combat_log: tuple[str, ...]
    to_act: str | None
    prompt: str
    to_move: tuple[int, ...]
    outcome: Outcome | None
    scores: tuple[int, ...]
    max_health: Mapping[str, int]
    options: Mapping[str, OptionValue]

    @property
    def layout(self) -> Layout:
        """The board layout in play (slot ``i`` is label ``L{i+1}``)."""
        return self.content.layouts[str(self.data["layout"])]

    @property
    def map(self) -> tuple[str, ...]:
        """The location id in each slot, ``L1`` first."""
        return tuple(self.data["map"])

    def slot_centres(self) -> tuple[tuple[float, float], ...]:
        """Centre ``(u, v)`` of every slot in unit coordinates (spec 2.1 drawing tip): the
        board is a square grid turned 45°, one Location card per unit square."""
        layout = self.layout
        return tuple(layout.unit_centre(i) for i in range(len(layout.slots)))

    def characters_at(self, location: str) -> tuple[str, ...]:
        """Ids of the living characters on ``location``, in arrival order (R6.5)."""
        chars = self.data["chars"]
        here = [(c["arr"], cid) for cid, c in chars.items() if c["at"] == location]
        return tuple(cid for _, cid in sorted(here))

    def monster_at(self, location: str) -> str | None:
        """Token of the living Monster on ``location``, or ``None``."""
        for token, monster in self.data["monsters"].items():
            if monster["at"] == location:
                return str(token)
        return None

    def canons_at(self, location: str) -> tuple[str, ...]:
        """Tokens of the unensnared Canons lying on ``location``, ascending by number."""
        canons = self.data["canons"]
        found = [t for t, c in canons.items() if c["at"] == location]
        return tuple(sorted(found, key=lambda t: int(t[1:])))


def blank_position(position: Mapping[str, Any], viewer: int | None) -> dict[str, Any]:
    """The R14 view object of a canonical position object (see the module docstring).

    ``position`` is not modified; the result shares no mutable part with it.
    """
    data: dict[str, Any] = dict(position.items())
    data["seed"] = 0
    data["canons"] = {}
    for token, canon in position["canons"].items():
        copy = dict(canon, known=list(canon["known"]))
        if not canon["public"] and viewer not in canon["known"]:
            copy["card"] = ""
        data["canons"][token] = copy
    data["monsters"] = {}
    for token, monster in position["monsters"].items():
        copy = dict(monster, known=list(monster["known"]), fx=[dict(e) for e in monster["fx"]])
        if monster["at"] and not monster["public"] and viewer not in monster["known"]:
            copy["card"] = ""
            copy["hp"] = 0
        data["monsters"][token] = copy
    data["seats"] = [
        dict(seat, brought=list(seat["brought"]) if index == viewer else [])
        for index, seat in enumerate(position["seats"])
    ]
    data["chars"] = {
        cid: {key: (list(v) if isinstance(v, list) else v) for key, v in char.items()}
        for cid, char in position["chars"].items()
    }
    for cid, char in position["chars"].items():
        data["chars"][cid]["fx"] = [dict(e) for e in char["fx"]]
    for key in ("act", "walk", "fight", "battle"):
        frame = position[key]
        data[key] = None if frame is None else _deep_copy_json(frame)
    data["queue"] = [dict(item) for item in position["queue"]]
    data["pending"] = list(position["pending"])
    data["map"] = list(position["map"])
    data["viewer"] = viewer
    return data


def _deep_copy_json(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _deep_copy_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_deep_copy_json(v) for v in value]
    return value
