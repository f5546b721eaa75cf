"""What an install ships beside the code: the samples (the demo runs anywhere) and templates."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

from twentynine.sample_logs import SAMPLES_DIR

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
    files, shipped = _shipped(SAMPLES_DIR, _package_data("twentynine.sample_logs"))
    assert files == shipped
    assert "bad/revoke.expected" in shipped and "formats/sample.29" in shipped


def test_every_template_ships_with_the_package() -> None:
    folder = ROOT / "reports" / "html"
    files, shipped = _shipped(folder, _package_data("twentynine.reports.html"))
    assert files == shipped
    assert "templates/match.html" in shipped


def test_the_contract_model_ships_with_the_package() -> None:
    folder = ROOT / "analysis" / "models"
    files, shipped = _shipped(folder, _package_data("twentynine.analysis.models"))
    assert files == shipped
    assert "contract_model.json" in shipped


def test_the_wheel_installs_one_import_name(tmp_path: Path) -> None:
    """The wheel's only top-level package is twentynine: schema, replay and the other rooms
    are inside it, so that an install never shadows the index's packages of those names."""
    source = tmp_path / "source"
    shutil.copytree(
        ROOT,
        source,
        symlinks=True,
        ignore=shutil.ignore_patterns(
            *(".git", ".venv", "venv", "build", "dist", "*.egg-info", "*.so", "__pycache__"),
            *(".*_cache", "demo_out"),
        ),
    )
    built = subprocess.run(
        [
            *(sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q"),
            *("--disable-pip-version-check", "-w", str(tmp_path / "dist"), str(source)),
        ],
        env={**os.environ, "TWENTYNINE_PURE_PYTHON": "1"},
        capture_output=True,
        text=True,
        check=False,
    )
    assert built.returncode == 0, built.stderr[-3000:]
    (wheel,) = (tmp_path / "dist").glob("twentynine-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    version = wheel.name.split("-")[1]
    assert {name.split("/")[0] for name in names} == {
        "twentynine",
        f"twentynine-{version}.dist-info",
    }
    rooms = ("schema", "replay", "analysis", "importers", "reports", "sample_logs")
    for room in rooms:
        assert f"twentynine/{room}/__init__.py" in names, room
    assert "twentynine/analysis/judge/words.py" in names
    assert "twentynine/analysis/models/auction_model.json" in names
    assert "twentynine/analysis/models/dealing_model.json" in names
    assert "twentynine/analysis/models/table_model.json" in names
    assert "twentynine/reports/html/templates/match.html" in names
    assert "twentynine/sample_logs/bad/revoke.json" in names
    assert "twentynine/analysis/models/contract_model.json" in names
