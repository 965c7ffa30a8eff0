"""Generation Zero beyond the spec's scenarios: content sets, playouts, views, hooks.

The public scenarios (GZ-P01…P102) run in ``test_scenarios.py``; these tests pin what they
do not: content validation, invariants along seeded random games for 2–4 players (also the
draft and the ``plain`` preset), what views and events may show, resignation and the timeout
default of 8.4.
"""

from __future__ import annotations

import copy
import json
import random
import re
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest

from engines.__main__ import run
from engines.base import (
    Event,
    GameOverError,
    IllegalMoveError,
    NotationError,
    OptionValue,
    UsageError,
)
from engines.generation_zero import GenerationZeroEngine, GenerationZeroState, default_decision
from engines.generation_zero.content import load_content
from engines.generation_zero.engine import _why_not_queue
from engines.generation_zero.notation import MOVE_VERBS, VERBS
from engines.generation_zero.rules import Game
from engines.rng import Rng

ENGINE = GenerationZeroEngine()
DATA = Path(__file__).resolve().parents[2] / "engines" / "generation_zero" / "data"
SPEC_SET = Path(__file__).resolve().parents[3] / "shared" / "specs" / "generation_zero_lotr.toml"

SMALL = (
    '{"chars":{"A1":{"at":"minas_tiresome","card":"inkwell","hp":4,"seat":0},'
    '"A3":{"at":"rivendull","card":"kay_seven","seat":1},'
    '"S1":{"at":"the_shyre","card":"glitterwen","seat":0},'
    '"S2":{"at":"lothlorient","card":"raven","seat":1}},'
    '"players":2,"set":"gz-lotr","version":1}'
)


def position(text: str, **options: str) -> GenerationZeroState:
    return ENGINE.from_position(text, ENGINE.options_for(ENGINE.resolve_options(options), 2))


def play(state: GenerationZeroState, *moves: str) -> GenerationZeroState:
    for text in moves:
        seat = ENGINE.to_move(state)[0]
        state = ENGINE.apply(state, seat, ENGINE.parse_move(state, seat, text)).state
    return state


# ---- content (3.6) ----------------------------------------------------------------------


def test_shipped_set_is_the_spec_file() -> None:
    if not SPEC_SET.exists():
        pytest.skip("shared/specs is not beside this checkout")
    assert (DATA / "gz_lotr.toml").read_bytes() == SPEC_SET.read_bytes()


def test_default_set_loads() -> None:
    content = load_content("default")
    assert content.set_id == "gz-lotr"
    assert len(content.agents) == 8
    assert len(content.sues) == 7
    assert len(content.canons) == 12
    assert content.layouts["sixteen"].neighbours[2] == (0, 5, 6)  # L3: L1, L6, L7


def test_custom_set_loads_from_a_path(tmp_path: Path) -> None:
    text = (DATA / "gz_lotr.toml").read_text(encoding="utf-8").replace('"gz-lotr"', '"my-set"')
    path = tmp_path / "mine.toml"
    path.write_text(text, encoding="utf-8")
    options = ENGINE.resolve_options({"content": str(path)})
    state = ENGINE.new_game(2, options, 3)
    assert state.doc["set"] == "my-set"


@pytest.mark.parametrize(
    ("old", "new", "problem"),
    [
        ("[meta]", "[meta", "not valid TOML"),
        ('set_id  = "gz-lotr"\n', "", "meta.set_id: missing key"),
        ('type = "extra_thrust"', 'type = "fly"', "bad effect: unknown type fly"),
        ('lust_object = "gimbly"', 'lust_object = "nobody"', "unknown canon nobody"),
        ("[presets.p4]\nplayers = 4", "[presets.p4]\nplayers = 4\nfog = 1", "unknown key"),
        ('species = "droid"', 'species = "robot"', "unknown species robot"),
        ("speed = 4\npool", "speed = 9\npool", "out of range 1..5"),
    ],
)
def test_bad_sets_are_usage_errors(tmp_path: Path, old: str, new: str, problem: str) -> None:
    text = (DATA / "gz_lotr.toml").read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "bad.toml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(UsageError, match=f"content: {path}: .*{problem}"):
        ENGINE.resolve_options({"content": str(path)})


def test_missing_preset_is_a_usage_error(tmp_path: Path) -> None:
    text = (DATA / "gz_lotr.toml").read_text(encoding="utf-8")
    path = tmp_path / "p2only.toml"
    path.write_text(text[: text.index("[presets.p3]")], encoding="utf-8")
    options = ENGINE.resolve_options({"content": str(path)})
    with pytest.raises(UsageError, match="no preset for 3 players"):
        ENGINE.new_game(3, options, 0)


def test_missing_file() -> None:
    with pytest.raises(UsageError, match=r"content: no/such\.toml: file: cannot read file"):
        ENGINE.resolve_options({"content": "no/such.toml"})


# ---- playouts with invariants -------------------------------------------------------------


def walked_by_the_rules(game: Game, cid: str, kind: str) -> dict[str, tuple[str, ...]]:
    """What ``Game.move_options`` (a fast walk, remembered per map) must answer, from the
    rules' plain form: every path of R6.1 (``paths``) that R6.2 allows (``path_problem``),
    the shortest per destination text (R6.3: a 'Sue's move names its crossed Monsters)."""
    origin = game.chars[cid]["at"]
    out: dict[str, tuple[str, ...]] = {}
    for path in game.paths(origin, game.stat(cid, "speed")):
        if game.path_problem(cid, kind, origin, path):
            continue
        landing = game.sue_waypoints(path) if kind == "move" and game.is_sue(cid) else path[-1:]
        text = " ".join(game.label(loc) for loc in landing)
        if text not in out or len(path) < len(out[text]):
            out[text] = tuple(path)
    return out


