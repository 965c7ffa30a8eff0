"""Position notation (spec section 7): canonical printing, reading with defaults, validation,
and the seeded setup of a new game (3.4, 3.5).

The position object is a JSON-shaped ``dict``; :func:`print_position` writes the one canonical
string. :func:`read_position` fills the defaults of 7.4 and raises
:class:`~engines.base.UsageError` for every malformed case listed there.
"""

from __future__ import annotations

import json
import re
from typing import Any

from engines.base import UsageError, ascii_digits
from engines.generation_zero.content import STATS, Content
from engines.generation_zero.rules import Doc, Rules, draft_seat, maximum_health, new_char
from engines.rng import Rng

__all__ = ["new_position", "print_position", "read_position"]

PARTS = ("draft", "sue", "agent", "battles", "over")
ENDS = ("", "no_fights_left", "round_limit", "resignation")
QUEUE_KINDS = ("upgrade", "ensnare", "crown", "bree", "steer")
CHAR_ID = re.compile(r"^([AST])([1-9][0-9]*)$")
CANON_ID = re.compile(r"^C[1-9][0-9]*$")
MONSTER_ID = re.compile(r"^M[1-9][0-9]*$")
KIND_OF_LETTER = {"A": "agent", "S": "sue", "T": "temp"}
FX_KINDS = ("add", "mul", "set", "paralyse")


def print_position(doc: Doc) -> str:
    """The canonical position string (7: sorted keys, no spaces, ASCII)."""
    return json.dumps(doc, sort_keys=True, separators=(",", ":"))


def _bad(message: str) -> UsageError:
    return UsageError(f"position: {message}")


def _check_type(value: Any, kind: type, where: str) -> Any:
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise _bad(f"{where} has the wrong type")
    return value


def _keys(
    obj: Any, where: str, allowed: tuple[str, ...], required: tuple[str, ...]
) -> dict[str, Any]:
    _check_type(obj, dict, where)
    for key in obj:
        if key not in allowed:
            raise _bad(f"unknown key {where}.{key}")
    for key in required:
        if key not in obj:
            raise _bad(f"{where}.{key} is missing")
    return dict(obj)


TOP_KEYS = [
    "version",
    "set",
    "players",
    "layout",
    "map",
    "seed",
    "round",
    "seat",
    "part",
    "end",
    "grey",
    "seq",
    "seats",
    "chars",
    "canons",
    "monsters",
    "pending",
    "act",
    "walk",
    "fight",
    "battle",
    "queue",
]
CHAR_KEYS = [
    "acted",
    "arr",
    "arts",
    "at",
    "by",
    "canons",
    "card",
    "cd",
    "fx",
    "hp",
    "kills",
    "kind",
    "mkills",
    "seat",
    "up",
]
FIGHT_KEYS = ("changed", "char", "extra", "free", "monster", "origin", "round", "used")
BATTLE_KEYS = [
    "at",
    "bow",
    "changed",
    "cur",
    "extra",
    "free",
    "gun",
    "idx",
    "mace",
    "order",
    "round",
    "tiara",
    "used",
    "won",
]


