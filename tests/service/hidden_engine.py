"""Secret cards, a test game with hidden information, and the leak harness for any such game.

:func:`play_checking_secrets` plays a random game of any registered engine with hidden
information through the service and the presenters, and fails at the first private fact
that reaches a public place (see its docstring); :class:`SecretCards` is the small game it
is proven on, until Generation Zero exists.

It exercises what the platform must do for games like Generation Zero (spec R14) without
depending on them: every seat holds secret cards with distinctive names; some moves show a
card privately to one seat (an event with ``visible_to``), some make it public; a chance node
at the start of every round whispers a card to one seat (a private event in an automatic
step); a turn is up to two decisions by the same seat
(:attr:`~engines.base.Engine.many_decisions_per_turn`).

Rules. ``players`` seats (2–4) are dealt :data:`HAND` cards each from :data:`CARDS` by the
seed. Rounds: at the start of each, the wind whispers (chance ``whisper:k:j.i``: seat ``k``
learns card ``i`` of seat ``j``; ``whisper:-`` when nothing is left to learn). Then each seat
in order takes a turn of at most two decisions, each one of:

* ``peek j.i`` — look at card ``i`` (1-based) of seat ``j``: only the mover learns it;
* ``tell j i`` — show one's own card ``i`` to seat ``j`` (again, if need be): only seat
  ``j`` learns it;
* ``show i`` — turn one's own card ``i`` face up: everyone learns it;
* ``done`` — end the turn now.

After the second decision the turn ends by itself. After ``rounds`` rounds (option, default
2) the game ends: each seat scores the other seats' cards it knows (public ones included);
the highest score wins. Move texts name seats and slots, never cards, so the move log is
public. The renderer (:func:`render_secret_cards`) writes the view's card names into a PNG
text chunk, so a test can read exactly what a picture shows.
"""

from __future__ import annotations

import io
import json
import random
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, fields, is_dataclass, replace
from typing import Any

from PIL import Image, ImageDraw
from PIL.PngImagePlugin import PngInfo

from bot import presenters
from bot.service import GameService, GameSnapshot, ServiceError
from bot.service._codec import load_events
from bot.service.models import PRIVATE_EVENTS
from engines import get_engine
from engines.base import (
    CHANCE,
    ChanceOutcome,
    Engine,
    Event,
    GameInfo,
    GameOverError,
    IllegalMoveError,
    MoveError,
    NotationError,
    NotYourTurnError,
    OptionSpec,
    OptionValue,
    Outcome,
    Transition,
    UsageError,
)
from engines.rng import Rng
from render import render_png

__all__ = [
    "CARDS",
    "HAND",
    "LeakError",
    "LeakReport",
    "SecretCards",
    "SecretCardsState",
    "SecretCardsView",
    "image_facts",
    "mentioned",
    "play_checking_secrets",
    "render_secret_cards",
    "view_facts",
]

#: The card names: distinctive words no bot sentence contains, so a leak is easy to spot.
CARDS = (
    "Zanzibar",
    "Quixote",
    "Marzipan",
    "Obsidian",
    "Vermilion",
    "Kumquat",
    "Xylophone",
    "Juniper",
    "Walrus",
    "Pterodactyl",
    "Gazebo",
    "Yodeler",
    "Fjord",
    "Bazooka",
    "Quagmire",
    "Mandolin",
)
#: Cards dealt to each seat.
HAND = 3
#: The PNG text chunk in which :func:`render_secret_cards` lists the cards a picture shows.
FACTS_CHUNK = "facts"

Card = tuple[int, int]  # (seat, slot index from 0)


@dataclass(frozen=True, slots=True)
class SecretCardsState:
    """The full state: every hand, who knows which card, what is public, whose decision.

    ``known[s]`` holds the cards of other seats seat ``s`` has seen privately; ``public`` the
    cards turned face up. ``step`` is the decision of the turn (0 or 1); ``pending`` is true
    at the whisper chance node that opens a round; ``seed``/``draws`` feed :mod:`engines.rng`.
    """

    hands: tuple[tuple[str, ...], ...]
    known: tuple[frozenset[Card], ...]
    public: frozenset[Card]
    turn: int
    step: int
    round: int
    rounds: int
    pending: bool
    over: bool
    seed: int
    draws: int


