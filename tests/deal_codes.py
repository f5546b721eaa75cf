"""The one helper the rule tests share: a deal's findings as (code, action index) pairs."""

from twentynine.replay import DealState


def codes(state: DealState) -> list[tuple[str, int | None]]:
    """The findings of a deal so far, as ``(code, action)`` pairs in order."""
    return [(f.code, f.action) for f in state.findings]