def read_position(text: str, rules: Rules, players_hint: int | None = None) -> Doc:
    """The complete position object of ``text`` (7.4 defaults), validated against ``rules``.

    Raises :class:`UsageError` for anything malformed (7.4 "Malformed").
    """
    content = rules.content
    try:
        raw = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        raise _bad("not JSON") from None
    obj = _keys(raw, "position", tuple(TOP_KEYS), ("version", "set", "players", "chars"))
    if _check_type(obj["version"], int, "version") != 1:
        raise _bad("version must be 1")
    if _check_type(obj["set"], str, "set") != content.set_id:
        raise _bad(f"set {obj['set']!r} is not the loaded set {content.set_id!r}")
    players = _check_type(obj["players"], int, "players")
    if players not in content.presets:
        raise _bad(f"no preset for {players} players")
    if players_hint is not None and players_hint != players:
        raise _bad(f"players is {players}, not {players_hint}")
    preset = content.presets[players]
    d: Doc = {}
    d["version"] = 1
    d["set"] = content.set_id
    d["players"] = players
    d["layout"] = _check_type(obj.get("layout", preset.layout), str, "layout")
    if d["layout"] not in content.layouts:
        raise _bad(f"unknown layout {d['layout']!r}")
    layout = content.layouts[d["layout"]]
    d["map"] = _check_type(obj.get("map", list(layout.atlas)), list, "map")
    if (
        len(d["map"]) != len(layout.slots)
        or not all(isinstance(x, str) and x in content.locations for x in d["map"])
        or len(set(d["map"])) != len(d["map"])
    ):
        raise _bad("map must list distinct location ids, one per slot of the layout")
    on_map = set(d["map"])
    for key, default in (("seed", 0), ("round", 1), ("seat", 0), ("seq", None)):
        if key in obj:
            d[key] = _check_type(obj[key], int, key)
        else:
            d[key] = default
    d["part"] = _check_type(obj.get("part", "sue"), str, "part")
    if d["part"] not in PARTS:
        raise _bad(f"unknown part {d['part']!r}")
    d["end"] = _check_type(obj.get("end", ""), str, "end")
    if d["end"] not in ENDS or (d["end"] == "") != (d["part"] != "over"):
        raise _bad(f"end {d['end']!r} does not fit part {d['part']!r}")
    d["grey"] = _check_type(obj.get("grey", False), bool, "grey")
    if d["round"] < 1:
        raise _bad("round must be at least 1")
    if not 0 <= d["seat"] < players:
        raise _bad("seat out of range")

    seats = _check_type(obj.get("seats", [{} for _ in range(players)]), list, "seats")
    if len(seats) != players:
        raise _bad("seats must have one entry per player")
    d["seats"] = []
    for i, seat in enumerate(seats):
        s = _keys(seat, f"seats[{i}]", ("brought", "kills", "out"), ())
        brought = _check_type(s.get("brought", []), list, f"seats[{i}].brought")
        if not all(isinstance(c, str) and c in content.canons for c in brought):
            raise _bad(f"seats[{i}].brought names an unknown Canon")
        kills = _check_type(s.get("kills", 0), int, f"seats[{i}].kills")
        out = _check_type(s.get("out", 0), int, f"seats[{i}].out")
        if kills < 0 or out < 0:
            raise _bad(f"seats[{i}] has a negative count")
        d["seats"].append({"brought": sorted(brought), "kills": kills, "out": out})
    if d["part"] != "over" and d["seats"][d["seat"]]["out"]:
        raise _bad("the active seat has resigned")

    drafting = d["part"] == "draft"
    # R10.2: a Pendant adds to the maximum Health only with the artefacts appendix, as in play.
    artefacts_on = bool(rules.option("appendix_artefacts"))
    d["chars"] = {}
    chars = _check_type(obj["chars"], dict, "chars")
    used_cards: dict[str, str] = {}
    for cid in sorted(
        chars, key=lambda c: (c[:1], int(c[1:]) if ascii_digits(c[1:], most=4) else 0)
    ):
        d["chars"][cid] = _read_char(
            cid, chars[cid], content, d, on_map, drafting, used_cards, artefacts_on
        )
    d["canons"] = {}
    for token, raw_canon in _check_type(obj.get("canons", {}), dict, "canons").items():
        if not CANON_ID.match(token):
            raise _bad(f"bad Canon token {token!r}")
        c = _keys(raw_canon, f"canons.{token}", ("at", "card", "known", "public"), ("at", "card"))
        card = _check_type(c["card"], str, f"canons.{token}.card")
        if card not in content.canons or card in used_cards:
            raise _bad(f"canons.{token}.card {card!r} is unknown or used twice")
        used_cards[card] = token
        at = _check_type(c["at"], str, f"canons.{token}.at")
        if at and at not in on_map:
            raise _bad(f"canons.{token}.at {at!r} is not on the map")
        d["canons"][token] = {
            "at": at,
            "card": card,
            "known": _seat_list(c.get("known", []), players, f"canons.{token}.known"),
            "public": _check_type(c.get("public", False), bool, f"canons.{token}.public"),
        }
    holders: dict[str, str] = {}
    for cid, ch in d["chars"].items():
        for token in ch["canons"]:
            if token not in d["canons"] or token in holders:
                raise _bad(f"{cid} holds {token}, which is unknown or held twice")
            if not ch["at"]:
                raise _bad(f"dead {cid} holds {token}")
            if ch["kind"] != "sue":
                raise _bad(f"{cid} is not a 'Sue but holds {token}")
            holders[token] = cid
    for token, canon in d["canons"].items():
        if (canon["at"] == "") != (token in holders):
            raise _bad(f"Canon {token} must lie on the map or in exactly one living 'Sue's stack")
    d["monsters"] = {}
    for token, raw_monster in _check_type(obj.get("monsters", {}), dict, "monsters").items():
        if not MONSTER_ID.match(token):
            raise _bad(f"bad Monster token {token!r}")
        m = _keys(
            raw_monster,
            f"monsters.{token}",
            ("at", "card", "fx", "hp", "known", "public"),
            ("at", "card"),
        )
        card = _check_type(m["card"], str, f"monsters.{token}.card")
        if card not in content.all_monsters or card in used_cards:
            raise _bad(f"monsters.{token}.card {card!r} is unknown or used twice")
        used_cards[card] = token
        at = _check_type(m["at"], str, f"monsters.{token}.at")
        if at and at not in on_map:
            raise _bad(f"monsters.{token}.at {at!r} is not on the map")
        if at and any(o["at"] == at for o in d["monsters"].values()):
            raise _bad(f"two Monsters on {at}")
        health = content.all_monsters[card].health
        hp = _check_type(m.get("hp", health if at else 0), int, f"monsters.{token}.hp")
        if (hp <= 0) != (at == "") or hp > health:
            raise _bad(f"monsters.{token}.hp {hp} does not fit")
        d["monsters"][token] = {
            "at": at,
            "card": card,
            "fx": _read_fx(m.get("fx", []), players, f"monsters.{token}.fx"),
            "hp": hp,
            "known": _seat_list(m.get("known", []), players, f"monsters.{token}.known"),
            "public": _check_type(m.get("public", False), bool, f"monsters.{token}.public"),
        }
    d["pending"] = _check_type(obj.get("pending", []), list, "pending")
    if not all(isinstance(p, str) and p in on_map for p in d["pending"]):
        raise _bad("pending must list locations on the map")
    if len(set(d["pending"])) != len(d["pending"]):
        raise _bad("pending lists a location twice")
    d["pending"] = list(d["pending"])
    d["act"] = _read_act(obj.get("act"), d)
    d["walk"] = _read_walk(obj.get("walk"), d, on_map)
    d["fight"] = _read_fight(obj.get("fight"), d, on_map)
    d["battle"] = _read_battle(obj.get("battle"), d, on_map)
    d["queue"] = _read_queue(obj.get("queue", []), d)
    if d["seq"] is None:
        d["seq"] = max((ch["arr"] for ch in d["chars"].values()), default=0)
    if d["seq"] < 0:
        raise _bad("seq must not be negative")
    return d