@dataclass(frozen=True, slots=True)
class SecretCardsView:
    """What ``viewer`` (a seat, or ``None``) may see: ``hands`` with ``""`` for each card it
    does not know, plus the public counts and whose decision it is."""

    viewer: int | None
    hands: tuple[tuple[str, ...], ...]
    known_counts: tuple[int, ...]
    turn: int | None
    step: int
    round: int
    rounds: int


class SecretCards(Engine[SecretCardsState, str]):
    """Secret cards (see the module docstring): hidden hands, private and public reveals."""

    info = GameInfo(
        id="secretcards",
        name="Secret cards",
        min_players=2,
        max_players=4,
        default_players=2,
        options=(OptionSpec("rounds", "int", 2, "rounds to play", minimum=1, maximum=9),),
        presets=(),
        rules_version="1",
        seat_names=("Green", "Red", "Yellow", "Blue"),
        rules_summary="Learn the other seats' secret cards; the one who knows most wins.",
        notation_help="`peek 2.1`, `tell 2 3`, `show 1`, `done`",
        has_chance=True,
        has_hidden_information=True,
    )
    many_decisions_per_turn = True

    # ---- setup -----------------------------------------------------------------------

    def new_game(
        self, players: int, options: Mapping[str, OptionValue], seed: int
    ) -> SecretCardsState:
        self.check_players(players)
        rng = Rng(seed, 0)
        deck = rng.shuffled(CARDS)
        hands = tuple(tuple(deck[HAND * s : HAND * s + HAND]) for s in range(players))
        return SecretCardsState(
            hands=hands,
            known=(frozenset(),) * players,
            public=frozenset(),
            turn=0,
            step=0,
            round=1,
            rounds=int(options.get("rounds", 2)),
            pending=True,
            over=False,
            seed=seed,
            draws=rng.counter,
        )

    def rng_state(self, state: SecretCardsState) -> tuple[int, int]:
        return (state.seed, state.draws)

    # ---- whose decision ---------------------------------------------------------------

    def to_move(self, state: SecretCardsState) -> tuple[int, ...]:
        if state.over:
            return ()
        return (CHANCE,) if state.pending else (state.turn,)

    def chance_outcomes(self, state: SecretCardsState) -> tuple[ChanceOutcome, ...]:
        if not state.pending or state.over:
            return ()
        texts = [
            f"whisper:{k}:{j + 1}.{i + 1}"
            for k in range(len(state.hands))
            for j, i in self._unknown_to(state, k)
        ]
        if not texts:
            return (ChanceOutcome("whisper:-", 1.0),)
        return tuple(ChanceOutcome(t, 1 / len(texts)) for t in texts)

    def apply_chance(self, state: SecretCardsState, text: str) -> Transition[SecretCardsState]:
        if text not in {o.text for o in self.chance_outcomes(state)}:
            raise IllegalMoveError(f"{text!r} is not a chance outcome here", text=text)
        after = replace(state, pending=False, draws=state.draws + 1)
        if text == "whisper:-":
            return Transition(after, (Event("whisper", None, "the wind is silent"),))
        _, seat, card = text.split(":")
        k = int(seat)
        owner, slot = self._card(card)
        known = list(state.known)
        known[k] = known[k] | {(owner, slot)}
        after = replace(after, known=tuple(known))
        name = self.info.seat_names[k]
        return Transition(
            after,
            (
                Event("whisper", None, f"the wind whispers to {name}"),
                Event(
                    "whispered",
                    k,
                    f"the wind whispers: card {slot + 1} of "
                    f"{self.info.seat_names[owner]} is {state.hands[owner][slot]}",
                    visible_to=frozenset({k}),
                ),
            ),
        )

    # ---- moves ------------------------------------------------------------------------

    def legal_moves(self, state: SecretCardsState, seat: int) -> Sequence[str]:
        if self.to_move(state) != (seat,):
            return []
        moves = [f"peek {j + 1}.{i + 1}" for j, i in self._unknown_to(state, seat)]
        for i in range(HAND):
            if (seat, i) in state.public:
                continue
            moves.append(f"show {i + 1}")
            moves += [f"tell {k + 1} {i + 1}" for k in range(len(state.hands)) if k != seat]
        return [*moves, "done"]

    def parse_move(self, state: SecretCardsState, seat: int, text: str) -> str:
        if state.over:
            raise GameOverError("the game is over", text=text)
        move = " ".join(text.split()).lower()
        word = move.split(" ")[0] if move else ""
        if word not in ("peek", "tell", "show", "done"):
            raise NotationError(f"{text!r} is not a move: {self.info.notation_help}", text=text)
        if self.to_move(state) != (seat,):
            raise NotYourTurnError("it is not your decision", text=text)
        if move not in self.legal_moves(state, seat):
            raise IllegalMoveError(f"{move!r} is not allowed now", text=text)
        return move

    def format_move(self, state: SecretCardsState, move: str) -> str:
        return move

    def apply(self, state: SecretCardsState, seat: int, move: str) -> Transition[SecretCardsState]:
        word, *args = move.split(" ")
        names = self.info.seat_names
        events: list[Event] = []
        if word == "peek":
            owner, slot = self._card(args[0])
            known = list(state.known)
            known[seat] = known[seat] | {(owner, slot)}
            state = replace(state, known=tuple(known))
            events += [
                Event("peeked", seat, f"looks at card {slot + 1} of {names[owner]}"),
                Event(
                    "seen",
                    seat,
                    f"card {slot + 1} of {names[owner]} is {state.hands[owner][slot]}",
                    visible_to=frozenset({seat}),
                ),
            ]
        elif word == "tell":
            to, slot = int(args[0]) - 1, int(args[1]) - 1
            known = list(state.known)
            known[to] = known[to] | {(seat, slot)}
            state = replace(state, known=tuple(known))
            events += [
                Event("told", seat, f"shows card {slot + 1} to {names[to]}"),
                Event(
                    "shown",
                    seat,
                    f"{names[seat]} showed you card {slot + 1}: {state.hands[seat][slot]}",
                    visible_to=frozenset({to}),
                ),
            ]
        elif word == "show":
            slot = int(args[0]) - 1
            state = replace(state, public=state.public | {(seat, slot)})
            events.append(Event("revealed", seat, f"turns up {state.hands[seat][slot]}"))
        if word != "done" and state.step == 0:
            return Transition(replace(state, step=1), tuple(events))
        return Transition(self._end_turn(state), tuple(events))

    def _end_turn(self, state: SecretCardsState) -> SecretCardsState:
        turn = (state.turn + 1) % len(state.hands)
        if turn != 0:
            return replace(state, turn=turn, step=0)
        if state.round == state.rounds:
            return replace(state, step=0, over=True)
        return replace(state, turn=0, step=0, round=state.round + 1, pending=True)

    def prompt(self, state: SecretCardsState, seat: int) -> str | None:
        if self.to_move(state) != (seat,):
            return None
        if state.step == 0:
            return "First decision of the turn: `peek`, `tell`, `show` or `done`."
        return "Second decision of the turn: one more `peek`, `tell` or `show`, or `done`."

    # ---- results and views ------------------------------------------------------------

    def outcome(self, state: SecretCardsState) -> Outcome | None:
        if not state.over:
            return None
        scores = {s: float(self._score(state, s)) for s in range(len(state.hands))}
        levels = sorted(set(scores.values()), reverse=True)
        ranking = tuple(tuple(s for s in scores if scores[s] == v) for v in levels)
        return Outcome("rounds", ranking[0], ranking, scores)

    def _score(self, state: SecretCardsState, seat: int) -> int:
        return sum(1 for card in state.known[seat] | state.public if card[0] != seat)

    def view(self, state: SecretCardsState, viewer: int | None) -> SecretCardsView:
        def shown(owner: int, slot: int) -> bool:
            card = (owner, slot)
            if card in state.public:
                return True
            return viewer is not None and (owner == viewer or card in state.known[viewer])

        hands = tuple(
            tuple(name if shown(s, i) else "" for i, name in enumerate(hand))
            for s, hand in enumerate(state.hands)
        )
        return SecretCardsView(
            viewer=viewer,
            hands=hands,
            known_counts=tuple(len(k) for k in state.known),
            turn=None if state.over or state.pending else state.turn,
            step=state.step,
            round=state.round,
            rounds=state.rounds,
        )

    def _unknown_to(self, state: SecretCardsState, seat: int) -> list[Card]:
        return [
            (j, i)
            for j in range(len(state.hands))
            if j != seat
            for i in range(HAND)
            if (j, i) not in state.public and (j, i) not in state.known[seat]
        ]

    @staticmethod
    def _card(text: str) -> Card:
        seat, _, slot = text.partition(".")
        return int(seat) - 1, int(slot) - 1

    # ---- positions and storage --------------------------------------------------------

    def position(self, state: SecretCardsState) -> str:
        return json.dumps(self.dump_state(state), sort_keys=True, separators=(",", ":"))

    def from_position(self, text: str, options: Mapping[str, OptionValue]) -> SecretCardsState:
        try:
            return self.load_state(json.loads(text))
        except (ValueError, KeyError, TypeError) as exc:
            raise UsageError(f"malformed position: {exc}") from exc

    def dump_state(self, state: SecretCardsState) -> dict[str, Any]:
        return {
            "hands": [list(h) for h in state.hands],
            "known": [sorted([list(c) for c in k]) for k in state.known],
            "public": sorted([list(c) for c in state.public]),
            "turn": state.turn,
            "step": state.step,
            "round": state.round,
            "rounds": state.rounds,
            "pending": state.pending,
            "over": state.over,
            "seed": state.seed,
            "draws": state.draws,
        }

    def load_state(self, data: Mapping[str, Any]) -> SecretCardsState:
        return SecretCardsState(
            hands=tuple(tuple(h) for h in data["hands"]),
            known=tuple(frozenset((int(a), int(b)) for a, b in k) for k in data["known"]),
            public=frozenset((int(a), int(b)) for a, b in data["public"]),
            turn=int(data["turn"]),
            step=int(data["step"]),
            round=int(data["round"]),
            rounds=int(data["rounds"]),
            pending=bool(data["pending"]),
            over=bool(data["over"]),
            seed=int(data["seed"]),
            draws=int(data["draws"]),
        )


