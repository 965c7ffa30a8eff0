"""Tests of the Generation Zero board image (``render/generation_zero.py``; spec
``generation_zero.md`` sections 2, 4.10 and 10).

Golden images: each view in :data:`GOLDEN_VIEWS` is rendered and its decoded pixels compared with
``tests/render/golden/generation_zero/<name>.png``. After a deliberate change to the look,
regenerate them with

    GAMEROOM_UPDATE_GOLDEN=1 .venv/bin/pytest tests/render/test_render_generation_zero.py -q

then open every changed PNG and look at it before committing.

Views come from the engine: a hand-written position (spec 7.4, minimal form, atlas maps) is
read with ``from_position`` and the moves named by each builder are applied, so the last
decision and the combat log are the engine's own. Nothing pins a seeded setup.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from engines.generation_zero import GenerationZeroEngine, GenerationZeroView, LastDecision
from engines.generation_zero.engine import GenerationZeroState
from render import generation_zero as gz
from render import kit
from tests.render.golden import GOLDEN_ROOT, check_golden, decode, rgb

GOLDEN_DIR = GOLDEN_ROOT / "generation_zero"
ENGINE = GenerationZeroEngine()


def play(position: Mapping[str, Any], *moves: str) -> GenerationZeroState:
    """The state of ``position`` (minimal form) after ``moves``, each by the seat to move."""
    state = ENGINE.from_position(json.dumps(position), {})
    for text in moves:
        seat = ENGINE.to_move(state)[0]
        state = ENGINE.apply(state, seat, ENGINE.parse_move(state, seat, text)).state
    return state


def effect(kind: str, stat: str, value: int, turns: int, seat: int = 0) -> dict[str, Any]:
    return {"kind": kind, "seat": seat, "stat": stat, "turns": turns, "value": value}


#: A 2-player start: the atlas map of ``sixteen``, four Monsters and the Bree Monster face-down,
#: six Canons lying face-down, each seat's brought Canons recorded.
START_POSITION: dict[str, Any] = {
    "version": 1,
    "set": "gz-lotr",
    "players": 2,
    "chars": {
        "A1": {"at": "the_shyre", "card": "cinderbrush", "seat": 0, "arr": 2},
        "A2": {"at": "olde_foreste", "card": "pillbury", "seat": 0, "arr": 3},
        "A3": {"at": "lothlorient", "card": "glorp", "seat": 1, "arr": 5},
        "A4": {"at": "borrow_downs", "card": "kay_seven", "seat": 1, "arr": 6},
        "S1": {"at": "minas_tiresome", "card": "raven", "seat": 0, "arr": 1},
        "S2": {"at": "rivendull", "card": "mary_luthiel", "seat": 1, "arr": 4},
    },
    "canons": {
        "C1": {"at": "fields_of_roan", "card": "gimbly"},
        "C2": {"at": "weathertip", "card": "aragone"},
        "C3": {"at": "helms_shallow", "card": "leggolas"},
        "C4": {"at": "grate_river", "card": "eomore"},
        "C5": {"at": "the_shyre", "card": "boromeer"},
        "C6": {"at": "cirith_ungood", "card": "glorfinder"},
    },
    "monsters": {
        "M1": {"at": "bree", "card": "moral_ambiguity"},
        "M2": {"at": "trollshawls", "card": "stone_troll"},
        "M3": {"at": "caradrama", "card": "warg_pack"},
        "M4": {"at": "moaria", "card": "orc_warband"},
        "M5": {"at": "deadish_marshes", "card": "barrow_wight"},
    },
    "seats": [
        {"brought": ["aragone", "eomore", "gimbly"], "kills": 0, "out": 0},
        {"brought": ["boromeer", "glorfinder", "leggolas"], "kills": 0, "out": 0},
    ],
}

#: Four players on ``eighteen``, round 4, seat 0's Agent part. A1 has just moved onto S2 (who
#: holds C2 and C5), so a battle is pending at L14; M2 (a Barrow-wight) is face-up and hurt,
#: M1, M3 and M4 are face-down; C3 lies face-up after a battle; four Agents share L11 (one
#: paralysed, one weakened, one recharging); A7 carries a Tiara; A5 is dead.
MIDGAME_POSITION: dict[str, Any] = {
    "version": 1,
    "set": "gz-lotr",
    "players": 4,
    "round": 4,
    "seat": 0,
    "part": "agent",
    "chars": {
        "A1": {"at": "olde_foreste", "card": "inkwell", "seat": 0, "arr": 3},
        "A2": {"at": "the_shyre", "card": "cinderbrush", "seat": 0, "arr": 4, "hp": 3},
        "S1": {"at": "weathertip", "card": "silmarielle", "seat": 0, "arr": 1, "acted": True},
        "A3": {"at": "grate_river", "card": "kay_seven", "seat": 1, "arr": 6, "cd": 3},
        "A4": {
            "at": "grate_river",
            "card": "windrift",
            "seat": 1,
            "arr": 7,
            "fx": [effect("paralyse", "", 0, 1, seat=2)],
        },
        "S2": {
            "at": "fields_of_roan",
            "card": "raven",
            "seat": 1,
            "arr": 2,
            "canons": ["C2", "C5"],
            "hp": 4,
        },
        "A5": {"at": "", "card": "pillbury", "seat": 2, "hp": 0},
        "A6": {
            "at": "grate_river",
            "card": "glorp",
            "seat": 2,
            "arr": 9,
            "fx": [effect("add", "attack", -1, 1, seat=1)],
        },
        "S3": {"at": "helms_shallow", "card": "faelinn", "seat": 2, "arr": 8, "cd": 5},
        "A7": {
            "at": "minas_tiresome",
            "card": "tharvel",
            "seat": 3,
            "arr": 10,
            "arts": ["tiara"],
        },
        "A8": {"at": "grate_river", "card": "wimbledew", "seat": 3, "arr": 11},
        "S4": {"at": "cirith_ungood", "card": "zyxara", "seat": 3, "arr": 5, "canons": ["C6"]},
    },
    "canons": {
        "C1": {"at": "rivendull", "card": "leggolas"},
        "C2": {"at": "", "card": "aragone"},
        "C3": {"at": "lothlorient", "card": "samwize", "public": True},
        "C4": {"at": "the_shyre", "card": "merrie"},
        "C5": {"at": "", "card": "eomore"},
        "C6": {"at": "", "card": "gimbly"},
        "C7": {"at": "trollshawls", "card": "pippen", "known": [0]},
    },
    "monsters": {
        "M1": {"at": "bree", "card": "moral_ambiguity"},
        "M2": {"at": "borrow_downs", "card": "barrow_wight", "hp": 3, "public": True},
        "M3": {"at": "moaria", "card": "cave_troll"},
        "M4": {"at": "mount_gloom", "card": "orc_warband", "known": [1]},
    },
    "seats": [
        {"brought": ["aragone", "leggolas", "merrie"], "kills": 0, "out": 0},
        {"brought": ["eomore", "gimbly", "pippen"], "kills": 1, "out": 0},
        {"brought": ["samwize", "frodough", "haldear"], "kills": 0, "out": 0},
        {"brought": ["boromeer", "faramere", "glorfinder"], "kills": 0, "out": 0},
    ],
}

#: A battle in progress at L13: A1 (Kay-Seven) against S2 (Zyx'ara, two Canons made public),
#: three thrusts fought.
BATTLE_POSITION: dict[str, Any] = {
    "version": 1,
    "set": "gz-lotr",
    "players": 2,
    "chars": {
        "A1": {"at": "olde_foreste", "card": "kay_seven", "seat": 0},
        "A2": {"at": "the_shyre", "card": "inkwell", "seat": 0},
        "S1": {"at": "weathertip", "card": "glitterwen", "seat": 0, "acted": True},
        "S2": {"at": "fields_of_roan", "card": "zyxara", "seat": 1, "canons": ["C1", "C2"]},
    },
    "canons": {"C1": {"at": "", "card": "aragone"}, "C2": {"at": "", "card": "eomore"}},
    "part": "agent",
}
BATTLE_MOVES = ("move A1 L13", "fight L13", "attack S2", "attack A1", "attack S2")

#: The last kill ends the game (scenario GZ-P97): seat 0 wins 6 to 2; seat 1 had resigned
#: nobody, so seat 1's dead Agents show in its roster.
FINISHED_POSITION: dict[str, Any] = {
    "version": 1,
    "set": "gz-lotr",
    "players": 2,
    "canons": {"C1": {"at": "", "card": "aragone"}, "C2": {"at": "", "card": "boromeer"}},
    "chars": {
        "A1": {"at": "olde_foreste", "card": "inkwell", "seat": 0},
        "A2": {"at": "", "card": "glorp", "hp": 0, "seat": 0},
        "A3": {"at": "", "card": "kay_seven", "hp": 0, "seat": 1},
        "A4": {"at": "", "card": "tharvel", "hp": 0, "seat": 1},
        "S1": {"at": "weathertip", "canons": ["C1", "C2"], "card": "silmarielle", "seat": 0},
        "S2": {"at": "fields_of_roan", "card": "raven", "hp": 1, "seat": 1},
    },
    "seats": [
        {"brought": [], "kills": 1, "out": 0},
        {"brought": [], "kills": 1, "out": 0},
    ],
}
FINISHED_MOVES = ("rest S1", "move A1 L13", "attack A1", "attack S2")

#: A 2-player game dealt by draft (spec 3.5, ``deal=draft``) at its fifth pick: both Agent
#: rounds and seat 0's first 'Sue pick are done, seat 1 picks a 'Sue next. The picked
#: characters wait off the map at full Health; nothing is placed yet.
DRAFT_POSITION: dict[str, Any] = {
    "version": 1,
    "set": "gz-lotr",
    "players": 2,
    "part": "draft",
    "chars": {},
    "canons": {},
    "monsters": {},
}
DRAFT_MOVES = ("pick cinderbrush", "pick glorp", "pick kay_seven", "pick pillbury", "pick raven")

LABELS_2 = ("Zoë Ångström 🐉", "bob")
LABELS_4 = ("Zoë Ångström 🐉", "bob", "北の王", "a very long display name indeed")


@cache
def start_state() -> GenerationZeroState:
    return play(START_POSITION)


@cache
def draft_state() -> GenerationZeroState:
    return play(DRAFT_POSITION, *DRAFT_MOVES)


@cache
def midgame_state() -> GenerationZeroState:
    return play(MIDGAME_POSITION, "move A1 L14")


@cache
def battle_state() -> GenerationZeroState:
    return play(BATTLE_POSITION, *BATTLE_MOVES)


@cache
def finished_state() -> GenerationZeroState:
    return play(FINISHED_POSITION, *FINISHED_MOVES)


#: The mid-game's last decision as the picture should show it: one step, L10 to L14. (The
#: engine's own record of a landing-only move may name any legal path; pinning it keeps the
#: golden about the renderer.)
MIDGAME_LAST = LastDecision(
    "move", 0, "A1", ("olde_foreste", "fields_of_roan"), "fields_of_roan", "", "move A1 L14"
)

GOLDEN_VIEWS: dict[str, tuple[Any, int | None, tuple[str, ...] | None]] = {
    "start_2p_public": (start_state, None, LABELS_2),
    "start_2p_seat0_private": (start_state, 0, LABELS_2),
    "draft_2p_public": (draft_state, None, ("alice", "bob")),
    "midgame_4p_pending_battle": (midgame_state, None, LABELS_4),
    "battle_in_progress": (battle_state, None, ("alice", "bob")),
    # A bot's name too long to share its line with WINNER and the score: it gets the line
    # whole ("Gameroom (level 3)", the level readable), and they go on the next.
    "finished": (finished_state, None, ("Gameroom (level 3)", "bob")),
}


def view_of(state: GenerationZeroState, viewer: int | None) -> GenerationZeroView:
    """``ENGINE.view``, with the mid-game's last decision pinned (:data:`MIDGAME_LAST`)."""
    view = ENGINE.view(state, viewer)
    if state is midgame_state():
        view = replace(view, last=MIDGAME_LAST)
    return view


