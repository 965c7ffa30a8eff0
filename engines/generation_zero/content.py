"""Content sets of Generation Zero: the TOML schema of spec section 3.6, loaded and validated.

A content set is one TOML file holding every card, ability, layout and preset. The engine names
no card: rules read everything from a :class:`Content`. :func:`load_content` reads the shipped
default set (``default``, found with :mod:`importlib.resources`) or a file path and raises
:class:`~engines.base.UsageError` with the message ``content: <file>: <where>: <problem>`` for the
first problem it finds (spec 3.6, "Validation").

Everything here is immutable and shared by every state of a game; :class:`Content` is
deliberately not copied by :func:`copy.deepcopy` (it is a published, read-only catalogue).
"""

from __future__ import annotations

import re
import tomllib
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from engines.base import UsageError

__all__ = [
    "ARTEFACTS",
    "COMBAT_STATS",
    "DEFAULT_CONTENT",
    "STATS",
    "TERRAINS",
    "WEAPONS",
    "Ability",
    "AgentCard",
    "CanonCard",
    "Content",
    "Department",
    "EffectSpec",
    "Layout",
    "Location",
    "MonsterCard",
    "PresetSpec",
    "Species",
    "SueCard",
    "Terrain",
    "load_content",
]

#: The option value that selects the shipped set ``data/gz_lotr.toml``.
DEFAULT_CONTENT = "default"

TERRAINS = ("forest", "hills", "cave", "plain", "valley", "river", "mountain", "city")
WEAPONS = ("knife", "bow", "magic", "dagger", "sword", "gun", "mace", "neuralyser")
ARTEFACTS = ("pendant", "tiara", "jewel", "dagger", "crown", "ring", "necklace")
#: Every stat name of the notation (spec 3.2).
STATS = (
    "attack",
    "defence",
    "speed",
    "stealth",
    "observe",
    "allure",
    "insanity",
    "special",
    "health",
)
#: The combat stats each kind of character has, for ``stat = "all"`` and ``"choice"`` (R13.4).
COMBAT_STATS: Mapping[str, tuple[str, ...]] = {
    "agent": ("attack", "defence", "speed", "stealth"),
    "temp": ("attack", "defence", "speed", "stealth"),
    "sue": ("attack", "defence", "speed", "observe", "allure"),
    "monster": ("attack", "defence"),
}
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

ID = re.compile(r"^[a-z][a-z0-9_]{0,31}$")
SET_ID = re.compile(r"^[a-z][a-z0-9_-]{0,31}$")
CODE = re.compile(r"^[A-Za-z][A-Za-z0-9]{0,15}$")
TOKEN_LIKE = re.compile(r"^[lastcm][0-9]+$")

DURATIONS = ("turn", "battle", "two_turns")
TARGETS = ("self", "ally", "self_or_ally", "enemy", "all_enemies", "all_allies", "same")
EFFECT_STATS = ("attack", "defence", "speed", "stealth", "observe", "allure", "insanity")
AMOUNT_SOURCES = ("sue_kills", "agent_kills", "monster_kills", "ensnared_canons")
#: Effect type -> its keys besides ``type`` (``amount`` and ``amount_per`` are alternatives).
EFFECT_KEYS: Mapping[str, tuple[str, ...]] = {
    "stat_add": ("target", "stat", "amount", "duration"),
    "stat_mul": ("target", "stat", "factor", "duration"),
    "stat_set": ("target", "stat", "value", "duration"),
    "heal": ("target", "amount"),
    "direct_damage": ("target", "amount"),
    "paralyse": ("target", "duration"),
    "release_canon": ("target", "count", "flee"),
    "pull_canon": ("which", "max_steps"),
    "teleport_self": ("max_steps",),
    "swap_locations": (),
    "summon_temp_agent": ("exclude_departments",),
    "extra_thrust": (),
    "reveal": ("what", "max_steps"),
    "free_flee": (),
}
THRUST_ONLY_TYPES = ("release_canon", "extra_thrust", "free_flee")
ACT_ONLY_TYPES = ("pull_canon", "teleport_self", "swap_locations", "reveal")
BATTLE_TARGETS = ("enemy", "ally", "all_enemies", "all_allies")


# --------------------------------------------------------------------------------------------
# The catalogue
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Species:
    """``[species.<id>]``: Health of characters of this species; ``elvish`` for the Sword."""

    id: str
    health: int
    elvish: bool


@dataclass(frozen=True, slots=True)
class Terrain:
    """``[terrain.<t>]``: movement cost to enter, Observe bonus for 'Sues, terrain weapon."""

    id: str
    move_cost: int
    sue_observe: int
    weapon: str


@dataclass(frozen=True, slots=True)
class Location:
    """A Location card: terrain and the monster types that may live there."""

    id: str
    name: str
    terrain: str
    monster_types: tuple[str, ...]
    hosts_bree_monster: bool
    flavour: str = ""


@dataclass(frozen=True, slots=True)
class MonsterCard:
    """A Monster card (``type`` is ``""`` for the Bree Monster). Speed is always 0."""

    id: str
    name: str
    type: str
    health: int
    attack: int
    defence: int
    flavour: str = ""
    bree: bool = False


@dataclass(frozen=True, slots=True)
class CanonCard:
    """A Canon card: Speed 1–5 (how far a chapter or rescue moves it) and its pool."""

    id: str
    name: str
    speed: int
    pool: str
    flavour: str = ""