# --------------------------------------------------------------------------------------------
# The test renderer: a small picture whose PNG text chunk lists the card names it shows
# --------------------------------------------------------------------------------------------


def render_secret_cards(
    view: Any, /, *, seat_labels: Sequence[str] | None = None, perspective: int | None = None
) -> bytes:
    """A deterministic PNG of a :class:`SecretCardsView`: one row per seat, a filled box per
    card the view shows, and the shown card names in the ``facts`` text chunk (sorted, one
    per line), so :func:`image_facts` reads back exactly what the picture holds."""
    if not isinstance(view, SecretCardsView):
        raise TypeError(f"not a Secret cards view: {type(view).__name__}")
    image = Image.new("P", (20 * HAND + 10, 12 * len(view.hands) + 4), 0)
    image.putpalette([255, 255, 255, 40, 40, 40, 200, 60, 60])
    draw = ImageDraw.Draw(image)
    for seat, hand in enumerate(view.hands):
        for slot, name in enumerate(hand):
            box = (5 + 20 * slot, 2 + 12 * seat, 20 + 20 * slot, 11 + 12 * seat)
            draw.rectangle(box, fill=2 if name else 1)
    info = PngInfo()
    info.add_text(FACTS_CHUNK, "\n".join(sorted(n for hand in view.hands for n in hand if n)))
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", pnginfo=info)
    return buffer.getvalue()