def _seat_list(value: Any, players: int, where: str) -> list[int]:
    _check_type(value, list, where)
    for s in value:
        _check_type(s, int, where)
        if not 0 <= s < players:
            raise _bad(f"{where} names seat {s}")
    if len(set(value)) != len(value):
        raise _bad(f"{where} lists a seat twice")
    return sorted(value)


def _read_fx(value: Any, players: int, where: str) -> list[dict[str, Any]]:
    _check_type(value, list, where)
    out = []
    for i, raw in enumerate(value):
        here = f"{where}[{i}]"
        e = _keys(
            raw,
            here,
            ("kind", "seat", "stat", "turns", "value"),
            ("kind", "seat", "stat", "turns", "value"),
        )
        if e["kind"] not in FX_KINDS:
            raise _bad(f"{here}.kind is unknown")
        _check_type(e["stat"], str, f"{here}.stat")
        if (e["kind"] == "paralyse") != (e["stat"] == ""):
            raise _bad(f"{here}.stat does not fit its kind")
        if e["stat"] and e["stat"] not in STATS:
            raise _bad(f"{here}.stat is unknown")
        for key in ("seat", "turns", "value"):
            _check_type(e[key], int, f"{here}.{key}")
        if not 0 <= e["seat"] < players or not 0 <= e["turns"] <= 2:
            raise _bad(f"{here} is out of range")
        out.append(e)
    out.sort(key=lambda e: (e["kind"], e["stat"], e["value"], e["seat"], e["turns"]))
    return out