def check_invariants(state: GenerationZeroState, options: Mapping[str, OptionValue]) -> None:
    text = ENGINE.position(state)
    assert ENGINE.position(ENGINE.from_position(text, options)) == text
    assert ENGINE.loads(ENGINE.dumps(state)) == state
    game = state.game()
    d = state.doc
    if d["part"] == "draft":
        return
    on_map = set(d["map"])
    holders: dict[str, str] = {}
    for cid, ch in d["chars"].items():
        if ch["at"]:
            assert ch["at"] in on_map
            assert 0 < ch["hp"] <= game.max_hp(cid)
            for token in ch["canons"]:
                assert token not in holders
                holders[token] = cid
        else:
            assert ch["hp"] == 0
    for token, canon in d["canons"].items():
        assert (canon["at"] == "") == (token in holders)
    for cid, ch in d["chars"].items():
        if ch["at"]:
            for kind in ("move", "flee"):
                assert dict(game.move_options(cid, kind)) == walked_by_the_rules(game, cid, kind)
    outcome = ENGINE.outcome(state)
    if outcome is None:
        assert len(ENGINE.to_move(state)) == 1
    else:
        assert ENGINE.to_move(state) == ()
        scores = game.scores()
        for s in range(len(d["seats"])):
            held = sum(
                len(ch["canons"])
                for cid, ch in d["chars"].items()
                if ch["at"] and cid[0] == "S" and ch["seat"] == s
            )
            expected = d["seats"][s]["kills"] * 2 + held
            if options.get("canon_points") == 1 and options.get("kill_points") == 2:
                assert scores[s] == expected
            assert outcome.scores is not None
            assert outcome.scores[s] == scores[s]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("preset", ["standard", "draft", "plain"])
def test_random_playouts(players: int, preset: str) -> None:
    base = ENGINE.resolve_options({}, preset=preset)
    options = ENGINE.options_for(base, players)
    for seed in range(2):
        state = ENGINE.new_game(players, base, seed)
        rng = Rng(seed + 1000 * players)
        for _ in range(3000):
            check_invariants(state, options)
            seats = ENGINE.to_move(state)
            if not seats:
                break
            seat = seats[0]
            texts = ENGINE.legal_move_texts(state, seat)
            assert texts
            for text in texts[:40]:
                assert ENGINE.format_move(state, ENGINE.parse_move(state, seat, text)) == text
            frozen = copy.deepcopy(state)
            move = texts[rng.below(len(texts))]
            transition = ENGINE.apply(state, seat, move)
            assert state == frozen
            for event in transition.events:
                if event.visible_to is None:
                    assert_public_text(state, event.text)
            state = transition.state
        assert ENGINE.outcome(state) is not None


def test_walks_are_remembered_apart_for_each_min_move() -> None:
    """R6.1's free first step (``min_move``) on one map, so the remembered walks are shared:
    an Agent slowed to Speed 1 beside a river (cost 2) may step into it only with the free
    step, and each setting must get its own answer, also when asked second."""
    doc = json.loads(SMALL)
    doc["chars"]["A1"]["at"] = "fields_of_roan"  # beside grate_river and cirith_ungood (2)
    doc["chars"]["A1"]["fx"] = [{"kind": "set", "seat": 0, "stat": "speed", "turns": 2, "value": 1}]
    reached = {}
    for min_move in (True, False, True):
        options = ENGINE.options_for(ENGINE.resolve_options({"min_move": min_move}), 2)
        game = ENGINE.from_position(json.dumps(doc), options).game()
        walks = dict(game.move_options("A1", "move"))
        assert walks == walked_by_the_rules(game, "A1", "move")
        reached[min_move] = {game.loc_of_label(text.split()[-1]) for text in walks}
    assert {"grate_river", "cirith_ungood"} <= reached[True]
    assert not {"grate_river", "cirith_ungood"} & reached[False]


def assert_public_text(state: GenerationZeroState, text: str) -> None:
    """A public event names no Canon or Monster card that is not public."""
    d = state.doc
    for canon in d["canons"].values():
        if not canon["public"]:
            assert canon["card"] not in text
    for monster in d["monsters"].values():
        if not monster["public"]:
            assert monster["card"] not in text


# ---- views (R14) ----------------------------------------------------------------------------


def test_views_blank_hidden_cards() -> None:
    options = ENGINE.resolve_options({})
    state = ENGINE.new_game(2, options, 11)
    rng = Rng(5)
    for _ in range(200):
        for viewer in (None, 0, 1):
            view = ENGINE.view(state, viewer)
            data = view.data
            assert data["viewer"] == viewer
            assert data["seed"] == 0
            for token, canon in state.doc["canons"].items():
                seen = canon["public"] or viewer in canon["known"]
                if seen:
                    assert data["canons"][token]["card"] == canon["card"]
                else:
                    assert data["canons"][token]["card"] == ""
            for token, monster in state.doc["monsters"].items():
                if monster["at"] and not monster["public"] and viewer not in monster["known"]:
                    assert data["monsters"][token]["card"] == ""
                    assert data["monsters"][token]["hp"] == 0
            for s, seat in enumerate(data["seats"]):
                assert seat["brought"] == (state.doc["seats"][s]["brought"] if s == viewer else [])
            if viewer is None:
                public = json.dumps(data)
                for canon in state.doc["canons"].values():
                    if not canon["public"]:
                        assert f'"{canon["card"]}"' not in public
        seats = ENGINE.to_move(state)
        if not seats:
            break
        moves = ENGINE.legal_moves(state, seats[0])
        state = ENGINE.apply(state, seats[0], moves[rng.below(len(moves))]).state


def test_private_events_go_to_one_seat() -> None:
    state = position(
        '{"canons":{"C1":{"at":"bree","card":"leggolas"}},"chars":{"A1":{"at":"minas_tiresome",'
        '"card":"inkwell","seat":0},"S1":{"at":"the_shyre","card":"glitterwen","seat":0},'
        '"S2":{"at":"helms_shallow","card":"raven","seat":1}},"players":2,"set":"gz-lotr",'
        '"version":1}'
    )
    transition = ENGINE.apply(state, 0, "chapter S1 C1")
    private = [e for e in transition.events if e.kind == "chapter_seen"]
    assert private
    assert private[0].visible_to == frozenset({0})
    assert "Leggolas" in private[0].text
    for event in transition.events:
        if event.visible_to is None:
            assert "leggolas" not in event.text.lower()


# ---- hooks -------------------------------------------------------------------------------


def test_resign_during_the_draft_is_refused() -> None:
    state = ENGINE.new_game(2, ENGINE.resolve_options({"deal": "draft"}), 0)
    with pytest.raises(IllegalMoveError, match="draft"):
        ENGINE.resign(state, 1)


def test_resign_out_of_turn_in_three_player_game() -> None:
    text = SMALL.replace('"players":2', '"players":3').replace(
        '"S2":{"at":"lothlorient","card":"raven","seat":1}',
        '"S2":{"at":"lothlorient","card":"raven","seat":1},'
        '"S3":{"at":"weathertip","card":"faelinn","seat":2}',
    )
    options = ENGINE.options_for(ENGINE.resolve_options({}), 3)
    state = ENGINE.from_position(text, options)
    after = ENGINE.resign(state, 2).state
    assert after.doc["seats"][2]["out"] == 1
    assert after.doc["chars"]["S3"]["at"] == ""
    assert ENGINE.outcome(after) is None
    with pytest.raises(IllegalMoveError):
        ENGINE.resign(after, 2)