def image_facts(png: bytes) -> set[str]:
    """The card names a :func:`render_secret_cards` picture shows (decoded from the PNG)."""
    image = Image.open(io.BytesIO(png))
    image.load()
    text = image.info.get(FACTS_CHUNK, "")
    return {line for line in str(text).split("\n") if line}


# --------------------------------------------------------------------------------------------
# The leak harness: any game with hidden information, played through the service
# --------------------------------------------------------------------------------------------

#: What a view shows, as strings (card names, identities…); see :func:`view_facts`.
Facts = Callable[[Any], set[str]]
#: Reads the facts a PNG shows back from its bytes (only test renderers can).
ImageFacts = Callable[[bytes], set[str]]


class LeakError(AssertionError):
    """A private fact reached a public place, or a player's view is not exactly theirs."""


def view_facts(view: Any) -> set[str]:
    """Every string of at least 3 characters inside ``view``: dataclass fields, mapping keys
    and values, list and tuple items, recursively (a Generation Zero view is the position
    object of spec section 7, so its facts are card ids, slot labels, terrain names…).

    A fact *private* to a seat is then one its view shows and the spectator's does not.
    """
    found: set[str] = set()

    def walk(item: Any) -> None:
        if isinstance(item, str):
            if len(item) >= 3:
                found.add(item)
        elif is_dataclass(item) and not isinstance(item, type):
            for spec in fields(item):
                walk(getattr(item, spec.name))
        elif isinstance(item, Mapping):
            for key, value in item.items():
                walk(key)
                walk(value)
        elif isinstance(item, (list, tuple, set, frozenset)):
            for value in item:
                walk(value)

    walk(view)
    return found