def golden_view(name: str) -> tuple[GenerationZeroView, tuple[str, ...] | None]:
    state, viewer, labels = GOLDEN_VIEWS[name]
    return view_of(state(), viewer), labels


# ---- the states are what the goldens claim ---------------------------------------------------


def test_the_golden_states_show_what_their_names_say() -> None:
    mid = ENGINE.view(midgame_state(), None)
    assert mid.data["pending"] == ["fields_of_roan"]
    assert mid.last is not None
    assert mid.last.kind == "move"
    assert (mid.last.path[0], mid.last.path[-1]) == MIDGAME_LAST.path
    assert mid.data["monsters"]["M2"]["card"] == "barrow_wight"
    assert mid.data["monsters"]["M3"]["card"] == ""
    battle = ENGINE.view(battle_state(), None)
    assert battle.data["battle"] is not None
    assert len(battle.combat_log) >= 3
    over = ENGINE.view(finished_state(), None)
    assert over.outcome is not None
    assert over.outcome.winners == (0,)
    draft = ENGINE.view(draft_state(), None)
    assert draft.data["part"] == "draft"
    assert draft.to_move == (1,)
    assert sorted(draft.data["chars"]) == ["A1", "A2", "A3", "A4", "S1"]
    assert all(c["at"] == "" and c["hp"] > 0 for c in draft.data["chars"].values())


