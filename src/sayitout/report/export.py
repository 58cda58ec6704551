"""Writing a report to a file: formats, default names, sanitised paths, atomic writes."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import tempfile
import threading
import unicodedata
from collections.abc import Iterator
from datetime import date, datetime
from pathlib import Path
from typing import Any

from sayitout.errors import StorageError, UsageError
from sayitout.report.data import Progress, collect, no_progress
from sayitout.report.html import render_html
from sayitout.report.markdown import render_markdown
from sayitout.report.rows import Filters, attempt_rows, bank_info
from sayitout.report.tabular import render_csv
from sayitout.store import Store

FORMATS = {"html": ".html", "md": ".md", "csv": ".csv", "json": ".json"}
_UNSAFE = re.compile(r'[\x00-\x1f\x7f<>:"/\\|?*]+')
_WINDOWS_RESERVED = {
    "con", "prn", "aux", "nul", *(f"com{i}" for i in range(1, 10)),
    *(f"lpt{i}" for i in range(1, 10)),
}  # fmt: skip
MAX_NAME_BYTES = 200


def sanitize_filename(name: str, fallback: str = "report") -> str:
    """A file name safe on Linux, macOS and Windows: no separators, control or reserved
    characters, no leading dots (hidden files, ``..``), not a reserved device name, and
    at most 200 bytes (keeping the extension)."""
    name = unicodedata.normalize("NFC", name)
    name = _UNSAFE.sub("-", name)
    name = re.sub(r"-{2,}", "-", name).strip(" .-") or fallback
    stem, dot, ext = name.rpartition(".")
    if not dot:
        stem, ext = name, ""
    stem = stem.rstrip(" .-") or fallback
    if stem.split(".")[0].lower() in _WINDOWS_RESERVED:
        stem = "_" + stem
    suffix = f".{ext}" if ext else ""
    while len((stem + suffix).encode()) > MAX_NAME_BYTES and stem:
        stem = stem[:-1]
    return (stem + suffix) or fallback


def default_report_name(fmt: str, deck: str | None = None, today: date | None = None) -> str:
    today = today or date.today()
    label = f"-{sanitize_filename(deck, 'deck').replace('.', '-')}" if deck else ""
    return sanitize_filename(f"sayitout-report{label}-{today:%Y-%m-%d}{FORMATS[fmt]}")


def resolve_output(fmt: str, output: Path | None, deck: str | None = None) -> Path:
    """Where to write: ``output`` if given (a directory gets the default name; a name without
    an extension gets one), else ``./sayitout-report-YYYY-MM-DD.<ext>`` (never overwriting:
    ``-2``, ``-3``... are added)."""
    if fmt not in FORMATS:
        raise UsageError(f"Unknown report format {fmt!r}", "use one of: " + ", ".join(FORMATS))
    if output is None or output.is_dir():
        folder = Path.cwd() if output is None else output
        base = folder / default_report_name(fmt, deck)
        path, n = base, 2
        while path.exists():
            path = base.with_name(f"{base.stem}-{n}{base.suffix}")
            n += 1
        return path
    output = output.expanduser()
    name = sanitize_filename(output.name)
    if not Path(name).suffix:
        name += FORMATS[fmt]
    if not output.parent.is_dir():
        raise UsageError(
            f"Cannot write the report to {output}: the folder {output.parent} does not exist",
            "create the folder first, or choose another path with -o",
        )
    return output.parent / name


def render(
    store: Store,
    fmt: str,
    filters: Filters,
    *,
    bank: Any = None,
    topic: str | None = None,
    progress: Progress = no_progress,
    now: datetime | None = None,
) -> str:
    """The report as text in ``fmt`` (``html``, ``md``, ``csv`` or ``json``)."""
    info = bank_info(bank)
    if fmt == "csv":
        progress(0.1, "reading attempts")
        rows = attempt_rows(store, filters, info)
        progress(0.8, "writing rows")
        text = render_csv(rows)
    elif fmt == "json":  # the HTML report's figures, then every attempt
        from sayitout.report.summary_json import render_report_json

        data = collect(store, filters, info, progress=progress, topic=topic, now=now)
        progress(0.85, "reading attempts")
        text = render_report_json(data, attempt_rows(store, filters, info))
    elif fmt in ("html", "md"):
        data = collect(store, filters, info, progress=progress, topic=topic, now=now)
        progress(0.85, "rendering")
        text = render_html(data) if fmt == "html" else render_markdown(data)
    else:
        raise UsageError(f"Unknown report format {fmt!r}", "use one of: " + ", ".join(FORMATS))
    progress(1.0, "done")
    return text


def write_report(
    store: Store,
    fmt: str,
    filters: Filters,
    *,
    bank: Any = None,
    output: Path | None = None,
    topic: str | None = None,
    progress: Progress = no_progress,
    to_string: bool = False,
) -> tuple[Path | None, str]:
    """Render and write the report (atomically); ``(path, text)``. ``to_string`` skips the file."""
    path = None if to_string else resolve_output(fmt, output, filters.deck)
    text = render(store, fmt, filters, bank=bank, topic=topic, progress=progress)
    if path is not None:
        _atomic_write(path, text)
    return path, text


@contextlib.contextmanager
def _cleanup_on_terminate() -> Iterator[None]:
    """Turn SIGTERM and SIGHUP into an exception while a temporary file exists, so the
    ``except`` below removes it: by default those signals end the process on the spot
    and leave a hidden ``.sayitout-report-*`` file beside the target."""
    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread may set signal handlers
        return

    def stop(signum: int, _frame: object) -> None:
        raise SystemExit(128 + signum)

    signums = [signal.SIGTERM] + ([signal.SIGHUP] if hasattr(signal, "SIGHUP") else [])
    previous = {n: signal.signal(n, stop) for n in signums}
    try:
        yield
    finally:
        for n, handler in previous.items():
            signal.signal(n, handler)


def _atomic_write(path: Path, text: str) -> None:
    with _cleanup_on_terminate():
        _write_via_temp(path, text)


def _write_via_temp(path: Path, text: str) -> None:
    try:
        fd, tmp = tempfile.mkstemp(prefix=".sayitout-report-", dir=path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
                f.write(text)
            os.chmod(tmp, 0o644)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError as exc:
        raise StorageError(
            f"Could not write the report to {path}: {exc.strerror or exc}",
            "choose a writable folder with -o, or free some disk space",
        ) from exc