def mentioned(text: str, facts: Iterable[str]) -> list[str]:
    """The ``facts`` that ``text`` mentions as whole words, in any case, sorted."""
    return sorted(
        fact
        for fact in facts
        if re.search(rf"(?<![0-9A-Za-z]){re.escape(fact)}(?![0-9A-Za-z])", text, re.IGNORECASE)
    )


@dataclass(slots=True)
class LeakReport:
    """What :func:`play_checking_secrets` looked at (so a test can tell it really played)."""

    decisions: int = 0
    public_texts: int = 0
    public_images: int = 0
    private_views: int = 0
    autocompletes: int = 0
    private_events: int = 0
    continued_turns: int = 0
    resigned: bool = False
    outcome: Outcome | None = None


@dataclass(slots=True)
class _Secrets:
    """The facts of one state: public ones, each seat's, and every secret."""

    public: set[str]
    seats: dict[int, set[str]]

    @property
    def secrets(self) -> set[str]:
        every: set[str] = set()
        for facts in self.seats.values():
            every |= facts
        return every - self.public

    def hidden_from(self, seat: int) -> set[str]:
        return self.secrets - self.seats[seat]


class _Harness:
    """The state of one checked game; see :func:`play_checking_secrets`."""

    def __init__(
        self,
        service: GameService,
        engine: Engine[Any, Any],
        *,
        channel_id: int,
        spectator: int,
        facts: Facts,
        image_facts: ImageFacts | None,
    ) -> None:
        self.service = service
        self.engine = engine
        self.game = engine.info.id
        self.channel_id = channel_id
        self.spectator = spectator
        self.facts = facts
        self.image_facts = image_facts
        self.report = LeakReport()
        #: The decisions played so far in the turn under way (many decisions per turn).
        self.turn: list[str] = []

    async def state(self, game_id: int) -> Any:
        row = await self.service.database.games.get(game_id)
        assert row is not None
        return self.engine.loads(row.state_json)

    def secrets(self, state: Any, players: int) -> _Secrets:
        return _Secrets(
            public=self.facts(self.engine.view(state, None)),
            seats={s: self.facts(self.engine.view(state, s)) for s in range(players)},
        )

    def public(self, text: str, known: _Secrets, what: str) -> None:
        self.report.public_texts += 1
        leaked = mentioned(text, known.secrets)
        if leaked:
            raise LeakError(f"{what} (public) mentions private {leaked}: {text!r}")

    def private(self, text: str, seat: int, known: _Secrets, what: str) -> None:
        leaked = mentioned(text, known.hidden_from(seat))
        if leaked:
            raise LeakError(f"{what} (to seat {seat}) mentions another seat's {leaked}: {text!r}")

    async def board(self, snapshot: GameSnapshot, state: Any, known: _Secrets) -> None:
        """The public picture is the spectator's view, drawn; the snapshot holds no secret."""
        spectator_view = self.engine.view(state, None)
        if snapshot.view != spectator_view:
            raise LeakError(f"ply {snapshot.ply}: the snapshot's view is not the spectator's")
        if snapshot.is_active and (snapshot.position or snapshot.only_moves):
            raise LeakError(f"ply {snapshot.ply}: the snapshot carries the position or moves")
        png = await self.service.render(snapshot)
        self.report.public_images += 1
        if png != render_png(self.game, spectator_view):
            raise LeakError(f"ply {snapshot.ply}: the public image is not the spectator's view")
        if self.image_facts is not None:
            shown = self.image_facts(png)
            if shown & known.secrets or shown != known.public:
                raise LeakError(f"ply {snapshot.ply}: the public image shows {sorted(shown)}")

    async def snapshot_texts(self, snapshot: GameSnapshot, known: _Secrets) -> None:
        info = presenters.game_info_text(snapshot)
        if not snapshot.is_active:  # the position may be shown once the game is over
            info = "\n".join(x for x in info.split("\n") if not x.startswith("Position:"))
        self.public(info, known, "/game info")
        self.public(presenters.board_caption(snapshot), known, "the board caption")
        moves = await self.service.move_list(self.channel_id)
        self.public(presenters.move_list_text(snapshot, moves), known, "/game moves")
        for record in moves:
            if any(e.visible_to is not None for e in record.events):
                raise LeakError(f"ply {record.ply}: a private event is in the move list")

    async def private_views(self, snapshot: GameSnapshot, state: Any, known: _Secrets) -> None:
        """Each player's My view is exactly their seat's view and private events; a
        spectator gets a refusal naming nothing private."""
        log_rows = await self.service.database.games.moves(snapshot.game_id)
        for player in snapshot.players:
            seat = player.seat
            private = await self.service.game_private_view(snapshot.game_id, player.user_id)
            self.report.private_views += 1
            expected_view = self.engine.view(state, seat)
            if private.seat != seat or private.view != expected_view:
                raise LeakError(f"ply {snapshot.ply}: My view of seat {seat} is not its view")
            if self.facts(private.view) != known.seats[seat]:
                raise LeakError(f"ply {snapshot.ply}: My view of seat {seat} shows other facts")
            expected_events = [
                (row.ply, event)
                for row in log_rows
                for event in load_events(row.events_json)
                if event.visible_to is not None and seat in event.visible_to
            ][-PRIVATE_EVENTS:]
            if [(e.ply, e.event) for e in private.events] != expected_events:
                raise LeakError(f"ply {snapshot.ply}: seat {seat}'s private events differ")
            self.private(presenters.private_view_text(private), seat, known, "My view")
            png = await self.service.render_private(private)
            if png != render_png(self.game, expected_view):
                raise LeakError(f"ply {snapshot.ply}: My view image of seat {seat} differs")
            if self.image_facts is not None and self.image_facts(png) != known.seats[seat]:
                raise LeakError(f"ply {snapshot.ply}: My view image of seat {seat} differs")
        try:
            await self.service.game_private_view(snapshot.game_id, self.spectator)
        except ServiceError as error:
            self.public(presenters.error_text(error), known, "My view for a spectator")
        else:
            raise LeakError("a spectator got a private view")

    async def autocomplete(self, snapshot: GameSnapshot, state: Any, known: _Secrets) -> None:
        """Only the seats to move are offered moves, their own, labelled with nothing another
        seat knows; nobody else gets anything."""
        acting = set(snapshot.to_move)
        prefixes = ["", *sorted({fact[:3] for fact in known.secrets})[:4]]
        for user in [*snapshot.user_ids, self.spectator]:
            seats = [p.seat for p in snapshot.players if p.user_id == user]
            mine = [s for s in seats if s in acting]
            for typed in prefixes:
                choices = await self.service.autocomplete_move_choices(self.channel_id, user, typed)
                offered = [move for move, _ in choices]
                self.report.autocompletes += 1
                if not mine:
                    if choices:
                        raise LeakError(f"user {user} may not act but was offered {choices}")
                    continue
                shown = " ".join(label for _, label in choices)  # the labels show the moves
                for seat in mine:
                    self.private(shown, seat, known, "autocomplete")
                for text in offered:
                    try:
                        self.engine.parse_move(state, mine[0], text)
                    except MoveError as error:
                        raise LeakError(f"autocomplete offered {text!r}: {error}") from error

    async def refusals(self, snapshot: GameSnapshot, legal: Sequence[str], known: _Secrets) -> None:
        """Moves by players who may not act, and nonsense by the one who may, are refused
        with sentences that name nothing the caller may not know."""
        acting_users = set(snapshot.to_move_user_ids)
        for user in [*snapshot.user_ids, self.spectator]:
            text = legal[0] if user not in acting_users else "zzz"
            try:
                await self.service.play(self.channel_id, user, text)
            except ServiceError as error:
                seats = [p.seat for p in snapshot.players if p.user_id == user]
                if seats:
                    self.private(presenters.error_text(error), seats[0], known, "an error")
                else:
                    self.public(presenters.error_text(error), known, "an error to a spectator")
            else:
                raise LeakError(f"user {user}'s {text!r} was accepted")

    async def move(self, snapshot: GameSnapshot, user: int, text: str) -> GameSnapshot:
        """Play ``text`` for ``user``; check the public post, the mover's acknowledgement
        (their own private events, what is pending) and that other seats' events stay put."""
        result = await self.service.play(self.channel_id, user, text)
        after = result.snapshot
        self.report.decisions += 1
        state = await self.state(after.game_id)
        known = self.secrets(state, len(after.players))
        if any(e.visible_to is not None for e in result.events):
            raise LeakError(f"ply {after.ply}: a private event among the public ones")
        goes_on = (
            self.engine.many_decisions_per_turn
            and after.is_active
            and after.to_move == (result.seat,)
        )
        if result.turn_goes_on != goes_on:
            raise LeakError(f"ply {after.ply}: turn_goes_on is {result.turn_goes_on}")
        if goes_on:
            self.report.continued_turns += 1
            self.turn.append(result.move)
            post = presenters.decision_text(result)
        else:
            post = presenters.turn_text(result)
            await self.board(after, state, known)
            # A watcher's direct message tells the whole turn the move ended.
            watched = presenters.watcher_turn_line(result)
            self.public(watched, known, "the watchers' line")
            if self.engine.many_decisions_per_turn and not result.turn_cut:
                told = [m.text for m in result.turn_before if m.seat == result.seat]
                if told != self.turn or any(f"`{t}`" not in watched for t in told):
                    raise LeakError(f"ply {after.ply}: the watchers' line misses {self.turn}")
            self.turn = []
        self.public(post, known, "the turn post")
        ack = presenters.move_ack_text(result, posted=True)
        self.private(ack, result.seat, known, "the move acknowledgement")
        rows = await self.service.database.games.moves(after.game_id, since_ply=snapshot.ply)
        logged = [e for row in rows for e in load_events(row.events_json)]
        mine = [e for e in logged if e.visible_to is not None and result.seat in e.visible_to]
        if list(result.private_events) != mine:
            raise LeakError(f"ply {after.ply}: the mover's private events differ")
        self.report.private_events += len(mine)
        for event in logged:
            if event.visible_to is not None and event.text in post:
                raise LeakError(f"ply {after.ply}: private event {event.text!r} posted")
            if event.visible_to is not None and event.text in ack and event not in mine:
                raise LeakError(f"ply {after.ply}: another seat's event told to the mover")
        return after