def test_resigning_in_turn_keeps_the_other_seats_pending_upgrades() -> None:
    """R12.4 drops only the resigning seat's pending decisions: the 2 upgrade points a
    'Sue of seat 1 owes for killing seat 0's Agent in seat 0's turn (R10.2, R10.3) are
    still decided, then seat 1's turn goes on."""
    text = (
        '{"players":3,"set":"gz-lotr","version":1,"chars":{'
        '"A1":{"at":"olde_foreste","card":"kay_seven","seat":0,"hp":1},'
        '"A2":{"at":"the_shyre","card":"inkwell","seat":0},'
        '"A3":{"at":"cirith_ungood","card":"glorp","seat":1},'
        '"S2":{"at":"fields_of_roan","card":"raven","seat":1},'
        '"S3":{"at":"weathertip","card":"faelinn","seat":2},'
        '"A5":{"at":"rivendull","card":"tharvel","seat":2}}}'
    )
    moves = ["move A1 L13", "fight L13", "attack A1"]
    status, out = run(["generation_zero", "--players", "3", "--position", text, *moves])
    assert status == 0
    owed = [{"canon": "", "char": "S2", "kind": "upgrade", "n": 2}]
    assert json.loads(out["position"])["queue"] == owed
    status, out = run(
        ["generation_zero", "--players", "3", "--position", text, *moves, "[0]resign", "--legal"]
    )
    assert status == 0
    doc = json.loads(out["position"])
    assert doc["queue"] == owed
    assert (doc["seat"], doc["part"], out["to_move"]) == (1, "sue", [1])
    assert "upgrade attack" in out["legal_moves"]


def test_resigning_in_turn_runs_the_end_of_turn_before_the_game_ends() -> None:
    """R12.4: the resigning seat's turn ends at once and R5.4 runs (its steps 1-3: timed
    effects tick, ``acted`` flags clear), then E3 ends the game by `resignation` (GZ-P100)."""
    text = (
        '{"players":2,"set":"gz-lotr","version":1,"chars":{'
        '"A1":{"at":"olde_foreste","card":"glorp","seat":0},'
        '"A2":{"at":"minas_tiresome","card":"inkwell","seat":0},'
        '"S1":{"at":"weathertip","card":"glitterwen","seat":0},'
        '"S2":{"at":"fields_of_roan","card":"silmarielle","seat":1}}}'
    )
    moves = ["rest S1", "move A1 L13", "fight L13", "attack A1", "special S2", "attack S2"]
    status, out = run(["generation_zero", "--position", text, *moves])
    assert status == 0
    before = json.loads(out["position"])["chars"]
    assert before["S1"]["acted"]  # what R5.4 must clear
    assert before["S2"]["fx"]
    status, out = run(["generation_zero", "--position", text, *moves, "[0]resign"])
    assert status == 0
    assert out["outcome"]["termination"] == "resignation"
    assert out["outcome"]["winners"] == [1]
    chars = json.loads(out["position"])["chars"]
    assert not any(ch.get("acted") for ch in chars.values())
    assert not chars["S2"].get("fx")


def test_a_summon_beside_an_enemy_sue_makes_a_pending_battle() -> None:
    """R6.5: a summon is an arrival and the landing rules apply (R6.2, "Agent / temp"): a
    temp Agent summoned where an enemy 'Sue stands, outside a battle (say, after a
    stand-off), makes that location a pending battle (R9.1), as a landing Agent would."""
    text = (
        '{"players":2,"set":"gz-lotr","version":1,"chars":{'
        '"A1":{"at":"the_shyre","card":"windrift","seat":0},'
        '"A2":{"at":"rivendull","card":"inkwell","seat":0},'
        '"S1":{"at":"weathertip","card":"glitterwen","seat":0},'
        '"S2":{"at":"the_shyre","card":"raven","seat":1}}}'
    )
    status, out = run(["generation_zero", "--position", text, "rest S1", "--legal"])
    assert status == 0
    assert json.loads(out["position"])["pending"] == []
    assert "engage A1" in out["legal_moves"]
    status, out = run(
        ["generation_zero", "--position", text, "rest S1", "dept A1 temp_doga", "--legal"]
    )
    assert status == 0
    doc = json.loads(out["position"])
    assert doc["pending"] == ["the_shyre"]
    assert doc["chars"]["T1"]["at"] == "the_shyre"
    assert "engage A1" not in out["legal_moves"]  # its location is pending already


def test_an_all_allies_ability_is_offered_to_a_lone_agent(tmp_path: Path) -> None:
    """R13.2 offers an ability when every choice it needs has an option; ``all_allies``
    needs none, so a lone Agent in a battle may use it (on nobody)."""
    text = (DATA / "gz_lotr.toml").read_text(encoding="utf-8")
    old = 'windows = ["thrust"]\neffects = [{ type = "extra_thrust" }]'
    assert text.count(old) == 1  # Tail Blade, Tharvel-Isk's ability
    path = tmp_path / "allies.toml"
    path.write_text(
        text.replace(
            old,
            'windows = ["thrust"]\neffects = [{ type = "stat_add", target = "all_allies", '
            'stat = "attack", amount = 1, duration = "battle" }]',
        ),
        encoding="utf-8",
    )
    position = (
        '{"players":2,"set":"gz-lotr","version":1,"chars":{'
        '"A1":{"at":"the_shyre","card":"tharvel","seat":0},'
        '"A2":{"at":"rivendull","card":"inkwell","seat":0},'
        '"S1":{"at":"weathertip","card":"glitterwen","seat":0},'
        '"S2":{"at":"olde_foreste","card":"raven","seat":1}}}'
    )
    moves = ["rest S1", "move A1 L9", "fight L9", "attack A1", "special"]
    status, out = run(
        ["generation_zero", "--option", f"content={path}", "--position", position, *moves]
    )
    assert status == 0, out["error"]
    assert out["applied"][-1] == "special"


