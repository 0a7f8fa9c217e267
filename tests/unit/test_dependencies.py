"""#27 point 10, dependencies: Pillow with its security fixes, tzdata, fonts from maintained packages
or kept here with their licence (only the files the fallback chain uses), and every package pinned
in constraints.txt, which the Makefile installs with."""
from __future__ import annotations

import re
import tomllib
from pathlib import Path

from rendering import fonts

ROOT = Path(__file__).resolve().parents[2]


def requirements() -> list[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return [*project["dependencies"], *(r for extra in project["optional-dependencies"].values() for r in extra)]


def name_of(requirement: str) -> str:
    return re.split(r"[<>=!~ \[;]", requirement, maxsplit=1)[0].lower().replace("_", "-")


def test_dependencies_pillow_with_its_security_fixes_and_tzdata() -> None:
    wanted = {name_of(r): r for r in requirements()}
    assert re.search(r">=\s*11\.3", wanted["pillow"])
    assert "tzdata" in wanted
    assert not {"font-roboto", "manimgx-fonts"} & set(wanted)


def test_dependencies_fonts_kept_here_are_only_those_used_with_their_licence() -> None:
    kept = {path.name for path in fonts.KEPT_DIR.glob("*.ttf")}
    used = {face.regular.name for face in fonts.CHAIN if face.regular.parent == fonts.KEPT_DIR}
    assert kept == used and kept
    licence = (fonts.KEPT_DIR / "OFL.txt").read_text()
    assert "SIL OPEN FONT LICENSE Version 1.1" in licence
    assert all(face.regular.exists() for face in fonts.CHAIN)


def test_dependencies_every_package_pinned_for_reproducible_installs() -> None:
    pins = {name_of(line): line for line in (ROOT / "constraints.txt").read_text().splitlines()
            if line and not line.startswith("#")}
    assert all(re.fullmatch(r"[A-Za-z0-9_.-]+==[A-Za-z0-9_.+-]+", line) for line in pins.values()), pins
    assert [name_of(r) for r in requirements() if name_of(r) not in pins] == []
    makefile = (ROOT / "Makefile").read_text()
    assert makefile.count("-c constraints.txt") == 2