def _read_char(
    cid: str,
    raw: Any,
    content: Content,
    d: Doc,
    on_map: set[str],
    drafting: bool,
    used_cards: dict[str, str],
    artefacts_on: bool,
) -> Doc:
    m = CHAR_ID.match(cid)
    if not m:
        raise _bad(f"bad character id {cid!r}")
    c = _keys(raw, f"chars.{cid}", tuple(CHAR_KEYS), ("card", "seat", "at"))
    kind = _check_type(c.get("kind", KIND_OF_LETTER[m.group(1)]), str, f"chars.{cid}.kind")
    if kind != KIND_OF_LETTER[m.group(1)]:
        raise _bad(f"chars.{cid}.kind does not match its letter")
    card = _check_type(c["card"], str, f"chars.{cid}.card")
    pool: Any = {"agent": content.agents, "sue": content.sues, "temp": content.temp_agents}[kind]
    if card not in pool:
        raise _bad(f"chars.{cid}.card {card!r} is unknown")
    seat = _check_type(c["seat"], int, f"chars.{cid}.seat")
    if not 0 <= seat < d["players"]:
        raise _bad(f"chars.{cid}.seat out of range")
    at = _check_type(c["at"], str, f"chars.{cid}.at")
    if at and at not in on_map:
        raise _bad(f"chars.{cid}.at {at!r} is not on the map")
    if card in used_cards and not (kind == "temp" and not at):
        previous = used_cards[card]
        if not (kind == "temp" and not d["chars"].get(previous, {"at": "x"})["at"]):
            raise _bad(f"card {card!r} is used twice")
    if at or kind != "temp":
        used_cards[card] = cid
    ch = new_char(kind, card, seat, at, 0)
    for key in ("acted",):
        ch[key] = _check_type(c.get(key, False), bool, f"chars.{cid}.{key}")
    for key in ("arr", "cd", "kills", "mkills"):
        ch[key] = _check_type(c.get(key, 0), int, f"chars.{cid}.{key}")
        if ch[key] < 0:
            raise _bad(f"chars.{cid}.{key} is negative")
    if ch["cd"] > 7:
        raise _bad(f"chars.{cid}.cd must be 0–7")
    ch["by"] = _check_type(c.get("by", ""), str, f"chars.{cid}.by")
    arts = _check_type(c.get("arts", []), list, f"chars.{cid}.arts")
    from engines.generation_zero.content import ARTEFACTS, COMBAT_STATS

    if not all(isinstance(a, str) and a in ARTEFACTS for a in arts):
        raise _bad(f"chars.{cid}.arts names an unknown artefact")
    ch["arts"] = sorted(arts)
    canons = _check_type(c.get("canons", []), list, f"chars.{cid}.canons")
    if not all(isinstance(t, str) and CANON_ID.match(t) for t in canons):
        raise _bad(f"chars.{cid}.canons holds a bad token")
    ch["canons"] = list(canons)
    up = _check_type(c.get("up", []), list, f"chars.{cid}.up")
    upgradable = (*COMBAT_STATS["sue"], "special", "health")
    if not all(isinstance(s, str) and s in upgradable for s in up) or (up and kind != "sue"):
        raise _bad(f"chars.{cid}.up names a stat that cannot be upgraded")
    ch["up"] = sorted(up)
    ch["fx"] = _read_fx(c.get("fx", []), d["players"], f"chars.{cid}.fx")
    species = content.species[pool[card].species].health
    maximum = maximum_health(species, ch["up"], ch["arts"], artefacts_on=artefacts_on)
    hp = _check_type(c.get("hp", maximum if (at or drafting) else 0), int, f"chars.{cid}.hp")
    if hp > maximum:
        raise _bad(f"chars.{cid}.hp {hp} is above its maximum {maximum}")
    alive_ok = (hp > 0) == bool(at)
    if not alive_ok and not (drafting and not at and hp == maximum):
        raise _bad(f'chars.{cid}: hp and at do not fit (dead characters have at "" and hp 0)')
    if not at and not drafting and (ch["canons"] or ch["fx"] or ch["arts"]):
        raise _bad(f"chars.{cid} is dead but holds canons, effects or artefacts")
    ch["hp"] = hp
    return ch