@pytest.mark.parametrize(
    ("effect", "defence"),
    [
        ("", 1),  # Raven's Defence 2, − 1
        ('{"kind":"mul","seat":1,"stat":"defence","turns":2,"value":2}', 2),  # (2 − 1) × 2
        ('{"kind":"set","seat":1,"stat":"defence","turns":2,"value":4}', 4),  # set wins
        ('{"kind":"add","seat":1,"stat":"defence","turns":2,"value":-2}', 0),  # clamp at 0
    ],
)
def test_magic_from_a_cave_lowers_defence_before_mul_and_set(effect: str, defence: int) -> None:
    """R11.1: Magic's −1 to the target's Defence is a situational modifier (step 4), so a
    ``mul`` effect multiplies the lowered value, a ``set`` effect replaces it, and the clamp
    comes last (it was taken off the finished value)."""
    text = (
        '{"players":2,"set":"gz-lotr","version":1,"chars":{'
        '"A1":{"at":"moaria","card":"wimbledew","seat":0},'
        '"A2":{"at":"rivendull","card":"inkwell","seat":0},'
        '"S1":{"at":"weathertip","card":"glitterwen","seat":0},'
        f'"S2":{{"at":"moaria","card":"raven","fx":[{effect}],"seat":1}}}}}}'
    )
    game = position(text).game()
    assert game.damage("A1", "S2")[1] == defence
    assert game.damage("S2", "A1")[1] == game.stat("A1", "defence")  # only Agents' Magic


def test_magic_from_a_cave_lowers_a_monsters_defence_too(tmp_path: Path) -> None:
    """R11.1 runs for "character or Monster": an Agent with Magic fighting the Bree Monster
    (R11.7) from a Cave takes 1 off its Defence. Only a custom set puts Bree on a Cave."""
    text = (DATA / "gz_lotr.toml").read_text(encoding="utf-8")
    old = 'id = "bree"\nname = "Bree"\nterrain = "city"'
    assert text.count(old) == 1
    path = tmp_path / "cave_bree.toml"
    path.write_text(text.replace(old, old.replace("city", "cave")), encoding="utf-8")
    position = (
        '{"players":2,"set":"gz-lotr","version":1,"chars":{'
        '"A1":{"at":"the_shyre","card":"wimbledew","seat":0},'
        '"S1":{"at":"weathertip","card":"faelinn","seat":0},'
        '"S2":{"at":"cirith_ungood","card":"raven","seat":1}},'
        '"monsters":{"M1":{"at":"bree","card":"moral_ambiguity"}}}'
    )
    moves = ["rest S1", "move A1 L3", "fight M1", "attack M1"]
    status, out = run(
        ["generation_zero", "--option", f"content={path}", "--position", position, *moves]
    )
    assert status == 0, out["error"]
    # Wimbledew's Attack 3 against Defence 2 − 1: 2 damage off the Monster's 4 Health.
    assert json.loads(out["position"])["monsters"]["M1"]["hp"] == 2


def test_finished_game_refuses_moves() -> None:
    state = ENGINE.resign(position(SMALL), 0).state
    with pytest.raises(GameOverError):
        ENGINE.parse_move(state, 1, "rest S2")
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert outcome.winners == (1,)
    assert outcome.ranking == ((1,), (0,))


def test_endings_read_with_seats_named_from_one_and_the_score() -> None:
    """R12.2's endings in words, the seats as the prompts name them ("Seat 1"), the score of
    R12.1, and what breaks a tie (R12.3)."""
    resigned = ENGINE.resign(position(SMALL), 0)
    assert [e.text for e in resigned.events if e.kind in ("resigned", "ended")] == [
        "Seat 1 resigned",
        "only one seat is still playing",
    ]
    state = position(SMALL, max_rounds="1")
    events: list[Event] = []
    while ENGINE.to_move(state):
        transition = ENGINE.apply(state, 0, ENGINE.parse_move(state, 0, "end"))
        state, events = transition.state, [*events, *transition.events]
        if ENGINE.to_move(state) == (1,):
            transition = ENGINE.apply(state, 1, ENGINE.parse_move(state, 1, "end"))
            state, events = transition.state, [*events, *transition.events]
    assert [e.text for e in events if e.kind == "turn"] == ["round 1: Seat 2 to play"]
    (ended,) = [e.text for e in events if e.kind == "ended"]
    assert ended == (
        "the last round is over; score: Seat 1: 0, Seat 2: 0 (tied on score and kills; Seat 1 "
        "has more Health left)"
    )


def test_default_decision_rests_then_attacks() -> None:
    state = position(SMALL)
    assert default_decision(ENGINE, state) == "rest S1"
    battle = position(
        '{"chars":{"A1":{"at":"olde_foreste","card":"inkwell","seat":0},'
        '"S2":{"at":"fields_of_roan","card":"silmarielle","seat":1}},"players":2,'
        '"set":"gz-lotr","version":1}'
    )
    battle = play(battle, "move A1 L13")
    assert default_decision(ENGINE, battle) == "attack S2"


def test_prompt_names_the_pending_character() -> None:
    """The ordering prompts say what `end` does: it ends the whole turn, not the 'Sue part
    (R5, D-7); a newcomer's `end` rested both Agents too (exploratory pass 10)."""
    state = position(SMALL)
    assert ENGINE.prompt(state, 0) == (
        "Seat 1 orders its 'Sues (round 1/12), then its Agents: each rests or acts. Playing "
        "`end` ends the whole turn: every character not yet ordered rests."
    )
    assert ENGINE.prompt(state, 1) is None
    agents = play(state, "rest S1")
    assert ENGINE.prompt(agents, 0) == (
        "Seat 1 orders its Agents (round 1/12): each rests or acts. Playing `end` ends the "
        "turn: every Agent not yet ordered rests."
    )


#: Two characters a move apart: A1 moving to L13 starts a battle with S2 (R9.1).
BATTLE = (
    '{"chars":{"A1":{"at":"olde_foreste","card":"inkwell","seat":0},'
    '"S2":{"at":"fields_of_roan","card":"silmarielle","seat":1}},"players":2,'
    '"set":"gz-lotr","version":1}'
)

#: A rule id of Generation Zero as its messages cite them: R6.1, D-30, a section 8.1.
GZ_RULE = r"(?:R\d+(?:\.\d+)*|D-\d+|\d+\.\d+)"
#: One parenthesis of rule ids only, at the end of a message (a full stop may follow).
TRAILING_CITATION = re.compile(rf"\s\({GZ_RULE}(?:\s*[,–]\s*{GZ_RULE})*\)\.?$")


def assert_cites_only_at_the_end(message: str) -> None:
    """Rule ids only in one parenthesis of ids at the end, which the bot leaves out: none in
    running text ("by the rules of R6.1–R6.3") nor beside words ("(R13.1 charge, …)")."""
    words = TRAILING_CITATION.sub("", message)
    assert not re.search(rf"(?<![\w.]){GZ_RULE}(?![\w.])", words), message


def refusal(state: GenerationZeroState, text: str) -> str:
    seat = ENGINE.to_move(state)[0]
    with pytest.raises((IllegalMoveError, NotationError)) as refused:
        ENGINE.parse_move(state, seat, text)
    message = refused.value.message
    assert_cites_only_at_the_end(message)
    return message


