"""Reading a model file: its JSON object, checked to name the format expected.

>>> try:
...     read_body(Path("/no/such/model.json"), "x", ValueError)
... except ValueError as exc:
...     print(str(exc).split(":")[:2])
['/no/such/model.json', ' cannot read the model']
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def read_body(path: Path, fmt: str, error: type[ValueError]) -> dict[str, Any]:
    """The JSON object in ``path`` whose ``format`` is ``fmt``; ``error`` says in one line,
    naming the file, why it cannot be read."""
    try:
        body = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise error(f"{path}: cannot read the model: {exc}") from None
    if not isinstance(body, dict) or body.get("format") != fmt:
        raise error(f"{path}: not a {fmt} file")
    return body