@dataclass(frozen=True, slots=True)
class Department:
    """``[departments.<CODE>]``: the department ability every Agent of it may use (R11.5)."""

    code: str
    name: str
    ability: str
    multi_fandom: bool


@dataclass(frozen=True, slots=True)
class AgentCard:
    """An Agent card, or a temp Agent (``temp`` true: stats from ``temp_agent_defaults``,
    ``ability`` ``""``: it has only its department's ability)."""

    id: str
    name: str
    species: str
    attack: int
    defence: int
    speed: int
    stealth: int
    insanity: int
    special: int
    weapon: str
    department: str
    lust_object: str
    fandom: str
    dates: tuple[int, int]
    ability: str
    flavour: str = ""
    temp: bool = False


@dataclass(frozen=True, slots=True)
class SueCard:
    """A 'Sue card."""

    id: str
    name: str
    species: str
    attack: int
    defence: int
    speed: int
    observe: int
    allure: int
    special: int
    artefact: str
    fandom: str
    ability: str
    flavour: str = ""


@dataclass(frozen=True, slots=True)
class EffectSpec:
    """One effect table of an ability (R13.4). Fields a type does not use keep their defaults.

    ``amount`` is the fixed amount, or 0 when ``per_source``/``per`` (``amount_per``) give it.
    """

    type: str
    target: str = ""
    stat: str = ""
    amount: int = 0
    per_source: str = ""
    per: int = 0
    factor: int = 0
    value: int = 0
    duration: str = ""
    count: int = 0
    flee: bool = False
    which: str = ""
    max_steps: int = 0
    exclude_departments: tuple[str, ...] = ()
    what: str = ""


@dataclass(frozen=True, slots=True)
class Ability:
    """``[abilities.<id>]``: windows (``act``, ``thrust``), target kind and effects (R13)."""

    id: str
    name: str
    windows: tuple[str, ...]
    ends_action: bool
    target_kind: str
    effects: tuple[EffectSpec, ...]


@dataclass(frozen=True, slots=True)
class Layout:
    """A board layout (spec 2.1): slots ``(row, col)`` in label order (``L1`` first).

    ``neighbours[i]`` are the slot indexes adjacent to slot ``i`` (ascending);
    ``distance[i][j]`` the number of steps of a shortest path between slots ``i`` and ``j``.
    ``atlas`` the location in each slot for ``map_mode=atlas``.
    """

    name: str
    slots: tuple[tuple[int, int], ...]
    atlas: tuple[str, ...]
    neighbours: tuple[tuple[int, ...], ...]
    distance: tuple[tuple[int, ...], ...]

    def unit_centre(self, slot: int) -> tuple[float, float]:
        """Centre of slot ``slot`` in unit coordinates ``(u, v)`` (spec 2.1 drawing tip):
        ``u = (row + col) / 2``, ``v = (col - row) / 2``; one card is a unit square there."""
        row, col = self.slots[slot]
        return ((row + col) / 2, (col - row) / 2)


@dataclass(frozen=True, slots=True)
class PresetSpec:
    """``[presets.p<N>]``: what a game of N players deals (spec 3.3)."""

    players: int
    agents_per_player: int
    sues_per_player: int
    canons_per_player: int
    canon_pools: tuple[str, ...]
    monsters: int
    layout: str
    max_rounds: int


@dataclass(frozen=True, slots=True, eq=False)
class Content:
    """A loaded, validated content set. Mappings keep the file's order.

    ``source`` is the ``content`` option value it was loaded from (``default`` or a path).
    Two contents are equal when they come from the same source and set id.
    """

    source: str
    set_id: str
    name: str
    fandom: str
    version: int
    species: Mapping[str, Species]
    terrain: Mapping[str, Terrain]
    monster_types: Mapping[str, str]
    locations: Mapping[str, Location]
    monsters: Mapping[str, MonsterCard]
    bree_monster: MonsterCard | None
    canons: Mapping[str, CanonCard]
    departments: Mapping[str, Department]
    agents: Mapping[str, AgentCard]
    sues: Mapping[str, SueCard]
    temp_agents: Mapping[str, AgentCard]
    abilities: Mapping[str, Ability]
    layouts: Mapping[str, Layout]
    presets: Mapping[int, PresetSpec]
    all_monsters: Mapping[str, MonsterCard] = field(default_factory=dict)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Content):
            return NotImplemented
        return (self.source, self.set_id) == (other.source, other.set_id)

    def __hash__(self) -> int:
        return hash((self.source, self.set_id))

    def __deepcopy__(self, memo: dict[int, Any]) -> Content:
        return self  # immutable catalogue, shared

    def __repr__(self) -> str:
        return f"Content({self.set_id!r} from {self.source!r})"

    def agent_card(self, card: str) -> AgentCard:
        """An Agent or temp Agent card by id (``KeyError`` if neither)."""
        found = self.agents.get(card)
        return found if found is not None else self.temp_agents[card]

    def monster(self, card: str) -> MonsterCard:
        """A Monster card by id, the Bree Monster included (``KeyError`` if unknown)."""
        return self.all_monsters[card]

    def card_name(self, card: str) -> str | None:
        """The printed name of the card with id ``card``, of any kind (Agent, temp Agent,
        'Sue, Canon, Monster, Location); ``None`` when no card has that id."""
        kinds: tuple[Mapping[str, Any], ...] = (
            self.agents,
            self.temp_agents,
            self.sues,
            self.canons,
            self.all_monsters,
            self.locations,
        )
        for cards in kinds:
            found = cards.get(card)
            if found is not None:
                name: str = found.name
                return name
        return None


