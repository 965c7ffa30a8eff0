"""The Generation Zero engine: the contract of :mod:`engines.base` over the rules module.

States are immutable: a :class:`GenerationZeroState` holds the canonical position string (the
whole game, spec section 7), the last decision and the combat log; ``apply`` parses a fresh
working copy, plays the move (:class:`~engines.generation_zero.rules.Game`) and prints the new
position. Moves are their canonical strings (section 6).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from engines.base import (
    Engine,
    GameInfo,
    GameOverError,
    IllegalMoveError,
    NotYourTurnError,
    OptionSpec,
    OptionValue,
    Outcome,
    Preset,
    Transition,
    UsageError,
)
from engines.generation_zero.content import load_content
from engines.generation_zero.determinize import determinize_position
from engines.generation_zero.notation import SEAT_PREFIX, read_move
from engines.generation_zero.position import (
    finish_setup,
    new_position,
    print_position,
    read_position,
)
from engines.generation_zero.rules import Doc, Game, Rules
from engines.generation_zero.view import GenerationZeroView, LastDecision, blank_position
from engines.rng import Rng

__all__ = ["GenerationZeroEngine", "GenerationZeroState", "default_decision"]

#: Combat log lines kept for the picture (the last fight or battle).
LOG_LINES = 12
#: The ``max_rounds`` / ``monsters`` value meaning "the preset's" before the player count is known.
FROM_PRESET = -1


@dataclass(frozen=True, eq=False)
class GenerationZeroState:
    """One moment of a game: rules, canonical position, last decision, combat log.

    ``GenerationZeroState(rules, text, last, log)``; :attr:`text` is the canonical position
    string (spec section 7) and :attr:`doc` the same position as a parsed object (do not
    mutate it). A state made by :meth:`GenerationZeroEngine.apply` keeps the object the rules
    produced (:meth:`of_doc`) and prints :attr:`text` only when asked (positions, storage,
    equality), so random playouts never print or parse JSON. Equal states print the same
    position under the same rules and remember the same last decision and log.
    """

    rules: Rules
    text: str
    last: LastDecision | None = None
    log: tuple[str, ...] = ()
    _doc: Doc | None = field(default=None, init=False, repr=False)
    _game: Game | None = field(default=None, init=False, repr=False)

    @classmethod
    def of_doc(
        cls,
        rules: Rules,
        doc: Doc,
        last: LastDecision | None = None,
        log: tuple[str, ...] = (),
    ) -> GenerationZeroState:
        """A state over a position object that nothing else will mutate (owned from now on).

        ``doc`` must hold what ``json.loads`` of its canonical text would give (lists, not
        tuples); :func:`canonical_order` puts its id tables in that order.
        """
        state = cls.__new__(cls)
        fields = state.__dict__
        fields["rules"] = rules
        fields["_text"] = None
        fields["last"] = last
        fields["log"] = log
        fields["_doc"] = canonical_order(doc)
        fields["_game"] = None
        return state

    @property
    def doc(self) -> Doc:
        """The position object (spec section 7), parsed once; read-only."""
        doc = self._doc
        if doc is None:
            doc = json.loads(self.text)
            self.__dict__["_doc"] = doc
        return doc

    def _key(self) -> tuple[Any, ...]:
        return (self.rules, self.text, self.last, self.log)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GenerationZeroState):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __getstate__(self) -> tuple[Any, ...]:
        return (self.rules, self.text, self.last, self.log)

    def __setstate__(self, data: tuple[Any, ...]) -> None:
        rules, text, last, log = data
        self.__dict__.update(rules=rules, _text=text, last=last, log=log, _doc=None, _game=None)

    def game(self) -> Game:
        """A read-only game over the cached position (do not play moves on it)."""
        game = self._game
        if game is None:
            game = Game(self.rules, self.doc)
            self.__dict__["_game"] = game
        return game

    def working(self) -> Game:
        """A game over a fresh copy of the position, free to mutate."""
        return Game(self.rules, copy_position(self.doc))


def _get_text(state: GenerationZeroState) -> str:
    """The canonical position string (spec section 7), printed once when first asked."""
    text: str | None = state.__dict__["_text"]
    if text is None:
        text = print_position(state.__dict__["_doc"])
        state.__dict__["_text"] = text
    return text


def _set_text(state: GenerationZeroState, text: str) -> None:
    state.__dict__["_text"] = text  # the dataclass __init__ only


# ``text`` is a dataclass field (``dataclasses.replace(state, text=…)`` works) read lazily.
GenerationZeroState.text = property(_get_text, _set_text)  # type: ignore[assignment]


def copy_position(doc: Doc) -> Doc:
    """A deep copy of a position object, as ``json.loads(print_position(doc))`` would give
    but without printing: the id tables keep their order, every list and dict is new.

    It follows the schema of spec section 7 (which :func:`read_position` enforces and the
    rules keep): characters, Canons, Monsters, seats and queue items are flat objects whose
    only lists are ``arts``/``canons``/``up``/``known``/``brought`` (of scalars) and ``fx``
    (of flat effect objects); the frames (``act``…``battle``) are copied generically.
    """
    out = dict(doc)
    out["chars"] = {
        cid: {
            **ch,
            "arts": ch["arts"][:],
            "canons": ch["canons"][:],
            "fx": [dict(e) for e in ch["fx"]],
            "up": ch["up"][:],
        }
        for cid, ch in doc["chars"].items()
    }
    out["canons"] = {t: {**c, "known": c["known"][:]} for t, c in doc["canons"].items()}
    out["monsters"] = {
        t: {**m, "known": m["known"][:], "fx": [dict(e) for e in m["fx"]]}
        for t, m in doc["monsters"].items()
    }
    out["seats"] = [{**seat, "brought": seat["brought"][:]} for seat in doc["seats"]]
    out["queue"] = [dict(item) for item in doc["queue"]]
    out["pending"] = doc["pending"][:]
    out["map"] = doc["map"][:]
    for key in ("act", "walk", "fight", "battle"):
        frame = doc[key]
        if frame is not None:
            out[key] = _copy_json(frame)
    return out


def _copy_json(value: Any) -> Any:
    if type(value) is dict:
        return {k: (_copy_json(v) if type(v) in _CONTAINERS else v) for k, v in value.items()}
    if type(value) in _CONTAINERS:
        return [(_copy_json(v) if type(v) in _CONTAINERS else v) for v in value]
    return value


_CONTAINERS = (dict, list, tuple)


def canonical_order(doc: Doc) -> Doc:
    """``doc`` with its id tables (``chars``, ``canons``, ``monsters``) in code-point order of
    their keys, the order ``json.loads`` of the canonical text gives (rules iterate them)."""
    for key in ("chars", "canons", "monsters"):
        table = doc[key]
        keys = list(table)
        ordered = sorted(keys)
        if keys != ordered:
            doc[key] = {k: table[k] for k in ordered}
    return doc


OPTIONS = (
    OptionSpec(
        "content",
        "text",
        "default",
        "default, or the path of a content set .toml file",
        cli_only=True,
    ),
    OptionSpec(
        "map_mode", "choice", "shuffled", "how Location cards are dealt", ("shuffled", "atlas")
    ),
    OptionSpec("deal", "choice", "random", "how characters are dealt", ("random", "draft")),
    OptionSpec("bree_monster", "bool", True, "the optional Bree rule (R11.7)"),
    OptionSpec("appendix_terrain", "bool", True, "terrain costs and bonuses"),
    OptionSpec("appendix_weapons", "bool", True, "weapon rules"),
    OptionSpec("appendix_artefacts", "bool", True, "artefact bonuses, Crown, Tiara"),
    OptionSpec("appendix_departments", "bool", True, "department abilities"),
    OptionSpec("appendix_insanity", "bool", True, "the Lust Object / Insanity modifier"),
    OptionSpec("min_move", "bool", True, "a single step is always affordable (R6.1)"),
    OptionSpec("kill_points", "int", 2, "points per kill", minimum=0, maximum=10),
    OptionSpec("canon_points", "int", 1, "points per Canon held at the end", minimum=0, maximum=10),
    OptionSpec(
        "max_battle_rounds", "int", 10, "rounds before a forced stand-off", minimum=1, maximum=20
    ),
    OptionSpec(
        "max_rounds",
        "int",
        FROM_PRESET,
        "game length in rounds (default: the preset's)",
        minimum=1,
        maximum=99,
    ),
    OptionSpec(
        "monsters",
        "int",
        FROM_PRESET,
        "random Monsters at setup (default: the preset's)",
        minimum=0,
        maximum=20,
    ),
)

#: ``/game rules``: the game, then the turn in bullets, like the other games' summaries
#: (R5 turn, R7 Canons, R8/R9 fights, R12 end; docs/games/generation_zero.md "The game in
#: five lines").
RULES_SUMMARY = """\
Agents hunt Mary Sues across a board of Location cards; 'Sues ensnare Canons and kill \
Agents. Each player has two Agents and a 'Sue, and brought three Canons, shuffled face down \
among everyone's.
• A turn is a 'Sue part, then an Agent part: order each of your characters once, to rest \
(Health +1) or to act: an ability if you like, then move, hold (stay put), write a chapter \
('Sues) or engage (Agents).
• A chapter shows you any free Canon on the board and lets you steer it. After acting, a 'Sue \
may ensnare the Canons where she stands, up to her Allure.
• An Agent that ends its move on an enemy 'Sue starts a battle, fought after the Agent part: \
everyone there thrusts in turn (an ability, then attack or flee) until one side is gone or \
a round changes nothing. A 'Sue who crosses or lands on a Monster fights it the same way; one \
who lands on an enemy Agent dies.
• The game ends when no Agent shares the board with an enemy 'Sue, or after the last round. \
2 points per kill, 1 per Canon held by a living 'Sue."""

#: ``/game rules``' notation (6.2): what each verb does, the turn's orders first; the thrust
#: form names no actor (``special``, not ``special S1``).
NOTATION_HELP = """\
Ids as on the board: Agents A1, 'Sues S1, temp Agents T1, Canons C1, Monsters M1, slots L1.
• Orders in your turn: `rest S1` (Health +1, no action); `hold A2` (act without moving); \
`move A1 L7` (the landing; a 'Sue also names the Monster slots she crosses: `move S1 L8 L10`); \
`chapter S1 C4`; `engage A2` (battle an enemy 'Sue standing with A2); `special A1 …` or \
`dept A4 …`, an ability before the action; `fight L7` fights a pending battle now.
• `end` ends the whole turn: every character not yet ordered rests (in the 'Sue part, the \
Agents too).
• A thrust names no actor: `attack S2`, `flee L6`, `special …` and `dept …` (the thrusting \
character's ability, e.g. `special S1` aims it at S1), `rescue C5` (a Tiara).
• Answers: `steer L3` moves the Canon of your chapter or rescue, `stay` leaves it; \
`ensnare C2 C5` or `decline`; `upgrade allure`; `crown S3`; the Bree Monster `fight M1` or \
`decline`; a draft `pick inkwell`."""

INFO = GameInfo(
    id="generation_zero",
    name="Generation Zero",
    min_players=2,
    max_players=4,
    default_players=2,
    options=OPTIONS,
    presets=(
        Preset("standard", "Standard", {}, "all defaults"),
        Preset("atlas", "Atlas map", {"map_mode": "atlas"}, "the cards in atlas order"),
        Preset("purist", "Purist", {"canon_points": "0"}, "kills only"),
        Preset(
            "plain",
            "Plain",
            {
                "appendix_terrain": "false",
                "appendix_weapons": "false",
                "appendix_artefacts": "false",
                "appendix_departments": "false",
                "appendix_insanity": "false",
            },
            "no appendix rules",
        ),
        Preset("draft", "Draft", {"deal": "draft"}, "seats draft their characters"),
    ),
    # 2 since 2026-11-27: a paralysed character may no longer HOLD (R5.2, R13.4), so a
    # record of version 1 with such a HOLD no longer replays.
    rules_version="2",
    seat_names=("Seat 1", "Seat 2", "Seat 3", "Seat 4"),
    rules_summary=RULES_SUMMARY,
    notation_help=NOTATION_HELP,
    has_chance=False,
    has_hidden_information=True,
)


class GenerationZeroEngine(Engine[GenerationZeroState, str]):
    """Generation Zero (spec ``generation_zero``); moves are canonical strings."""

    info = INFO
    #: A turn is many small decisions of one seat (R5): the bot answers the mover privately
    #: with what is pending and posts the board only when another seat is to decide.
    many_decisions_per_turn = True

    # ---- options -------------------------------------------------------------------------

    def complete_options(self, given: Mapping[str, OptionValue]) -> dict[str, OptionValue]:
        """Defaults filled; the ``content`` set is loaded and checked (``UsageError`` naming
        the file and the problem); ``monsters`` checked against the set's Monster cards."""
        options = super().complete_options(given)
        source = str(options["content"]).strip()
        options["content"] = "default" if source.lower() == "default" else source
        content = load_content(str(options["content"]))
        monsters = int(options["monsters"])
        if monsters > len(content.monsters):
            raise UsageError(
                f"option monsters: {monsters} is more than the {len(content.monsters)} "
                "Monster cards of the set"
            )
        return options

    def options_for(
        self, options: Mapping[str, OptionValue], players: int
    ) -> dict[str, OptionValue]:
        """``max_rounds`` and ``monsters`` from the preset ``p<players>`` when not given.
        Raises :class:`UsageError` when the set has no preset for ``players``."""
        opts = self.complete_options(options)
        content = load_content(str(opts["content"]))
        if players not in content.presets:
            raise UsageError(f"the content set has no preset for {players} players")
        preset = content.presets[players]
        if opts["max_rounds"] == FROM_PRESET:
            opts["max_rounds"] = preset.max_rounds
        if opts["monsters"] == FROM_PRESET:
            opts["monsters"] = min(preset.monsters, len(content.monsters))
        return opts

    def _rules(self, options: Mapping[str, OptionValue], players: int) -> Rules:
        opts = self.options_for(options, players)
        content = load_content(str(opts["content"]))
        return Rules(content, tuple(opts.items()))

    # ---- the contract ----------------------------------------------------------------------

    def new_game(
        self, players: int, options: Mapping[str, OptionValue], seed: int
    ) -> GenerationZeroState:
        """A new game (3.4): everything random is drawn here from ``seed``."""
        self.check_players(players)
        rules = self._rules(options, players)
        doc, _brought = new_position(rules, players, seed)
        game = Game(rules, doc)
        game.settle()
        return GenerationZeroState(rules, print_position(doc))

    def to_move(self, state: GenerationZeroState) -> tuple[int, ...]:
        seat = state.game().decider()
        return () if seat is None else (seat,)

    def legal_moves(self, state: GenerationZeroState, seat: int) -> Sequence[str]:
        game = state.game()
        if game.decider() != seat:
            return []
        return sorted(set(game.decisions()))

    def parse_move(self, state: GenerationZeroState, seat: int, text: str) -> str:
        """The canonical legal move ``text`` denotes (6.1–6.4).

        Raises :class:`GameOverError` after the end, :class:`NotationError` for a malformed
        move, :class:`NotYourTurnError` when ``seat`` (or the ``[k]`` prefix) may not decide
        now, :class:`IllegalMoveError` with the reason otherwise.
        """
        game = state.game()
        decider = game.decider()
        if decider is None:
            raise GameOverError("the game is over", text=text)
        body = text
        prefix = SEAT_PREFIX.match(text)
        if prefix:
            body = text[prefix.end() :]
        thrust = (
            game.d["part"] != "draft"
            and not game.d["queue"]
            and (
                game.d["fight"] is not None
                or (
                    game.d["act"] is None
                    and game.d["battle"] is not None
                    and bool(game.d["battle"]["cur"])
                )
            )
        )
        verb, args = read_move(game, body, thrust)
        if prefix and int(prefix.group(1)) != decider:
            raise NotYourTurnError(f"seat {prefix.group(1)} may not decide now", text=text)
        if seat != decider:
            raise NotYourTurnError(f"seat {seat} may not decide now", text=text)
        if verb == "resign":
            raise IllegalMoveError("resign is a command of its own, not a move", text=text)
        legal = game.decisions()
        candidate = self._canonical(game, verb, args, text)
        if candidate in legal:
            return candidate
        if verb in ("special", "dept"):
            key = sorted(candidate.split())
            matches = [m for m in legal if sorted(m.split()) == key]
            if len(matches) == 1:
                return matches[0]
        raise IllegalMoveError(_why_illegal(game, verb, args, legal), text=text)

    def _canonical(self, game: Game, verb: str, args: list[str], text: str) -> str:
        """The canonical string of a read move; full paths become their canonical form."""
        if verb == "move" and len(args) >= 2:
            cid = args[0]
            slots = args[1:]
            if cid in game.chars and game.alive(cid) and len(slots) >= 2:
                return f"move {cid} " + self._path_form(game, cid, "move", slots, text)
        if verb in ("flee", "steer") and len(args) >= 2:
            mover = self._mover(game, verb)
            if mover:
                return f"{verb} " + self._path_form(game, mover, verb, args, text)
            raise IllegalMoveError(f"there is nothing to {verb} now", text=text)
        return " ".join([verb, *args])

    @staticmethod
    def _mover(game: Game, verb: str) -> str:
        d = game.d
        if verb == "steer":
            if d["queue"] and d["queue"][0]["kind"] == "steer":
                return str(d["queue"][0]["canon"])
            return ""
        if d["fight"] is not None:
            return str(d["fight"]["char"])
        if d["battle"] is not None and d["battle"]["cur"]:
            return str(d["battle"]["cur"])
        return ""

    @staticmethod
    def _path_form(game: Game, mover: str, verb: str, slots: list[str], text: str) -> str:
        """R6.3 / 6.2 "Paths": an exact path if the slots form a chain from the mover."""
        origin = game.d["canons"][mover]["at"] if mover[0] == "C" else game.chars[mover]["at"]
        path = [game.loc_of_label(s) for s in slots]
        if not origin or not game.is_chain(origin, path):
            if verb == "move" and mover[0] == "S":
                return " ".join(slots)
            raise IllegalMoveError(f"{' '.join(slots)} is not a path from {mover}", text=text)
        if mover[0] == "C":
            budget = game.content.canons[game.d["canons"][mover]["card"]].speed
            kind = "canon"
        else:
            budget = game.stat(mover, "speed")
            kind = "flee" if verb == "flee" else "move"
        if not game.path_cost_ok(origin, path, budget):
            cost = sum(game.cost(loc) for loc in path)
            raise IllegalMoveError(
                f"the path {'-'.join(slots)} costs {cost}, more than {mover}'s Speed of {budget} "
                "(R6.1)",
                text=text,
            )
        problem = game.path_problem(mover, kind, origin, path)
        if problem:
            raise IllegalMoveError(f"{problem} (R6.2)", text=text)
        if kind == "move" and mover[0] == "S":
            return " ".join(game.label(loc) for loc in game.sue_waypoints(path))
        return slots[-1]

    def format_move(self, state: GenerationZeroState, move: str) -> str:
        return move

    def apply(
        self, state: GenerationZeroState, seat: int, move: str
    ) -> Transition[GenerationZeroState]:
        """Play the canonical legal ``move``; never mutates ``state``."""
        game = state.working()
        before = state.doc
        actor = game.acting_char() or ""
        words = move.split()
        if not actor and len(words) > 1 and words[1][:1] in "AST" and words[1] in game.chars:
            actor = words[1]
        location = game.chars[actor]["at"] if actor in game.chars else ""
        fighting = before["fight"] is not None or before["battle"] is not None
        game.play(move)
        target = next(
            (w for w in words[1:] if w != actor and w[:1] in "ASTMC" and w[1:].isdigit()), ""
        )
        last = LastDecision(
            kind=words[0],
            seat=seat,
            char=actor,
            path=game.path,
            location=game.path[-1] if game.path else location,
            target=target,
            text=move,
        )
        log = state.log
        if game.log is not None:
            log = (state.log if fighting else ()) + tuple(game.log)
            log = log[-LOG_LINES:]
        new = GenerationZeroState.of_doc(state.rules, game.d, last, log)
        return Transition(new, tuple(game.events))

    def outcome(self, state: GenerationZeroState) -> Outcome | None:
        d = state.doc
        if d["part"] != "over":
            return None
        game = state.game()
        ranking = tuple(tuple(group) for group in game.ranking())
        scores = dict(enumerate(game.scores()))
        return Outcome(str(d["end"]), ranking[0], ranking, scores)

    def ended_view(self, view: Any, outcome: Outcome) -> Any:
        """As :meth:`Engine.ended_view`, with no character's decision pending (``to_act``)
        and no prompt: nobody acts in an ended game."""
        ended = super().ended_view(view, outcome)
        if ended is view:
            return view
        return replace(ended, to_act=None, prompt=None)

    def view(self, state: GenerationZeroState, viewer: int | None) -> GenerationZeroView:
        """R14: the blanked position plus what the renderer and the bot need."""
        game = state.game()
        seat = game.decider()
        return GenerationZeroView(
            data=blank_position(state.doc, viewer),
            content=state.rules.content,
            viewer=viewer,
            last=state.last,
            combat_log=state.log,
            to_act=game.acting_char(),
            prompt=_prompt(game),
            to_move=() if seat is None else (seat,),
            outcome=self.outcome(state),
            scores=tuple(game.scores()),
            max_health={cid: game.max_hp(cid) for cid, _ in game.living()},
            options=state.rules.flags,
        )

    def determinize(self, view: Any, seat: int, seed: int) -> GenerationZeroState:
        """A full state consistent with ``view``, the :class:`GenerationZeroView` of ``seat``
        (R14): hidden Canon and Monster cards, other seats' ``brought`` lists and, during the
        draft, the seed are dealt at random from ``seed`` out of the cards not accounted for
        (:mod:`engines.generation_zero.determinize` gives the exact rule).

        The state keeps the view's last decision and combat log, is legal to play on, and
        ``self.view(result, seat) == view``. Raises :class:`ValueError` when ``view`` is not
        a Generation Zero view of ``seat``.
        """
        if not isinstance(view, GenerationZeroView) or view.viewer != seat or seat is None:
            raise ValueError(f"determinize needs the view of seat {seat}")
        doc = determinize_position(view.data, view.content, view.options, seed)
        rules = Rules(view.content, tuple(view.options.items()))
        # The dealt position is a fresh JSON-shaped object (lists, not tuples) that nothing
        # else holds, so the state owns it (``of_doc``): no print and re-parse per deal.
        return GenerationZeroState.of_doc(rules, doc, view.last, view.combat_log)

    def position(self, state: GenerationZeroState) -> str:
        return state.text

    def position_players(self, text: str) -> int | None:
        """The position's ``players`` key (7.1), when the text is a JSON object with an
        integer there."""
        try:
            data = json.loads(text)
        except ValueError:
            return None
        found = data.get("players") if isinstance(data, dict) else None
        return found if isinstance(found, int) and not isinstance(found, bool) else None

    def check_position_players(
        self, state: GenerationZeroState, players: int, *, explicit: bool
    ) -> None:
        """7.4: a position's ``players`` may not differ from an explicit ``--players``."""
        found = int(state.doc["players"])
        if explicit and found != players:
            raise UsageError(f"the position has {found} players but --players says {players}")

    def from_position(self, text: str, options: Mapping[str, OptionValue]) -> GenerationZeroState:
        """A state from position notation (7.4), automatic steps run; ``UsageError`` if
        malformed."""
        opts = self.complete_options(options)
        content = load_content(str(opts["content"]))
        try:
            players = int(json.loads(text).get("players", 2))
        except (json.JSONDecodeError, AttributeError, TypeError, ValueError):
            players = 2
        # Options are taken as given: a value equal to another player count's preset may be
        # the player's own choice (``max_rounds=12`` in a 3-player game). Callers resolve them
        # for the position's own count (the CLI and ``/challenge position:`` read it first,
        # with ``position_players``); ``FROM_PRESET`` left in is resolved for it here.
        rules = self._rules(opts, players if players in content.presets else 2)
        try:
            doc = read_position(text, rules)
        except UsageError:
            raise
        except (TypeError, ValueError, KeyError, AttributeError, IndexError) as exc:
            # read_position checks every field it knows; a value of a shape it does not
            # expect there (a list where a location goes) is malformed all the same.
            raise UsageError(f"position: malformed ({type(exc).__name__}: {exc})") from exc
        game = Game(rules, doc)
        if doc["part"] == "draft":
            picks = len(doc["chars"])
            preset = content.presets[doc["players"]]
            if picks >= (preset.agents_per_player + preset.sues_per_player) * doc["players"]:
                finish_setup(rules, doc)
                game = Game(rules, doc)
        _settle_loaded(game)
        return GenerationZeroState(rules, print_position(doc))

    def dump_state(self, state: GenerationZeroState) -> dict[str, Any]:
        last = state.last
        return {
            "options": dict(state.rules.options),
            "position": state.text,
            "last": None
            if last is None
            else {
                "kind": last.kind,
                "seat": last.seat,
                "char": last.char,
                "path": list(last.path),
                "location": last.location,
                "target": last.target,
                "text": last.text,
            },
            "log": list(state.log),
        }

    def load_state(self, data: Mapping[str, Any]) -> GenerationZeroState:
        stored = dict(data["options"])
        options = {spec.name: stored[spec.name] for spec in OPTIONS}
        content = load_content(str(options["content"]))
        rules = Rules(content, tuple(options.items()))
        raw = data.get("last")
        last = None
        if raw is not None:
            last = LastDecision(
                raw["kind"],
                raw["seat"],
                raw["char"],
                tuple(raw["path"]),
                raw["location"],
                raw["target"],
                raw["text"],
            )
        text = str(data["position"])
        doc = json.loads(text)
        if doc.get("part") not in ("over", "draft"):
            # 7.4 / R12.2: a stored position with no fight left is over when loaded. The
            # engine never stores one, but a position from elsewhere (or an older engine)
            # may; rerun the automatic steps so ``outcome`` says so at once.
            game = Game(rules, doc)
            if not game.fights_left():
                _settle_loaded(game)
                text = print_position(doc)
        return GenerationZeroState(rules, text, last, tuple(data.get("log", ())))

    # ---- hooks ----------------------------------------------------------------------------

    def resign(self, state: GenerationZeroState, seat: int) -> Transition[GenerationZeroState]:
        """R12.4 (D-27, D-30): ``seat`` leaves play; its characters leave without credit.

        Raises :class:`GameOverError` after the end and :class:`IllegalMoveError` during the
        draft, for an unknown seat or one that has already resigned.
        """
        d = state.doc
        if d["part"] == "over":
            raise GameOverError("the game is over")
        if d["part"] == "draft":
            raise IllegalMoveError("resign waits until the draft is over (D-30)")
        if not 0 <= seat < d["players"] or d["seats"][seat]["out"]:
            raise IllegalMoveError(f"seat {seat} is not playing")
        game = state.working()
        game.resign(seat)
        last = LastDecision("resign", seat, "", (), "", "", "resign")
        new = GenerationZeroState.of_doc(state.rules, game.d, last, state.log)
        return Transition(new, tuple(game.events))

    def timeout_moves(self, state: GenerationZeroState, seat: int, rng: Rng) -> list[str] | None:
        """Spec 8.4: the default of the one decision that timed out (:func:`default_decision`).

        One decision per time-out: when the seat decides again in the same turn, that next
        decision has its own deadline. Empty when ``seat`` is not to move; ``rng`` is unused
        (the defaults are deterministic).
        """
        if seat not in self.to_move(state):
            return []
        return [default_decision(self, state)]

    def prompt(self, state: GenerationZeroState, seat: int) -> str | None:
        game = state.game()
        if game.decider() != seat:
            return None
        return _prompt(game)

    def suggest_moves(
        self, state: GenerationZeroState, seat: int, typed: str, limit: int
    ) -> list[str] | None:
        """Legal moves starting with what was typed (case-insensitive), at most ``limit``,
        shortest first and numbers in their order (``rest S1`` before a four-step path,
        ``L7`` before ``L10``), so one-step decisions are not crowded out by long paths;
        when more match than ``limit``, one entry per distinct next word that is itself a
        move is offered first."""
        texts = self.legal_move_texts(state, seat)
        low = " ".join(typed.lower().split())
        matching = sorted((t for t in texts if t.lower().startswith(low)), key=_reading_order)
        if len(matching) <= limit:
            return matching
        depth = len(low.split())
        heads: list[str] = []
        for t in matching:
            head = " ".join(t.split()[: max(1, depth + 1)])
            if head not in heads and head in texts:
                heads.append(head)
        return (heads + [t for t in matching if t not in heads])[:limit]

    def suggestion_label(self, state: GenerationZeroState, seat: int, text: str) -> str:
        """``text`` with the names of the cards it names by id (``pick kay_seven``, ``dept A2
        temp_dowtf``): ``pick kay_seven — Unit K-7 "Kay-Seven"``. The ids are the seat's own
        draft or summons, so their names tell it nothing it does not hold."""
        content = state.rules.content
        names = [name for word in text.split() if (name := content.card_name(word)) is not None]
        return f"{text} — {', '.join(names)}" if names else text

    def seat_names(self, players: int, options: Mapping[str, OptionValue]) -> tuple[str, ...]:
        return self.info.seat_names[:players]


def _reading_order(text: str) -> tuple[int, list[tuple[str, int]]]:
    """The order moves are offered in: fewer words first, then word by word with the
    number in an id compared as a number (``L7`` < ``L10``)."""
    words = text.split()
    return len(words), [
        (word.rstrip("0123456789"), int(word[len(word.rstrip("0123456789")) :] or -1))
        for word in words
    ]


def _settle_loaded(game: Game) -> None:
    """7.4: run the automatic steps of a position just read, as if it had just been reached.

    E1 (R12.2, ``no_fights_left``) is checked first: a position where no living Agent shares
    the board with a living 'Sue of another seat is over as loaded, whatever decision its
    frames say is pending. Then :meth:`Game.settle` (parts with nothing to order end, a
    finished turn passes on). Nothing happens during the draft (3.5).
    """
    if game.d["part"] not in ("over", "draft"):
        game.check_e1()
    game.settle()


def _why_illegal(game: Game, verb: str, args: list[str], legal: list[str]) -> str:
    """A reason for a refused move (6.4 ``illegal``) that reveals nothing hidden: in words,
    with what may be played instead, and the rule it implements in one parenthesis of ids at
    the end (the bot leaves that out; the command line keeps it)."""
    d = game.d
    for word in args:
        if word[:1] in "AST" and word[1:].isdigit() and word not in game.chars:
            return f"there is no {word} in this game"
        if word[:1] == "C" and word[1:].isdigit() and word not in d["canons"]:
            return f"there is no Canon {word} in this game"
        if word[:1] == "M" and word[1:].isdigit() and word not in d["monsters"]:
            return f"there is no Monster {word} in this game"
    if d["part"] == "draft":
        kind = "an Agent" if game.draft_kind() == "agent" else "a 'Sue"
        if verb != "pick":
            return f"the draft comes first: pick {kind} card, `pick <card id>` (3.5)"
        return f"that card cannot be picked now: pick {kind} card nobody has picked yet (3.5)"
    pending = game.acting_char()
    if d["queue"]:
        return _why_not_queue(game, d["queue"][0], legal)
    if d["fight"] is not None or (d["battle"] is not None and d["battle"]["cur"]):
        if verb in ("special", "dept"):
            if args and args[0] == pending:
                return (
                    f"a thrust names no actor: `{verb}` and the ability's parameters only, not "
                    f"`{verb} {pending}`; {pending} may play {_choices(legal)} (R9.5)"
                )
            return (
                f"{pending} cannot use that ability now: it must be charged, not yet used this "
                f"thrust, and given valid parameters; {pending} may play {_choices(legal)} "
                "(R9.5, R13.1)"
            )
        if verb == "flee":
            landings = sorted(
                (m.split()[1] for m in legal if m.startswith("flee ")), key=_reading_order
            )
            if landings:
                return (
                    f"{pending} cannot flee to {args[-1]}, which is too far or a landing it may "
                    f"not take; it may flee to {_joined(landings, 'or')} (R9.6)"
                )
            return (
                f"{pending} cannot flee now: fleeing needs more Speed than every enemy present "
                "and a landing within reach (R9.6)"
            )
        return f"it is {pending}'s thrust: {_choices(legal)} (R9.5)"
    if d["act"] is not None:
        return f"{pending} must now take its action: {_choices(legal)} (R5.2)"
    part = "'Sues" if d["part"] == "sue" else "Agents"
    now = f"Seat {d['seat'] + 1} is ordering its {part}"
    elsewhere = _NOT_NOW.get(verb)
    if elsewhere is not None:
        return f"{elsewhere}; {now} {_NOT_NOW_RULES[verb]}"
    if verb == "fight":
        if args and args[0][:1] == "M":
            return f"there is no offer to fight the Bree Monster now; {now} (R11.7)"
        return f"there is no pending battle at {args[0]}; {now} (R9.1)"
    if args and args[0] in game.chars:
        cid = args[0]
        ch = game.chars[cid]
        if ch["seat"] != d["seat"]:
            return f"{cid} belongs to another seat; {now} (R5)"
        if not ch["at"]:
            return f"{cid} is dead"
        if game.is_sue(cid) != (d["part"] == "sue"):
            return _wrong_part(game)
        if ch["acted"]:
            return f"{cid} has already been ordered this turn (R5)"
        if verb != "rest" and game.paralysed(cid):
            return f"{cid} is paralysed: it can only rest (`rest {cid}`) (R13.4)"
        if verb in ("special", "dept"):
            return (
                f"{cid} cannot use that ability now: it must be charged, usable in an ACT (not "
                "only in a thrust), and given valid parameters (R13.1, R13.2)"
            )
        if verb == "move":
            return _why_not_move(game, cid, args[1:])
        if verb == "chapter":
            if not game.is_sue(cid):
                return "only a 'Sue writes chapters (R7.1)"
            return f"{args[1]} is held by a 'Sue; a chapter takes a Canon no 'Sue holds (R7.1)"
        if verb == "engage":
            return (
                f"{cid} can engage only where it stands with an enemy 'Sue whose battle is not "
                "pending yet (R9.1)"
            )
    return "that move is not legal now (R5–R13)"


#: Verbs played at one moment only (6.2), refused while the active seat orders its characters:
#: where they belong, and the rules that say so.
_NOT_NOW = {
    "attack": "you can attack only in a thrust, in a battle or a Monster fight",
    "flee": "you can flee only in a thrust, in a battle or a Monster fight",
    "rescue": "a Tiara rescues only in a thrust, in a battle",
    "steer": "there is no Canon to steer now",
    "stay": "there is no Canon to steer now",
    "ensnare": "there is no ensnare check now: it comes after a 'Sue acts",
    "decline": "there is nothing to decline now",
    "upgrade": "there is no upgrade point to spend now",
    "crown": "there is no Crown to use now: it is chosen as a battle starts",
    "pick": "the draft is over",
}
_NOT_NOW_RULES = {
    "attack": "(R9.5)",
    "flee": "(R9.5)",
    "rescue": "(R9.5, R11.4)",
    "steer": "(R7.1, R7.4)",
    "stay": "(R7.1, R7.4)",
    "ensnare": "(R7.3)",
    "decline": "(R7.3, R11.7)",
    "upgrade": "(R10.3)",
    "crown": "(R9.2)",
    "pick": "(3.5)",
}


def _why_not_queue(game: Game, item: Doc, legal: list[str]) -> str:
    """What the first queued decision (8.1 item 2) asks for, with its commands: it comes
    before anything else."""
    cid = item["char"]
    choices = _choices(legal)
    kind = item["kind"]
    if kind == "upgrade":  # seven stats: named, not cut to `upgrade …` (review 3)
        stats = [m.split()[1] for m in legal if m.startswith("upgrade ") and len(m.split()) == 2]
        if len(stats) > 1:
            choices = f"`upgrade` and one of {_joined(stats, 'or')}"
        return f"{cid} must first spend an upgrade point: {choices} (R10.3)"
    if kind == "ensnare":
        return f"{cid} must first decide on the Canons here: {choices} (R7.3)"
    if kind == "crown":
        return f"{cid} must first choose the 'Sue its Crown weakens: {choices} (R9.2)"
    if kind == "bree":
        return f"{cid} must first answer the Bree offer: {choices} (R11.7)"
    seat = game.chars[cid]["seat"] + 1
    return f"Seat {seat} must first steer {item['canon']}: {choices} (R7.1, R7.4)"


def _wrong_part(game: Game) -> str:
    """R5: the 'Sue part comes before the Agent part of the same turn."""
    d = game.d
    if d["part"] == "sue":
        sues = [
            cid
            for cid, ch in game.living()
            if ch["seat"] == d["seat"] and game.is_sue(cid) and not ch["acted"]
        ]
        return (
            f"it is the 'Sue part of the turn: order {_joined(sues, 'and')} first (rest or act), "
            "then the Agents; `end` would end the whole turn (R5)"
        )
    return "the 'Sue part of this turn is over: now order the Agents (R5)"


def _why_not_move(game: Game, cid: str, slots: list[str]) -> str:
    """Why no MOVE of ``cid`` lands where ``slots`` say: too far for its Speed (R6.1), a
    landing R6.2 forbids, or (a 'Sue) no path crossing exactly those Monsters (R6.3)."""
    speed = game.stat(cid, "speed")
    if speed < 1:
        return f"{cid} has Speed 0 and cannot move (R6.1)"
    origin = game.chars[cid]["at"]
    landing = game.loc_of_label(slots[-1])
    paths = [path for path in game.paths(origin, speed) if path[-1] == landing]
    if not paths:
        costly = ", and entering a river or mountain costs 2" if game.terrain_on else ""
        return f"{slots[-1]} is too far: {cid} moves up to {speed} (its Speed){costly} (R6.1)"
    for path in paths:
        problem = game.path_problem(cid, "move", origin, path)
        if problem:
            return f"{problem} (R6.2)"
    crossed = slots[:-1]
    bare = [slot for slot in crossed if not game.monster_at(game.loc_of_label(slot))]
    if bare:
        return (
            f"{bare[0]} holds no Monster, and {' '.join(slots)} is no path of adjacent slots "
            f"from {cid}: a 'Sue's move names only the Monster slots she crosses, then her "
            "landing (R6.3)"
        )
    return (
        f"no path of {cid} within its Speed crosses exactly those Monsters and lands on "
        f"{slots[-1]} (R6.3)"
    )


def _choices(legal: Sequence[str]) -> str:
    """The legal decisions as a sentence part, verbs in the rules' order with the answers that
    do nothing (``decline``, ``stay``) last: every decision when there are few (``attack S2``,
    ``special`` or ``flee L6``); else a verb (and character) with three or more as one entry,
    ``move A1 …``."""
    verbs: list[str] = []
    for move in legal:
        verb = move.split()[0]
        if verb not in verbs:
            verbs.append(verb)
    verbs.sort(key=lambda verb: verb in ("decline", "stay", "end"))
    moves = [
        m
        for verb in verbs
        for m in sorted({m for m in legal if m.split()[0] == verb}, key=_reading_order)
    ]
    if len(moves) <= 5:
        return _joined([f"`{m}`" for m in moves], "or")
    groups: dict[str, list[str]] = {}
    for move in moves:
        words = move.split()
        key = " ".join(words[:2]) if len(words) > 2 and words[1][:1] in "AST" else words[0]
        groups.setdefault(key, []).append(move)
    shown: list[str] = []
    for key, ms in groups.items():
        if len(ms) <= 2:
            shown += [f"`{m}`" for m in ms]
            continue
        then = ms[0].split()[len(key.split())]
        kind = then.rstrip("0123456789")
        shown.append(f"`{key} {kind if kind != then and len(kind) == 1 else ''}…`")
    return _joined(shown, "or")


def _joined(items: Sequence[str], last: str) -> str:
    """``a``, ``a or b``, ``a, b or c``."""
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {last} {items[-1]}"


def _prompt(game: Game) -> str:
    """What is pending and for whom (8.1), public and short (the board's panel shows it): the
    choices of a thrust as of a Monster fight (R9.5, R8.2), and in the ordering parts what
    `end` does, which ends the whole turn (R5, D-7), not only the 'Sue part."""
    d = game.d
    if d["part"] == "over":
        return f"The game is over ({d['end']})."
    if d["part"] == "draft":
        kind = "an Agent" if game.draft_kind() == "agent" else "a 'Sue"
        return f"Seat {d['seat'] + 1} picks {kind} card."
    if d["queue"]:
        item = d["queue"][0]
        cid = item["char"]
        texts = {
            "upgrade": f"{cid} spends an upgrade point (`upgrade <stat>`, {item['n']} left).",
            "ensnare": f"{cid} may ensnare Canons here (`ensnare C…` or `decline`).",
            "crown": f"{cid} chooses the 'Sue its Crown weakens (`crown S…`).",
            "bree": f"{cid} may fight the Bree Monster (`fight M…` or `decline`).",
            "steer": (
                f"Seat {game.chars[cid]['seat'] + 1} steers {item['canon']} (`steer L…` or `stay`)."
            ),
        }
        return texts[item["kind"]]
    if d["fight"] is not None:
        f = d["fight"]
        return f"{f['char']} fights {f['monster']}: attack, flee or use an ability."
    if d["act"] is not None and d["act"]["stage"] == "action":
        cid = d["act"]["char"]
        return f"{cid} takes its action: hold, move{', chapter' if cid[0] == 'S' else ', engage'}."
    if d["battle"] is not None and d["battle"]["cur"]:
        b = d["battle"]
        return (
            f"{b['cur']} thrusts in the battle at {game.label(b['at'])} (round {b['round']}): "
            "attack, flee or use an ability."
        )
    rounds = f"(round {d['round']}/{game.max_rounds})"
    if d["part"] == "sue":
        return (
            f"Seat {d['seat'] + 1} orders its 'Sues {rounds}, then its Agents: each rests or "
            "acts. Playing `end` ends the whole turn: every character not yet ordered rests."
        )
    return (
        f"Seat {d['seat'] + 1} orders its Agents {rounds}: each rests or acts. Playing `end` "
        "ends the turn: every Agent not yet ordered rests."
    )


def default_decision(engine: GenerationZeroEngine, state: GenerationZeroState) -> str:
    """The move the bot plays when a decision times out (spec 8.4), as canonical text.

    An unordered character rests; a thrust attacks the enemy it damages most (ties: lowest
    Health, then earliest arrival) with no ability and never flees; an upgrade goes to
    ``attack`` (else the first stat still allowed); a Crown picks the 'Sue with the highest
    Attack (ties: lowest id); an ENSNARE CHECK takes as many as allowed (slowest first when the
    seat knows them, else lowest numbers); the Bree offer is declined; a steer stays; a draft
    pick takes the lowest id still free. Raises :class:`GameOverError` once over.
    """
    game = state.game()
    d = game.d
    if game.decider() is None:
        raise GameOverError("the game is over")
    legal = game.decisions()
    if d["part"] == "draft":
        return f"pick {min(game.draft_choices())}"
    if d["queue"]:
        item = d["queue"][0]
        kind = item["kind"]
        cid = item["char"]
        if kind == "upgrade":
            stats = game.upgrade_choices(cid)
            return f"upgrade {'attack' if 'attack' in stats else stats[0]}"
        if kind == "crown":
            sues = game.crown_choices(cid)
            best = sorted(sues, key=lambda s: (-game.stat(s, "attack"), s))[0]
            return f"crown {best}"
        if kind == "ensnare":
            seat = game.chars[cid]["seat"]
            here = game.canons_here(game.chars[cid]["at"])

            def speed_key(token: str) -> tuple[int, int]:
                canon = d["canons"][token]
                known = seat in canon["known"] or canon["public"]
                speed = game.content.canons[canon["card"]].speed if known else 9
                return (speed, int(token[1:]))

            room = min(game.capacity_left(cid), len(here))
            chosen = sorted(sorted(here, key=speed_key)[:room], key=lambda t: int(t[1:]))
            return "ensnare " + " ".join(chosen) if chosen else "decline"
        return "decline" if kind == "bree" else "stay"
    if d["fight"] is not None or (
        d["act"] is None and d["battle"] is not None and d["battle"]["cur"]
    ):
        actor = d["fight"]["char"] if d["fight"] is not None else d["battle"]["cur"]
        targets = game.present_enemies(actor)

        def key(target: str) -> tuple[int, int, int, str]:
            arr = 0 if target[0] == "M" else game.chars[target]["arr"]
            return (-game.damage(actor, target)[2], game.any_hp(target), arr, target)

        if targets:
            return f"attack {sorted(targets, key=key)[0]}"
        return sorted(legal)[0]
    if d["act"] is not None:
        return f"hold {d['act']['char']}"
    for text in sorted(legal):
        if text.startswith("rest "):
            return text
    return "end"