# ---- goldens ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(GOLDEN_VIEWS))
def test_matches_golden_image(name: str, tmp_path: Path) -> None:
    view, labels = golden_view(name)
    check_golden(gz.render(view, seat_labels=labels), GOLDEN_DIR / f"{name}.png", tmp_path)


# ---- errors ----------------------------------------------------------------------------------


def test_rejects_a_view_of_another_type() -> None:
    with pytest.raises(TypeError, match="GenerationZeroView"):
        gz.render(object())  # type: ignore[arg-type]


def test_rejects_a_single_string_as_labels() -> None:
    view, _ = golden_view("start_2p_public")
    with pytest.raises(TypeError, match="sequence of names"):
        gz.render(view, seat_labels="alice")


@pytest.mark.parametrize("labels", [(), ("alice",), ("a", "b", "c")])
def test_rejects_a_wrong_number_of_labels(labels: tuple[str, ...]) -> None:
    view, _ = golden_view("start_2p_public")
    with pytest.raises(ValueError, match="one per seat"):
        gz.render(view, seat_labels=labels)


def with_data(view: GenerationZeroView, **changes: Any) -> GenerationZeroView:
    return replace(view, data={**view.data, **changes})


@pytest.mark.parametrize(
    "change",
    [
        {"map": ["bree"] * 16},
        {"map": ["nowhere", *START_POSITION["monsters"]]},
        {"players": 7},
        {"pending": ["mount_gloom"]},
        {"chars": {"A1": {"at": "mordor", "seat": 0, "kind": "agent", "card": "inkwell"}}},
        {"chars": {"A1": {"at": "bree", "seat": 5, "kind": "agent", "card": "inkwell"}}},
        {"canons": {"C1": {"at": "bree", "card": "the_one_ring", "known": [], "public": True}}},
        {"monsters": {"M1": {"at": "nowhere"}}},
        {"seats": []},
        {"layout": "thirty"},
    ],
)
def test_rejects_a_malformed_view(change: dict[str, Any]) -> None:
    view, _ = golden_view("start_2p_public")
    with pytest.raises(ValueError):
        gz.render(with_data(view, **change))


