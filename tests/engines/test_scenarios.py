"""The public scenarios of every spec, run through ``python -m engines`` in-process.

The scenario files are verbatim copies of each spec's "Scenarios" section
(``tests/engines/scenarios/<game>.md``); a test checks the copies still match the specs when
``shared/`` is beside the repository.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engines.__main__ import run
from tests.engines import scenario_file

HERE = Path(__file__).parent / "scenarios"
SPECS = Path(__file__).resolve().parents[3] / "shared" / "specs"
CASES = [(path.stem, s) for path in sorted(HERE.glob("*.md")) for s in scenario_file.load(path)]


@pytest.mark.parametrize(("game", "scenario"), CASES, ids=[s.id for _, s in CASES])
def test_scenario(game: str, scenario: scenario_file.Scenario) -> None:
    assert scenario.argv[0] == game
    status, output = run(scenario.argv)
    problems = scenario_file.check(scenario.clauses, status, output)
    assert not problems, f"{scenario.id} {scenario.title}: {problems}\noutput: {output}"


@pytest.mark.parametrize("path", sorted(HERE.glob("*.md")), ids=lambda p: p.stem)
def test_scenario_copy_matches_spec(path: Path) -> None:
    spec = SPECS / f"{path.stem}.md"
    if not spec.exists():
        pytest.skip("shared/specs is not beside this checkout")
    text = spec.read_text(encoding="utf-8")
    assert path.read_text(encoding="utf-8") in text + "\n"