def test_refusals_in_the_ordering_parts_say_what_to_do_instead() -> None:
    """Exploratory pass 10: the refusals named the rule but not the way on."""
    state = position(SMALL)
    assert refusal(state, "rest A1") == (
        "it is the 'Sue part of the turn: order S1 first (rest or act), then the Agents; `end` "
        "would end the whole turn (R5)"
    )
    assert refusal(state, "attack S2") == (
        "you can attack only in a thrust, in a battle or a Monster fight; Seat 1 is ordering "
        "its 'Sues (R9.5)"
    )
    assert (
        refusal(state, "rest S2") == "S2 belongs to another seat; Seat 1 is ordering its 'Sues (R5)"
    )
    assert refusal(state, "steer L3") == (
        "there is no Canon to steer now; Seat 1 is ordering its 'Sues (R7.1, R7.4)"
    )
    agents = play(state, "rest S1")
    assert refusal(agents, "fight L7") == (
        "there is no pending battle at L7; Seat 1 is ordering its Agents (R9.1)"
    )
    assert refusal(agents, "rest S1") == (
        "the 'Sue part of this turn is over: now order the Agents (R5)"
    )


def test_a_move_too_far_names_the_speed() -> None:
    """R6.1: "L1 is too far: A1 moves up to 3 (its Speed)", not "no path within budget"."""
    state = play(position(SMALL), "rest S1")
    speed = state.game().stat("A1", "speed")
    message = refusal(state, "move A1 L1")
    assert message.startswith(f"L1 is too far: A1 moves up to {speed} (its Speed)")
    assert "budget" not in message


@pytest.mark.parametrize("typed", ["pass", "Pass", "K10", "a1-a3"])
def test_an_unknown_verb_is_quoted_as_typed_with_the_verbs(typed: str) -> None:
    message = refusal(position(SMALL), typed)
    first = typed.split("-")[0]
    assert message.startswith(f"unknown verb {first!r}; a move starts with rest, hold, move, ")
    assert message.endswith("; to end your turn, play `end`") is (typed.lower() == "pass")


def test_the_verb_list_of_a_refusal_is_every_verb_but_resign() -> None:
    listed = set(re.split(r", | or ", MOVE_VERBS))
    assert listed == set(VERBS) - {"resign"}


def test_a_pending_ensnare_is_named_with_its_commands() -> None:
    """8.1: a queued decision comes first; the refusal names its commands ("`ensnare C4` or
    `decline`"), not "must first decide: ensnare (8.1)"."""
    rng = random.Random(5)
    state = ENGINE.new_game(2, ENGINE.complete_options({}), 5)
    while not (state.game().d["queue"] and state.game().d["queue"][0]["kind"] == "ensnare"):
        seat = ENGINE.to_move(state)[0]
        state = ENGINE.play(state, seat, rng.choice(ENGINE.legal_move_texts(state, seat)))[0]
    sue = state.game().d["queue"][0]["char"]
    legal = ENGINE.legal_move_texts(state, ENGINE.to_move(state)[0])
    message = refusal(state, "end")
    assert message.startswith(f"{sue} must first decide on the Canons here: `ensnare C")
    assert message.endswith("or `decline` (R7.3)")
    for text in re.findall(r"`([^`]*)`", message):
        assert text in legal


def test_a_thrust_prompt_and_refusals_list_the_thrust_choices() -> None:
    """R9.5: the battle prompt lists the choices like the Monster fight's; a refusal lists
    the thrust's moves, says a thrust names no actor, and where the actor may flee."""
    battle = play(position(BATTLE), "move A1 L13")
    assert ENGINE.prompt(battle, 0) == (
        "A1 thrusts in the battle at L13 (round 1): attack, flee or use an ability."
    )
    assert refusal(battle, "end") == (
        "it is A1's thrust: `attack S2`, `special`, `dept S2` or `flee L…` (R9.5)"
    )
    assert refusal(battle, "special A1").startswith(
        "a thrust names no actor: `special` and the ability's parameters only, not `special A1`;"
    )
    assert refusal(battle, "flee L1").startswith(
        "A1 cannot flee to L1, which is too far or a landing it may not take; it may flee to L3, "
    )


#: Moves tried in every state of the playouts below: one of each verb, right or wrong.
PROBES = (
    "end", "rest A1", "rest S1", "hold A3", "attack S2", "attack M1", "flee L1", "special",
    "special A1", "dept A1", "move A1 L1", "move S1 L1 L2", "move S1 L16", "fight L7",
    "engage A1", "chapter S1 C1", "chapter A1 C1", "steer L1", "stay", "ensnare C1",
    "decline", "upgrade attack", "upgrade luck", "crown S1", "pick inkwell", "rescue C1",
    "pass",
)  # fmt: skip


@pytest.mark.parametrize(("seed", "options"), [(2, {}), (4, {}), (6, {"deal": "draft"})])
def test_every_refusal_cites_its_rules_only_at_its_end(seed: int, options: dict[str, str]) -> None:
    """Exploratory pass 10 (finding 1): along random games, every refusal of the probes keeps
    rule ids in one parenthesis of ids at its end, and so does every prompt."""
    rng = random.Random(seed)
    state = ENGINE.new_game(2, ENGINE.complete_options(options), seed)
    for _ in range(80):
        if ENGINE.outcome(state) is not None:
            break
        seat = ENGINE.to_move(state)[0]
        prompt = ENGINE.prompt(state, seat)
        assert prompt is not None
        assert_cites_only_at_the_end(prompt)
        for text in PROBES:
            try:
                ENGINE.parse_move(state, seat, text)
            except (IllegalMoveError, NotationError) as refused:
                assert_cites_only_at_the_end(refused.message)
        state = ENGINE.play(state, seat, rng.choice(ENGINE.legal_move_texts(state, seat)))[0]


def test_the_rules_explain_the_turn_and_every_order() -> None:
    """``/game rules`` (exploratory pass 10): the turn in bullets, what `end`, `hold`, `rest`,
    `engage`, `steer` and `stay` do, and the thrust form of `special` (no actor)."""
    info = ENGINE.info
    assert "• A turn is a 'Sue part, then an Agent part" in info.rules_summary
    notation = info.notation_help
    for said in (
        "`end` ends the whole turn",
        "`rest S1` (Health +1",
        "`hold A2` (act without moving)",
        "`engage A2` (battle",
        "`steer L3` moves",
        "`stay` leaves it",
        "A thrust names no actor",
    ):
        assert said in notation, said