# --------------------------------------------------------------------------------------------
# Loading
# --------------------------------------------------------------------------------------------


class ContentError(Exception):
    """A validation problem at ``where`` (a dotted path), before the file name is added."""

    def __init__(self, where: str, problem: str) -> None:
        super().__init__(f"{where}: {problem}")
        self.where = where
        self.problem = problem


def load_content(source: str) -> Content:
    """The content set for the ``content`` option value (spec 3.6).

    ``source`` is ``default`` (the shipped ``data/gz_lotr.toml``) or a file path. Raises
    :class:`UsageError` ``content: <source>: <where>: <problem>`` for a missing, unreadable,
    malformed or invalid file. Loaded sets are cached per source path and modification time.
    """
    if source.strip().lower() == DEFAULT_CONTENT:
        return _load_default()
    path = Path(source)
    try:
        stamp = path.stat().st_mtime_ns
    except OSError:
        raise UsageError(f"content: {source}: file: cannot read file") from None
    return _load_path(source, stamp)


@cache
def _load_default() -> Content:
    text = resources.files(__package__).joinpath("data", "gz_lotr.toml").read_text("utf-8")
    return _parse(DEFAULT_CONTENT, text)


@cache
def _load_path(source: str, stamp: int) -> Content:
    try:
        text = Path(source).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        raise UsageError(f"content: {source}: file: cannot read file") from None
    return _parse(source, text)


def _parse(source: str, text: str) -> Content:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise UsageError(f"content: {source}: file: not valid TOML ({exc})") from None
    try:
        return _Validator(source, data).content()
    except ContentError as exc:
        raise UsageError(f"content: {source}: {exc.where}: {exc.problem}") from None


_TYPE_NAMES = {int: "int", bool: "bool", str: "string", list: "list", dict: "table"}