def test_rejects_a_data_object_missing_keys() -> None:
    view, _ = golden_view("start_2p_public")
    data = dict(view.data)
    del data["chars"]
    with pytest.raises(ValueError, match="malformed"):
        gz.render(replace(view, data=data))


# ---- properties ------------------------------------------------------------------------------


def busiest_view() -> GenerationZeroView:
    """The mid-game view with every Canon face-up for seat 0, long labels, a full combat log
    and every character on the board carrying effects: the largest PNG a view makes."""
    view = view_of(midgame_state(), 0)
    chars = {
        cid: {**c, "fx": [effect("add", "attack", 1, 2), effect("paralyse", "", 0, 1)]}
        for cid, c in view.data["chars"].items()
    }
    canons = {t: {**c, "card": c["card"] or "frodough"} for t, c in view.data["canons"].items()}
    log = tuple(f"A{k} attacks S2: 4 vs 3, 1 damage (S2 5 → 4)" for k in range(1, 13))
    return replace(with_data(view, chars=chars, canons=canons), combat_log=log)


def test_png_is_a_small_palette_image_of_the_documented_size() -> None:
    for view in (golden_view("start_2p_public")[0], busiest_view()):
        data = gz.render(view, seat_labels=("W" * 40,) * view.data["players"])
        assert len(data) <= 250_000
        image = decode(data)
        assert (image.format, image.mode) == ("PNG", "P")
        assert image.size == (gz.WIDTH, gz.HEIGHT) == (1280, 880)