async def play_checking_secrets(
    service: GameService,
    game: str,
    *,
    users: Sequence[int],
    spectator: int,
    channel_id: int,
    guild_id: int | None = None,
    options: str | None = None,
    seed: int = 0,
    max_decisions: int = 200,
    resign_after: int | None = None,
    facts: Facts = view_facts,
    image_facts: ImageFacts | None = None,
) -> LeakReport:
    """Play one random game of ``game`` through ``service`` and check that nothing private
    ever reaches a public place, and that each player sees exactly what is theirs.

    Any registered engine with hidden information works (``game`` is its id; it needs a
    renderer in ``render.RENDERERS``). ``users`` are the players (their number is the
    player count; the first challenges, the others accept); ``spectator`` watches. Moves
    are chosen by ``random.Random(seed)`` among the mover's legal moves, at most
    ``max_decisions`` of them; with ``resign_after`` a random player resigns after that
    many decisions. After every step the harness compares, for the state read back from
    the database, the private facts (``facts(view(state, seat))`` minus the spectator's
    ``facts(view(state, None))``) with everything the bot would show:

    * public: the start, turn and decision posts, ``/game info`` (the position only once
      over), the board caption, ``/game moves``, the resignation post, refusals to a
      spectator; the public image must be the renderer's picture of ``view(state, None)``
      (and, with ``image_facts``, show exactly the spectator's facts);
    * autocomplete: nothing for users who may not act; for the mover only moves the engine
      accepts and nothing another seat knows;
    * private: each player's My view is ``view(state, seat)`` with its latest private events
      from the log, text and image holding no other seat's secret; the mover's
      acknowledgement carries exactly its own private events of the move.

    Raises :class:`LeakError` at the first problem; returns what it checked.
    """
    engine = get_engine(game)
    harness = _Harness(
        service,
        engine,
        channel_id=channel_id,
        spectator=spectator,
        facts=facts,
        image_facts=image_facts,
    )
    rng = random.Random(seed)
    challenge = await service.create_challenge(
        guild_id=guild_id,
        channel_id=channel_id,
        challenger_id=users[0],
        opponent_ids=users[1:],
        players=len(users),
        game=game,
        options_text=options,
    )
    snapshot: GameSnapshot | None = None
    for user in users[1:]:
        snapshot = (await service.accept_challenge(challenge.challenge_id, user)).game
    assert snapshot is not None, "the last acceptance starts the game"
    state = await harness.state(snapshot.game_id)
    known = harness.secrets(state, len(users))
    harness.public(presenters.game_started_text(snapshot), known, "the start post")
    await harness.board(snapshot, state, known)
    while snapshot.is_active and harness.report.decisions < max_decisions:
        state = await harness.state(snapshot.game_id)
        known = harness.secrets(state, len(users))
        await harness.snapshot_texts(snapshot, known)
        await harness.private_views(snapshot, state, known)
        await harness.autocomplete(snapshot, state, known)
        (user,) = snapshot.to_move_user_ids
        legal = await service.legal_moves(channel_id, user)
        await harness.refusals(snapshot, legal, known)
        if resign_after is not None and harness.report.decisions == resign_after:
            quitter = rng.choice(list(snapshot.user_ids))
            snapshot = await service.resign(channel_id, quitter)
            harness.report.resigned = True
            resign_after = None
            if quitter == user:  # the turn under way ends with the one who had it
                harness.turn = []
            state = await harness.state(snapshot.game_id)
            known = harness.secrets(state, len(users))
            harness.public(presenters.resign_text(snapshot, quitter), known, "the resignation")
            await harness.board(snapshot, state, known)
            continue
        snapshot = await harness.move(snapshot, user, rng.choice(legal))
    state = await harness.state(snapshot.game_id)
    known = harness.secrets(state, len(users))
    await harness.snapshot_texts(snapshot, known)
    await harness.private_views(snapshot, state, known)
    harness.report.outcome = snapshot.outcome
    return harness.report
