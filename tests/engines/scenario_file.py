"""Reader for the specs' public scenario format (section "Scenarios" of each game's spec).

A scenario is three lines::

    **GB-P08** Two-jump capture; the captured orb leaves the game.
    `python -m engines generatorb --position '…' c1xc5`
    → exit `0`; applied `["c1xc5"]`; position `…`; to_move `[1]`; outcome null

Each ``;``-separated clause pins one field of the CLI's JSON output. :func:`check` returns the
list of mismatches (empty when the output satisfies every clause).
"""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HEADER = re.compile(r"^\*\*(?P<id>[A-Z0-9-]+)\*\*\s*(?P<title>.*)$")
COMMAND = re.compile(r"^`python -m engines (?P<args>.*)`\s*$")
CLAUSE_SPLIT = re.compile(r";\s+(?=(?:[^`]*`[^`]*`)*[^`]*$)")


@dataclass(frozen=True)
class Scenario:
    id: str
    title: str
    argv: tuple[str, ...]
    clauses: tuple[str, ...]


def load(path: Path) -> list[Scenario]:
    """Every scenario in a markdown file, in order."""
    lines = [line.rstrip() for line in path.read_text(encoding="utf-8").splitlines()]
    scenarios = []
    for i, line in enumerate(lines):
        header = HEADER.match(line)
        if not header:
            continue
        command = COMMAND.match(lines[i + 1])
        expect = lines[i + 2]
        if not command or not expect.startswith("→"):
            raise ValueError(f"scenario {header['id']} is not in the expected format")
        clauses = tuple(c.strip() for c in CLAUSE_SPLIT.split(expect[1:].strip()) if c.strip())
        scenarios.append(
            Scenario(header["id"], header["title"], tuple(shlex.split(command["args"])), clauses)
        )
    return scenarios


def _quoted(clause: str) -> str:
    match = re.search(r"`(.*)`", clause)
    if not match:
        raise ValueError(f"no quoted value in {clause!r}")
    return match.group(1)


def _field(output: dict[str, Any], dotted: str) -> Any:
    value: Any = output
    for part in dotted.split("."):
        if not isinstance(value, dict) or part not in value:
            return KeyError(dotted)
        value = value[part]
    return value


def check(clauses: tuple[str, ...], status: int, output: dict[str, Any]) -> list[str]:
    """Mismatches between the CLI's ``(status, output)`` and the scenario's clauses."""
    problems = []
    legal = set(output.get("legal_moves", []))
    for clause in clauses:
        if clause.startswith("exit "):
            if status != int(_quoted(clause)):
                problems.append(f"exit {status}, expected {_quoted(clause)}")
        elif clause == "outcome null":
            if output.get("outcome") is not None:
                problems.append(f"outcome {output.get('outcome')}, expected null")
        elif m := re.fullmatch(r"(\d+) legal moves", clause):
            if len(legal) != int(m.group(1)):
                problems.append(f"{len(legal)} legal moves, expected {m.group(1)}: {sorted(legal)}")
        elif clause.startswith("legal_moves include"):
            missing = set(json.loads(_quoted(clause))) - legal
            if missing:
                problems.append(f"legal_moves lack {sorted(missing)}")
        elif clause.startswith("legal_moves exclude"):
            extra = set(json.loads(_quoted(clause))) & legal
            if extra:
                problems.append(f"legal_moves contain {sorted(extra)}")
        elif clause.startswith("legal_moves (as a set) ="):
            expected = set(json.loads(_quoted(clause)))
            if legal != expected:
                problems.append(
                    f"legal_moves differ: missing {sorted(expected - legal)}, "
                    f"extra {sorted(legal - expected)}"
                )
        else:
            name, _, _rest = clause.partition(" ")
            raw = _quoted(clause)
            actual = _field(output, name)
            try:
                expected_value: Any = json.loads(raw)
            except json.JSONDecodeError:
                expected_value = raw
            if actual != expected_value:
                problems.append(f"{name} is {actual!r}, expected {expected_value!r}")
    return problems
