"""Reader for the specs' public scenario formats (section "Scenarios" of each game's spec).

Two layouts exist. Generatorb's scenario is three lines::

    **GB-P08** Two-jump capture; the captured orb leaves the game.
    `python -m engines generatorb --position '…' c1xc5`
    → exit `0`; applied `["c1xc5"]`; position `…`; to_move `[1]`; outcome null

Later specs number them and indent the command and the expectation::

    12. **gen-horizontal-adjacent**: horizontal=adjacent forbids the diagonal R-B.
       `python -m engines generator --option horizontal=adjacent … --legal`
       → exit 0; legal_moves (as a set) `["M:R-RB", "pass"]`

Each ``;``-separated clause pins one field of the CLI's JSON output. The clause styles are:

* ``exit N`` or ``exit `N```: the exit status;
* ``outcome null``; ``N legal moves``;
* ``legal_moves include `[…]```, ``legal_moves exclude `[…]```,
  ``legal_moves (as a set) `[…]``` (with or without ``=``): compared as sets;
* ``FIELD `VALUE```: a (dotted) field equals VALUE, read as JSON when it parses, else as text;
* ```FIELD` holds exactly one `PATTERN```: a one-element list matching PATTERN;
* ```FIELD` is `A` or `B```: the field equals one of the JSON values;
* ``FIELD is `VALUE` for some colour X``: equality where ``X`` stands for one colour letter
  (G, R, Y or B), the same one in every clause of the scenario that mentions it.

A **variable** is declared by a ``for some colour X`` clause, or is a lone upper-case letter
outside ``GRYBLMS`` (the letters of colours and pyramid sizes) in a ``holds exactly one``
pattern, like ``X`` in ``roll:X``. It stands for one colour letter wherever it appears as a
lone letter in the scenario's values (``B=X 1``); the clauses that declare variables are
checked first and bind them. :func:`check` raises ``ValueError`` for a clause in no known
style, so nothing is silently ignored.
"""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HEADER = re.compile(r"^(?:\d+\.\s+)?\*\*(?P<id>[A-Za-z0-9-]+)\*\*:?\s*(?P<title>.*)$")
COMMAND = re.compile(r"^\s*`python -m engines (?P<args>.*)`\s*$")
EXPECT = re.compile(r"^\s*→\s*(?P<clauses>.*)$")
CLAUSE_SPLIT = re.compile(r";\s+(?=(?:[^`]*`[^`]*`)*[^`]*$)")

#: Letters that are never variables: colours and pyramid sizes.
RESERVED = "GRYBLMS"
#: A lone upper-case letter (not part of a longer word).
LONE_LETTER = re.compile(r"(?<![A-Za-z])([A-Z])(?![A-Za-z])")
COLOUR_VALUES = "GRYB"

EXIT = re.compile(r"exit `?(?P<value>\d+)`?")
COUNT = re.compile(r"(?P<count>\d+) legal moves")
LEGAL = re.compile(r"legal_moves (?P<how>include|exclude|\(as a set\)(?: =)?) `(?P<value>[^`]*)`")
FIELD = re.compile(r"(?P<field>[a-z_]+(?:\.[a-z_]+)*) `(?P<value>[^`]*)`")
HOLDS_ONE = re.compile(r"`(?P<field>[a-z_.]+)` holds exactly one `(?P<value>[^`]*)`")
ONE_OF = re.compile(r"`(?P<field>[a-z_.]+)` is (?P<values>`[^`]*`(?: or `[^`]*`)+)")
FOR_SOME = re.compile(r"(?P<field>[a-z_.]+) is `(?P<value>[^`]*)` for some colour (?P<var>[A-Z])")


@dataclass(frozen=True)
class Scenario:
    id: str
    title: str
    argv: tuple[str, ...]
    clauses: tuple[str, ...]


def load(path: Path) -> list[Scenario]:
    """Every scenario in a markdown file, in order; ``ValueError`` for a broken one."""
    lines = [line.rstrip() for line in path.read_text(encoding="utf-8").splitlines()]
    scenarios = []
    for i, line in enumerate(lines):
        header = HEADER.match(line)
        if not header:
            continue
        command = COMMAND.match(lines[i + 1]) if i + 1 < len(lines) else None
        expect = EXPECT.match(lines[i + 2]) if i + 2 < len(lines) else None
        if not command or not expect:
            raise ValueError(f"scenario {header['id']} is not in the expected format")
        clauses = tuple(
            c.strip() for c in CLAUSE_SPLIT.split(expect["clauses"].strip()) if c.strip()
        )
        scenarios.append(
            Scenario(header["id"], header["title"], tuple(shlex.split(command["args"])), clauses)
        )
    return scenarios