def _char_ref(d: Doc, cid: Any, where: str, blank: bool = False) -> str:
    _check_type(cid, str, where)
    if blank and cid == "":
        return str(cid)
    if cid not in d["chars"]:
        raise _bad(f"{where} names unknown character {cid!r}")
    return str(cid)


def _read_act(value: Any, d: Doc) -> Doc | None:
    if value is None:
        return None
    a = _keys(value, "act", ("char", "stage"), ("char", "stage"))
    _char_ref(d, a["char"], "act.char")
    if a["stage"] not in ("action", "busy"):
        raise _bad("act.stage must be action or busy")
    return a


def _read_walk(value: Any, d: Doc, on_map: set[str]) -> Doc | None:
    if value is None:
        return None
    w = _keys(value, "walk", ("char", "origin", "path"), ("char", "origin", "path"))
    _char_ref(d, w["char"], "walk.char")
    if w["origin"] not in on_map:
        raise _bad("walk.origin is not on the map")
    _check_type(w["path"], list, "walk.path")
    if not all(p in on_map for p in w["path"]):
        raise _bad("walk.path leaves the map")
    return {"char": w["char"], "origin": w["origin"], "path": list(w["path"])}


def _read_fight(value: Any, d: Doc, on_map: set[str]) -> Doc | None:
    if value is None:
        return None
    f = _keys(value, "fight", FIGHT_KEYS, FIGHT_KEYS)
    _char_ref(d, f["char"], "fight.char")
    if f["monster"] not in d["monsters"]:
        raise _bad("fight.monster is unknown")
    if f["origin"] not in on_map:
        raise _bad("fight.origin is not on the map")
    for key in ("changed", "extra", "free", "used"):
        _check_type(f[key], bool, f"fight.{key}")
    _check_type(f["round"], int, "fight.round")
    return f


def _read_battle(value: Any, d: Doc, on_map: set[str]) -> Doc | None:
    if value is None:
        return None
    b = _keys(value, "battle", tuple(BATTLE_KEYS), tuple(BATTLE_KEYS))
    if b["at"] not in on_map:
        raise _bad("battle.at is not on the map")
    for key in ("changed", "extra", "free", "used"):
        _check_type(b[key], bool, f"battle.{key}")
    for key in ("idx", "round"):
        _check_type(b[key], int, f"battle.{key}")
    _char_ref(d, b["cur"], "battle.cur", blank=True)
    for key in ("bow", "order", "tiara", "won"):
        for cid in _check_type(b[key], list, f"battle.{key}"):
            _char_ref(d, cid, f"battle.{key}")
    for pair in _check_type(b["gun"], list, "battle.gun"):
        _check_type(pair, list, "battle.gun")
        if len(pair) != 2:
            raise _bad("battle.gun entries are [agent, target]")
        _char_ref(d, pair[0], "battle.gun")
        _char_ref(d, pair[1], "battle.gun")
    for entry in _check_type(b["mace"], list, "battle.mace"):
        _check_type(entry, list, "battle.mace")
        if len(entry) != 3:
            raise _bad("battle.mace entries are [agent, target, count]")
        _char_ref(d, entry[0], "battle.mace")
        _char_ref(d, entry[1], "battle.mace")
        _check_type(entry[2], int, "battle.mace")
    return b