def test_suggestions_are_legal() -> None:
    state = position(SMALL)
    suggestions = ENGINE.suggest_moves(state, 0, "mo", 25)
    assert suggestions
    for text in suggestions:
        assert ENGINE.parse_move(state, 0, text) == text
    # Shortest first, numbers in their order: one-step decisions before long paths.
    everything = ENGINE.suggest_moves(state, 0, "", 1000)
    assert everything is not None
    assert sorted(everything) == sorted(ENGINE.legal_move_texts(state, 0))
    lengths = [len(text.split()) for text in everything]
    assert lengths == sorted(lengths)
    steps = [t.split() for t in everything if len(t.split()) == 3 and t.startswith("move ")]
    for who in {words[1] for words in steps}:
        numbers = [int(w[2][1:]) for w in steps if w[1] == who and w[2].startswith("L")]
        assert numbers == sorted(numbers), who


def test_suggestions_name_the_cards_they_give_by_id() -> None:
    """The draft's ``pick kay_seven`` is shown with the card's name; a move naming no card
    is shown as it is (spec 6: the ids are the notation, the names what players read)."""
    state = ENGINE.new_game(2, ENGINE.resolve_options({"deal": "draft"}), 0)
    seat = ENGINE.to_move(state)[0]
    picks = [t for t in ENGINE.legal_move_texts(state, seat) if t.startswith("pick ")]
    assert picks
    content = state.rules.content
    for text in picks:
        card = text.split()[1]
        assert ENGINE.suggestion_label(state, seat, text) == f"{text} — {content.card_name(card)}"
    small = position(SMALL)
    assert ENGINE.suggestion_label(small, 0, "end") == "end"
    assert content.card_name("no_such_card") is None


def test_full_path_notation_and_location_ids() -> None:
    state = position(
        '{"chars":{"A1":{"at":"trollshawls","card":"inkwell","seat":0},'
        '"S2":{"at":"helms_shallow","card":"raven","seat":1}},"players":2,"set":"gz-lotr",'
        '"version":1}'
    )
    assert ENGINE.parse_move(state, 0, "MOVE a1 moaria>grate_river") == "move A1 L10"
    # 6.1: `-` and `>` join slots, with or without spaces around them.
    for text in ("move A1 L8-L10", "move A1 L8 - L10", "move A1 L8 > L10", "move A1 L8 ->L10"):
        assert ENGINE.parse_move(state, 0, text) == "move A1 L10"
    for text in ("move A1 L10 -", "move A1 L10->", "-move A1 L10"):
        with pytest.raises(NotationError):
            ENGINE.parse_move(state, 0, text)
    with pytest.raises(
        IllegalMoveError, match=r"costs \d+, more than A1's Speed of \d+ \(R6\.1\)$"
    ):
        ENGINE.parse_move(state, 0, "move A1 L8-L10-L13")


def test_recharge_special_five_skips_one_turn() -> None:
    """R13.1: Special 4 → cd 3; the cooldown ticks at the start of the owner's turns."""
    state = position(
        '{"chars":{"A1":{"at":"the_shyre","card":"wimbledew","seat":0},'
        '"S2":{"at":"lothlorient","card":"raven","seat":1}},"players":2,"set":"gz-lotr",'
        '"version":1}'
    )
    state = play(state, "dept A1 L3 L8", "hold A1")
    assert state.doc["chars"]["A1"]["cd"] == 3
    state = play(state, "rest S2")
    assert state.doc["chars"]["A1"]["cd"] == 2


# ---- loading a finished position (7.4, R12.2 E1) ------------------------------------------

#: Seat 1's Agent and 'Sue are dead: no Agent can ever fight an enemy 'Sue again (E1).
NO_FIGHTS_LEFT = (
    '{"chars":{"A1":{"at":"minas_tiresome","card":"inkwell","seat":0},'
    '"A3":{"at":"","card":"kay_seven","hp":0,"seat":1},'
    '"S1":{"at":"the_shyre","card":"glitterwen","seat":0},'
    '"S2":{"at":"","card":"raven","hp":0,"seat":1}},"players":2,'
    '"seats":[{"brought":[],"kills":1,"out":0},{"brought":[],"kills":0,"out":0}],'
    '"set":"gz-lotr","version":1}'
)


def test_position_without_fights_is_over_when_loaded() -> None:
    state = position(NO_FIGHTS_LEFT)
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert outcome.termination == "no_fights_left"
    assert outcome.winners == (0,)
    assert outcome.scores == {0: 2, 1: 0}
    assert ENGINE.to_move(state) == ()
    assert ENGINE.legal_moves(state, 0) == []
    assert state.doc["part"] == "over"
    with pytest.raises(GameOverError):
        ENGINE.parse_move(state, 0, "rest S1")
    # Loading the canonical (finished) position again changes nothing.
    assert ENGINE.position(position(ENGINE.position(state))) == ENGINE.position(state)


def test_stored_state_without_fights_is_over_when_loaded() -> None:
    """``load_state`` of a position that is over in fact but not yet marked (an older engine
    or a hand-made record) reports the outcome at once."""
    live = position(SMALL)
    data = ENGINE.dump_state(live)
    doc = json.loads(data["position"])
    for cid in ("A3", "S2"):
        doc["chars"][cid].update(at="", hp=0)
    data["position"] = json.dumps(doc, sort_keys=True, separators=(",", ":"))
    loaded = ENGINE.load_state(data)
    outcome = ENGINE.outcome(loaded)
    assert outcome is not None
    assert outcome.termination == "no_fights_left"
    assert ENGINE.to_move(loaded) == ()
    # A running stored state is loaded unchanged.
    assert ENGINE.load_state(ENGINE.dump_state(live)) == live


def test_cli_position_without_fights_is_over() -> None:
    status, out = run(["generation_zero", "--position", NO_FIGHTS_LEFT, "--legal", "rest S1"])
    assert status == 1
    assert out["error"]["kind"] == "game_over"
    assert out["to_move"] == []
    assert out["legal_moves"] == []
    assert out["outcome"]["termination"] == "no_fights_left"


# ---- pick notation (6.4, engine-cli.md error kinds) ----------------------------------------


def test_picking_an_unknown_card_is_a_notation_error() -> None:
    state = ENGINE.new_game(2, ENGINE.resolve_options({"deal": "draft"}), 0)
    for text in ("pick frodo_baggins", "pick human", "pick charge_list"):
        with pytest.raises(NotationError, match="not a card"):
            ENGINE.parse_move(state, 0, text)
    # Real cards that may not be picked now stay illegal (3.5).
    for text in ("pick raven", "pick temp_doga", "pick leggolas", "pick bree"):
        with pytest.raises(IllegalMoveError):
            ENGINE.parse_move(state, 0, text)
    state = play(state, "pick inkwell")
    with pytest.raises(IllegalMoveError):
        ENGINE.parse_move(state, 1, "pick inkwell")


