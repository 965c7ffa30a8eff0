"""Generation Zero: Agents hunt Mary Sues who ensnare Canons (spec ``generation_zero``).

Modules: :mod:`.content` (content sets, 3.6), :mod:`.rules` (R5–R14 over the position object),
:mod:`.position` (section 7 and the setup of 3.4–3.5), :mod:`.notation` (section 6),
:mod:`.view` (R14 views), :mod:`.engine` (the engine contract).
"""

from __future__ import annotations

from engines.generation_zero.engine import (
    GenerationZeroEngine,
    GenerationZeroState,
    default_decision,
)
from engines.generation_zero.view import GenerationZeroView, LastDecision

__all__ = [
    "GenerationZeroEngine",
    "GenerationZeroState",
    "GenerationZeroView",
    "LastDecision",
    "default_decision",
]
