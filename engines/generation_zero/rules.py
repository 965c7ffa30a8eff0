"""The rules of Generation Zero (spec R5–R14) over the canonical position object.

A :class:`Game` wraps one *mutable working copy* of the position object of spec section 7
(a JSON-shaped ``dict``), the content set and the options. :mod:`engines.generation_zero.engine`
creates a fresh copy for every ``apply``, so states themselves stay immutable.

Decisions are canonical move strings (section 6). :meth:`Game.decisions` lists every legal one
for the deciding seat; :meth:`Game.play` carries one out and then runs the automatic steps of
section 8.1 (:meth:`Game.settle`) until the next decision or the end.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from types import MappingProxyType
from typing import Any

from engines.base import ENDED_EVENT, TURN_EVENT, Event, OptionValue
from engines.generation_zero.content import (
    COMBAT_STATS,
    Ability,
    AgentCard,
    Content,
    EffectSpec,
    SueCard,
)

__all__ = ["UPGRADE_STATS", "Game", "Rules", "maximum_health", "thrust_order"]

Doc = dict[str, Any]

#: Stats a 'Sue may upgrade (R10.3), in the order the notation lists them.
UPGRADE_STATS = ("attack", "defence", "speed", "observe", "allure", "special", "health")
#: Artefact bonuses for Agents holding them (R11.1 step 2), with ``appendix_artefacts``.
ARTEFACT_BONUS = {
    ("jewel", "stealth"): 1,
    ("dagger", "attack"): 1,
    ("ring", "defence"): 1,
    ("necklace", "insanity"): 1,
}
#: Attack modifier by effective Insanity 1…5 when the Lust Object is in the battle (R11.1).
LUST_MODIFIER = (0, -2, -1, 0, 1, 2)


@dataclass(frozen=True, slots=True)
class Rules:
    """The content set and resolved options of one game (shared by all its states)."""

    content: Content
    options: tuple[tuple[str, OptionValue], ...]

    def option(self, name: str) -> OptionValue:
        for key, value in self.options:
            if key == name:
                return value
        raise KeyError(name)

    @property
    def flags(self) -> Mapping[str, OptionValue]:
        return dict(self.options)


def maximum_health(
    species_health: int, upgrades: Sequence[str], artefacts: Sequence[str], *, artefacts_on: bool
) -> int:
    """A character's maximum Health: its species' (3.2), + 1 per `health` upgrade (R10.3),
    + 1 per Pendant it holds with the artefacts appendix on (R10.2). The one formula of play
    and of the position reader (7.4: `hp` above it is malformed)."""
    value = species_health + upgrades.count("health")
    if artefacts_on:
        value += artefacts.count("pendant")
    return value


def thrust_order(
    agents: list[tuple[int, str, int]], sues: list[tuple[str, int, int, int]]
) -> tuple[list[str], list[str]]:
    """R9.3: ``(order, won)`` from ``agents`` ``(arr, id, stealth)`` and ``sues``
    ``(id, observe, allure, arr)`` (effective stats at battle start)."""
    a_sorted = sorted(agents, key=lambda a: (a[0], a[1]))
    s_sorted = sorted(sues, key=lambda s: (-(s[1] + s[2]), -s[1], s[3], s[0]))
    top = max(s[1] for s in s_sorted)
    order: list[str] = []
    i = 0
    while i < len(a_sorted) and not top > a_sorted[i][2]:
        order.append(a_sorted[i][1])
        i += 1
    won = list(order)
    return order + [s[0] for s in s_sorted] + [a[1] for a in a_sorted[i:]], won


def _num(token: str) -> int:
    return int(token[1:])


@lru_cache(maxsize=64)
def _settings(rules: Rules) -> tuple[bool, bool, bool, bool, bool, bool, int, int, int, int]:
    """The options :class:`Game` reads, typed, once per :class:`Rules`."""
    opts = rules.flags
    return (
        bool(opts["appendix_terrain"]),
        bool(opts["appendix_weapons"]),
        bool(opts["appendix_artefacts"]),
        bool(opts["appendix_departments"]),
        bool(opts["appendix_insanity"]),
        bool(opts["min_move"]),
        int(opts["kill_points"]),
        int(opts["canon_points"]),
        int(opts["max_battle_rounds"]),
        int(opts["max_rounds"]),
    )


#: A walk of :meth:`Game.move_options`: (origin, Speed, the first step free (R6.1), the
#: landings banned (R6.2), the locations never entered, the Monster locations a 'Sue's
#: waypoints name or ``None``).
WalkKey = tuple[str, int, bool, frozenset[str], frozenset[str], frozenset[str] | None]
#: Destination text -> the shortest legal path there, per walk (read-only).
Walks = dict[WalkKey, Mapping[str, tuple[str, ...]]]
#: The walks a map remembers before it forgets them all. A search of 4,000 iterations meets
#: 20–50 walks of its map, about 1 KB each; with :func:`_walks_of` keeping 64 maps, a process
#: holds at most 64 × 1,024 walks (about 64 MB), a few MB in practice.
WALKS_KEPT = 1024


@lru_cache(maxsize=1024)
def _geometry(
    content: Content, layout: str, locations: tuple[str, ...], terrain_on: bool
) -> tuple[dict[str, int], dict[str, str], dict[str, tuple[str, ...]], dict[str, int]]:
    """Lookups of one map (the Location card in each slot of ``layout``), computed once:
    location -> slot index, -> slot label (``L7``), -> neighbouring locations (in the
    layout's order), -> movement cost of entering it (R6.1; 1 everywhere without
    ``appendix_terrain``). Shared by every :class:`Game` on that map: never mutate them."""
    slots = content.layouts[layout].neighbours
    slot = {loc: i for i, loc in enumerate(locations)}
    labels = {loc: f"L{i + 1}" for i, loc in enumerate(locations)}
    nbrs = {loc: tuple(locations[j] for j in slots[i]) for i, loc in enumerate(locations)}
    costs = {
        loc: content.terrain[content.locations[loc].terrain].move_cost if terrain_on else 1
        for loc in locations
    }
    return slot, labels, nbrs, costs


@lru_cache(maxsize=64)
def _walks_of(content: Content, layout: str, locations: tuple[str, ...], terrain_on: bool) -> Walks:
    """The walks :meth:`Game.move_options` has found on one map (the key of :func:`_geometry`),
    shared by every :class:`Game` on it; the 64 latest maps keep theirs (a search's Location
    swaps make new maps)."""
    return {}


#: How each ending of R12.2 reads in the ``ended`` event.
_ENDINGS = {
    "no_fights_left": "no Agent shares the board with an enemy 'Sue any more",
    "round_limit": "the last round is over",
    "resignation": "only one seat is still playing",
}


class Game:
    """One working copy of a position plus the rules; see the module docstring."""

    def __init__(self, rules: Rules, doc: Doc) -> None:
        self.rules = rules
        self.content = rules.content
        self.d = doc
        (
            self.terrain_on,
            self.weapons_on,
            self.artefacts_on,
            self.departments_on,
            self.insanity_on,
            self.min_move,
            self.kill_points,
            self.canon_points,
            self.max_battle_rounds,
            self.max_rounds,
        ) = _settings(rules)
        self.layout = self.content.layouts[doc["layout"]]
        self.events: list[Event] = []
        self.log: list[str] | None = None  # combat log lines of a fight/battle this decision
        self.path: tuple[str, ...] = ()  # the path of the last move, flee or steer
        self._index_map()

    # ================================================================================
    # Small helpers
    # ================================================================================

    def _index_map(self) -> None:
        """(Re)build the lookups of the current map (after setup and Location swaps)."""
        key = (self.content, self.d["layout"], tuple(self.d["map"]), self.terrain_on)
        self.slot, self.labels, self.nbrs, self.costs = _geometry(*key)
        self._walks = _walks_of(*key)

    def label(self, loc: str) -> str:
        """The slot label (``L7``) of a location id on the map."""
        return self.labels[loc]

    def loc_of_label(self, label: str) -> str:
        return str(self.d["map"][int(label[1:]) - 1])

    def event(self, kind: str, seat: int | None, text: str, *cells: str) -> None:
        self.events.append(Event(kind, seat, text, tuple(cells)))

    def private(self, kind: str, seat: int, text: str) -> None:
        self.events.append(Event(kind, seat, text, (), frozenset({seat})))

    def combat(self, line: str) -> None:
        if self.log is None:
            self.log = []
        self.log.append(line)

    @property
    def chars(self) -> dict[str, Doc]:
        chars: dict[str, Doc] = self.d["chars"]
        return chars

    def ch(self, cid: str) -> Doc:
        return self.chars[cid]

    def alive(self, cid: str) -> bool:
        ch = self.chars.get(cid)
        return ch is not None and ch["at"] != ""

    def card(self, cid: str) -> AgentCard | SueCard:
        ch = self.chars[cid]
        if ch["kind"] == "sue":
            return self.content.sues[ch["card"]]
        return self.content.agent_card(ch["card"])

    def is_sue(self, cid: str) -> bool:
        return cid[0] == "S"

    def is_agentish(self, cid: str) -> bool:
        return cid[0] in "AT"

    def living(self) -> Iterator[tuple[str, Doc]]:
        for cid, ch in self.chars.items():
            if ch["at"]:
                yield cid, ch

    def at(self, loc: str) -> list[str]:
        """Living characters at ``loc`` in arrival order (R6.5)."""
        here = [(ch["arr"], cid) for cid, ch in self.chars.items() if ch["at"] == loc]
        return [cid for _, cid in sorted(here)]

    def monster_at(self, loc: str) -> str:
        for token, monster in self.d["monsters"].items():
            if monster["at"] == loc:
                return str(token)
        return ""

    def enemies(self, a: str, b: str) -> bool:
        """Whether characters ``a`` and ``b`` are enemies (section 4: opposite kinds, seats)."""
        if b[0] == "M" or a[0] == "M":
            return True
        ca, cb = self.chars[a], self.chars[b]
        return ca["seat"] != cb["seat"] and (self.is_sue(a) != self.is_sue(b))

    def terrain_at(self, loc: str) -> Any:
        return self.content.terrain[self.content.locations[loc].terrain]

    def cost(self, loc: str) -> int:
        return self.costs[loc]

    def distance(self, a: str, b: str) -> int:
        return self.layout.distance[self.slot[a]][self.slot[b]]

    def neighbours(self, loc: str) -> list[str]:
        return list(self.nbrs[loc])

    def active_seats(self) -> list[int]:
        return [s for s, seat in enumerate(self.d["seats"]) if seat["out"] == 0]

    # ================================================================================
    # Effective stats (R11)
    # ================================================================================

    def base_special(self, cid: str) -> int:
        ch = self.chars[cid]
        return int(self.card(cid).special) + int(ch["up"].count("special"))

    def max_hp(self, cid: str) -> int:
        ch = self.chars[cid]
        health = self.content.species[self.card(cid).species].health
        return maximum_health(health, ch["up"], ch["arts"], artefacts_on=self.artefacts_on)

    def paralysed(self, ident: str) -> bool:
        fx = self.d["monsters"][ident]["fx"] if ident[0] == "M" else self.chars[ident]["fx"]
        return any(e["kind"] == "paralyse" for e in fx)

    def battle_sues(self) -> list[str]:
        battle = self.d["battle"]
        if battle is None:
            return []
        return [c for c in self.at(battle["at"]) if self.is_sue(c)]

    def stat(self, cid: str, stat: str, vs: str = "", bonus: int = 0) -> int:
        """Effective ``stat`` of character ``cid`` (R11.1), against ``vs`` where it matters."""
        ch = self.chars[cid]
        card = self.card(cid)
        sue = ch["kind"] == "sue"
        value = int(getattr(card, stat, 0)) if stat != "health" else 0
        if sue:
            value += ch["up"].count(stat)
        elif self.artefacts_on:
            value += sum(ARTEFACT_BONUS.get((art, stat), 0) for art in ch["arts"])
        muls: list[int] = []
        sets: list[int] = []
        for fx in ch["fx"]:
            if fx["stat"] != stat:
                continue
            if fx["kind"] == "add":
                value += fx["value"]
            elif fx["kind"] == "mul":
                muls.append(fx["value"])
            elif fx["kind"] == "set":
                sets.append(fx["value"])
        value += bonus
        loc = ch["at"]
        if sue:
            if stat == "observe" and self.terrain_on and loc:
                value += self.terrain_at(loc).sue_observe
            if stat == "defence" and self.d["grey"] and vs[:1] == "M":
                value -= 1
        else:
            assert isinstance(card, AgentCard)
            weapon = card.weapon
            if self.weapons_on:
                knife_ground = self.terrain_on and loc and self.terrain_at(loc).weapon == "knife"
                if stat == "stealth" and weapon == "knife" and knife_ground:
                    value += 2
                if stat == "defence" and weapon == "sword" and vs[:1] == "S" and vs in self.chars:
                    sue_card = self.card(vs)
                    if self.content.species[sue_card.species].elvish:
                        value += 1
            lust = card.lust_object
            if stat == "attack" and self.insanity_on and lust and self._lust_in_battle(cid, lust):
                value += LUST_MODIFIER[self.stat(cid, "insanity")]
        if stat == "defence" and self.magic_from_cave(vs):
            value -= 1  # a situational modifier (step 4): before any mul or set, and the clamp
        for factor in muls:
            value *= factor
        if stat == "attack" and not sue and self.weapons_on and vs[:1] == "S" and vs in self.chars:
            assert isinstance(card, AgentCard)
            sue_card = self.card(vs)
            if (
                card.weapon == "dagger"
                and isinstance(sue_card, SueCard)
                and sue_card.artefact == "dagger"
            ):
                value *= 2
        if sets:
            value = min(sets)
        if stat == "insanity":
            return min(5, max(1, value))
        return max(0, value)

    def _lust_in_battle(self, cid: str, canon_card: str) -> bool:
        battle = self.d["battle"]
        if battle is None or self.chars[cid]["at"] != battle["at"]:
            return False
        for sue in self.battle_sues():
            for token in self.chars[sue]["canons"]:
                if self.d["canons"][token]["card"] == canon_card:
                    return True
        return False

    def monster_stat(self, token: str, stat: str, vs: str = "") -> int:
        """Effective Attack or Defence of a Monster (R11.1; Speed is always 0), against
        ``vs`` where it matters (an Agent's Magic from a Cave, fighting the Bree Monster)."""
        monster = self.d["monsters"][token]
        card = self.content.monster(monster["card"])
        value = int(getattr(card, stat, 0)) if stat in ("attack", "defence") else 0
        muls: list[int] = []
        sets: list[int] = []
        for fx in monster["fx"]:
            if fx["stat"] != stat:
                continue
            if fx["kind"] == "add":
                value += fx["value"]
            elif fx["kind"] == "mul":
                muls.append(fx["value"])
            elif fx["kind"] == "set":
                sets.append(fx["value"])
        if stat == "defence" and self.magic_from_cave(vs):
            value -= 1  # the situational modifier of step 4, as for a character
        for factor in muls:
            value *= factor
        if sets:
            value = min(sets)
        return max(0, value)

    def any_stat(self, ident: str, stat: str, vs: str = "", bonus: int = 0) -> int:
        if ident[0] == "M":
            return self.monster_stat(ident, stat, vs)
        return self.stat(ident, stat, vs, bonus)

    def damage(self, attacker: str, target: str, bonus: int = 0) -> tuple[int, int, int]:
        """``(attack, defence, damage)`` of an attack (R9.5): max(0, Attack − Defence)."""
        attack = self.any_stat(attacker, "attack", target, bonus)
        defence = self.any_stat(target, "defence", attacker)
        return attack, defence, max(0, attack - defence)

    def magic_from_cave(self, attacker: str) -> bool:
        """Whether ``attacker`` is an Agent with a Magic weapon attacking from a Cave (R11.1's
        situational modifiers: the target's Defence −1; needs both appendices)."""
        if attacker[:1] not in ("A", "T") or attacker not in self.chars:
            return False
        if not (self.weapons_on and self.terrain_on):
            return False
        card = self.card(attacker)
        loc = self.chars[attacker]["at"]
        magic = isinstance(card, AgentCard) and card.weapon == "magic"
        return bool(magic and loc and self.terrain_at(loc).weapon == "magic")

    def capacity_left(self, cid: str) -> int:
        return self.stat(cid, "allure") - len(self.chars[cid]["canons"])

    # ================================================================================
    # Scores and the end (R12)
    # ================================================================================

    def token_card_name(self, token: str) -> str:
        """The card name behind a Monster (``M4``) or Canon (``C2``) token, as the chat shows
        cards (``Cave Troll With A Head Cold``), never the content set's card id."""
        if token[0] == "M":
            return self.content.monster(self.d["monsters"][token]["card"]).name
        return self.content.canons[self.d["canons"][token]["card"]].name

    def scores(self) -> list[int]:
        out = []
        for s, seat in enumerate(self.d["seats"]):
            held = sum(
                len(ch["canons"])
                for cid, ch in self.living()
                if ch["seat"] == s and self.is_sue(cid)
            )
            out.append(self.kill_points * seat["kills"] + self.canon_points * held)
        return out

    def ranking(self) -> list[list[int]]:
        """R12.3: seats still playing by (score, kills, Health), then resigned seats."""
        scores = self.scores()
        seats = self.d["seats"]

        def health(s: int) -> int:
            return sum(ch["hp"] for _, ch in self.living() if ch["seat"] == s)

        playing = [s for s in range(len(seats)) if seats[s]["out"] == 0]
        keyed = sorted(playing, key=lambda s: (-scores[s], -seats[s]["kills"], -health(s)))
        groups: list[list[int]] = []
        last: tuple[int, int, int] | None = None
        for s in keyed:
            key = (scores[s], seats[s]["kills"], health(s))
            if groups and key == last:
                groups[-1].append(s)
            else:
                groups.append([s])
            last = key
        resigned = sorted(
            (s for s in range(len(seats)) if seats[s]["out"]), key=lambda s: -seats[s]["out"]
        )
        groups.extend([s] for s in resigned)
        return groups

    def fights_left(self) -> bool:
        """Not E1: some living Agent shares the board with a living 'Sue of another seat."""
        agent_seats = {ch["seat"] for cid, ch in self.living() if self.is_agentish(cid)}
        sue_seats = {ch["seat"] for cid, ch in self.living() if self.is_sue(cid)}
        return any(a != s for a in agent_seats for s in sue_seats)

    def finish(self, termination: str) -> None:
        """Section 8.3: the game is over."""
        d = self.d
        d["part"] = "over"
        d["end"] = termination
        d["act"] = d["walk"] = d["fight"] = d["battle"] = None
        d["queue"] = []
        d["pending"] = []
        self.event(ENDED_EVENT, None, self.ending_text(termination))

    def ending_text(self, termination: str) -> str:
        """The ``ended`` event's words (R12.2, R12.1), e.g. ``the last round is over; score:
        Seat 1: 7, Seat 2: 5``; seats are named from 1, resigned seats are left out of the
        score, and a tie on the best score says what broke it, or that nothing did (R12.3):
        ``(tied on score; Seat 2 has more kills)``, ``(tied on score, kills and Health: a
        shared win)``."""
        reason = _ENDINGS.get(termination, termination.replace("_", " "))
        scores = self.scores()
        seats = self.d["seats"]
        playing = [s for s, seat in enumerate(seats) if not seat["out"]]
        if len(playing) < 2:
            return reason
        board = ", ".join(f"Seat {s + 1}: {scores[s]}" for s in playing)
        best = max(scores[s] for s in playing)
        tied = [s for s in playing if scores[s] == best]
        if len(tied) == 1:
            return f"{reason}; score: {board}"
        first = self.ranking()[0]
        winner = first[0]
        level_on_kills = [s for s in tied if seats[s]["kills"] == seats[winner]["kills"]]
        if len(first) > 1:
            why = "tied on score, kills and Health: a shared win"
        elif len(level_on_kills) == 1:  # the kills alone put the winner ahead
            why = f"tied on score; Seat {winner + 1} has more kills"
        else:
            why = f"tied on score and kills; Seat {winner + 1} has more Health left"
        return f"{reason}; score: {board} ({why})"

    def check_e1(self) -> bool:
        if self.d["part"] != "over" and not self.fights_left():
            self.finish("no_fights_left")
            return True
        return False

    @property
    def over(self) -> bool:
        return bool(self.d["part"] == "over")

    # ================================================================================
    # Whose decision (8.1)
    # ================================================================================

    def decider(self) -> int | None:
        """The seat that decides now, or ``None`` once over (section 8.1)."""
        d = self.d
        if d["part"] == "over":
            return None
        if d["part"] == "draft":
            return int(d["seat"])
        if d["queue"]:
            return int(self.chars[d["queue"][0]["char"]]["seat"])
        if d["fight"] is not None:
            return int(self.chars[d["fight"]["char"]]["seat"])
        if d["act"] is not None and d["act"]["stage"] == "action":
            return int(self.chars[d["act"]["char"]]["seat"])
        if d["battle"] is not None and d["battle"]["cur"]:
            return int(self.chars[d["battle"]["cur"]]["seat"])
        return int(d["seat"])

    def acting_char(self) -> str | None:
        """The character whose decision is pending (``None`` for free orders and the draft)."""
        d = self.d
        if d["part"] in ("over", "draft"):
            return None
        if d["queue"]:
            return str(d["queue"][0]["char"])
        if d["fight"] is not None:
            return str(d["fight"]["char"])
        if d["act"] is not None and d["act"]["stage"] == "action":
            return str(d["act"]["char"])
        if d["battle"] is not None and d["battle"]["cur"]:
            return str(d["battle"]["cur"])
        return None

    # ================================================================================
    # Movement (R6)
    # ================================================================================

    def paths(self, origin: str, budget: int) -> Iterator[list[str]]:
        """Every path ``[L1 … Lk]`` from ``origin`` within ``budget`` (R6.1; no slot twice)."""
        if budget < 1:
            return
        seen = {origin}
        path: list[str] = []

        def walk(here: str, spent: int) -> Iterator[list[str]]:
            for there in self.neighbours(here):
                if there in seen:
                    continue
                cost = spent + self.cost(there)
                single = not path and self.min_move
                if cost > budget and not single:
                    continue
                path.append(there)
                seen.add(there)
                yield list(path)
                if cost <= budget:
                    yield from walk(there, cost)
                path.pop()
                seen.discard(there)

        yield from walk(origin, 0)

    def path_cost_ok(self, origin: str, path: list[str], budget: int) -> bool:
        if budget < 1 or not path:
            return False
        if len(path) == 1 and self.min_move:
            return True
        return sum(self.cost(loc) for loc in path) <= budget

    def is_chain(self, origin: str, path: list[str]) -> bool:
        here = origin
        seen = {origin}
        for loc in path:
            if loc in seen or loc not in self.neighbours(here):
                return False
            seen.add(loc)
            here = loc
        return True

    def has_own_agent(self, loc: str, seat: int) -> bool:
        return any(self.is_agentish(c) and self.chars[c]["seat"] == seat for c in self.at(loc))

    def has_own_sue(self, loc: str, seat: int) -> bool:
        return any(self.is_sue(c) and self.chars[c]["seat"] == seat for c in self.at(loc))

    def enemy_agents_at(self, loc: str, seat: int) -> list[str]:
        return [c for c in self.at(loc) if self.is_agentish(c) and self.chars[c]["seat"] != seat]

    def enemy_sues_at(self, loc: str, seat: int) -> list[str]:
        return [c for c in self.at(loc) if self.is_sue(c) and self.chars[c]["seat"] != seat]

    def path_problem(self, mover: str, kind: str, origin: str, path: list[str]) -> str:
        """Why ``path`` breaks R6.2 for ``mover`` (``kind`` move/flee/canon), or ``""``."""
        if kind == "canon":
            for loc in path:
                if self.monster_at(loc):
                    return "a Canon never enters a Monster's location"
            return ""
        seat = self.chars[mover]["seat"]
        landing = path[-1]
        if self.is_sue(mover):
            if kind == "flee":
                for loc in path:
                    if self.monster_at(loc):
                        return "a fleeing 'Sue never enters a Monster's location"
            if self.has_own_agent(landing, seat):
                return "a 'Sue may not land on an Agent of her own seat"
            return ""
        if self.has_own_sue(landing, seat):
            return "an Agent may not land on a 'Sue of its own seat"
        return ""

    def sue_waypoints(self, path: Sequence[str]) -> list[str]:
        """A 'Sue's canonical waypoints: crossed Monster locations in order, then the landing."""
        return [loc for loc in path[:-1] if self.monster_at(loc)] + [path[-1]]

    def move_options(self, mover: str, kind: str) -> Mapping[str, tuple[str, ...]]:
        """Canonical destination text (``L7`` / ``L8 L10``) -> one legal path (the shortest),
        for a MOVE or FLEE of ``mover`` (R6.3). Read-only: shared with other positions.

        The paths of :meth:`paths` in the same order, filtered by :meth:`path_problem`; it is
        written out here because the AI calls it constantly: what R6.2 forbids is worked out
        once per call (the landings banned for the mover's seat, the Monster locations) and
        a fleeing 'Sue's walk never enters a Monster location (every path through one is
        refused, so its extensions need not be walked). The answer depends on the map and on
        :data:`WalkKey` alone, so each map remembers it (:func:`_walks_of`, up to
        :data:`WALKS_KEPT` walks): the positions of a search repeat the same walks many times.
        """
        chars = self.chars
        ch = chars[mover]
        budget = self.stat(mover, "speed")
        if budget < 1:
            return {}
        seat = ch["seat"]
        is_sue = mover[0] == "S"
        banned_kinds = "AT" if is_sue else "S"  # R6.2: never land on one's own other side
        banned = frozenset(
            c["at"]
            for cid, c in chars.items()
            if c["at"] and cid[0] in banned_kinds and c["seat"] == seat
        )
        monsters = frozenset(m["at"] for m in self.d["monsters"].values() if m["at"])
        avoid = monsters if is_sue and kind == "flee" else frozenset()
        waypoints = monsters if is_sue and kind == "move" else None
        key: WalkKey = (ch["at"], budget, self.min_move, banned, avoid, waypoints)
        walks = self._walks
        found = walks.get(key)
        if found is None:
            if len(walks) >= WALKS_KEPT:
                walks.clear()
            found = walks[key] = self._walk(key)
        return found

    def _walk(self, key: WalkKey) -> Mapping[str, tuple[str, ...]]:
        """The walk of :meth:`move_options` for ``key`` on this map (R6.1–R6.3)."""
        origin, budget, first_free, banned, avoid, waypoints = key
        nbrs, costs, labels = self.nbrs, self.costs, self.labels
        out: dict[str, tuple[str, ...]] = {}
        path: list[str] = []
        seen = {origin}
        crossed: list[str] = []

        def walk(here: str, spent: int) -> None:
            for there in nbrs[here]:
                if there in seen or there in avoid:
                    continue
                cost = spent + costs[there]
                if cost > budget and (path or not first_free):
                    continue
                path.append(there)
                if there not in banned:
                    text = (
                        " ".join([*crossed, labels[there]])
                        if waypoints is not None
                        else labels[there]
                    )
                    # Equivalent paths differ only in the picture's arrow: keep the shortest.
                    old = out.get(text)
                    if old is None or len(path) < len(old):
                        out[text] = tuple(path)
                if cost <= budget:
                    seen.add(there)
                    if waypoints is not None and there in waypoints:
                        crossed.append(labels[there])
                        walk(there, cost)
                        crossed.pop()
                    else:
                        walk(there, cost)
                    seen.discard(there)
                path.pop()

        walk(origin, 0)
        return MappingProxyType(out)

    def canon_options(self, token: str) -> dict[str, list[str]]:
        canon = self.d["canons"][token]
        origin = canon["at"]
        speed = self.content.canons[canon["card"]].speed
        out: dict[str, list[str]] = {}
        for path in self.paths(origin, speed):
            if not self.path_problem("", "canon", origin, path):
                key = self.label(path[-1])
                if key not in out or len(path) < len(out[key]):
                    out[key] = path
        return out

    def arrive(self, cid: str, loc: str) -> None:
        """R6.5: a character's location changes; ``seq`` + 1 and its ``arr``."""
        self.d["seq"] += 1
        ch = self.chars[cid]
        ch["arr"] = self.d["seq"]
        ch["at"] = loc

    def add_pending(self, loc: str) -> None:
        if loc not in self.d["pending"] and (
            self.d["battle"] is None or self.d["battle"]["at"] != loc
        ):
            self.d["pending"].append(loc)

    def agent_lands(self, cid: str, loc: str, *, offer_bree: bool) -> None:
        """An Agent or temp Agent lands (R6.2): pending battle, or the Bree offer (R11.7)."""
        seat = self.chars[cid]["seat"]
        if self.enemy_sues_at(loc, seat):
            self.add_pending(loc)
            self.event("pending", seat, f"{cid} found an enemy 'Sue at {self.label(loc)}", loc)
        if offer_bree and self.rules.flags["bree_monster"]:
            token = self.monster_at(loc)
            if token and self.content.monster(self.d["monsters"][token]["card"]).bree:
                self.d["queue"].append({"canon": "", "char": cid, "kind": "bree", "n": 0})

    def sue_lands(self, cid: str, loc: str) -> None:
        """A 'Sue's landing (R6.2): Agents of other seats there kill her (R10.1 credit)."""
        seat = self.chars[cid]["seat"]
        hunters = self.enemy_agents_at(loc, seat)
        if hunters:
            self.event("trapped", seat, f"{cid} landed on {hunters[0]} at {self.label(loc)}", loc)
            self.kill(cid, hunters[0])

    # ================================================================================
    # Deaths and rewards (R10)
    # ================================================================================

    def kill(self, victim: str, killer: str) -> None:
        """R10.2: ``victim`` dies; ``killer`` (a character id or ``""``) gets the credit."""
        d = self.d
        ch = self.chars[victim]
        loc = ch["at"]
        for token in ch["canons"]:
            d["canons"][token]["at"] = loc
        ch["canons"] = []
        ch["fx"] = []
        ch["arts"] = []
        ch["at"] = ""
        ch["hp"] = 0
        self.event(
            "died", ch["seat"], f"{victim} was killed by {killer}" if killer else f"{victim} died"
        )
        if self.log is not None or d["battle"] is not None or d["fight"] is not None:
            self.combat(f"{victim} dies")
        if killer and killer[0] != "M" and self.enemies(killer, victim):
            k = self.chars[killer]
            d["seats"][k["seat"]]["kills"] += 1
            k["kills"] += 1
            if self.is_sue(victim):
                self.take_trophy(killer, self.content.sues[ch["card"]].artefact)
            else:
                self.add_upgrades(killer, 2)
        self.check_e1()

    def take_trophy(self, killer: str, artefact: str) -> None:
        holder = killer
        if self.chars[killer]["kind"] == "temp":
            holder = self.chars[killer]["by"]
            if not holder or not self.alive(holder):
                return
        arts = self.chars[holder]["arts"]
        arts.append(artefact)
        arts.sort()
        if artefact == "pendant" and self.artefacts_on:
            self.chars[holder]["hp"] += 1
        self.event("trophy", self.chars[holder]["seat"], f"{holder} took the {artefact}")

    def add_upgrades(self, sue: str, points: int) -> None:
        """R10.3: upgrade points are decided at once (front of the queue)."""
        self.d["queue"].insert(0, {"canon": "", "char": sue, "kind": "upgrade", "n": points})

    def monster_dies(self, token: str, killer: str) -> None:
        monster = self.d["monsters"][token]
        monster["at"] = ""
        monster["hp"] = 0
        monster["fx"] = []
        self.combat(f"{token} dies")
        self.event("monster_died", None, f"{token} was killed by {killer}")
        if self.is_sue(killer):
            self.chars[killer]["mkills"] += 1
            self.add_upgrades(killer, 1)
        elif self.content.monster(monster["card"]).bree:
            self.d["grey"] = True
            self.event("grey", None, "the Bree Monster is dead: the game turns grey")

    def hurt(self, target: str, amount: int, source: str) -> None:
        """``target`` loses ``amount`` Health; death with credit to ``source`` (R10.1)."""
        if amount <= 0:
            return
        if target[0] == "M":
            monster = self.d["monsters"][target]
            monster["hp"] -= amount
            if monster["hp"] <= 0:
                self.monster_dies(target, source)
            return
        ch = self.chars[target]
        ch["hp"] -= amount
        if ch["hp"] <= 0:
            self.kill(target, "" if source[:1] == "M" else source)

    # ================================================================================
    # Effects (R13)
    # ================================================================================

    def add_fx(
        self, ident: str, kind: str, stat: str, value: int, duration: str, user: str
    ) -> None:
        seat = int(self.d["seat"])
        user_seat = int(self.chars[user]["seat"])
        if duration == "turn":
            entry = {"kind": kind, "seat": seat, "stat": stat, "turns": 1, "value": value}
        elif duration == "two_turns":
            turns = 2 if user_seat == seat else 1
            entry = {"kind": kind, "seat": user_seat, "stat": stat, "turns": turns, "value": value}
        else:
            entry = {"kind": kind, "seat": seat, "stat": stat, "turns": 0, "value": value}
        fx = self.d["monsters"][ident]["fx"] if ident[0] == "M" else self.chars[ident]["fx"]
        fx.append(entry)
        fx.sort(key=lambda e: (e["kind"], e["stat"], e["value"], e["seat"], e["turns"]))

    def clear_battle_fx(self) -> None:
        """Battle-long effects end with the battle or fight (R13.3)."""
        for ch in self.chars.values():
            ch["fx"] = [e for e in ch["fx"] if e["turns"] > 0]
        for monster in self.d["monsters"].values():
            monster["fx"] = [e for e in monster["fx"] if e["turns"] > 0]

    def tick_fx(self, seat: int) -> None:
        """R13.3 at the end of a turn of ``seat``."""
        holders = [ch["fx"] for ch in self.chars.values()]
        holders += [m["fx"] for m in self.d["monsters"].values()]
        for fx in holders:
            kept = []
            for e in fx:
                if e["turns"] == 0:
                    continue
                if e["seat"] == seat:
                    e["turns"] -= 1
                    if e["turns"] == 0:
                        continue
                kept.append(e)
            fx[:] = kept

    # ================================================================================
    # Abilities: options and parameters (R13.2, 6.3)
    # ================================================================================

    def abilities(self, cid: str) -> list[tuple[str, Ability]]:
        """``(verb, ability)`` pairs of ``cid``: ``special`` (individual), ``dept`` (R11.5)."""
        ch = self.chars[cid]
        out: list[tuple[str, Ability]] = []
        card = self.card(cid)
        if card.ability:
            out.append(("special", self.content.abilities[card.ability]))
        if ch["kind"] != "sue" and self.departments_on and isinstance(card, AgentCard):
            dept = self.content.departments[card.department]
            out.append(("dept", self.content.abilities[dept.ability]))
        return out

    def can_use_ability(self, cid: str) -> bool:
        return bool(self.chars[cid]["cd"] == 0 and not self.paralysed(cid))

    def combat_frame(self) -> tuple[str, list[str]]:
        """``(kind, participants)`` of the current fight or battle (``("", [])`` if none)."""
        d = self.d
        if d["fight"] is not None:
            return "fight", [d["fight"]["char"], d["fight"]["monster"]]
        if d["battle"] is not None:
            return "battle", self.at(d["battle"]["at"])
        return "", []

    def present_enemies(self, cid: str) -> list[str]:
        kind, members = self.combat_frame()
        if kind == "fight":
            fight = self.d["fight"]
            if cid == fight["char"] and self.d["monsters"][fight["monster"]]["at"]:
                return [fight["monster"]]
            return []
        return [m for m in members if m != cid and self.enemies(cid, m)]

    def present_allies(self, cid: str) -> list[str]:
        kind, members = self.combat_frame()
        if kind != "battle":
            return []
        return [m for m in members if m != cid and self.is_sue(m) == self.is_sue(cid)]

    def _kind_ok(self, ident: str, target_kind: str) -> bool:
        if target_kind == "any":
            return True
        if target_kind == "monster":
            return ident[0] == "M"
        if target_kind == "sue":
            return ident[0] == "S"
        return ident[0] in "AT"

    def ability_params(self, cid: str, ability: Ability, window: str) -> list[list[str]]:
        """Every parameter list of ``ability`` used by ``cid`` now (6.3); ``[]`` if none."""
        combos: list[tuple[list[str], list[str]]] = [([], [cid])]  # (params, prev targets)
        for effect in ability.effects:
            next_combos: list[tuple[list[str], list[str]]] = []
            for params, prev in combos:
                for extra, targets in self._effect_choices(cid, ability, effect, window, prev):
                    next_combos.append((params + extra, targets))
            combos = next_combos
            if not combos:
                return []
        return [params for params, _ in combos]

    def _effect_choices(
        self, cid: str, ability: Ability, effect: EffectSpec, window: str, prev: list[str]
    ) -> list[tuple[list[str], list[str]]]:
        """``(parameter tokens, targets)`` choices for one effect."""
        d = self.d
        ch = self.chars[cid]
        seat = ch["seat"]
        loc = ch["at"]
        if effect.target:
            target = effect.target
            if target == "self":
                choices: list[tuple[list[str], list[str]]] = [([], [cid])]
            elif target == "same":
                choices = [([], prev)]
            elif target == "enemy":
                found = [
                    e for e in self.present_enemies(cid) if self._kind_ok(e, ability.target_kind)
                ]
                choices = [([e], [e]) for e in found]
            elif target == "ally":
                choices = [([a], [a]) for a in self.present_allies(cid)]
            elif target == "self_or_ally":
                pool = [cid] + ([] if window == "act" else self.present_allies(cid))
                choices = [([a], [a]) for a in pool]
            elif target == "all_enemies":
                found = [
                    e for e in self.present_enemies(cid) if self._kind_ok(e, ability.target_kind)
                ]
                # R13.2: offered when every *choice* has an option; "every such participant"
                # is no choice, so the effect may find nobody (a custom set's target_kind).
                choices = [([], found)]
            else:  # all_allies (likewise: a lone Agent may still use it)
                choices = [([], self.present_allies(cid))]
            if effect.type in ("stat_add", "stat_mul", "stat_set") and effect.stat == "choice":
                expanded = []
                for params, targets in choices:
                    kinds = {self._kind_of(t) for t in targets}
                    stats = list(COMBAT_STATS["agent"] + COMBAT_STATS["sue"])
                    allowed = sorted(
                        {s for s in stats if all(s in COMBAT_STATS[k] for k in kinds)},
                        key=stats.index,
                    )
                    for s in allowed:
                        expanded.append(([*params, s], targets))
                choices = expanded
            if effect.type == "release_canon":
                expanded = []
                for params, targets in choices:
                    held = sorted(self.chars[targets[0]]["canons"], key=_num) if targets else []
                    n = min(effect.count, len(held))
                    for subset in combinations(held, n):
                        expanded.append((params + list(subset), targets))
                choices = expanded
            return choices
        if effect.type == "pull_canon":
            cands = [
                (self.distance(loc, c["at"]), t)
                for t, c in d["canons"].items()
                if c["at"] and c["at"] != loc and self.distance(loc, c["at"]) <= effect.max_steps
            ]
            if effect.which == "nearest" and cands:
                least = min(dist for dist, _ in cands)
                cands = [(dist, t) for dist, t in cands if dist == least]
            return [([t], prev) for _, t in sorted(cands, key=lambda x: _num(x[1]))]
        if effect.type == "teleport_self":
            out = []
            for target_loc in d["map"]:
                dist = self.distance(loc, target_loc)
                if 1 <= dist <= effect.max_steps and not self.path_problem(
                    cid, "move", loc, [target_loc]
                ):
                    out.append(([self.label(target_loc)], prev))
            return out
        if effect.type == "swap_locations":
            n = len(d["map"])
            return [([f"L{i + 1}", f"L{j + 1}"], prev) for i in range(n) for j in range(i + 1, n)]
        if effect.type == "summon_temp_agent":
            on_board = {c["card"] for c in self.chars.values() if c["kind"] == "temp" and c["at"]}
            return [
                ([tid], prev)
                for tid, card in self.content.temp_agents.items()
                if tid not in on_board and card.department not in effect.exclude_departments
            ]
        if effect.type == "reveal":
            out = []
            if effect.what in ("monster", "any"):
                for token, m in d["monsters"].items():
                    hidden = m["at"] and not m["public"] and seat not in m["known"]
                    if hidden and self.distance(loc, m["at"]) <= effect.max_steps:
                        out.append(([token], prev))
            if effect.what in ("canon", "any"):
                for token, c in d["canons"].items():
                    hidden = c["at"] and not c["public"] and seat not in c["known"]
                    if hidden and self.distance(loc, c["at"]) <= effect.max_steps:
                        out.append(([token], prev))
            return out
        return [([], prev)]  # extra_thrust, free_flee

    def _kind_of(self, ident: str) -> str:
        if ident[0] == "M":
            return "monster"
        return str(self.chars[ident]["kind"])

    def ability_moves(self, cid: str, window: str, prefix: str) -> list[str]:
        """Canonical ``special``/``dept`` moves of ``cid`` in ``window``; ``prefix`` is
        ``"X "`` in an ACT and ``""`` in a thrust."""
        if not self.can_use_ability(cid):
            return []
        out = []
        for verb, ability in self.abilities(cid):
            if window not in ability.windows:
                continue
            for params in self.ability_params(cid, ability, window):
                out.append(" ".join([verb, *([prefix.strip()] if prefix else []), *params]))
        return out

    def use_ability(self, cid: str, verb: str, params: list[str], window: str) -> Ability:
        """Carry out ``verb`` (``special``/``dept``) of ``cid`` with ``params`` (R13)."""
        ability = dict(self.abilities(cid))[verb]
        self.chars[cid]["cd"] = 7 - max(0, min(5, self.base_special(cid)))
        self.event("ability", self.chars[cid]["seat"], f"{cid} used {ability.name}")
        self.combat(f"{cid} uses {ability.name}")
        queue = list(params)
        prev = [cid]
        for effect in ability.effects:
            prev = self._apply_effect(cid, ability, effect, queue, prev)
        frame = self.d["fight"] or self.d["battle"]
        if frame is not None and window == "thrust":
            frame["used"] = True
            frame["changed"] = True
        return ability

    def _apply_effect(
        self, cid: str, ability: Ability, effect: EffectSpec, params: list[str], prev: list[str]
    ) -> list[str]:
        d = self.d
        ch = self.chars[cid]
        targets = prev
        if effect.target:
            if effect.target == "self":
                targets = [cid]
            elif effect.target in ("enemy", "ally", "self_or_ally"):
                targets = [params.pop(0)]
            elif effect.target == "all_enemies":
                targets = [
                    e for e in self.present_enemies(cid) if self._kind_ok(e, ability.target_kind)
                ]
            elif effect.target == "all_allies":
                targets = self.present_allies(cid)
        kind = effect.type
        if kind in ("stat_add", "stat_mul", "stat_set"):
            chosen = params.pop(0) if effect.stat == "choice" else effect.stat
            if kind == "stat_add":
                value = effect.amount
                if effect.per_source:
                    source = {
                        "sue_kills": ch["kills"],
                        "agent_kills": ch["kills"],
                        "monster_kills": ch["mkills"],
                        "ensnared_canons": len(ch["canons"]),
                    }[effect.per_source]
                    value = effect.per * source
            else:
                value = effect.factor if kind == "stat_mul" else effect.value
            fx_kind = {"stat_add": "add", "stat_mul": "mul", "stat_set": "set"}[kind]
            for target in targets:
                stats = COMBAT_STATS[self._kind_of(target)] if chosen == "all" else (chosen,)
                for stat in stats:
                    if fx_kind == "add" and value == 0:
                        continue
                    self.add_fx(target, fx_kind, stat, value, effect.duration, cid)
        elif kind == "heal":
            for target in targets:
                if target[0] != "M" and self.alive(target):
                    t = self.chars[target]
                    t["hp"] = min(self.max_hp(target), t["hp"] + effect.amount)
        elif kind == "direct_damage":
            for target in targets:
                if self._present(target):
                    self.combat(f"{cid} hits {target} for {effect.amount}")
                    self.hurt(target, effect.amount, cid)
        elif kind == "paralyse":
            for target in targets:
                if self._present(target):
                    self.add_fx(target, "paralyse", "", 0, effect.duration, cid)
        elif kind == "release_canon":
            for target in targets:
                for _ in range(min(effect.count, len(self.chars[target]["canons"]))):
                    token = params.pop(0)
                    self.release(target, token, cid, steer=effect.flee)
        elif kind == "pull_canon":
            token = params.pop(0)
            d["canons"][token]["at"] = ch["at"]
            self.event("pulled", ch["seat"], f"{cid} pulled {token} to {self.label(ch['at'])}")
        elif kind == "teleport_self":
            landing = self.loc_of_label(params.pop(0))
            self.path = (ch["at"], landing)
            self.teleport(cid, landing)
        elif kind == "swap_locations":
            a, b = int(params.pop(0)[1:]) - 1, int(params.pop(0)[1:]) - 1
            m = d["map"]
            m[a], m[b] = m[b], m[a]
            self._index_map()
            self.event("swapped", ch["seat"], f"{cid} swapped L{a + 1} and L{b + 1}")
        elif kind == "summon_temp_agent":
            self.summon(cid, params.pop(0))
        elif kind == "extra_thrust":
            frame = d["fight"] or d["battle"]
            if frame is not None:
                frame["extra"] = True
        elif kind == "reveal":
            token = params.pop(0)
            group = d["monsters"] if token[0] == "M" else d["canons"]
            known = group[token]["known"]
            if ch["seat"] not in known:
                known.append(ch["seat"])
                known.sort()
            self.private("revealed", ch["seat"], f"{token} is {self.token_card_name(token)}")
        elif kind == "free_flee":
            frame = d["fight"] or d["battle"]
            if frame is not None:
                frame["free"] = True
        return targets

    def _present(self, ident: str) -> bool:
        if ident[0] == "M":
            return bool(self.d["monsters"][ident]["at"])
        return self.alive(ident)

    def release(self, sue: str, token: str, rescuer: str, *, steer: bool) -> None:
        """R7.4: ``token`` leaves ``sue``'s stack at her location; a fast one may be steered."""
        ch = self.chars[sue]
        ch["canons"].remove(token)
        canon = self.d["canons"][token]
        canon["at"] = ch["at"]
        self.event("freed", ch["seat"], f"{token} was freed from {sue} at {self.label(ch['at'])}")
        if steer:
            fastest = max((self.stat(s, "speed") for s in self.battle_sues()), default=0)
            if self.content.canons[canon["card"]].speed > fastest:
                self.d["queue"].append({"canon": token, "char": rescuer, "kind": "steer", "n": 0})

    def teleport(self, cid: str, landing: str) -> None:
        """R6.4: nothing is crossed; the landing column of R6.2 applies."""
        ch = self.chars[cid]
        if self.is_sue(cid):
            self.d["walk"] = {"char": cid, "origin": ch["at"], "path": [landing]}
        else:
            self.arrive(cid, landing)
            self.agent_lands(cid, landing, offer_bree=True)

    def summon(self, user: str, card: str) -> None:
        used = {_num(c) for c, ch in self.chars.items() if ch["kind"] == "temp" and ch["at"]}
        n = 1
        while n in used:
            n += 1
        tid = f"T{n}"
        u = self.chars[user]
        temp_card = self.content.temp_agents[card]
        self.chars[tid] = {
            "acted": False,
            "arr": 0,
            "arts": [],
            "at": "",
            "by": user,
            "canons": [],
            "card": card,
            "cd": 0,
            "fx": [],
            "hp": self.content.species[temp_card.species].health,
            "kills": 0,
            "kind": "temp",
            "mkills": 0,
            "seat": u["seat"],
            "up": [],
        }
        self.arrive(tid, u["at"])
        battle = self.d["battle"]
        if battle is not None and battle["at"] == u["at"]:
            battle["order"].append(tid)
        else:
            # R6.5: a summon is an arrival, and the landing rules apply (R6.2, "Agent / temp"):
            # beside an enemy 'Sue outside a battle there, e.g. after a stand-off, the
            # location becomes a pending battle (R9.1). No Bree offer: that follows a MOVE or
            # teleport only.
            self.agent_lands(tid, u["at"], offer_bree=False)
        self.event("summoned", u["seat"], f"{user} summoned {tid} ({temp_card.name})", u["at"])

    # ================================================================================
    # Legal decisions
    # ================================================================================

    def decisions(self) -> list[str]:
        """Every legal canonical move of the deciding seat (unsorted, no duplicates)."""
        d = self.d
        if d["part"] == "over":
            return []
        if d["part"] == "draft":
            return [f"pick {card}" for card in self.draft_choices()]
        if d["queue"]:
            return self.queue_decisions(d["queue"][0])
        if d["fight"] is not None:
            return self.thrust_decisions(d["fight"]["char"])
        if d["act"] is not None and d["act"]["stage"] == "action":
            return self.action_decisions(d["act"]["char"])
        if d["battle"] is not None and d["battle"]["cur"]:
            return self.thrust_decisions(d["battle"]["cur"])
        return self.order_decisions()

    def draft_choices(self) -> list[str]:
        picked = {ch["card"] for ch in self.chars.values()}
        pool = self.content.agents if self.draft_kind() == "agent" else self.content.sues
        return [card for card in pool if card not in picked]

    def draft_kind(self) -> str:
        preset = self.content.presets[self.d["players"]]
        picks = len(self.chars)
        return "agent" if picks < preset.agents_per_player * self.d["players"] else "sue"

    def queue_decisions(self, item: Doc) -> list[str]:
        kind = item["kind"]
        cid = item["char"]
        if kind == "upgrade":
            return [f"upgrade {s}" for s in self.upgrade_choices(cid)]
        if kind == "ensnare":
            here = self.canons_here(self.chars[cid]["at"])
            room = self.capacity_left(cid)
            out = ["decline"]
            for n in range(1, min(room, len(here)) + 1):
                for subset in combinations(here, n):
                    out.append("ensnare " + " ".join(subset))
            return out
        if kind == "crown":
            return [f"crown {s}" for s in self.crown_choices(cid)]
        if kind == "bree":
            token = self.monster_at(self.chars[cid]["at"])
            return [f"fight {token}", "decline"]
        token = item["canon"]
        return ["stay"] + [f"steer {key}" for key in self.canon_options(token)]

    def upgrade_choices(self, cid: str) -> list[str]:
        ch = self.chars[cid]
        card = self.card(cid)
        out = []
        for stat in UPGRADE_STATS:
            if stat == "special" and int(card.special) + ch["up"].count(stat) >= 5:
                continue  # D-20: Special stops at 5
            out.append(stat)
        return out

    def crown_choices(self, cid: str) -> list[str]:
        return [s for s in self.battle_sues() if self.enemies(cid, s)]

    def canons_here(self, loc: str) -> list[str]:
        found = [t for t, c in self.d["canons"].items() if c["at"] == loc]
        return sorted(found, key=_num)

    def order_decisions(self) -> list[str]:
        """Orders of the active seat in the 'Sue or Agent part (R5): REST, or ACT (an `act`
        ability, HOLD, MOVE, CHAPTER or ENGAGE); a paralysed character may only REST, since
        HOLD is an ACT too (R5.2, R13.4 `paralyse`: "cannot … ACT")."""
        d = self.d
        seat = d["seat"]
        want_sue = d["part"] == "sue"
        out = ["end"]
        if d["part"] == "agent":
            out += [f"fight {self.label(loc)}" for loc in d["pending"]]
        for cid, ch in self.living():
            if ch["seat"] != seat or ch["acted"] or self.is_sue(cid) != want_sue:
                continue
            out.append(f"rest {cid}")
            if self.paralysed(cid):
                continue
            out.append(f"hold {cid}")
            out += self.ability_moves(cid, "act", cid + " ")
            out += self.action_moves(cid)
        return out

    def action_decisions(self, cid: str) -> list[str]:
        return [f"hold {cid}", *self.action_moves(cid)]

    def action_moves(self, cid: str) -> list[str]:
        """MOVE, CHAPTER or ENGAGE of ``cid`` (R5.2 b), without HOLD."""
        if self.paralysed(cid):
            return []
        out = [f"move {cid} {key}" for key in self.move_options(cid, "move")]
        ch = self.chars[cid]
        if self.is_sue(cid):
            out += [f"chapter {cid} {t}" for t, c in self.d["canons"].items() if c["at"]]
        elif self.enemy_sues_at(ch["at"], ch["seat"]) and ch["at"] not in self.d["pending"]:
            out.append(f"engage {cid}")
        return out

    def thrust_decisions(self, cid: str) -> list[str]:
        d = self.d
        frame = d["fight"] if d["fight"] is not None else d["battle"]
        out = [f"attack {e}" for e in self.present_enemies(cid)]
        if not frame["used"]:
            out += self.ability_moves(cid, "thrust", "")
        if d["battle"] is not None and self.can_rescue(cid):
            out += [f"rescue {t}" for t in self.rescue_choices(cid)]
        if self.can_flee(cid):
            out += [f"flee {key}" for key in self.move_options(cid, "flee")]
        return out

    def can_rescue(self, cid: str) -> bool:
        battle = self.d["battle"]
        return (
            self.artefacts_on and "tiara" in self.chars[cid]["arts"] and cid not in battle["tiara"]
        )

    def rescue_choices(self, cid: str) -> list[str]:
        out: list[str] = []
        for sue in self.battle_sues():
            if self.enemies(cid, sue):
                out += self.chars[sue]["canons"]
        return sorted(out, key=_num)

    def can_flee(self, cid: str) -> bool:
        if self.paralysed(cid):
            return False
        frame = self.d["fight"] if self.d["fight"] is not None else self.d["battle"]
        if frame["free"]:
            return True
        fastest = max(
            (0 if e[0] == "M" else self.stat(e, "speed") for e in self.present_enemies(cid)),
            default=0,
        )
        return self.stat(cid, "speed") > fastest

    # ================================================================================
    # Carrying out a decision
    # ================================================================================

    def play(self, text: str) -> None:
        """Carry out the canonical legal move ``text`` of the deciding seat, then settle."""
        words = text.split()
        verb = words[0]
        d = self.d
        if d["part"] == "draft":
            self.pick(words[1])
        elif d["queue"]:
            self.answer_queue(words)
        elif d["fight"] is not None or (
            d["battle"] is not None and d["battle"]["cur"] and d["act"] is None
        ):
            self.thrust(words)
        elif d["act"] is not None:
            self.action(d["act"]["char"], words)
        elif verb == "end":
            self.end_orders()
        elif verb == "fight":
            loc = self.loc_of_label(words[1])
            # start_battle's own event says where and in what order ("battle at L7, thrusts in
            # this order: A1, S2"); this one, for the record, has no text of its own to repeat.
            self.event("fight", d["seat"], "a battle starts", loc)
            self.start_battle(loc)
        else:
            self.order(words)
        self.settle()

    # ---- the draft (3.5) ---------------------------------------------------------------

    def pick(self, card: str) -> None:
        d = self.d
        preset = self.content.presets[d["players"]]
        seat = d["seat"]
        kind = self.draft_kind()
        per = preset.agents_per_player if kind == "agent" else preset.sues_per_player
        letter = "A" if kind == "agent" else "S"
        mine = sum(1 for c, ch in self.chars.items() if c[0] == letter and ch["seat"] == seat)
        cid = f"{letter}{seat * per + mine + 1}"
        card_obj = self.content.agents[card] if kind == "agent" else self.content.sues[card]
        self.chars[cid] = new_char(
            kind, card, seat, "", self.content.species[card_obj.species].health
        )
        self.event("picked", seat, f"picked {card_obj.name} as {cid}")
        total = (preset.agents_per_player + preset.sues_per_player) * d["players"]
        picks = len(self.chars)
        if picks < total:
            d["seat"] = draft_seat(picks, d["players"])
            return
        from engines.generation_zero.position import finish_setup  # setup imports this module

        for brought_by, canons in finish_setup(self.rules, d):
            names = [self.content.canons[card].name for card in canons]
            self.private("dealt", brought_by, "you brought " + ", ".join(names))
        self._index_map()

    # ---- queue items -------------------------------------------------------------------

    def answer_queue(self, words: list[str]) -> None:
        d = self.d
        item = d["queue"][0]
        cid = item["char"]
        ch = self.chars[cid]
        kind = item["kind"]
        if kind == "upgrade":
            stat = words[1]
            ch["up"].append(stat)
            ch["up"].sort()
            if stat == "health":
                ch["hp"] += 1
            item["n"] -= 1
            if item["n"] <= 0:
                d["queue"].pop(0)
            self.event("upgraded", ch["seat"], f"{cid} upgraded {stat}")
        elif kind == "ensnare":
            d["queue"].pop(0)
            if words[0] == "ensnare":
                for token in words[1:]:
                    self.ensnare(cid, token)
            else:
                self.event("declined", ch["seat"], f"{cid} took no Canon")
        elif kind == "crown":
            d["queue"].pop(0)
            self.add_fx(words[1], "add", "attack", -1, "battle", cid)
            self.event("crowned", ch["seat"], f"{cid} crowned {words[1]}")
        elif kind == "bree":
            d["queue"].pop(0)
            if words[0] == "fight":
                self.start_fight(cid, words[1], ch["at"])
            else:
                self.event("declined", ch["seat"], f"{cid} left the Bree Monster alone")
        else:
            d["queue"].pop(0)
            token = item["canon"]
            canon = d["canons"][token]
            if words[0] == "steer":
                path = self.canon_options(token)[words[1]]
                self.path = (canon["at"], *path)
                canon["at"] = path[-1]
                self.event("steered", ch["seat"], f"{token} moved to {words[1]}", *self.path)
            else:
                self.event("stayed", ch["seat"], f"{token} stayed")

    def ensnare(self, sue: str, token: str) -> None:
        ch = self.chars[sue]
        canon = self.d["canons"][token]
        canon["at"] = ""
        if ch["seat"] not in canon["known"]:
            canon["known"].append(ch["seat"])
            canon["known"].sort()
        ch["canons"].append(token)
        self.event("ensnared", ch["seat"], f"{sue} ensnared {token}")

    def ensnare_check(self, sue: str) -> None:
        """R7.3: her seat sees the unensnared Canons here; a decision if she has room."""
        ch = self.chars[sue]
        here = self.canons_here(ch["at"])
        if not here:
            return
        seat = ch["seat"]
        for token in here:
            known = self.d["canons"][token]["known"]
            if seat not in known:
                known.append(seat)
                known.sort()
        names = ", ".join(f"{t} = {self.token_card_name(t)}" for t in here)
        self.private("canons_seen", seat, f"{sue} sees {names}")
        if self.capacity_left(sue) > 0:
            self.d["queue"].append({"canon": "", "char": sue, "kind": "ensnare", "n": 0})

    # ---- orders (R5) -------------------------------------------------------------------

    def end_orders(self) -> None:
        d = self.d
        for cid, ch in self.living():
            if ch["seat"] == d["seat"] and not ch["acted"]:
                ch["hp"] = min(self.max_hp(cid), ch["hp"] + 1)
                ch["acted"] = True
        self.event("ended_turn", d["seat"], f"Seat {d['seat'] + 1}'s other characters rest")
        d["part"] = "battles"

    def order(self, words: list[str]) -> None:
        verb, cid = words[0], words[1]
        ch = self.chars[cid]
        ch["acted"] = True
        if verb == "rest":
            ch["hp"] = min(self.max_hp(cid), ch["hp"] + 1)
            self.event("rested", ch["seat"], f"{cid} rested", ch["at"])
            return
        if verb in ("special", "dept"):
            ability = self.use_ability(cid, verb, words[2:], "act")
            stage = "busy" if ability.ends_action else "action"
            self.d["act"] = {"char": cid, "stage": stage}
            return
        self.d["act"] = {"char": cid, "stage": "busy"}
        self.action(cid, words)

    def action(self, cid: str, words: list[str]) -> None:
        """R5.2 (b): HOLD, MOVE, CHAPTER or ENGAGE of ``cid`` inside its ACT."""
        d = self.d
        d["act"] = {"char": cid, "stage": "busy"}
        ch = self.chars[cid]
        verb = words[0]
        if verb == "hold":
            self.event("held", ch["seat"], f"{cid} held", ch["at"])
        elif verb == "engage":
            self.add_pending(ch["at"])
            self.event("engaged", ch["seat"], f"{cid} engaged at {self.label(ch['at'])}", ch["at"])
        elif verb == "chapter":
            token = words[2]
            canon = d["canons"][token]
            if ch["seat"] not in canon["known"]:
                canon["known"].append(ch["seat"])
                canon["known"].sort()
            card = self.content.canons[canon["card"]]
            self.private("chapter_seen", ch["seat"], f"{token} is {card.name} (Speed {card.speed})")
            self.event("chapter", ch["seat"], f"{cid} wrote a chapter about {token}", canon["at"])
            d["queue"].append({"canon": token, "char": cid, "kind": "steer", "n": 0})
        else:  # move
            key = " ".join(words[2:])
            path = self.move_options(cid, "move")[key]
            self.path = (ch["at"], *path)
            self.event("moved", ch["seat"], f"{cid} moved to {words[-1]}", *self.path)
            if self.is_sue(cid):
                waypoints = self.sue_waypoints(path)
                d["walk"] = {"char": cid, "origin": ch["at"], "path": waypoints}
            else:
                self.arrive(cid, path[-1])
                self.agent_lands(cid, path[-1], offer_bree=True)

    # ---- fights (R8, R11.7) --------------------------------------------------------------

    def start_fight(self, cid: str, token: str, origin: str) -> None:
        monster = self.d["monsters"][token]
        monster["public"] = True
        self.log = []
        self.d["fight"] = {
            "changed": False,
            "char": cid,
            "extra": False,
            "free": False,
            "monster": token,
            "origin": origin,
            "round": 1,
            "used": False,
        }
        name = self.content.monster(monster["card"]).name
        self.event(
            "fight", self.chars[cid]["seat"], f"{cid} fights {token} ({name})", monster["at"]
        )
        self.combat(f"{cid} fights {token} ({name})")

    def end_fight(self) -> None:
        self.d["fight"] = None
        self.clear_battle_fx()

    # ---- battles (R9) ------------------------------------------------------------------

    def start_battle(self, loc: str) -> None:
        d = self.d
        if loc in d["pending"]:
            d["pending"].remove(loc)
        members = self.at(loc)
        agents = [c for c in members if self.is_agentish(c)]
        sues = [c for c in members if self.is_sue(c)]
        if not any(self.enemies(a, s) for a in agents for s in sues):
            return
        self.log = []
        self.combat(f"battle at {self.label(loc)}: {' '.join(members)}")
        for sue in sues:
            for token in self.chars[sue]["canons"]:
                d["canons"][token]["public"] = True
        order, won = thrust_order(
            [(self.chars[a]["arr"], a, self.stat(a, "stealth")) for a in agents],
            [
                (s, self.stat(s, "observe"), self.stat(s, "allure"), self.chars[s]["arr"])
                for s in sues
            ],
        )
        bow = []
        if self.weapons_on and self.terrain_on and self.terrain_at(loc).weapon == "bow":
            bow = [a for a in won if self.card(a).weapon == "bow"]  # type: ignore[union-attr]
        d["battle"] = {
            "at": loc,
            "bow": bow,
            "changed": False,
            "cur": "",
            "extra": False,
            "free": False,
            "gun": [],
            "idx": 0,
            "mace": [],
            "order": order,
            "round": 1,
            "tiara": [],
            "used": False,
            "won": won,
        }
        self.event(
            "battle",
            d["seat"],
            f"battle at {self.label(loc)}, thrusts in this order: {', '.join(order)}",
            loc,
        )
        if self.artefacts_on:
            for agent in agents:
                if "crown" in self.chars[agent]["arts"]:
                    d["queue"].append({"canon": "", "char": agent, "kind": "crown", "n": 0})

    def battle_has_enemies(self) -> bool:
        battle = self.d["battle"]
        members = self.at(battle["at"])
        agents = [c for c in members if self.is_agentish(c)]
        sues = [c for c in members if self.is_sue(c)]
        return any(self.enemies(a, s) for a in agents for s in sues)

    def end_battle(self, why: str) -> None:
        battle = self.d["battle"]
        self.combat(f"battle at {self.label(battle['at'])} ends: {why}")
        self.event("battle_over", None, f"the battle at {self.label(battle['at'])} ended: {why}")
        self.d["battle"] = None
        self.clear_battle_fx()

    def can_thrust(self, cid: str, loc: str) -> bool:
        """Whether battle participant ``cid`` thrusts when its turn in the order comes (R9.4:
        not dead, still at ``loc``, not paralysed). One with no enemy present is skipped too:
        R9.5 has nothing for it to do (an attack needs an enemy present, and a thrust ends
        once none is). Play cannot make one (no character lands beside a 'Sue or Agent of
        its own seat, R6.2), but a hand-made position can, and without this the battle
        would wait for a decision that has no legal move."""
        return (
            self.alive(cid)
            and self.chars[cid]["at"] == loc
            and not self.paralysed(cid)
            and any(
                other != cid and ch["at"] == loc and self.enemies(cid, other)
                for other, ch in self.chars.items()
            )
        )

    def advance_battle(self) -> None:
        """Pick the next actor of the battle, ending rounds and the battle (R9.4)."""
        d = self.d
        battle = d["battle"]
        loc = battle["at"]
        while True:
            if not self.battle_has_enemies():
                self.end_battle("one side is gone")
                return
            while battle["bow"]:
                actor = battle["bow"].pop(0)
                if self.can_thrust(actor, loc):
                    self.begin_thrust(actor)
                    return
            order = battle["order"]
            while battle["idx"] < len(order):
                actor = order[battle["idx"]]
                battle["idx"] += 1
                if self.can_thrust(actor, loc):
                    self.begin_thrust(actor)
                    return
            if not battle["changed"] or battle["round"] >= self.max_battle_rounds:
                self.end_battle("stand-off")
                return
            battle["round"] += 1
            battle["idx"] = 0
            battle["changed"] = False

    def begin_thrust(self, actor: str) -> None:
        battle = self.d["battle"]
        battle["cur"] = actor
        battle["used"] = False
        battle["free"] = False
        battle["extra"] = False

    def thrust(self, words: list[str]) -> None:
        """R9.5 / R8.2: one decision of the actor: ability, rescue, attack or flee."""
        d = self.d
        in_fight = d["fight"] is not None
        frame = d["fight"] if in_fight else d["battle"]
        actor = frame["char"] if in_fight else frame["cur"]
        verb = words[0]
        if verb in ("special", "dept"):
            self.use_ability(actor, verb, words[1:], "thrust")
            if not self.alive(actor) or not self.present_enemies(actor):
                self.after_thrust(actor, ended=True)
            return
        if verb == "rescue":
            token = words[1]
            holder = next(s for s in self.battle_sues() if token in self.chars[s]["canons"])
            frame["tiara"].append(actor)
            frame["tiara"].sort()
            frame["changed"] = True
            self.combat(f"{actor} rescues {token} from {holder}")
            self.release(holder, token, actor, steer=True)
            return
        if verb == "attack":
            self.attack(actor, words[1])
        else:
            self.flee(actor, self.loc_of_label(words[1]), words[1])
        self.after_thrust(actor, ended=False)

    def attack(self, actor: str, target: str) -> None:
        d = self.d
        battle = d["battle"]
        bonus = 0
        if battle is not None and self.is_agentish(actor):
            card = self.card(actor)
            if self.weapons_on and isinstance(card, AgentCard):
                if card.weapon == "gun" and [actor, target] not in battle["gun"]:
                    battle["gun"].append([actor, target])
                    battle["gun"].sort()
                if card.weapon == "mace":
                    entry = next((m for m in battle["mace"] if m[0] == actor), None)
                    if entry is None:
                        entry = [actor, target, 0]
                        battle["mace"].append(entry)
                    entry[2] = entry[2] + 1 if entry[1] == target else 1
                    entry[1] = target
                    if entry[2] >= 3:
                        bonus = 2
                        entry[2] = 0
                    battle["mace"].sort()
        attack, defence, dmg = self.damage(actor, target, bonus)
        before = self.any_hp(target)
        self.combat(
            f"{actor} attacks {target}: {attack} vs {defence}, {dmg} damage"
            + (f" ({target} {before} → {max(0, before - dmg)})" if dmg else "")
        )
        self.event("attacked", self._seat_of(actor), f"{actor} attacked {target}: {dmg} damage")
        if dmg:
            frame = d["fight"] if d["fight"] is not None else d["battle"]
            frame["changed"] = True
        self.hurt(target, dmg, actor)

    def any_hp(self, ident: str) -> int:
        if ident[0] == "M":
            return int(self.d["monsters"][ident]["hp"])
        return int(self.chars[ident]["hp"])

    def _seat_of(self, ident: str) -> int | None:
        return None if ident[0] == "M" else int(self.chars[ident]["seat"])

    def clear_mace(self, actor: str) -> None:
        battle = self.d["battle"]
        if battle is not None:
            battle["mace"] = [m for m in battle["mace"] if m[0] != actor]

    def flee(self, actor: str, landing: str, label: str) -> None:
        """R9.6: Gun shots, then the landing; a 'Sue's ENSNARE CHECK after a battle flee."""
        d = self.d
        in_fight = d["fight"] is not None
        frame = d["fight"] if in_fight else d["battle"]
        origin = self.chars[actor]["at"]
        path = self.move_options(actor, "flee")[label]
        self.path = (origin, *path)
        frame["changed"] = True
        self.combat(f"{actor} flees to {label}")
        self.event("fled", self.chars[actor]["seat"], f"{actor} fled to {label}", *self.path)
        if not in_fight:
            self.clear_mace(actor)
            shooters = [a for a in self.at(origin) if [a, actor] in frame["gun"] and self.alive(a)]
            for shooter in shooters:
                self.combat(f"{shooter} shoots {actor}: 1 damage")
                self.hurt(actor, 1, shooter)
                if not self.alive(actor):
                    return
        self.arrive(actor, landing)
        if in_fight:
            self.d["walk"] = None
            if self.is_sue(actor):
                self.sue_lands(actor, landing)
            else:
                self.agent_lands(actor, landing, offer_bree=False)
            return
        if self.is_sue(actor):
            self.sue_lands(actor, landing)
            if self.alive(actor) and not self.over:
                self.ensnare_check(actor)
        else:
            self.agent_lands(actor, landing, offer_bree=False)

    def after_thrust(self, actor: str, *, ended: bool) -> None:
        """After the main choice: an owed extra thrust, the Monster's attack, round ends."""
        d = self.d
        if self.over:
            return
        if d["fight"] is not None:
            fight = d["fight"]
            if not ended and fight["extra"] and self.fight_goes_on() and not self.paralysed(actor):
                fight["extra"] = False
                fight["free"] = False
                return
            self.monster_turn()
            return
        battle = d["battle"]
        if battle is None:
            return
        owed = not ended and battle["extra"] and self.can_thrust(actor, battle["at"])
        if owed and self.battle_has_enemies():
            battle["extra"] = False
            battle["free"] = False
            return
        battle["cur"] = ""
        if not self.battle_has_enemies():
            self.end_battle("one side is gone")

    def fight_goes_on(self) -> bool:
        fight = self.d["fight"]
        monster = self.d["monsters"][fight["monster"]]
        ch = self.chars[fight["char"]]
        return bool(monster["at"]) and ch["at"] == monster["at"]

    def monster_turn(self) -> None:
        """R8.2: the Monster attacks, then the round ends (stand-off, or the next round)."""
        d = self.d
        fight = d["fight"]
        cid = fight["char"]
        token = fight["monster"]
        if not self.fight_goes_on():
            self.finish_fight()
            return
        if not self.paralysed(token):
            attack, defence, dmg = self.damage(token, cid)
            before = self.chars[cid]["hp"]
            self.combat(
                f"{token} attacks {cid}: {attack} vs {defence}, {dmg} damage"
                + (f" ({cid} {before} → {max(0, before - dmg)})" if dmg else "")
            )
            if dmg:
                fight["changed"] = True
            self.hurt(cid, dmg, token)
            if self.over:
                return
            if not self.alive(cid):
                self.finish_fight()
                return
        if not fight["changed"] or fight["round"] >= self.max_battle_rounds:
            self.combat("stand-off")
            if self.is_sue(cid):
                origin = fight["origin"]
                self.arrive(cid, origin)
                d["walk"] = None
                self.event("pushed_back", self.chars[cid]["seat"], f"{cid} was pushed back", origin)
            self.end_fight()
            return
        fight["round"] += 1
        fight["changed"] = False
        fight["used"] = False
        fight["free"] = False
        fight["extra"] = False

    def finish_fight(self) -> None:
        """The fight is over without a stand-off: the Monster died or the character is gone."""
        fight = self.d["fight"]
        cid = fight["char"]
        if not self.alive(cid):
            self.d["walk"] = None
        self.end_fight()

    # ---- resignation (R12.4) -------------------------------------------------------------

    def resign(self, seat: int) -> None:
        d = self.d
        out = 1 + sum(1 for s in d["seats"] if s["out"])
        d["seats"][seat]["out"] = out
        self.event("resigned", seat, f"Seat {seat + 1} resigned")
        for _cid, ch in list(self.living()):
            if ch["seat"] != seat:
                continue
            for token in ch["canons"]:
                d["canons"][token]["at"] = ch["at"]
            ch.update(at="", hp=0, canons=[], fx=[], arts=[])
        d["queue"] = [q for q in d["queue"] if self.chars[q["char"]]["seat"] != seat]
        if d["fight"] is not None and self.chars[d["fight"]["char"]]["seat"] == seat:
            d["fight"] = None
            self.clear_battle_fx()
        if d["act"] is not None and self.chars[d["act"]["char"]]["seat"] == seat:
            d["act"] = None
            d["walk"] = None
        if d["battle"] is not None and d["battle"]["cur"] and not self.alive(d["battle"]["cur"]):
            d["battle"]["cur"] = ""
        if d["seat"] == seat:
            # R12.4: the turn ends at once. Its battles are dropped, but other seats' pending
            # decisions stay (a 'Sue's upgrade points for a kill in this turn, R10.3), and
            # R5.4 runs: its steps 1-3 first, then E3 before step 4's E1 (spec scenario
            # GZ-P100: a two-player resignation ends by `resignation`).
            d["pending"] = []
            if d["battle"] is not None:
                d["battle"] = None
                self.clear_battle_fx()
            d["act"] = d["walk"] = d["fight"] = None
            self.clear_turn()
            if len(self.active_seats()) <= 1:
                self.finish("resignation")
                return
            self.next_turn()
        if len(self.active_seats()) <= 1 and not self.over:
            self.finish("resignation")
            return
        self.check_e1()
        self.settle()

    # ================================================================================
    # Automatic steps (8.1)
    # ================================================================================

    def settle(self) -> None:
        """Run automatic steps until a decision is due or the game is over."""
        d = self.d
        for _ in range(10_000):
            if d["part"] in ("over", "draft"):
                return
            if d["queue"]:
                if self.settle_queue():
                    return
                continue
            if d["fight"] is not None:
                fight = d["fight"]
                if not self.fight_goes_on():
                    self.finish_fight()
                    continue
                if self.paralysed(fight["char"]):
                    self.combat(f"{fight['char']} is paralysed")
                    self.monster_turn()
                    continue
                return
            if d["walk"] is not None:
                self.step_walk()
                continue
            if d["act"] is not None:
                if d["act"]["stage"] == "action":
                    if self.alive(d["act"]["char"]):
                        return
                    d["act"] = None
                    continue
                cid = d["act"]["char"]
                d["act"] = None
                if self.alive(cid) and self.is_sue(cid):
                    self.ensnare_check(cid)
                continue
            if d["battle"] is not None:
                battle = d["battle"]
                if battle["cur"]:
                    if self.can_thrust(battle["cur"], battle["at"]) and self.battle_has_enemies():
                        return
                    battle["cur"] = ""
                self.advance_battle()
                continue
            if self.settle_parts():
                return
        raise RuntimeError("settle did not reach a decision")

    def settle_queue(self) -> bool:
        """Drop stale queue items and decide trivial ones; ``True`` if a decision is due."""
        d = self.d
        item = d["queue"][0]
        cid = item["char"]
        kind = item["kind"]
        if not self.alive(cid):
            d["queue"].pop(0)
            return False
        if kind == "ensnare":
            if not self.canons_here(self.chars[cid]["at"]) or self.capacity_left(cid) <= 0:
                d["queue"].pop(0)
                return False
        elif kind == "bree":
            token = self.monster_at(self.chars[cid]["at"])
            if not token or not self.content.monster(d["monsters"][token]["card"]).bree:
                d["queue"].pop(0)
                return False
        elif kind == "crown":
            if d["battle"] is None:
                d["queue"].pop(0)
                return False
            choices = self.crown_choices(cid)
            if len(choices) <= 1:
                d["queue"].pop(0)
                if choices:
                    self.add_fx(choices[0], "add", "attack", -1, "battle", cid)
                    self.event("crowned", self.chars[cid]["seat"], f"{cid} crowned {choices[0]}")
                return False
        elif kind == "upgrade" and not self.upgrade_choices(cid):
            d["queue"].pop(0)
            return False
        return True

    def step_walk(self) -> None:
        """The next waypoint of a 'Sue's MOVE or teleport (R6.5, R8.1)."""
        d = self.d
        walk = d["walk"]
        cid = walk["char"]
        if not self.alive(cid):
            d["walk"] = None
            return
        if not walk["path"]:
            d["walk"] = None
            self.sue_lands(cid, self.chars[cid]["at"])
            return
        loc = walk["path"].pop(0)
        self.arrive(cid, loc)
        token = self.monster_at(loc)
        if token:
            self.start_fight(cid, token, walk["origin"])

    def settle_parts(self) -> bool:
        """Parts and turns (R5): ``True`` when the active seat has an order to give."""
        d = self.d
        seat = d["seat"]
        part = d["part"]
        if part in ("sue", "agent"):
            want_sue = part == "sue"
            waiting = any(
                ch["seat"] == seat and not ch["acted"] and self.is_sue(cid) == want_sue
                for cid, ch in self.living()
            )
            if waiting:
                return True
            d["part"] = "agent" if part == "sue" else "battles"
            return False
        if d["pending"]:
            self.start_battle(d["pending"][0])
            return False
        self.end_turn()
        return False

    def end_turn(self) -> None:
        """R5.4 and the start of the next turn (R5 step 1)."""
        self.clear_turn()
        self.next_turn()

    def clear_turn(self) -> None:
        """R5.4 steps 1-3: temp Agents leave the board, the active seat's timed effects tick
        (R13.3), and every ``acted`` flag is cleared."""
        seat = self.d["seat"]
        for cid in [c for c, ch in self.chars.items() if ch["kind"] == "temp"]:
            del self.chars[cid]
        self.tick_fx(seat)
        for ch in self.chars.values():
            ch["acted"] = False

    def next_turn(self) -> None:
        """R5.4 steps 4-6 after :meth:`clear_turn`: the end checks E1 and E2, else the next
        seat still playing starts its turn (R5 step 1: its cooldowns tick)."""
        d = self.d
        seat = d["seat"]
        if self.check_e1():
            return
        playing = self.active_seats()
        if not playing:
            self.finish("resignation")
            return
        if d["round"] >= self.max_rounds and seat >= max(playing):
            self.finish("round_limit")
            return
        later = [s for s in playing if s > seat]
        if later:
            d["seat"] = later[0]
        else:
            d["seat"] = playing[0]
            d["round"] += 1
        d["part"] = "sue"
        # Seats are named from 1 in text, as in the prompts ("Seat 1 orders its 'Sues").
        self.event(TURN_EVENT, d["seat"], f"round {d['round']}: Seat {d['seat'] + 1} to play")
        for cid, ch in self.living():
            if ch["seat"] == d["seat"] and self.base_special(cid) >= 1:
                ch["cd"] = max(0, ch["cd"] - 1)


def draft_seat(picks: int, players: int) -> int:
    """The seat of the ``picks``-th pick (0-based) in the snake order of 3.5."""
    rnd, i = divmod(picks, players)
    return i if rnd % 2 == 0 else players - 1 - i


def new_char(kind: str, card: str, seat: int, at: str, hp: int) -> Doc:
    """A character object of 7.2 with every default."""
    return {
        "acted": False,
        "arr": 0,
        "arts": [],
        "at": at,
        "by": "",
        "canons": [],
        "card": card,
        "cd": 0,
        "fx": [],
        "hp": hp,
        "kills": 0,
        "kind": kind,
        "mkills": 0,
        "seat": seat,
        "up": [],
    }