def test_same_view_gives_same_bytes() -> None:
    view, labels = golden_view("midgame_4p_pending_battle")
    first = gz.render(view, seat_labels=labels)
    assert gz.render(view, seat_labels=labels) == first
    for cached in (gz._cards_layer, gz._base_layer, gz._token_sprite, kit.text_stamp):
        cached.cache_clear()
    kit.palette_image.cache_clear()
    assert gz.render(view, seat_labels=labels) == first


def test_renders_from_several_threads_alike() -> None:
    views = [golden_view(name) for name in sorted(GOLDEN_VIEWS)]
    expected = [gz.render(view, seat_labels=labels) for view, labels in views]
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda vl: gz.render(vl[0], seat_labels=vl[1]), views * 2))
    assert results == expected * 2


def test_perspective_is_ignored() -> None:
    view, _ = golden_view("battle_in_progress")
    assert gz.render(view, perspective=1) == gz.render(view)


def test_labels_fold_latin_accents_and_draw_other_scripts() -> None:
    """Latin accents fold to the Latin face; other scripts are drawn, not dropped."""
    view, _ = golden_view("start_2p_seat0_private")
    assert gz.render(view, seat_labels=("北の王", "bob")) != gz.render(
        view, seat_labels=("", "bob")
    )
    folded = gz.render(view, seat_labels=("Zoë", "bob"))
    assert folded == gz.render(view, seat_labels=("Zoe", "bob"))
    assert folded != gz.render(view, seat_labels=("Zoe 🐉", "bob"))


def test_private_title_names_the_viewer_and_public_title_does_not() -> None:
    view, _ = golden_view("start_2p_seat0_private")
    _, texts = gz.render_recording_texts(view, seat_labels=("alice", "bob"))
    assert "Private view: alice" in texts
    # A right-to-left name keeps the line left to right: the fixed words come first, and the
    # name alone is reversed for drawing ("<name>'s view" was drawn "s view - private'<name>").
    _, texts = gz.render_recording_texts(view, seat_labels=("שלום", "bob"))
    assert "Private view: שלום" in texts
    assert kit.visual_order("Private view: שלום") == "Private view: םולש"
    public, _ = golden_view("start_2p_public")
    _, texts = gz.render_recording_texts(public, seat_labels=("alice", "bob"))
    assert "Generation Zero - public board" in texts
    assert not any("private" in text for text in texts)


def test_private_view_lists_the_brought_canons_and_known_identities() -> None:
    view = ENGINE.view(midgame_state(), 0)
    _, texts = gz.render_recording_texts(view)
    joined = "\n".join(texts)
    for name in ("Aragone", "Leggolas", "Merrie"):  # seat 0 brought these
        assert name in joined
    assert "C7 Pippen" in joined  # seen by seat 0 only


def test_the_picture_changes_with_what_it_must_show() -> None:
    """Health, charge, effects, Canons held, the to-act ring and the round all reach the
    pixels (a renderer that ignored them would pass the goldens' other checks)."""
    view, labels = golden_view("midgame_4p_pending_battle")
    base = rgb(gz.render(view, seat_labels=labels))
    s2 = view.data["chars"]["S2"]
    changes: list[dict[str, Any]] = [
        {"chars": {**view.data["chars"], "S2": {**s2, "hp": 1}}},
        {"chars": {**view.data["chars"], "S2": {**s2, "cd": 2}}},
        {"chars": {**view.data["chars"], "S2": {**s2, "fx": [effect("add", "defence", 1, 1)]}}},
        {"round": 9},
        {"grey": True},
    ]
    for change in changes:
        changed = rgb(gz.render(with_data(view, **change), seat_labels=labels))
        assert changed.tobytes() != base.tobytes(), change


