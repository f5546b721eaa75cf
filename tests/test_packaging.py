"""What an install ships beside the code: the samples (the demo runs anywhere) and templates."""

from __future__ import annotations

import tomllib
from pathlib import Path

from sample_logs import SAMPLES_DIR

ROOT = Path(__file__).resolve().parent.parent


def _package_data(package: str) -> list[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    setuptools = config["tool"]["setuptools"]
    assert package in setuptools["packages"]
    return list(setuptools["package-data"][package])


def _shipped(folder: Path, patterns: list[str]) -> tuple[list[str], list[str]]:
    files = [
        p.relative_to(folder).as_posix()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and p.suffix not in (".py", ".pyc")
    ]
    # setuptools expands each pattern as a glob from the package's folder
    matched = {m.relative_to(folder).as_posix() for p in patterns for m in folder.glob(p)}
    return files, [f for f in files if f in matched]


def test_every_sample_log_ships_with_the_package() -> None:
    assert SAMPLES_DIR == ROOT / "sample_logs"
    files, shipped = _shipped(SAMPLES_DIR, _package_data("sample_logs"))
    assert files == shipped
    assert "bad/revoke.expected" in shipped and "formats/sample.29" in shipped


def test_every_template_ships_with_the_package() -> None:
    folder = ROOT / "reports" / "html"
    files, shipped = _shipped(folder, _package_data("reports.html"))
    assert files == shipped
    assert "templates/match.html" in shipped