class _Validator:
    """Reads a parsed TOML document into a :class:`Content`, raising the first problem."""

    def __init__(self, source: str, data: dict[str, Any]) -> None:
        self.source = source
        self.data = data
        self.ids: set[str] = set()

    # ---- primitive readers ---------------------------------------------------------------

    @staticmethod
    def typed(value: Any, kind: type, where: str) -> Any:
        ok = isinstance(value, kind) and not (kind is int and isinstance(value, bool))
        if not ok:
            raise ContentError(where, f"wrong type: expected {_TYPE_NAMES[kind]}")
        return value

    def table(
        self, value: Any, where: str, required: tuple[str, ...], optional: tuple[str, ...]
    ) -> dict[str, Any]:
        table: dict[str, Any] = self.typed(value, dict, where)
        allowed = set(required) | set(optional) | {"flavour"}
        for key in table:
            if key not in allowed:
                raise ContentError(f"{where}.{key}" if where else key, "unknown key")
        for key in required:
            if key not in table:
                raise ContentError(f"{where}.{key}" if where else key, "missing key")
        if "flavour" in table:
            self.typed(table["flavour"], str, f"{where}.flavour")
        return table

    def int_in(self, table: dict[str, Any], key: str, where: str, lo: int, hi: int) -> int:
        value: int = self.typed(table[key], int, f"{where}.{key}")
        if not lo <= value <= hi:
            raise ContentError(f"{where}.{key}", f"out of range {lo}..{hi}")
        return value

    def string(self, table: dict[str, Any], key: str, where: str) -> str:
        value: str = self.typed(table[key], str, f"{where}.{key}")
        return value

    def boolean(self, table: dict[str, Any], key: str, where: str, default: bool = False) -> bool:
        if key not in table:
            return default
        value: bool = self.typed(table[key], bool, f"{where}.{key}")
        return value

    def new_id(self, table: dict[str, Any], key: str, where: str) -> str:
        value = self.string(table, key, where)
        if not ID.match(value) or value in VERBS or value in STATS or value == "defense":
            raise ContentError(f"{where}.{key}", "bad id")
        if TOKEN_LIKE.match(value):
            raise ContentError(f"{where}.{key}", "bad id")
        if value in self.ids:
            raise ContentError(f"{where}.{key}", f"duplicate id {value}")
        self.ids.add(value)
        return value

    @staticmethod
    def ref(value: str, known: Mapping[str, Any] | tuple[str, ...], kind: str, where: str) -> str:
        if value not in known:
            raise ContentError(where, f"unknown {kind} {value}")
        return value

    def items(self, key: str, required: bool) -> list[Any]:
        if key not in self.data:
            if required:
                raise ContentError(key, "missing key")
            return []
        value: list[Any] = self.typed(self.data[key], list, key)
        if required and not value:
            raise ContentError(key, "missing key")
        return value

    def named_tables(self, key: str, required: bool) -> dict[str, Any]:
        if key not in self.data:
            if required:
                raise ContentError(key, "missing key")
            return {}
        value: dict[str, Any] = self.typed(self.data[key], dict, key)
        if required and not value:
            raise ContentError(key, "missing key")
        return value

    # ---- the document ----------------------------------------------------------------------

    def content(self) -> Content:
        top = [
            "meta",
            "species",
            "terrain",
            "monster_types",
            "locations",
            "monsters",
            "bree_monster",
            "canons",
            "departments",
            "agents",
            "sues",
            "temp_agent_defaults",
            "temp_agents",
            "abilities",
            "layouts",
            "presets",
        ]
        for key in self.data:
            if key not in top:
                raise ContentError(key, "unknown key")
        meta = self.table(
            self.data.get("meta"), "meta", ("set_id", "name", "fandom", "version"), ()
        )
        set_id = self.string(meta, "set_id", "meta")
        if not SET_ID.match(set_id):
            raise ContentError("meta.set_id", "bad id")
        name = self.string(meta, "name", "meta")
        fandom = self.string(meta, "fandom", "meta")
        if not fandom:
            raise ContentError("meta.fandom", "wrong type: expected string")
        version = self.int_in(meta, "version", "meta", 1, 1 << 31)

        species = self.read_species()
        terrain = self.read_terrain()
        monster_types = self.read_monster_types()
        locations = self.read_locations(terrain, monster_types)
        monsters = self.read_monsters(monster_types)
        bree = self.read_bree()
        canons = self.read_canons()
        raw_abilities = self.named_tables("abilities", False)
        departments = self.read_departments(raw_abilities)
        agents = self.read_agents(species, departments, canons, raw_abilities, fandom)
        sues = self.read_sues(species, raw_abilities, fandom)
        temp_agents = self.read_temp_agents(species, departments)
        abilities = self.read_abilities(raw_abilities, departments)
        self.check_ability_users(agents, sues, temp_agents, departments, abilities)
        layouts = self.read_layouts(locations)
        presets = self.read_presets(agents, sues, canons, layouts)
        if set_id in self.ids:
            raise ContentError("meta.set_id", f"duplicate id {set_id}")
        all_monsters = dict(monsters)
        if bree is not None:
            all_monsters[bree.id] = bree
        return Content(
            source=self.source,
            set_id=set_id,
            name=name,
            fandom=fandom,
            version=version,
            species=species,
            terrain=terrain,
            monster_types=monster_types,
            locations=locations,
            monsters=monsters,
            bree_monster=bree,
            canons=canons,
            departments=departments,
            agents=agents,
            sues=sues,
            temp_agents=temp_agents,
            abilities=abilities,
            layouts=layouts,
            presets=presets,
            all_monsters=all_monsters,
        )

    def read_species(self) -> dict[str, Species]:
        out: dict[str, Species] = {}
        for key, raw in self.named_tables("species", True).items():
            where = f"species.{key}"
            if not ID.match(key):
                raise ContentError(where, "bad id")
            table = self.table(raw, where, ("health",), ("elvish",))
            out[key] = Species(
                key, self.int_in(table, "health", where, 1, 9), self.boolean(table, "elvish", where)
            )
        return out

    def read_terrain(self) -> dict[str, Terrain]:
        raw_all = self.named_tables("terrain", True)
        out: dict[str, Terrain] = {}
        for key in raw_all:
            if key not in TERRAINS:
                raise ContentError(f"terrain.{key}", "unknown key")
        for key in TERRAINS:
            where = f"terrain.{key}"
            if key not in raw_all:
                raise ContentError(where, "missing key")
            table = self.table(raw_all[key], where, ("move_cost", "sue_observe", "weapon"), ())
            weapon = self.string(table, "weapon", where)
            if weapon not in ("", "bow", "magic", "knife"):
                raise ContentError(f"{where}.weapon", f"unknown weapon {weapon}")
            out[key] = Terrain(
                key,
                self.int_in(table, "move_cost", where, 1, 3),
                self.int_in(table, "sue_observe", where, 0, 2),
                weapon,
            )
        return out

    def read_monster_types(self) -> dict[str, str]:
        out: dict[str, str] = {}
        for i, raw in enumerate(self.items("monster_types", False)):
            where = f"monster_types[{i}]"
            table = self.table(raw, where, ("id", "name"), ())
            out[self.new_id(table, "id", where)] = self.string(table, "name", where)
        return out

    def read_locations(
        self, terrain: Mapping[str, Terrain], monster_types: Mapping[str, str]
    ) -> dict[str, Location]:
        out: dict[str, Location] = {}
        bree_host = ""
        for i, raw in enumerate(self.items("locations", True)):
            where = f"locations[{i}]"
            table = self.table(
                raw, where, ("id", "name", "terrain", "monster_types"), ("hosts_bree_monster",)
            )
            lid = self.new_id(table, "id", where)
            kind = self.ref(
                self.string(table, "terrain", where), terrain, "terrain", f"{where}.terrain"
            )
            types = self.typed(table["monster_types"], list, f"{where}.monster_types")
            for j, value in enumerate(types):
                self.typed(value, str, f"{where}.monster_types[{j}]")
                self.ref(value, monster_types, "monster type", f"{where}.monster_types[{j}]")
            hosts = self.boolean(table, "hosts_bree_monster", where)
            if hosts:
                if bree_host:
                    raise ContentError(
                        f"{where}.hosts_bree_monster", "two locations host the Bree Monster"
                    )
                bree_host = lid
            out[lid] = Location(
                lid,
                self.string(table, "name", where),
                kind,
                tuple(types),
                hosts,
                table.get("flavour", ""),
            )
        return out

    def monster_card(
        self, raw: Any, where: str, typed_monster: bool, types: Mapping[str, str]
    ) -> MonsterCard:
        required = (
            ("id", "name", "type", "health", "attack", "defence")
            if typed_monster
            else ("id", "name", "health", "attack", "defence")
        )
        table = self.table(raw, where, required, ())
        mid = self.new_id(table, "id", where)
        kind = ""
        if typed_monster:
            kind = self.ref(
                self.string(table, "type", where), types, "monster type", f"{where}.type"
            )
        return MonsterCard(
            mid,
            self.string(table, "name", where),
            kind,
            self.int_in(table, "health", where, 1, 20),
            self.int_in(table, "attack", where, 0, 9),
            self.int_in(table, "defence", where, 0, 9),
            table.get("flavour", ""),
            bree=not typed_monster,
        )

    def read_monsters(self, types: Mapping[str, str]) -> dict[str, MonsterCard]:
        out: dict[str, MonsterCard] = {}
        for i, raw in enumerate(self.items("monsters", False)):
            card = self.monster_card(raw, f"monsters[{i}]", True, types)
            out[card.id] = card
        return out

    def read_bree(self) -> MonsterCard | None:
        if "bree_monster" not in self.data:
            return None
        return self.monster_card(self.data["bree_monster"], "bree_monster", False, {})

    def read_canons(self) -> dict[str, CanonCard]:
        out: dict[str, CanonCard] = {}
        for i, raw in enumerate(self.items("canons", False)):
            where = f"canons[{i}]"
            table = self.table(raw, where, ("id", "name", "speed", "pool"), ())
            cid = self.new_id(table, "id", where)
            pool = self.string(table, "pool", where)
            if not ID.match(pool):
                raise ContentError(f"{where}.pool", "bad id")
            out[cid] = CanonCard(
                cid,
                self.string(table, "name", where),
                self.int_in(table, "speed", where, 1, 5),
                pool,
                table.get("flavour", ""),
            )
        return out

    def read_departments(self, abilities: Mapping[str, Any]) -> dict[str, Department]:
        out: dict[str, Department] = {}
        for code, raw in self.named_tables("departments", False).items():
            where = f"departments.{code}"
            if not CODE.match(code):
                raise ContentError(where, "bad id")
            table = self.table(raw, where, ("name", "ability", "multi_fandom"), ())
            ability = self.ref(
                self.string(table, "ability", where), abilities, "ability", f"{where}.ability"
            )
            out[code] = Department(
                code,
                self.string(table, "name", where),
                ability,
                self.boolean(table, "multi_fandom", where),
            )
        return out

    def read_agents(
        self,
        species: Mapping[str, Species],
        departments: Mapping[str, Department],
        canons: Mapping[str, CanonCard],
        abilities: Mapping[str, Any],
        fandom: str,
    ) -> dict[str, AgentCard]:
        out: dict[str, AgentCard] = {}
        keys = [
            "id",
            "name",
            "species",
            "attack",
            "defence",
            "speed",
            "stealth",
            "insanity",
            "special",
            "weapon",
            "department",
            "lust_object",
            "fandom",
            "dates",
            "ability",
        ]
        for i, raw in enumerate(self.items("agents", True)):
            where = f"agents[{i}]"
            table = self.table(raw, where, tuple(keys), ())
            aid = self.new_id(table, "id", where)
            kind = self.ref(
                self.string(table, "species", where), species, "species", f"{where}.species"
            )
            stats = {
                k: self.int_in(table, k, where, 0, 5)
                for k in ("attack", "defence", "speed", "stealth", "special")
            }
            insanity = self.int_in(table, "insanity", where, 1, 5)
            weapon = self.ref(
                self.string(table, "weapon", where), WEAPONS, "weapon", f"{where}.weapon"
            )
            dept = self.ref(
                self.string(table, "department", where),
                departments,
                "department",
                f"{where}.department",
            )
            lust = self.string(table, "lust_object", where)
            if lust:
                self.ref(lust, canons, "canon", f"{where}.lust_object")
            own_fandom = self.string(table, "fandom", where)
            if departments[dept].multi_fandom:
                if own_fandom or lust:
                    raise ContentError(
                        f"{where}.fandom", 'multi-fandom agent needs fandom "" and no lust object'
                    )
            elif own_fandom != fandom:
                raise ContentError(f"{where}.fandom", f"fandom must be {fandom}")
            dates = self.typed(table["dates"], list, f"{where}.dates")
            if len(dates) != 2:
                raise ContentError(f"{where}.dates", "wrong type: expected list")
            start = self.int_in({"d": dates[0]}, "d", f"{where}.dates[0]", 0, 9999)
            end = self.int_in({"d": dates[1]}, "d", f"{where}.dates[1]", 0, 9999)
            if end and start > end:
                raise ContentError(f"{where}.dates", f"out of range {start}..{end}")
            ability = self.ref(
                self.string(table, "ability", where), abilities, "ability", f"{where}.ability"
            )
            out[aid] = AgentCard(
                aid,
                self.string(table, "name", where),
                kind,
                stats["attack"],
                stats["defence"],
                stats["speed"],
                stats["stealth"],
                insanity,
                stats["special"],
                weapon,
                dept,
                lust,
                own_fandom,
                (start, end),
                ability,
                table.get("flavour", ""),
            )
        starts = [a.dates[0] for a in out.values()]
        ends = [a.dates[1] or 1 << 30 for a in out.values()]
        if max(starts) > min(ends):
            raise ContentError("agents", "agents' dates do not overlap")
        return out

    def read_sues(
        self, species: Mapping[str, Species], abilities: Mapping[str, Any], fandom: str
    ) -> dict[str, SueCard]:
        out: dict[str, SueCard] = {}
        keys = [
            "id",
            "name",
            "species",
            "attack",
            "defence",
            "speed",
            "observe",
            "allure",
            "special",
            "artefact",
            "fandom",
            "ability",
        ]
        for i, raw in enumerate(self.items("sues", True)):
            where = f"sues[{i}]"
            table = self.table(raw, where, tuple(keys), ())
            sid = self.new_id(table, "id", where)
            kind = self.ref(
                self.string(table, "species", where), species, "species", f"{where}.species"
            )
            stats = {
                k: self.int_in(table, k, where, 0, 5)
                for k in ("attack", "defence", "speed", "observe", "allure", "special")
            }
            artefact = self.ref(
                self.string(table, "artefact", where), ARTEFACTS, "artefact", f"{where}.artefact"
            )
            own_fandom = self.string(table, "fandom", where)
            if own_fandom not in (fandom, ""):
                raise ContentError(f"{where}.fandom", f"fandom must be {fandom}")
            ability = self.ref(
                self.string(table, "ability", where), abilities, "ability", f"{where}.ability"
            )
            out[sid] = SueCard(
                sid,
                self.string(table, "name", where),
                kind,
                stats["attack"],
                stats["defence"],
                stats["speed"],
                stats["observe"],
                stats["allure"],
                stats["special"],
                artefact,
                own_fandom,
                ability,
                table.get("flavour", ""),
            )
        return out

    def read_temp_agents(
        self, species: Mapping[str, Species], departments: Mapping[str, Department]
    ) -> dict[str, AgentCard]:
        raws = self.items("temp_agents", False)
        if not raws:
            if "temp_agent_defaults" in self.data:
                self.read_temp_defaults(species)
            return {}
        if "temp_agent_defaults" not in self.data:
            raise ContentError("temp_agent_defaults", "missing key")
        defaults = self.read_temp_defaults(species)
        out: dict[str, AgentCard] = {}
        for i, raw in enumerate(raws):
            where = f"temp_agents[{i}]"
            table = self.table(raw, where, ("id", "name", "department"), ())
            tid = self.new_id(table, "id", where)
            dept = self.ref(
                self.string(table, "department", where),
                departments,
                "department",
                f"{where}.department",
            )
            out[tid] = AgentCard(
                tid,
                self.string(table, "name", where),
                str(defaults["species"]),
                int(defaults["attack"]),
                int(defaults["defence"]),
                int(defaults["speed"]),
                int(defaults["stealth"]),
                int(defaults["insanity"]),
                int(defaults["special"]),
                str(defaults["weapon"]),
                dept,
                "",
                "",
                (0, 0),
                "",
                table.get("flavour", ""),
                temp=True,
            )
        return out

    def read_temp_defaults(self, species: Mapping[str, Species]) -> dict[str, int | str]:
        where = "temp_agent_defaults"
        keys = ("species", "attack", "defence", "speed", "stealth", "insanity", "special", "weapon")
        table = self.table(self.data[where], where, keys, ())
        out: dict[str, int | str] = {
            k: self.int_in(table, k, where, 0, 5)
            for k in ("attack", "defence", "speed", "stealth", "special")
        }
        out["insanity"] = self.int_in(table, "insanity", where, 1, 5)
        out["species"] = self.ref(
            self.string(table, "species", where), species, "species", f"{where}.species"
        )
        out["weapon"] = self.ref(
            self.string(table, "weapon", where), WEAPONS, "weapon", f"{where}.weapon"
        )
        return out

    def read_abilities(
        self, raw_all: Mapping[str, Any], departments: Mapping[str, Department]
    ) -> dict[str, Ability]:
        out: dict[str, Ability] = {}
        for key, raw in raw_all.items():
            where = f"abilities.{key}"
            if not ID.match(key) or key in VERBS or key in STATS or TOKEN_LIKE.match(key):
                raise ContentError(where, "bad id")
            if key in self.ids:
                raise ContentError(where, f"duplicate id {key}")
            self.ids.add(key)
            table = self.table(
                raw, where, ("name", "windows", "effects"), ("ends_action", "target_kind")
            )
            windows = self.typed(table["windows"], list, f"{where}.windows")
            if not windows:
                raise ContentError(f"{where}.windows", "missing key")
            for j, window in enumerate(windows):
                self.typed(window, str, f"{where}.windows[{j}]")
                if window not in ("act", "thrust"):
                    raise ContentError(f"{where}.windows[{j}]", f"unknown window {window}")
            ends = self.boolean(table, "ends_action", where)
            target_kind = (
                self.string(table, "target_kind", where) if "target_kind" in table else "any"
            )
            if target_kind not in ("any", "sue", "agent", "monster"):
                raise ContentError(f"{where}.target_kind", f"unknown target kind {target_kind}")
            raw_effects = self.typed(table["effects"], list, f"{where}.effects")
            if not raw_effects:
                raise ContentError(f"{where}.effects", "missing key")
            effects = tuple(
                self.effect(e, f"{where}.effects[{j}]", departments)
                for j, e in enumerate(raw_effects)
            )
            ability = Ability(
                key, self.string(table, "name", where), tuple(windows), ends, target_kind, effects
            )
            self.check_windows(ability, where)
            out[key] = ability
        return out

    def effect(self, raw: Any, where: str, departments: Mapping[str, Department]) -> EffectSpec:
        table = self.typed(raw, dict, where)
        if "type" not in table:
            raise ContentError(f"{where}.type", "bad effect: missing parameter type")
        kind = table["type"]
        if kind not in EFFECT_KEYS:
            raise ContentError(f"{where}.type", f"bad effect: unknown type {kind}")
        keys = set(EFFECT_KEYS[kind])
        given = set(table) - {"type"}
        if kind == "stat_add" and "amount_per" in given:
            keys = (keys - {"amount"}) | {"amount_per"}
        for key in sorted(given - keys):
            raise ContentError(f"{where}.{key}", f"bad effect: extra parameter {key}")
        for key in sorted(keys - given):
            raise ContentError(f"{where}.{key}", f"bad effect: missing parameter {key}")

        def bad(key: str, reason: str) -> ContentError:
            return ContentError(f"{where}.{key}", f"bad effect: {reason}")

        def choice(key: str, allowed: tuple[str, ...]) -> str:
            value = table[key]
            if not isinstance(value, str) or value not in allowed:
                raise bad(key, f"{key} must be one of {', '.join(allowed)}")
            return value

        def number(key: str, lo: int, hi: int, nonzero: bool = False) -> int:
            value = table[key]
            if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
                raise bad(key, f"{key} must be an integer {lo}..{hi}")
            if nonzero and value == 0:
                raise bad(key, f"{key} may not be 0")
            return value

        spec: dict[str, Any] = {"type": kind}
        if "target" in keys:
            spec["target"] = choice("target", TARGETS)
        if "stat" in keys:
            spec["stat"] = choice("stat", (*EFFECT_STATS, "all", "choice"))
        if "duration" in keys:
            spec["duration"] = choice("duration", DURATIONS)
        if "amount" in keys:
            if kind == "stat_add":
                spec["amount"] = number("amount", -5, 5, nonzero=True)
            else:
                spec["amount"] = number("amount", 1, 9)
        if "amount_per" in keys:
            per = table["amount_per"]
            if not isinstance(per, dict) or set(per) != {"source", "per"}:
                raise bad("amount_per", "amount_per needs exactly source and per")
            if per["source"] not in AMOUNT_SOURCES:
                raise bad("amount_per", f"unknown source {per['source']}")
            if (
                not isinstance(per["per"], int)
                or isinstance(per["per"], bool)
                or not 1 <= per["per"] <= 9
            ):
                raise bad("amount_per", "per must be an integer 1..9")
            spec["per_source"], spec["per"] = per["source"], per["per"]
        if "factor" in keys:
            spec["factor"] = number("factor", 2, 3)
        if "value" in keys:
            spec["value"] = number("value", 0, 5)
        if "count" in keys:
            spec["count"] = number("count", 1, 9)
        if "flee" in keys:
            if not isinstance(table["flee"], bool):
                raise bad("flee", "flee must be true or false")
            spec["flee"] = table["flee"]
        if "which" in keys:
            spec["which"] = choice("which", ("nearest", "chosen"))
        if "max_steps" in keys:
            spec["max_steps"] = number("max_steps", 1, 99)
        if "what" in keys:
            spec["what"] = choice("what", ("monster", "canon", "any"))
        if "exclude_departments" in keys:
            excluded = table["exclude_departments"]
            if not isinstance(excluded, list) or not all(isinstance(d, str) for d in excluded):
                raise bad("exclude_departments", "exclude_departments must be a list of codes")
            for code in excluded:
                if code not in departments:
                    raise ContentError(f"{where}.exclude_departments", f"unknown department {code}")
            spec["exclude_departments"] = tuple(excluded)
        return EffectSpec(**spec)

    @staticmethod
    def check_windows(ability: Ability, where: str) -> None:
        """The window and target rules of R13.4 ("Validation rules")."""
        previous_battle = False
        previous_release_target = False
        needs_thrust_only = False
        needs_act_only = False
        for j, effect in enumerate(ability.effects):
            here = f"{where}.effects[{j}]"
            target = effect.target
            if target == "same" and j == 0:
                raise ContentError(f"{here}.target", "bad effect: same may not come first")
            battle = target in BATTLE_TARGETS or (target == "same" and previous_battle)
            if effect.target:
                previous_battle = battle
            needs_thrust_only |= battle or effect.type in THRUST_ONLY_TYPES
            needs_act_only |= effect.type in ACT_ONLY_TYPES
            if effect.type == "release_canon":
                ok = (target == "enemy" and ability.target_kind == "sue") or (
                    target == "same" and previous_release_target
                )
                if not ok:
                    raise ContentError(
                        f"{here}.target",
                        'bad effect: release_canon needs an enemy \'Sue (target_kind = "sue")',
                    )
            if effect.target:
                previous_release_target = (target == "enemy" and ability.target_kind == "sue") or (
                    target == "same" and previous_release_target
                )
            if effect.type in ("direct_damage", "paralyse") and target in (
                "ally",
                "self_or_ally",
                "all_allies",
            ):
                raise ContentError(
                    f"{here}.target", f"bad effect: {effect.type} never targets allies"
                )
        if needs_thrust_only and ability.windows != ("thrust",):
            raise ContentError(
                f"{where}.windows", 'bad effect: this ability needs windows ["thrust"] only'
            )
        if needs_act_only and ability.windows != ("act",):
            raise ContentError(
                f"{where}.windows", 'bad effect: this ability needs windows ["act"] only'
            )
        if ability.ends_action and "act" not in ability.windows:
            raise ContentError(
                f"{where}.ends_action", "bad effect: ends_action needs the act window"
            )

    @staticmethod
    def check_ability_users(
        agents: Mapping[str, AgentCard],
        sues: Mapping[str, SueCard],
        temps: Mapping[str, AgentCard],
        departments: Mapping[str, Department],
        abilities: Mapping[str, Ability],
    ) -> None:
        """A 'Sue's ability may not summon temp Agents (R13.4)."""
        del agents, temps, departments
        for i, sue in enumerate(sues.values()):
            if any(e.type == "summon_temp_agent" for e in abilities[sue.ability].effects):
                raise ContentError(
                    f"sues[{i}].ability", "bad effect: a 'Sue may not summon temp Agents"
                )

    def read_layouts(self, locations: Mapping[str, Location]) -> dict[str, Layout]:
        out: dict[str, Layout] = {}
        for key, raw in self.named_tables("layouts", True).items():
            where = f"layouts.{key}"
            table = self.table(raw, where, ("slots", "atlas"), ())
            raw_slots = self.typed(table["slots"], list, f"{where}.slots")
            slots: list[tuple[int, int]] = []
            for j, pair in enumerate(raw_slots):
                here = f"{where}.slots[{j}]"
                self.typed(pair, list, here)
                if len(pair) != 2:
                    raise ContentError(here, "not a checkerboard slot")
                row = self.int_in({"r": pair[0]}, "r", here, 0, 15)
                col = self.int_in({"c": pair[1]}, "c", here, 0, 15)
                if (row + col) % 2:
                    raise ContentError(here, "not a checkerboard slot")
                if (row, col) in slots:
                    raise ContentError(here, "duplicate slot")
                slots.append((row, col))
            atlas = self.typed(table["atlas"], list, f"{where}.atlas")
            for j, lid in enumerate(atlas):
                self.typed(lid, str, f"{where}.atlas[{j}]")
                self.ref(lid, locations, "location", f"{where}.atlas[{j}]")
                if lid in atlas[:j]:
                    raise ContentError(f"{where}.atlas[{j}]", f"duplicate id {lid}")
            if len(atlas) != len(slots):
                raise ContentError(f"{where}.atlas", "atlas length differs from slots")
            neighbours = tuple(
                tuple(
                    j for j, (r2, c2) in enumerate(slots) if abs(r - r2) == 1 and abs(c - c2) == 1
                )
                for r, c in slots
            )
            distance = tuple(_bfs(neighbours, i) for i in range(len(slots)))
            if not slots or any(d < 0 for row in distance for d in row):
                raise ContentError(f"{where}.slots", "layout not connected")
            out[key] = Layout(key, tuple(slots), tuple(atlas), neighbours, distance)
        return out

    def read_presets(
        self,
        agents: Mapping[str, AgentCard],
        sues: Mapping[str, SueCard],
        canons: Mapping[str, CanonCard],
        layouts: Mapping[str, Layout],
    ) -> dict[int, PresetSpec]:
        out: dict[int, PresetSpec] = {}
        pools = {c.pool for c in canons.values()}
        keys = [
            "players",
            "agents_per_player",
            "sues_per_player",
            "canons_per_player",
            "canon_pools",
            "monsters",
            "layout",
            "max_rounds",
        ]
        for key, raw in self.named_tables("presets", True).items():
            where = f"presets.{key}"
            table = self.table(raw, where, tuple(keys), ())
            players = self.int_in(table, "players", where, 2, 4)
            if key != f"p{players}":
                raise ContentError(f"{where}.players", f"out of range {key[1:]}..{key[1:]}")
            canon_pools = self.typed(table["canon_pools"], list, f"{where}.canon_pools")
            if not canon_pools:
                raise ContentError(f"{where}.canon_pools", "missing key")
            for j, pool in enumerate(canon_pools):
                self.typed(pool, str, f"{where}.canon_pools[{j}]")
                self.ref(pool, tuple(pools), "pool", f"{where}.canon_pools[{j}]")
            layout = self.ref(
                self.string(table, "layout", where), layouts, "layout", f"{where}.layout"
            )
            preset = PresetSpec(
                players,
                self.int_in(table, "agents_per_player", where, 1, 4),
                self.int_in(table, "sues_per_player", where, 1, 3),
                self.int_in(table, "canons_per_player", where, 0, 6),
                tuple(canon_pools),
                self.int_in(table, "monsters", where, 0, 20),
                layout,
                self.int_in(table, "max_rounds", where, 1, 99),
            )
            if preset.agents_per_player * players > len(agents):
                raise ContentError(where, "preset needs more cards (agents)")
            if preset.sues_per_player * players > len(sues):
                raise ContentError(where, "preset needs more cards ('Sues)")
            in_pools = sum(1 for c in canons.values() if c.pool in canon_pools)
            if preset.canons_per_player * players > in_pools:
                raise ContentError(where, "preset needs more cards (canons)")
            out[players] = preset
        return out


def _bfs(neighbours: tuple[tuple[int, ...], ...], start: int) -> tuple[int, ...]:
    """Steps from ``start`` to every slot (-1 when unreachable)."""
    dist = [-1] * len(neighbours)
    dist[start] = 0
    queue = deque([start])
    while queue:
        here = queue.popleft()
        for there in neighbours[here]:
            if dist[there] < 0:
                dist[there] = dist[here] + 1
                queue.append(there)
    return tuple(dist)