# ---- hidden information ----------------------------------------------------------------------


def secret_names(view: GenerationZeroView, state: GenerationZeroState) -> set[str]:
    """Names of every Canon and Monster card that ``view`` blanks (read from the full
    position, which the renderer never sees)."""
    full = json.loads(ENGINE.position(state))
    content = view.content
    names = set()
    for token, canon in full["canons"].items():
        if not view.data["canons"][token]["card"]:
            names.add(content.canons[canon["card"]].name)
    for token, monster in full["monsters"].items():
        if monster["at"] and not view.data["monsters"][token]["card"]:
            names.add(content.monster(monster["card"]).name)
    for seat, record in enumerate(full["seats"]):
        if seat != view.viewer:
            names |= {content.canons[card].name for card in record["brought"]}
    # Names the view shows anyway: face-up cards, and the Canons the viewer brought (it knows
    # their names, not their tokens).
    names -= {content.canons[c["card"]].name for c in view.data["canons"].values() if c["card"]}
    names -= {content.monster(m["card"]).name for m in view.data["monsters"].values() if m["card"]}
    if view.viewer is not None:
        names -= {content.canons[card].name for card in full["seats"][view.viewer]["brought"]}
    return names


def test_public_image_never_names_what_seat_0_alone_knows() -> None:
    """C7 (Pippen) and M4 are known to seats 0 and 1 only; the public image and its texts must
    not name them, while seat 0's private view does name C7."""
    state = midgame_state()
    public = ENGINE.view(state, None)
    assert public.data["canons"]["C7"]["card"] == ""
    data, texts = gz.render_recording_texts(public, seat_labels=LABELS_4)
    secrets = secret_names(public, state)
    assert {"Pippen", "Orc Warband (Unionised)", "Moral Ambiguity"} <= secrets
    for text in texts:
        for secret in secrets:
            assert secret not in text, (secret, text)
            assert secret.split()[0] not in text.split(), (secret, text)  # a cut-down name
    # The picture itself: the public image is the same whatever the hidden cards are.
    shuffled = json.loads(ENGINE.position(state))
    shuffled["canons"]["C7"]["card"] = "frodough"
    shuffled["monsters"]["M4"]["card"] = "uruk_scouts"
    other = ENGINE.view(replace(state, text=json.dumps(shuffled, sort_keys=True)), None)
    assert gz.render(other, seat_labels=LABELS_4) == data
    private = ENGINE.view(state, 0)
    _, private_texts = gz.render_recording_texts(private, seat_labels=LABELS_4)
    assert any("Pippen" in text for text in private_texts)


@pytest.mark.parametrize("name", sorted(GOLDEN_VIEWS))
def test_no_golden_view_draws_a_blanked_name(name: str) -> None:
    state, viewer, labels = GOLDEN_VIEWS[name]
    view = view_of(state(), viewer)
    _, texts = gz.render_recording_texts(view, seat_labels=labels)
    secrets = secret_names(view, state())
    assert not any(secret in text for text in texts for secret in secrets)


def test_labels_sequence_types() -> None:
    view, _ = golden_view("start_2p_public")
    as_list: Sequence[str] = ["alice", "bob"]
    assert gz.render(view, seat_labels=as_list) == gz.render(view, seat_labels=("alice", "bob"))


def test_resigned_seat_and_pending_battle_are_spelled_out() -> None:
    view, labels = golden_view("midgame_4p_pending_battle")
    seats = [dict(record) for record in view.data["seats"]]
    seats[3]["out"] = 1
    _, texts = gz.render_recording_texts(with_data(view, seats=seats), seat_labels=labels)
    assert any(text.startswith("resigned") for text in texts)
    assert "Pending battles: L14" in texts
    assert "Last: Seat 1: move A1 L14" in texts