def _field(output: dict[str, Any], dotted: str) -> Any:
    value: Any = output
    for part in dotted.split("."):
        if not isinstance(value, dict) or part not in value:
            return KeyError(dotted)
        value = value[part]
    return value


def _value(raw: str) -> Any:
    """A clause's quoted value: JSON when it parses, else the text itself."""
    try:
        return json.loads(raw)
    except json.JSONDecodeError:
        return raw


def _match(expected: Any, actual: Any, bindings: dict[str, str], variables: set[str]) -> bool:
    """Structural equality where strings may hold variables; binds the free ones.

    A JSON object pinned for a field the CLI prints as a JSON string (Generation Zero's
    ``position``) is compared with that string's parsed value.
    """
    if isinstance(expected, dict) and isinstance(actual, str):
        try:
            actual = json.loads(actual)
        except json.JSONDecodeError:
            return False
    if isinstance(expected, list):
        return (
            isinstance(actual, list)
            and len(expected) == len(actual)
            and all(
                _match(e, a, bindings, variables) for e, a in zip(expected, actual, strict=True)
            )
        )
    if not isinstance(expected, str) or not variables:
        return bool(expected == actual)
    if not isinstance(actual, str):
        return False
    pattern = ""
    for piece in LONE_LETTER.split(expected):
        if piece in variables and piece in bindings:
            pattern += re.escape(bindings[piece])
        elif piece in variables:
            pattern += f"(?P<{piece}>[{COLOUR_VALUES}])"
        else:
            pattern += re.escape(piece)
    found = re.fullmatch(pattern, actual)
    if not found:
        return False
    bindings.update(found.groupdict())
    return True


def _declared(clauses: tuple[str, ...]) -> set[str]:
    """The scenario's variables (see the module docstring)."""
    variables: set[str] = set()
    for clause in clauses:
        if m := FOR_SOME.fullmatch(clause):
            variables.add(m["var"])
        elif m := HOLDS_ONE.fullmatch(clause):
            variables.update(v for v in LONE_LETTER.findall(m["value"]) if v not in RESERVED)
    return variables


def check(clauses: tuple[str, ...], status: int, output: dict[str, Any]) -> list[str]:
    """Mismatches between the CLI's ``(status, output)`` and the scenario's clauses.

    Raises ``ValueError`` for a clause in no known style.
    """
    problems: list[str] = []
    bindings: dict[str, str] = {}
    variables = _declared(clauses)
    legal = set(output.get("legal_moves", []))
    declaring_first = sorted(
        clauses, key=lambda c: not (FOR_SOME.fullmatch(c) or HOLDS_ONE.fullmatch(c))
    )
    for clause in declaring_first:
        if m := EXIT.fullmatch(clause):
            if status != int(m["value"]):
                problems.append(f"exit {status}, expected {m['value']}")
        elif clause == "outcome null":
            if output.get("outcome") is not None:
                problems.append(f"outcome {output.get('outcome')}, expected null")
        elif m := COUNT.fullmatch(clause):
            if len(legal) != int(m["count"]):
                problems.append(f"{len(legal)} legal moves, expected {m['count']}: {sorted(legal)}")
        elif m := LEGAL.fullmatch(clause):
            expected = set(json.loads(m["value"]))
            if "legal_moves" not in output:
                problems.append("no legal_moves in the output (call with --legal)")
            elif m["how"] == "include" and expected - legal:
                problems.append(f"legal_moves lack {sorted(expected - legal)}")
            elif m["how"] == "exclude" and expected & legal:
                problems.append(f"legal_moves contain {sorted(expected & legal)}")
            elif m["how"].startswith("(as a set)") and legal != expected:
                problems.append(
                    f"legal_moves differ: missing {sorted(expected - legal)}, "
                    f"extra {sorted(legal - expected)}"
                )
        elif m := HOLDS_ONE.fullmatch(clause):
            actual = _field(output, m["field"])
            if not (
                isinstance(actual, list)
                and len(actual) == 1
                and _match(m["value"], actual[0], bindings, variables)
            ):
                problems.append(f"{m['field']} is {actual!r}, expected exactly one {m['value']}")
        elif m := ONE_OF.fullmatch(clause):
            actual = _field(output, m["field"])
            options = [_value(v) for v in re.findall(r"`([^`]*)`", m["values"])]
            if actual not in options:
                problems.append(f"{m['field']} is {actual!r}, expected one of {options}")
        elif (m := FOR_SOME.fullmatch(clause)) or (m := FIELD.fullmatch(clause)):
            actual = _field(output, m["field"])
            if not _match(_value(m["value"]), actual, bindings, variables):
                problems.append(f"{m['field']} is {actual!r}, expected {m['value']}")
        else:
            raise ValueError(f"unknown scenario clause: {clause!r}")
    return problems