def _read_queue(value: Any, d: Doc) -> list[Doc]:
    out = []
    for i, raw in enumerate(_check_type(value, list, "queue")):
        keys = ("canon", "char", "kind", "n")
        q = _keys(raw, f"queue[{i}]", keys, keys)
        _char_ref(d, q["char"], f"queue[{i}].char")
        if q["kind"] not in QUEUE_KINDS:
            raise _bad(f"queue[{i}].kind is unknown")
        _check_type(q["n"], int, f"queue[{i}].n")
        _check_type(q["canon"], str, f"queue[{i}].canon")
        if q["canon"] and q["canon"] not in d["canons"]:
            raise _bad(f"queue[{i}].canon is unknown")
        out.append(q)
    return out


# --------------------------------------------------------------------------------------------
# New games (3.4, 3.5)
# --------------------------------------------------------------------------------------------


def empty_position(rules: Rules, players: int, seed: int) -> Doc:
    """A position before characters are dealt: the preset's layout and atlas map."""
    content = rules.content
    preset = content.presets[players]
    layout = content.layouts[preset.layout]
    return {
        "act": None,
        "battle": None,
        "canons": {},
        "chars": {},
        "end": "",
        "fight": None,
        "grey": False,
        "layout": preset.layout,
        "map": list(layout.atlas),
        "monsters": {},
        "part": "sue",
        "pending": [],
        "players": players,
        "queue": [],
        "round": 1,
        "seat": 0,
        "seats": [{"brought": [], "kills": 0, "out": 0} for _ in range(players)],
        "seed": seed,
        "seq": 0,
        "set": content.set_id,
        "version": 1,
        "walk": None,
    }


def new_position(rules: Rules, players: int, seed: int) -> tuple[Doc, list[tuple[int, list[str]]]]:
    """The position of a new game (3.4): ``(position, [(seat, brought canons), …])``.

    With ``deal=draft`` the position is at the first pick (``part`` ``draft``, ``seed`` kept)
    and the brought list is empty; :func:`finish_setup` runs after the last pick.
    """
    content = rules.content
    preset = content.presets[players]
    d = empty_position(rules, players, seed)
    if rules.option("deal") == "draft":
        d["part"] = "draft"
        d["seat"] = draft_seat(0, players)
        return d, []
    rng = Rng(seed)
    agents = rng.shuffled(list(content.agents))
    sues = rng.shuffled(list(content.sues))
    k, m = preset.agents_per_player, preset.sues_per_player
    for seat in range(players):
        for j in range(k):
            card = agents[seat * k + j]
            hp = content.species[content.agents[card].species].health
            d["chars"][f"A{seat * k + j + 1}"] = new_char("agent", card, seat, "", hp)
        for j in range(m):
            card = sues[seat * m + j]
            hp = content.species[content.sues[card].species].health
            d["chars"][f"S{seat * m + j + 1}"] = new_char("sue", card, seat, "", hp)
    brought = finish_setup(rules, d, rng)
    return d, brought


