"""What every model file shares: reading its JSON object, checked to name the format
expected; its numbers, checked to be numbers a model can hold; its version, named after its
parameters; and the logistic function its chances come through.

>>> try:
...     read_body(Path("/no/such/model.json"), "x")
... except ModelFileError as exc:
...     print(str(exc).split(":")[:2])
['/no/such/model.json', ' cannot read the model']
"""

from __future__ import annotations

import hashlib
import json
import math
from pathlib import Path
from typing import Any, Final


class ModelFileError(ValueError):
    """A model file (of any of the models) that cannot be used: says what is wrong, in one
    line."""


MAX_LOG_ODDS: Final = 50.0
"""The largest intercept or coefficient a logistic model may hold: 50 log-odds a unit is
odds of 5e21 to 1, far beyond what a few thousand calls can say (the shipped models' are
under 5); a larger one is not a fitted model."""


def read_body(path: Path, fmt: str) -> dict[str, Any]:
    """The JSON object in ``path`` whose ``format`` is ``fmt``; :class:`ModelFileError`
    says in one line, naming the file, why it cannot be read."""
    try:
        body = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ModelFileError(f"{path}: cannot read the model: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise ModelFileError(f"{path}: not a {fmt} file (not UTF-8 text)") from None
    except json.JSONDecodeError as exc:
        raise ModelFileError(
            f"{path}: not a {fmt} file (not JSON: {exc.msg}, line {exc.lineno})"
        ) from None
    except ValueError:  # an integer of thousands of digits, which Python will not read
        raise ModelFileError(f"{path}: {TOO_LONG}") from None
    if not isinstance(body, dict) or body.get("format") != fmt:
        raise ModelFileError(f"{path}: not a {fmt} file")
    return body


TOO_LONG: Final = "a number too long to read (thousands of digits): not a model file"


def named_version(prefix: str, parameters: Any) -> str:
    """``prefix-`` and 8 hex digits of the parameters' JSON: the same numbers, the same
    version, so a file whose numbers were edited cannot pass under the version it had.

    >>> named_version("table", [0.0, [1.0]])
    'table-cbd58469'
    """
    return f"{prefix}-" + hashlib.sha256(json.dumps(parameters).encode()).hexdigest()[:8]


def sigmoid(z: float) -> float:
    """The logistic function, without overflow for a large negative ``z``.

    >>> sigmoid(0.0), round(sigmoid(-800.0), 6)
    (0.5, 0.0)
    """
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


def number(value: Any, where: str) -> float:
    """``value`` as a finite float, where the JSON holds a number (not a string, not true or
    false); :class:`ModelFileError` names ``where`` otherwise.

    >>> number(2, "jump"), number(0.5, "jump")
    (2.0, 0.5)
    >>> for bad in (True, "1", 10**400, float("inf")):
    ...     try:
    ...         number(bad, "intercept")
    ...     except ModelFileError as exc:
    ...         print(exc)
    intercept: true is not a number
    intercept: "1" is not a number
    intercept: a number of 401 digits is too large
    intercept: every parameter must be a finite number
    """
    if isinstance(value, bool):
        raise ModelFileError(f"{where}: {json.dumps(value)} is not a number")
    if not isinstance(value, int | float):
        shown = json.dumps(value) if not isinstance(value, dict | list) else type(value).__name__
        raise ModelFileError(f"{where}: {shown[:40]} is not a number")
    try:
        out = float(value)
    except OverflowError:
        digits = len(str(abs(value))) if isinstance(value, int) else 0
        raise ModelFileError(f"{where}: a number of {digits:,} digits is too large") from None
    if not math.isfinite(out):
        raise ModelFileError(f"{where}: every parameter must be a finite number")
    return out


def numbers(value: Any, where: str) -> tuple[float, ...]:
    """A JSON list of numbers as floats (:func:`number` for each).

    >>> numbers([1, 2.5], "coefficients")
    (1.0, 2.5)
    """
    if not isinstance(value, list):
        raise ModelFileError(f"{where}: not a list of numbers")
    return tuple(number(v, f"{where}[{i}]") for i, v in enumerate(value))
