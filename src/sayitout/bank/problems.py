"""Problems found in bank files, each pinned to a file and line with a fix.

YAML is parsed twice: once into plain data for validation and once into a node
tree that keeps line numbers, so a pydantic error's ``loc`` path (``key_points``,
2, ``weight``) can be mapped back to the line that holds that key.
"""

from __future__ import annotations

import contextlib
import difflib
import math
import types
import typing
import weakref
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

MAX_ALIAS_EXPANSION = 100_000
"""Nodes that aliases (``*name``) may add to a file once expanded; more is refused (a
"billion laughs" file of 700 bytes expands to billions of nodes)."""
MAX_INT_DIGITS = 4_000
"""Longer integers are refused where they are written (Python will not read them)."""

_STR = "tag:yaml.org,2002:str"
_MERGE = "tag:yaml.org,2002:merge"
_INT = "tag:yaml.org,2002:int"
_FLOAT = "tag:yaml.org,2002:float"
_COLLECTION_TAGS = frozenset(
    f"tag:yaml.org,2002:{t}" for t in ("seq", "map", "set", "omap", "pairs")
)


class _FastLoader(_Loader):  # type: ignore[misc, valid-type]
    """The C loader with a quicker tag resolver: most scalars in a deck are text, and
    text that is quoted, or starts with a character no implicit type starts with, is
    text without trying every pattern."""

    _typed_first = frozenset(k for k in yaml.SafeLoader.yaml_implicit_resolvers if k)
    _words = frozenset(["yes", "no", "true", "false", "on", "off", "null"])

    def resolve(self, kind: Any, value: Any, implicit: Any) -> str:
        if kind is yaml.ScalarNode and (
            not implicit[0]
            or (
                value
                and (
                    value[0] not in self._typed_first
                    or (value[0].isalpha() and value.lower() not in self._words)
                )
            )
        ):
            return _STR
        return str(super().resolve(kind, value, implicit))

    def descend_resolver(self, current_node: Any, current_index: Any) -> None:
        pass  # no path resolvers in a safe loader

    def ascend_resolver(self) -> None:
        pass


_DUPLICATES: weakref.WeakKeyDictionary[yaml.Node, list[tuple[int, str]]] = (
    weakref.WeakKeyDictionary()
)


def _compose_and_construct(text: str) -> tuple[yaml.Node | None, Any]:
    """Parse once: the node tree (with line marks) and the plain data built from it."""
    loader = _FastLoader(text)
    try:
        node = loader.get_single_node()
    finally:
        loader.dispose()
    if node is None:
        return None, None
    builder = _Builder()
    data = builder.build(node)
    _DUPLICATES[node] = builder.duplicates
    return node, data


class _Builder:
    """Plain data from a node tree, each node built once.

    Faster than PyYAML's constructor (strings, lists and mappings are built directly),
    and safe on untrusted files: alias expansion is bounded, a self-referring alias and
    numbers Python cannot read are refused with their line, and keys that appear twice
    in one mapping are noted on the way (:attr:`duplicates`).
    """

    def __init__(self) -> None:
        self._done: dict[int, tuple[Any, int]] = {}
        self._active: set[int] = set()
        self._alias_extra = 0
        self._scalars = yaml.SafeLoader("")
        self.duplicates: list[tuple[int, str]] = []

    def build(self, node: yaml.Node) -> Any:
        try:
            return self._build(node)[0]
        except RecursionError:
            raise _trouble(node, "the content is nested too deeply — flatten it") from None

    def _build(self, node: yaml.Node) -> tuple[Any, int]:
        key = id(node)
        done = self._done.get(key)
        if done is not None:  # an alias: the same object again
            self._alias_extra += done[1]
            if self._alias_extra > MAX_ALIAS_EXPANSION:
                raise _trouble(
                    node,
                    f"aliases (*name) expand to more than {MAX_ALIAS_EXPANSION:,} items — "
                    "write the content out instead of nesting aliases",
                )
            return done
        if key in self._active:
            raise _trouble(node, "an alias (*name) refers to the block that contains it")
        if not isinstance(node, yaml.ScalarNode) and node.tag not in _COLLECTION_TAGS:
            raise _trouble(node, f"unsupported tag {node.tag!r} — remove it (plain YAML only)")
        self._active.add(key)
        if isinstance(node, yaml.ScalarNode):
            value, size = self._scalar(node), 1
        elif isinstance(node, yaml.SequenceNode):
            value, size = [], 1
            for item in node.value:
                if item.tag == _STR and type(item) is yaml.ScalarNode:
                    value.append(item.value)  # the common case, inline
                    size += 1
                    continue
                v, n = self._build(item)
                value.append(v)
                size += n
        else:
            value, size = self._mapping(node)
        self._active.discard(key)
        self._done[key] = (value, size)
        return value, size

    def _mapping(self, node: yaml.Node) -> tuple[dict[Any, Any], int]:
        out: dict[Any, Any] = {}
        merged: dict[Any, Any] = {}
        size = 1
        for k, v in node.value:
            if k.tag == _MERGE:
                value, n = self._build(v)
                size += n
                for part in value if isinstance(value, list) else [value]:
                    if isinstance(part, dict):
                        merged = {**part, **merged}
                continue
            key, n = (
                (k.value, 1) if k.tag == _STR and type(k) is yaml.ScalarNode else self._build(k)
            )
            value, m = (
                (v.value, 1) if v.tag == _STR and type(v) is yaml.ScalarNode else self._build(v)
            )
            size += n + m
            try:
                if key in out:
                    self.duplicates.append((k.start_mark.line + 1, str(key)))
                out[key] = value
            except TypeError:
                raise _trouble(k, "a key must be plain text, not a list or a mapping") from None
        return ({**merged, **out} if merged else out), size

    def _scalar(self, node: yaml.Node) -> Any:
        if node.tag == _STR:
            return node.value
        if node.tag == _INT and sum(c.isdigit() for c in node.value) > MAX_INT_DIGITS:
            raise _trouble(
                node,
                f"a number with {sum(c.isdigit() for c in node.value):,} digits — "
                "write a number of normal size (or quote it to make it text)",
            )
        try:
            value = self._scalars.construct_object(node)
        except (ValueError, OverflowError) as exc:
            raise _trouble(node, f"cannot read the value {node.value[:40]!r} ({exc})") from None
        if node.tag == _FLOAT and isinstance(value, float) and not math.isfinite(value):
            raise _trouble(
                node, f"{node.value[:40]!r} is not a finite number — write an ordinary number"
            )
        return value


def _trouble(node: yaml.Node, message: str) -> FileTrouble:
    return FileTrouble(node.start_mark.line + 1, message)


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
    """(line, key) for every key that appears twice in the same mapping.

    Each node is visited once, however many aliases point at it; a tree from
    :func:`read_yaml` was already checked while its data was built.
    """
    if node is not None and node in _DUPLICATES:
        return sorted(_DUPLICATES[node])
    found: list[tuple[int, str]] = []
    seen_nodes: set[int] = set()
    stack = [node] if node is not None else []
    while stack:
        current = stack.pop()
        if id(current) in seen_nodes:
            continue
        seen_nodes.add(id(current))
        if isinstance(current, yaml.MappingNode):
            keys: set[str] = set()
            for key, value in current.value:
                if isinstance(key, yaml.ScalarNode):
                    if key.value in keys:
                        found.append((key.start_mark.line + 1, key.value))
                    keys.add(key.value)
                stack.append(value)
        elif isinstance(current, yaml.SequenceNode):
            stack.extend(current.value)
    return sorted(found)


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