def finish_setup(rules: Rules, d: Doc, rng: Rng | None = None) -> list[tuple[int, list[str]]]:
    """Steps 3–8 of 3.4 on a position whose characters are dealt (not yet placed)."""
    content = rules.content
    players = d["players"]
    preset = content.presets[players]
    if rng is None:
        rng = Rng(d["seed"], 1 << 20)
    # 3. Canons each seat brings, then neutral tokens in random order.
    pool = [c for c, card in content.canons.items() if card.pool in preset.canon_pools]
    drawn = rng.shuffled(pool)[: preset.canons_per_player * players]
    brought = []
    for seat in range(players):
        group = drawn[seat * preset.canons_per_player : (seat + 1) * preset.canons_per_player]
        d["seats"][seat]["brought"] = sorted(group)
        brought.append((seat, sorted(group)))
    tokens = rng.shuffled(drawn)
    # 4. Map.
    layout = content.layouts[d["layout"]]
    if rules.option("map_mode") == "shuffled":
        d["map"] = rng.shuffled(list(layout.atlas))
    else:
        d["map"] = list(layout.atlas)
    slot = {loc: i for i, loc in enumerate(d["map"])}
    # 5. Monsters.
    placed: dict[str, str] = {}  # location -> card
    bree = content.bree_monster
    if rules.option("bree_monster") and bree is not None:
        for loc in d["map"]:
            if content.locations[loc].hosts_bree_monster:
                placed[loc] = bree.id
    count = min(int(rules.option("monsters")), len(content.monsters))
    chosen = rng.shuffled(list(content.monsters))[:count]

    def homes(card: str) -> list[str]:
        kind = content.monsters[card].type
        return [
            loc
            for loc in d["map"]
            if kind in content.locations[loc].monster_types and loc not in placed
        ]

    remaining = list(chosen)
    while remaining:
        remaining.sort(key=lambda c: (len(homes(c)), c))
        card = remaining.pop(0)
        free = homes(card)
        if free:
            placed[rng.choice(free)] = card
    for n, loc in enumerate(sorted(placed, key=lambda loc: slot[loc]), start=1):
        card = placed[loc]
        d["monsters"][f"M{n}"] = {
            "at": loc,
            "card": card,
            "fx": [],
            "hp": content.all_monsters[card].health,
            "known": [],
            "public": False,
        }
    # 6. Canons, in token order.
    canon_count: dict[str, int] = dict.fromkeys(d["map"], 0)
    for n, card in enumerate(tokens, start=1):
        free = [loc for loc in d["map"] if not canon_count[loc] and loc not in placed]
        if not free:
            no_monster = [loc for loc in d["map"] if loc not in placed]
            group = no_monster or list(d["map"])
            least = min(canon_count[loc] for loc in group)
            free = [loc for loc in group if canon_count[loc] == least]
        loc = rng.choice(free)
        canon_count[loc] += 1
        d["canons"][f"C{n}"] = {"at": loc, "card": card, "known": [], "public": False}
    # 7. Characters.
    order = []
    for seat in range(players):
        order += [c for c, ch in d["chars"].items() if ch["seat"] == seat and c[0] == "S"]
        order += [c for c, ch in d["chars"].items() if ch["seat"] == seat and c[0] == "A"]
    dist = layout.distance
    for attempt in range(201):
        soft = attempt < 200
        where: dict[str, str] = {}
        ok = True
        for cid in order:
            ch = d["chars"][cid]
            sue = cid[0] == "S"
            cands = []
            for loc in d["map"]:
                if loc in placed:
                    continue
                others = [o for o, at in where.items() if at == loc]
                if sue and any(o[0] == "A" for o in others):
                    continue
                if not sue and any(o[0] == "S" for o in others):
                    continue
                if soft:
                    near = [
                        o
                        for o, at in where.items()
                        if dist[slot[at]][slot[loc]] <= 1
                        and d["chars"][o]["seat"] != ch["seat"]
                        and (o[0] == "S") != sue
                    ]
                    if near:
                        continue
                cands.append(loc)
            if sue:
                without = [loc for loc in cands if not canon_count[loc]]
                cands = without or cands
            if not cands:
                ok = False
                break
            where[cid] = rng.choice(cands)
        if ok:
            break
    else:
        raise UsageError("setup failed: no legal starting locations for every character")
    for n, cid in enumerate(order, start=1):
        ch = d["chars"][cid]
        ch["at"] = where[cid]
        ch["arr"] = n
        ch["hp"] = content.species[
            (content.sues[ch["card"]] if cid[0] == "S" else content.agents[ch["card"]]).species
        ].health
    d["seq"] = len(order)
    d["seed"] = 0
    d["part"] = "sue"
    d["seat"] = 0
    return brought