def test_a_resigned_seats_characters_read_out_not_dead() -> None:
    # R12.4: a resigned seat's living characters leave play; its roster cannot tell them from
    # its dead, so all read "out". Another seat's dead still read "dead".
    view = ENGINE.view(finished_state(), None)
    assert [c["seat"] for c in view.data["chars"].values() if not c["at"]].count(1) >= 2
    _, before = gz.render_recording_texts(view)
    seats = [dict(record) for record in view.data["seats"]]
    seats[1]["out"] = 1
    _, after = gz.render_recording_texts(with_data(view, seats=seats))
    dead_of = {
        seat: sum(1 for c in view.data["chars"].values() if not c["at"] and c["seat"] == seat)
        for seat in (0, 1)
    }
    assert before.count("dead") == dead_of[0] + dead_of[1]
    assert after.count("dead") == dead_of[0]
    assert after.count("out") == dead_of[1]


def test_roster_status_tells_drafted_from_dead_and_out() -> None:
    # Spec 3.5: drafted characters have `at` "" and full Health until setup ends; they are
    # not dead (R10). A resigned seat's characters read "out" (R12.4), draft or not.
    off_map = {"at": "", "hp": 5}
    assert gz.roster_status(off_map, drafting=True, seat_out=False) == "drafted"
    assert gz.roster_status(off_map, drafting=False, seat_out=False) == "dead"
    assert gz.roster_status(off_map, drafting=True, seat_out=True) == "out"
    assert gz.roster_status(off_map, drafting=False, seat_out=True) == "out"
    on_map = {"at": "bree", "hp": 5}
    assert gz.roster_status(on_map, drafting=False, seat_out=False) == ""


def test_a_draft_roster_reads_drafted_not_dead_and_the_header_says_draft() -> None:
    view, labels = golden_view("draft_2p_public")
    _, texts = gz.render_recording_texts(view, seat_labels=labels)
    assert texts.count("drafted") == len(view.data["chars"]) == 5
    assert not any("dead" in text for text in texts)
    assert "Draft" in texts
    assert not any(text.startswith("Round") for text in texts)
    # The same characters once the draft is over (off the map, not drafting) read dead.
    _, after = gz.render_recording_texts(with_data(view, part="sue"), seat_labels=labels)
    assert after.count("dead") == 5
    assert "Round 1/12" in after


@pytest.mark.parametrize("name", sorted(GOLDEN_VIEWS))
def test_every_public_canon_held_is_named_in_full(name: str) -> None:
    # Section 10: a public Canon shows its name. A 'Sue's Canons that do not fit beside her
    # Health and charge go on a line of their own instead of being cut off with "…".
    view, labels = golden_view(name)
    _, texts = gz.render_recording_texts(view, seat_labels=labels)
    drawn = " ".join(texts)
    held = [
        (token, view.content.canons[canon["card"]].name)
        for token, canon in view.data["canons"].items()
        if canon["public"] and not canon["at"]
    ]
    for token, card_name in held:
        assert f"{token} {card_name}" in drawn, (token, card_name)


def test_a_sue_stopped_at_a_monster_is_drawn_where_she_stands() -> None:
    """`move S2 L8 L11` stops at L8 to fight the Monster there: while she stands there, the
    last decision's path ends at L8 (the fight's frame marks it), not at the landing she
    named."""
    move = LastDecision("move", 1, "S2", ("L2", "L8", "L11"), "L11", "", "move S2 L8 L11")
    chars = {"S2": {"at": "L8"}, "A1": {"at": "L3"}}
    assert gz.travelled(move, chars) == (("L2", "L8"), "L8")
    # She walked on (or another kind of decision): the decision as it is.
    assert gz.travelled(move, {"S2": {"at": "L11"}}) == (("L2", "L8", "L11"), "L11")
    flee = replace(move, kind="flee", text="flee L8")
    assert gz.travelled(flee, chars) == (flee.path, flee.location)
    assert gz.travelled(replace(move, char="S9"), chars) == (move.path, move.location)