@pytest.mark.parametrize(
    ("token", "kind"),
    [("pick frodo_baggins", "notation"), ("pick raven", "illegal"), ("pick glorp", None)],
)
def test_cli_pick_error_kinds(token: str, kind: str | None) -> None:
    status, out = run(["generation_zero", "--option", "deal=draft", "pick inkwell", token])
    if kind is None:
        assert status == 0
        assert out["error"] is None
    else:
        assert status == 1
        assert out["error"]["kind"] == kind
        assert out["error"]["index"] == 1
        assert out["applied"] == ["pick inkwell"]


# ---- fast states (the AI's hot path) -------------------------------------------------------


def test_apply_keeps_the_parsed_position_exactly() -> None:
    """States made by ``apply`` carry the rules' position object instead of reparsing text:
    it must be what the canonical text parses to (types and table order) and share nothing
    mutable with the state it came from."""
    from engines.generation_zero.engine import copy_position

    def containers(value: object) -> Iterator[object]:
        if isinstance(value, dict):
            yield value
            for item in value.values():
                yield from containers(item)
        elif isinstance(value, list):
            yield value
            for item in value:
                yield from containers(item)

    state = ENGINE.new_game(3, ENGINE.resolve_options({}), 4)
    rng = Rng(4)
    while seats := ENGINE.to_move(state):
        moves = ENGINE.legal_moves(state, seats[0])
        after = ENGINE.apply(state, seats[0], moves[rng.below(len(moves))]).state
        parsed = json.loads(ENGINE.position(after))
        assert after.doc == parsed
        for key in ("chars", "canons", "monsters"):
            assert list(after.doc[key]) == list(parsed[key])
        copied = copy_position(after.doc)
        assert copied == after.doc
        assert not {id(c) for c in containers(copied)} & {id(c) for c in containers(after.doc)}
        assert not {id(c) for c in containers(after.doc)} & {id(c) for c in containers(state.doc)}
        state = after


def _malformed(doc: dict[str, object], change: str) -> dict[str, object]:
    """The position ``doc`` with one field given a shape the notation does not allow."""
    first = sorted(doc["chars"])[0]  # type: ignore[call-overload]
    if change == "walk origin is a list":
        return {**doc, "walk": {"char": first, "origin": [], "path": []}}
    if change == "char id has a superscript digit":
        chars = dict(doc["chars"])  # type: ignore[call-overload]
        chars["A1\u00b2"] = chars.pop(first)
        return {**doc, "chars": chars}
    raise AssertionError(change)


@pytest.mark.parametrize("change", ["walk origin is a list", "char id has a superscript digit"])
def test_a_malformed_position_is_a_usage_error_whatever_its_shape(change: str) -> None:
    """Position text is untrusted (``/challenge position:``, ``--position``): a value of an
    unexpected shape is refused as malformed, never with a TypeError or a bare ValueError."""
    options = ENGINE.options_for(ENGINE.resolve_options({}), 2)
    doc = json.loads(ENGINE.position(ENGINE.new_game(2, options, 3)))
    with pytest.raises(UsageError, match="position"):
        ENGINE.from_position(json.dumps(_malformed(doc, change)), options)


