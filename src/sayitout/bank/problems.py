"""Problems found in bank files, each pinned to a file and line with a fix.

YAML is parsed twice: once into plain data for validation and once into a node
tree that keeps line numbers, so a pydantic error's ``loc`` path (``key_points``,
2, ``weight``) can be mapped back to the line that holds that key.
"""

from __future__ import annotations

import contextlib
import difflib
import types
import typing
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ValidationError

Level = Literal["error", "warning", "hint"]
"""``hint``: a suggestion (e.g. a key point with no follow-up question), never a fault."""
Loc = tuple[str | int, ...]


@dataclass(frozen=True)
class Problem:
    """One thing wrong in a bank file: where it is and what to change."""

    file: Path
    line: int
    message: str
    level: Level = "error"

    def format(self, base: Path | None = None) -> str:
        """``file:line: message``, with the path relative to ``base`` when it is inside it."""
        path = self.file
        if base is not None:
            with contextlib.suppress(ValueError):
                path = self.file.resolve().relative_to(base.resolve())
        prefix = "" if self.level == "error" else f"{self.level}: "
        return f"{path}:{self.line}: {prefix}{self.message}"

    def __str__(self) -> str:
        return self.format()


# ---------------------------------------------------------------- reading files


class FileTrouble(Exception):
    """A file that cannot be read as YAML at all; carries the line."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line
        self.message = message


def read_yaml(path: Path) -> tuple[Any, yaml.Node | None]:
    """Plain data and the node tree of a YAML file, or :class:`FileTrouble`."""
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise FileTrouble(
            line,
            f"not UTF-8 text (byte 0x{raw[exc.start]:02x} at offset {exc.start}) "
            "— save the file as UTF-8",
        ) from None
    if not text.strip():
        raise FileTrouble(1, "the file is empty — add its content or delete the file")
    try:
        node, data = _compose_and_construct(text)
    except yaml.MarkedYAMLError as exc:
        line = _error_line(exc, text)
        what = " ".join(str(part) for part in (exc.context, exc.problem) if part)
        start = exc.context_mark
        if start is not None and start.line + 1 != line:
            what += f" (the block started on line {start.line + 1})"
        raise FileTrouble(
            line,
            f"malformed YAML: {what} — check the indentation and quoting here "
            "(quote text that contains ': ' or starts with a quote or a bracket)",
        ) from None
    except yaml.YAMLError as exc:
        raise FileTrouble(1, f"malformed YAML: {exc}") from None
    if data is None:
        raise FileTrouble(1, "the file holds only comments — add its content or delete the file")
    return data, node


_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _compose_and_construct(text: str) -> tuple[yaml.Node | None, Any]:
    """Parse once: the node tree (with line marks) and the plain data built from it."""
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
        data = loader.construct_document(node) if node is not None else None
    finally:
        loader.dispose()
    return node, data


def _error_line(exc: yaml.MarkedYAMLError, text: str) -> int:
    """The line to point at: the problem, unless that is the end of the file."""
    mark = exc.problem_mark or exc.context_mark
    if mark is None:
        return 1
    at_end = mark.index >= len(text.rstrip())
    if at_end and exc.context_mark is not None:
        mark = exc.context_mark
    return min(mark.line + 1, max(1, len(text.splitlines())))  # never past the last line


def duplicate_keys(node: yaml.Node | None) -> list[tuple[int, str]]:
    """(line, key) for every key that appears twice in the same mapping."""
    found: list[tuple[int, str]] = []
    if isinstance(node, yaml.MappingNode):
        seen: set[str] = set()
        for key, value in node.value:
            if isinstance(key, yaml.ScalarNode):
                if key.value in seen:
                    found.append((key.start_mark.line + 1, key.value))
                seen.add(key.value)
            found.extend(duplicate_keys(value))
    elif isinstance(node, yaml.SequenceNode):
        for item in node.value:
            found.extend(duplicate_keys(item))
    return found


def line_of(node: yaml.Node | None, loc: Loc) -> int:
    """The 1-based line of the key or item at ``loc``; the nearest enclosing one if absent."""
    if node is None:
        return 1
    line = node.start_mark.line + 1
    for part in loc:
        if isinstance(node, yaml.MappingNode) and isinstance(part, str):
            for key, value in node.value:
                if isinstance(key, yaml.ScalarNode) and key.value == part:
                    line, node = key.start_mark.line + 1, value
                    break
            else:
                return line
        elif isinstance(node, yaml.SequenceNode) and isinstance(part, int):
            if not 0 <= part < len(node.value):
                return line
            node = node.value[part]
            line = node.start_mark.line + 1
        else:
            return line
    return line


# ------------------------------------------------------- explaining pydantic errors

_EXAMPLES = {
    "weight": "1",
    "answer_seconds": "90",
    "tolerance": "0.01",
    "penalty": "10",
    "version": "1",
    "value": "2.303",
}


def loc_text(loc: Loc) -> str:
    """``("key_points", 2, "weight")`` -> ``key_points[2].weight``."""
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out


def _model_at(model: type[BaseModel], loc: Loc) -> type[BaseModel] | None:
    """The pydantic model that owns the keys at ``loc`` (to list allowed keys)."""
    current: Any = model
    for part in loc:
        if isinstance(part, int):
            args = typing.get_args(current)
            current = args[0] if args else None
            continue
        if not (isinstance(current, type) and issubclass(current, BaseModel)):
            return None
        field = current.model_fields.get(part)
        if field is None:
            return None
        current = field.annotation
        if isinstance(current, types.UnionType) or typing.get_origin(current) is typing.Union:
            current = next(a for a in typing.get_args(current) if a is not type(None))
    return current if isinstance(current, type) and issubclass(current, BaseModel) else None


def _type_name(value: Any) -> str:
    return {
        str: "text",
        int: "a whole number",
        float: "a number",
        bool: "true/false",
        list: "a list",
        dict: "a mapping",
        type(None): "nothing",
    }.get(type(value), type(value).__name__)


def explain(error: Any, model: type[BaseModel]) -> str:
    """One pydantic error as ``where: what is wrong — what to change``."""
    loc: Loc = tuple(error["loc"])
    kind = error["type"]
    ctx = error.get("ctx") or {}
    given = error.get("input")
    field = next((p for p in reversed(loc) if isinstance(p, str)), "value")
    where = loc_text(loc)
    example = _EXAMPLES.get(field, "1")

    if kind == "extra_forbidden":
        owner = _model_at(model, loc[:-1])
        allowed = sorted(owner.model_fields) if owner else []
        close = difflib.get_close_matches(str(loc[-1]), allowed, n=1, cutoff=0.6)
        fix = (
            f"did you mean '{close[0]}'?"
            if close
            else "remove it (allowed keys: " + ", ".join(allowed) + ")"
        )
        return f"{where}: unknown key '{loc[-1]}' — {fix}"
    if kind == "missing":
        return f"{where}: required key '{field}' is missing — add it"
    if kind in ("greater_than", "greater_than_equal", "less_than", "less_than_equal"):
        bound = next(iter(ctx.values()))
        if isinstance(bound, float) and bound.is_integer():
            bound = int(bound)
        words = {
            "greater_than": "greater than",
            "greater_than_equal": "at least",
            "less_than": "less than",
            "less_than_equal": "at most",
        }[kind]
        fix = (
            f"give a positive {field} such as {example}"
            if kind == "greater_than" and bound == 0
            else f"give a {field} {words} {bound}"
        )
        return f"{where}: must be {words} {bound} (got {given!r}) — {fix}"
    if kind == "literal_error":
        return f"{where}: must be one of {ctx.get('expected')} (got {given!r}) — use one of those"
    if kind == "too_short":
        need = ctx.get("min_length", 1)
        return f"{where}: needs at least {need} item{'s' if need != 1 else ''} — add {field}"
    if kind == "too_long":
        return f"{where}: at most {ctx.get('max_length')} items allowed — remove some"
    if kind == "string_too_short":
        return f"{where}: must not be empty — write the {field}"
    if kind in ("string_type",):
        return f"{where}: expected text, got {_type_name(given)} — quote the value"
    if kind in ("int_type", "int_parsing", "int_from_float"):
        return f"{where}: expected a whole number, got {given!r} — write e.g. {example}"
    if kind in ("float_type", "float_parsing"):
        return f"{where}: expected a number, got {given!r} — write e.g. {example} (no units)"
    if kind == "list_type":
        return (
            f"{where}: expected a list, got {_type_name(given)} — "
            "put each item on its own line starting with '- '"
        )
    if kind in ("model_type", "dict_type", "model_attributes_type"):
        return (
            f"{where or 'file'}: expected a mapping of 'key: value' lines, "
            f"got {_type_name(given)} — check the indentation"
        )
    if kind == "value_error":
        message = str(error["msg"]).removeprefix("Value error, ")
        return f"{where}: {message}" if where else message
    return f"{where}: {error['msg']}" if where else str(error["msg"])


def validation_problems(
    exc: ValidationError,
    root: type[BaseModel],
    path: Path,
    node: yaml.Node | None,
    prefix: Loc = (),
) -> list[Problem]:
    """Every error of ``exc`` as a :class:`Problem` pinned to its line.

    ``root`` is the model of the whole file; ``prefix`` is where the validated part sits
    in it (a question validated on its own sits at ``("questions", i)`` of a ``Deck``).
    """
    out = []
    for error in exc.errors():
        loc = prefix + tuple(error["loc"])
        out.append(Problem(path, line_of(node, loc), explain(dict(error, loc=loc), root)))
    return out
