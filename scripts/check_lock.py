"""Proves that the lock files install on every platform the README promises.

For each target (CPython 3.11, 3.12 and 3.13 on Linux x86-64 and aarch64) and each lock
file:
- every package the lock selects for that target has a wheel on PyPI that the target can
  install (its tags match) and whose SHA-256 is in the lock;
- the lock resolves there: `uv pip compile` of the lock for that target gives
  back exactly the lock's pins (no missing dependency, no conflict). torch is left out, as
  in scripts/lock.sh: scripts/setup.sh installs the build that suits the machine.

Asks PyPI (the registry setup.sh installs from), so it needs that network. Exit status:
0 all good, 1 a gap (each printed), 3 PyPI could not be reached.

    python scripts/check_lock.py requirements.lock requirements-dev.lock
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.tags import Tag, compatible_tags, cpython_tags
from packaging.utils import InvalidWheelFilename, canonicalize_name, parse_wheel_filename
from packaging.version import Version

PYTHONS = ((3, 11), (3, 12), (3, 13))
MACHINES = ("x86_64", "aarch64")
# Pure-Python packages published as source only; pip builds them (hash-checked) at set-up.
SDIST_ONLY = {"docopt"}
PYPI = "https://pypi.org/simple/{name}/"
ACCEPT = "application/vnd.pypi.simple.v1+json"
OVERRIDES = Path(__file__).with_name("lock-overrides.txt")


@dataclass(frozen=True)
class Target:
    python: tuple[int, int]
    machine: str

    def __str__(self) -> str:
        return f"CPython {self.python[0]}.{self.python[1]} Linux {self.machine}"

    def environment(self) -> dict[str, str]:
        version = f"{self.python[0]}.{self.python[1]}"
        return {
            "implementation_name": "cpython",
            "platform_python_implementation": "CPython",
            "platform_machine": self.machine,
            "platform_system": "Linux",
            "sys_platform": "linux",
            "os_name": "posix",
            "python_version": version,
            "python_full_version": f"{version}.0",
            "platform_release": "",
            "implementation_version": f"{version}.0",
            "extra": "",
        }

    def tags(self) -> set[Tag]:
        # manylinux from glibc 2.17 up to 2.39 (Ubuntu 24.04, Debian 13) and the legacy
        # aliases; plain linux_* wheels are not accepted on PyPI, so none are listed.
        platforms = [f"manylinux_2_{n}_{self.machine}" for n in range(39, 16, -1)]
        platforms += [f"manylinux2014_{self.machine}"]
        if self.machine == "x86_64":
            platforms += ["manylinux2010_x86_64", "manylinux1_x86_64"]
        tags = set(cpython_tags(self.python, platforms=platforms))
        tags |= set(compatible_tags(self.python, "cp" + "".join(map(str, self.python)), platforms))
        return tags


@dataclass(frozen=True)
class Pin:
    name: str
    version: str
    marker: Marker | None
    hashes: frozenset[str]


def read_lock(path: Path) -> list[Pin]:
    text = path.read_text(encoding="utf-8")
    # Join continuation lines; drop comments.
    logical = re.sub(r"\\\n\s*", " ", text)
    pins = []
    for line in logical.splitlines():
        line = line.split(" #", 1)[0].strip()
        if not line or line.startswith("#"):
            continue
        hashes = frozenset(re.findall(r"--hash=sha256:([0-9a-f]{64})", line))
        spec = re.sub(r"--hash=sha256:[0-9a-f]{64}", "", line).strip()
        req = Requirement(spec)
        (specifier,) = req.specifier
        pins.append(Pin(canonicalize_name(req.name), specifier.version, req.marker, hashes))
    return pins


def fetch(name: str) -> list[dict]:
    """The files PyPI holds for a project (its simple API, JSON form)."""
    request = urllib.request.Request(PYPI.format(name=name), headers={"Accept": ACCEPT})
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.load(response)["files"]


def wheels(files: list[dict], pin: Pin) -> list[dict]:
    out = []
    for f in files:
        if not f["filename"].endswith(".whl"):
            continue
        try:
            name, version, _, tags = parse_wheel_filename(f["filename"])
        except InvalidWheelFilename:  # a few old uploads predate the naming rules
            continue
        if canonicalize_name(name) == pin.name and version == Version(pin.version):
            out.append({**f, "tags": tags})
    return out


def sdists(files: list[dict], pin: Pin) -> list[dict]:
    stem = f"{pin.name.replace('-', '_')}-{pin.version}.tar.gz"
    return [f for f in files if f["filename"].lower().replace("-", "_") == stem.replace("-", "_")]


def resolves(lock: Path, target: Target, pins: dict[str, Pin]) -> list[str]:
    """Problems `uv pip compile` finds resolving the lock itself for `target`.

    Wheel availability is checked apart (check), so this resolves as pip would.
    """
    platform = f"{target.machine}-manylinux_2_28"
    version = f"{target.python[0]}.{target.python[1]}"
    uv = shutil.which("uv", path=str(Path(sys.executable).parent)) or shutil.which("uv")
    if uv is None:
        return [f"{lock.name}: uv not found (pip install uv) to check resolution"]
    done = subprocess.run(
        [
            uv,
            "pip",
            "compile",
            str(lock),
            "--quiet",
            "--no-header",
            "--no-annotate",
            "--python-version",
            version,
            "--python-platform",
            platform,
            "--override",
            str(OVERRIDES),
            "--index-url",
            "https://pypi.org/simple",
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    if done.returncode != 0:
        return [f"{lock.name}: does not resolve on {target}: {done.stderr.strip()[-800:]}"]
    resolved = {}
    for line in done.stdout.splitlines():
        if "==" in line and not line.startswith("#"):
            name, version_ = line.split(";")[0].strip().split("==")
            resolved[canonicalize_name(name)] = version_
    problems = [
        f"{lock.name}: on {target} {name}=={v} is needed but not locked"
        for name, v in resolved.items()
        if name not in pins
    ]
    problems += [
        f"{lock.name}: on {target} {name} resolves to {v}, locked {pins[name].version}"
        for name, v in resolved.items()
        if name in pins and pins[name].version != v
    ]
    return problems


def check(lock: Path, files: dict[str, list[dict]]) -> list[str]:
    pins = read_lock(lock)
    problems = []
    for target in (Target(p, m) for p in PYTHONS for m in MACHINES):
        env = target.environment()
        tags = target.tags()
        chosen = {p.name: p for p in pins if p.marker is None or p.marker.evaluate(env)}
        for pin in chosen.values():
            usable = [w for w in wheels(files[pin.name], pin) if w["tags"] & tags]
            if not usable and pin.name in SDIST_ONLY:
                usable = sdists(files[pin.name], pin)
            if not usable:
                problems.append(f"{lock.name}: {pin.name}=={pin.version}: no wheel for {target}")
            elif not any(w["hashes"].get("sha256") in pin.hashes for w in usable):
                problems.append(
                    f"{lock.name}: {pin.name}=={pin.version}: no locked hash for the wheel "
                    f"{target} installs ({usable[0]['filename']})"
                )
        problems += resolves(lock, target, chosen)
    return problems


def main(argv: list[str]) -> int:
    locks = [Path(a) for a in argv] or [Path("requirements.lock"), Path("requirements-dev.lock")]
    names = sorted({p.name for lock in locks for p in read_lock(lock)})
    try:
        with ThreadPoolExecutor(max_workers=8) as pool:
            fetched = dict(zip(names, pool.map(fetch, names), strict=True))
    except urllib.error.HTTPError as error:  # PyPI answered: a locked name it does not know
        print(f"check_lock: {error.url}: {error}", file=sys.stderr)
        return 1
    except (urllib.error.URLError, TimeoutError, OSError) as error:
        print(f"check_lock: PyPI could not be reached ({error}); lock not checked", file=sys.stderr)
        return 3
    problems = [p for lock in locks for p in check(lock, fetched)]
    for problem in problems:
        print(problem)
    targets = len(PYTHONS) * len(MACHINES)
    if problems:
        print(f"check_lock: {len(problems)} problems", file=sys.stderr)
        return 1
    files = ", ".join(lock.name for lock in locks)
    print(
        f"check_lock: {files}: {len(names)} packages install on all {targets} targets (CPython "
        "3.11-3.13, Linux x86-64 and aarch64), every wheel hash-pinned"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