@pytest.mark.parametrize(
    ("kills", "health", "why"),
    [
        ((3, 1, 1), (9, 9, 9), "tied on score; Seat 1 has more kills"),
        ((3, 3, 1), (9, 5, 9), "tied on score and kills; Seat 1 has more Health left"),
        ((3, 3, 1), (9, 9, 9), "tied on score, kills and Health: a shared win"),
    ],
)
def test_a_tie_on_score_names_what_broke_it(
    kills: tuple[int, ...], health: tuple[int, ...], why: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R12.3 among three seats tied on score: kills decide only if they put one seat ahead of
    every other tied seat; else Health; else nobody."""
    options = ENGINE.options_for(ENGINE.resolve_options({}), 3)
    game = ENGINE.new_game(3, options, 3).game()
    for seat, count in zip(game.d["seats"], kills, strict=True):
        seat["kills"] = count
    monkeypatch.setattr(game, "scores", lambda: [5, 5, 5])
    by_seat = dict(enumerate(health))
    keyed = sorted(range(3), key=lambda s: (-kills[s], -by_seat[s]))
    groups: list[list[int]] = []
    for s in keyed:
        if groups and (kills[groups[-1][0]], by_seat[groups[-1][0]]) == (kills[s], by_seat[s]):
            groups[-1].append(s)
        else:
            groups.append([s])
    monkeypatch.setattr(game, "ranking", lambda: groups)
    assert game.ending_text("round_limit").endswith(f"Seat 2: 5, Seat 3: 5 ({why})")


def test_a_steer_prompt_names_the_seat_that_steers() -> None:
    """R7.1/R7.4: after a chapter (or a rescue) the same seat steers the Canon; the prompt
    says "Seat 2 steers C6", not the old "S1's seat steers C6"."""
    engine = ENGINE
    rng = random.Random(1)
    state = engine.new_game(2, engine.complete_options({}), 1)
    while True:
        seat = engine.to_move(state)[0]
        queue = state.game().d["queue"]
        if queue and queue[0]["kind"] == "steer":
            break
        state = engine.play(state, seat, rng.choice(engine.legal_move_texts(state, seat)))[0]
    assert engine.prompt(state, seat) == (
        f"Seat {seat + 1} steers {queue[0]['canon']} (`steer L…` or `stay`)."
    )


def test_a_battle_event_names_its_place_and_the_thrust_order() -> None:
    """R8: "battle at L3, thrusts in this order: A2, S2" (was the cryptic "order A2 S2")."""
    rng = random.Random(3)
    state = ENGINE.new_game(2, ENGINE.complete_options({}), 3)
    while ENGINE.outcome(state) is None:
        seat = ENGINE.to_move(state)[0]
        move = rng.choice(ENGINE.legal_move_texts(state, seat))
        state, _, events = ENGINE.play(state, seat, move)
        battles = [e.text for e in events if e.kind == "battle"]
        if battles:
            break
    assert battles, "no battle in this game"
    assert re.fullmatch(r"battle at L\d+, thrusts in this order: [AS]\d+(, [AS]\d+)+", battles[0])


#: Two 'Sues and two Agents, Seat 1's 'Sue part (the position of the audit of 2026-11-27).
_QUIET = json.dumps(
    {
        "chars": {
            "A1": {"at": "minas_tiresome", "card": "inkwell", "seat": 0},
            "A3": {"at": "rivendull", "card": "kay_seven", "seat": 1},
            "S1": {"at": "the_shyre", "card": "glitterwen", "seat": 0},
            "S2": {"at": "lothlorient", "card": "raven", "seat": 1},
        },
        "players": 2,
        "set": "gz-lotr",
        "version": 1,
    }
)


def test_a_paralysed_character_may_only_rest() -> None:
    """R5.2 and R13.4: HOLD is an ACT, and `paralyse` forbids ACT; REST stays."""
    paralysed = {"kind": "paralyse", "seat": 0, "stat": "", "turns": 1, "value": 0}
    position = json.loads(_QUIET)
    position["chars"]["A1"].update(at="olde_foreste", fx=[paralysed])
    position["chars"]["S2"]["at"] = "fields_of_roan"
    position["chars"]["S2"]["card"] = "zyxara"
    position["part"] = "agent"
    text = json.dumps(position)
    status, out = run(["generation_zero", "--position", text, "--legal"])
    assert status == 0
    assert out["legal_moves"] == ["end", "rest A1"]
    status, out = run(["generation_zero", "--position", text, "hold A1"])
    assert status == 1
    assert out["error"]["kind"] == "illegal"


@pytest.mark.parametrize(
    ("move", "kind"),
    [
        ("special", "illegal"),  # the thrust form, outside a thrust (6.2, 6.4)
        ("dept temp_dic", "illegal"),
        ("special luck", "notation"),  # no ability has such a parameter
        ("dept", "illegal"),
    ],
)
def test_the_thrust_form_of_an_ability_outside_a_thrust_is_illegal(move: str, kind: str) -> None:
    status, out = run(["generation_zero", "--position", _QUIET, move])
    assert status == 1
    assert out["error"]["kind"] == kind


@pytest.mark.parametrize(
    ("stat", "kind"), [("stealth", "illegal"), ("insanity", "illegal"), ("luck", "notation")]
)
def test_upgrading_a_stat_r10_3_leaves_out_is_illegal_not_malformed(stat: str, kind: str) -> None:
    """6.1: "Stats as in 3.2" (stealth and insanity are stats); R10.3 names the upgradable
    ones, so `upgrade stealth` is well-formed and illegal, while `upgrade luck` is not a move."""
    status, out = run(["generation_zero", "--position", _QUIET, f"upgrade {stat}"])
    assert status == 1
    assert out["error"]["kind"] == kind


def test_a_pendant_raises_the_maximum_health_only_with_the_artefacts_appendix() -> None:
    """R10.2 / 7.4: the position reader and play agree on the maximum (a REST never lowers
    Health): without `appendix_artefacts` a Pendant adds nothing, so `hp` 6 is malformed."""
    position = json.loads(_QUIET)
    position["chars"]["A1"].update(hp=6, arts=["pendant"])
    text = json.dumps(position)
    status, out = run(["generation_zero", "--position", text, "rest S1", "rest A1"])
    assert status == 0
    assert json.loads(out["position"])["chars"]["A1"]["hp"] == 6
    off = ["--option", "appendix_artefacts=false"]
    status, out = run(["generation_zero", "--position", text, *off])
    assert status == 2
    assert out["error"]["kind"] == "usage"
    del position["chars"]["A1"]["hp"]  # the default is the maximum: 5 without the appendix
    status, out = run(["generation_zero", "--position", json.dumps(position), *off])
    assert status == 0
    assert json.loads(out["position"])["chars"]["A1"]["hp"] == 5


def test_a_battle_whose_mace_entry_names_an_unknown_target_is_malformed() -> None:
    """7.4: "a frame naming an unknown id" is malformed, the Mace's target included."""
    battle = {
        "at": "fields_of_roan",
        "bow": [],
        "changed": False,
        "cur": "S2",
        "extra": False,
        "free": False,
        "gun": [],
        "idx": 1,
        "mace": [["A1", "S2", 1]],
        "order": ["S2", "A1"],
        "round": 1,
        "tiara": [],
        "used": False,
        "won": [],
    }
    position = {
        "battle": battle,
        "chars": {
            "A1": {"at": "fields_of_roan", "card": "glorp", "seat": 0, "acted": True},
            "S1": {"at": "weathertip", "card": "silmarielle", "seat": 0, "acted": True},
            "S2": {"at": "fields_of_roan", "card": "raven", "seat": 1},
        },
        "part": "battles",
        "players": 2,
        "set": "gz-lotr",
        "version": 1,
    }
    status, _ = run(["generation_zero", "--position", json.dumps(position)])
    assert status == 0
    battle["mace"] = [["A1", "S9", 1]]
    status, out = run(["generation_zero", "--position", json.dumps(position)])
    assert status == 2
    assert "battle.mace" in out["error"]["message"]


def test_a_battle_skips_a_participant_with_no_enemy_present() -> None:
    """R9.2 takes every Agent and 'Sue at the location into the battle; one with no enemy
    there (here Agent A3 beside its own seat's 'Sue, which only a hand-made position can
    make, R6.2) has no thrust (R9.5), so the order passes it by instead of waiting for a
    decision with no legal move."""
    state = position(
        '{"chars":{"A1":{"at":"fields_of_roan","card":"inkwell","seat":0,"arr":1},'
        '"A3":{"at":"fields_of_roan","card":"kay_seven","seat":1,"arr":2},'
        '"S2":{"at":"fields_of_roan","card":"glitterwen","seat":1}},"part":"agent",'
        '"pending":["fields_of_roan"],"players":2,"set":"gz-lotr","version":1}'
    )
    state = play(state, "fight L13", "attack S2")
    battle = state.doc["battle"]
    assert battle["order"] == ["A1", "A3", "S2"]
    assert battle["cur"] == "S2"
    assert ENGINE.legal_moves(state, 1) == ["attack A1"]


def test_a_pending_upgrade_names_the_stats_it_may_raise() -> None:
    """R10.3: seven `upgrade <stat>` moves were cut to "`upgrade …`" (review 3)."""
    stats = ("attack", "defence", "speed", "observe", "allure", "special", "health")
    legal = [f"upgrade {s}" for s in stats]
    said = _why_not_queue(None, {"char": "S1", "kind": "upgrade"}, legal)  # type: ignore[arg-type]
    assert said == (
        "S1 must first spend an upgrade point: `upgrade` and one of attack, defence, speed, "
        "observe, allure, special or health (R10.3)"
    )
