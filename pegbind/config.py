"""Binding configuration: ``pegbind.toml``, ``[tool.pegbind]`` in pyproject.toml, or CLI flags.

Input: a TOML file (or a mapping from the CLI).  Output: one
:class:`BindingConfig` per ``[[binding]]`` table (or the single top table).
Unknown keys and wrong types are :class:`~pegbind.diagnostics.ConfigError`
diagnostics naming the key and the file; relative paths are resolved against
the folder of the file that names them.
"""
from __future__ import annotations

import dataclasses
import fnmatch
import keyword
import re
import sys
from collections.abc import Iterable, Mapping
from dataclasses import field, fields
from pathlib import Path
from typing import Any

from .backends import backend_names
from .diagnostics import ConfigError, Coord, Diagnostic
from .frozen import frozen_dataclass
from .patterns import compiled


def _toml() -> Any:
    """The TOML reader, imported by the runs that read a configuration file."""
    try:  # Python 3.11+
        import tomllib
    except ModuleNotFoundError:  # pragma: no cover - Python 3.10
        import tomli as tomllib  # type: ignore[no-redef,import-not-found]
    return tomllib


#: ``null``: not exposed to Python, always passed as NULL / 0 (e.g. PKCS#11's ``pReserved``)
PARAM_ROLES = ("in", "out", "inout", "in-array", "out-bytes", "out-array", "len", "null")


@frozen_dataclass()
class ParamRole:
    """How one parameter is presented to Python (``out``, ``in-array(len)``, ``out owned(free)`` ...)."""

    role: str  #: one of :data:`PARAM_ROLES`; ``""``: the default role (a modifier alone)
    length: str | None = None  #: the parameter holding the length, for array/bytes roles
    #: ``owned(F)``: the C function that frees what the call writes to this ``out`` parameter
    owner: str | None = None
    #: ``on_error(V)``: what a function pointer parameter's callable gives C when it raises
    #: (a constant's name or a number; the default is zero)
    on_error: str | None = None
    #: ``out-bytes(len, at_most=N)``: C never writes more than N elements, so the buffer is made
    #: that size and the function called once, without the size probe (a C function that
    #: needs more says so, as PKCS#11's ``CKR_BUFFER_TOO_SMALL`` does)
    at_most: int | None = None
    #: ``pointer``: the characters C writes to this ``out`` parameter are data, given back
    #: as a ``Pointer`` (sliced with their length, freed with the library's function), not
    #: text read up to a NUL
    as_pointer: bool = False


@frozen_dataclass()
class ErrorPolicy:
    """Return values that mean failure turn into exceptions.

    A function whose C return type is ``return_type`` raises when the value is
    not ``success`` (a constant name or an integer); the exception class is the
    subclass named after the error constant (constants matching ``codes``).
    """

    return_type: str  #: C type name, e.g. ``CK_RV``
    success: str | int  #: e.g. ``CKR_OK`` or 0
    codes: str = "*"  #: glob over constant names that are error codes, e.g. ``CKR_*``


@frozen_dataclass()
class FunctionRule:
    """Per-function settings, matched against the C function name by ``pattern`` (glob)."""

    pattern: str
    params: Mapping[str, ParamRole] = field(default_factory=dict)  #: parameter name -> role
    release_gil: bool | None = None
    errors: bool | None = None  #: apply the module's error policy (None: default)
    #: pointer parameters that must not be NULL: ``None`` from Python raises TypeError
    #: (``("*",)`` for every pointer parameter); the header's ``__attribute__((nonnull))`` adds to it
    nonnull: tuple[str, ...] = ()
    #: ``returns = "owned(F)"``: the C function that frees what the function returns
    returns_owner: str | None = None
    #: where the rule was written, for messages (``functions[2]``)
    key: str = "functions"
    #: the rule is for functions some versions of the headers declare (``optional = true``):
    #: matching none is no mistake
    optional: bool = False
    #: ``release_gil = { min_bytes = N }``: the GIL is released only for a call whose data (its
    #: ``in-array`` arguments and the buffers a ``len`` measures) holds at least N bytes, as
    #: :mod:`hashlib` releases it; 0: whenever :attr:`release_gil` says so
    release_gil_min_bytes: int = 0
    #: ``returns = "pointer"``: returned characters are data, given back as a ``Pointer``
    returns_pointer: bool = False

    def matches(self, name: str) -> bool:
        return fnmatch.fnmatchcase(name, self.pattern)


@frozen_dataclass()
class FunctionTable:
    """Functions reached through a table returned by a getter (``C_GetFunctionList``)."""

    getter: str
    struct: str


#: what ``BindingConfig.source`` says of a binding made from flags alone
COMMAND_LINE = "<command line>"


@frozen_dataclass()
class BindingConfig:
    """One binding: which headers, how to read them, what to generate and how to load it."""

    name: str  #: Python module name of the generated binding (the last part of a dotted ``name``)
    headers: tuple[Path, ...]
    include_dirs: tuple[Path, ...] = ()
    defines: Mapping[str, str | None] = field(default_factory=dict)  #: NAME -> value (None: ``1``)
    undefines: tuple[str, ...] = ()
    target: str = "linux-x86_64"
    backends: tuple[str, ...] = ("cython",)
    link: tuple[str, ...] = ()  #: libraries for link-time binding (``-l`` names)
    library_dirs: tuple[Path, ...] = ()
    sources: tuple[Path, ...] = ()  #: extra C sources compiled into the extension
    load: str = "link"  #: ``"link"`` (link time) or ``"dynamic"`` (``load(path)``)
    function_table: FunctionTable | None = None
    include: tuple[str, ...] = ("*",)  #: globs of names to bind
    exclude: tuple[str, ...] = ()  #: globs of names to leave out
    strip_prefix: str = ""
    functions: tuple[FunctionRule, ...] = ()
    error_policy: ErrorPolicy | None = None
    release_gil: bool = False  #: default for every function
    #: with :attr:`release_gil`, the default of :attr:`FunctionRule.release_gil_min_bytes`
    release_gil_min_bytes: int = 0
    skip_includes: tuple[str, ...] = ()  #: ``<...>`` headers that may be missing
    #: headers read before the named ones, as by ``gcc -include``: what a header expects its
    #: includer to have included (jpeglib.h: ``<stdio.h>``, for ``size_t`` and ``FILE``)
    include_first: tuple[str, ...] = ()
    #: globs over header paths whose declarations are bound besides the library's own
    #: (the named headers, their folders, the -I folders); ``!GLOB`` takes files out
    bind_headers: tuple[str, ...] = ()
    #: ``RECORD.MEMBER`` globs: members pointing at characters that are data, not text (FreeType's
    #: ``FT_Bitmap.buffer``): read as a ``Pointer``, sliced with a length, not up to a NUL
    pointer_fields: tuple[str, ...] = ()
    output_dir: Path = Path("build/pegbind")
    source: str = COMMAND_LINE  #: the file this config came from, for messages
    #: function pointer typedef -> what its callables give C when they raise (``on_error(V)``'s V),
    #: as in ``callbacks = { curl_write_callback = "on_error(CURL_WRITEFUNC_ERROR)" }``
    callbacks: Mapping[str, str] = field(default_factory=dict)
    #: what the keys of this binding are named from the file's root, for messages
    #: (``tool.pegbind.`` in a pyproject.toml, ``binding[1].`` for a second [[binding]])
    key_prefix: str = ""
    #: the package the module belongs in, for ``name = "mypkg._native"``: ``"mypkg"``; the
    #: setuptools hook installs it there, ``pegbind build`` leaves ``_native`` in its output folder
    package: str = ""
    #: whether the module finds its libraries in ``library_dirs`` when it runs (an rpath, or the
    #: folders a ctypes module searches): so for ``pegbind build``; the setuptools hook, whose
    #: modules are installed elsewhere, leaves the library to the system's loader
    run_path: bool = True

    @property
    def from_file(self) -> bool:
        """Whether a configuration file describes this binding (not the command line alone)."""
        return self.source != COMMAND_LINE

    @property
    def qualified_name(self) -> str:
        """The module's full name, its package included (``mypkg._native``)."""
        return f"{self.package}.{self.name}" if self.package else self.name

    def key(self, name: str) -> str:
        """The configuration key ``name`` (``functions[2].params``) as messages name it: from the file's root."""
        return self.key_prefix + name

    def coord(self, key: str) -> Coord | None:
        """Where the key ``key``, named as by :meth:`key`, is written in the configuration file
        (None for a flag, ``--function``, or with no file)."""
        if key.startswith("--") or not self.from_file:
            return None
        return config_coord(self.source, key)

    def rules_for(self, function: str, aliases: Iterable[str] = ()) -> list[FunctionRule]:
        """The rules matching ``function`` or one of the names it goes by (``aliases``: pcre2's
        ``pcre2_compile`` for ``pcre2_compile_8``), in file order (later ones win on conflicts)."""
        names = (function, *aliases)
        return [rule for rule in self.functions if any(rule.matches(name) for name in names)]

    def selects(self, name: str) -> bool:
        """Whether ``name`` passes the include/exclude globs."""
        included = any(fnmatch.fnmatchcase(name, pat) for pat in self.include)
        return included and not any(fnmatch.fnmatchcase(name, pat) for pat in self.exclude)


# --------------------------------------------------------------------------
# Loading
# --------------------------------------------------------------------------

_SIMPLE_KEYS: dict[str, tuple[type, ...]] = {
    "name": (str,),
    "headers": (list, str),
    "include_dirs": (list, str),
    "defines": (dict, list),
    "undefines": (list,),
    "target": (str,),
    "backends": (list, str),
    "link": (list, str),
    "library_dirs": (list, str),
    "sources": (list, str),
    "load": (str,),
    "function_table": (dict,),
    "include": (list, str),
    "exclude": (list, str),
    "strip_prefix": (str,),
    "functions": (list, dict),
    "error_policy": (dict,),
    "release_gil": (bool, dict),
    "skip_includes": (list, str),
    "include_first": (list, str),
    "bind_headers": (list, str),
    "pointer_fields": (list, str),
    "output_dir": (str,),
    "callbacks": (dict,),
}


def config_coord(source: str, key: str) -> Coord:
    """Where ``key`` (named from the root: ``tool.pegbind.headers``) is written in the configuration
    file ``source``: the key itself, or, for one that is missing, the table that should hold it.
    The file is read again only for a diagnostic (and the TOML reader that finds keys
    imported only then)."""
    from .tomlkeys import locate

    try:
        text = Path(source).read_text(encoding="utf-8")
    except (OSError, ValueError):  # the command line, or a file gone since
        return Coord(source, 1, 1)
    return Coord(source, *locate(text, key))


def _unknown_key(key: str, known: Iterable[str]) -> str:
    """The message for an unknown key: the known key it most likely misspells, and the others."""
    known = sorted(known)
    import difflib  # only for an unknown key

    close = difflib.get_close_matches(key.rpartition(".")[2], known, n=1)
    hint = f"did you mean {close[0]!r}? " if close else ""
    return f"unknown key ({hint}known keys: {', '.join(known)})"


class _Reader:
    """Checks one TOML table against the schema, collecting every problem."""

    def __init__(self, source: str):
        self.source = source
        self.problems: list[Diagnostic] = []

    def fail(self, key: str, message: str) -> None:
        self.problems.append(Diagnostic(config_coord(self.source, key) if self.source else None, f"{key}: {message}"))

    def strings(self, key: str, value: Any) -> tuple[str, ...]:
        if isinstance(value, str):
            return (value,)
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            self.fail(key, "expected a string or a list of strings")
            return ()
        return tuple(value)


def _type_name(types: tuple[type, ...]) -> str:
    names = {str: "a string", list: "a list", dict: "a table", bool: "true or false"}
    return " or ".join(names[t] for t in types)


def binding_from_table(table: Mapping[str, Any], *, base_dir: Path, source: str, prefix: str = "") -> BindingConfig:
    """Build a :class:`BindingConfig` from one TOML table; raise ConfigError listing every problem."""
    reader = _Reader(source)
    for key, value in table.items():
        expected = _SIMPLE_KEYS.get(key)
        if expected is None:
            reader.fail(prefix + key, _unknown_key(key, _SIMPLE_KEYS))
        elif not isinstance(value, expected) or (expected == (list, str) and isinstance(value, bool)):
            reader.fail(prefix + key, f"expected {_type_name(expected)}, got {type(value).__name__}")
    if reader.problems:
        raise ConfigError(reader.problems)

    def paths(key: str) -> tuple[Path, ...]:
        return tuple(_resolve(base_dir, p) for p in reader.strings(prefix + key, table.get(key, [])))

    values: dict[str, Any] = {"source": source, "key_prefix": prefix}
    if "name" not in table:
        reader.fail(prefix + "name", "missing (the Python module name of the binding)")
    else:
        package, _, values["name"] = str(table["name"]).rpartition(".")
        values["package"] = package
        if not all(is_module_name(part) for part in str(table["name"]).split(".")):
            reader.fail(prefix + "name", f"{table['name']!r} is not a valid Python module name")
        elif not package and builtin_module_problem(table["name"]):
            reader.fail(prefix + "name", f"{builtin_module_problem(table['name'])}: choose another name")
    values["headers"] = paths("headers")
    if not values["headers"]:
        reader.fail(prefix + "headers", "at least one header is required")
    for key in ("include_dirs", "library_dirs", "sources"):
        values[key] = paths(key)
    for key in ("undefines", "link", "include", "exclude", "skip_includes", "include_first", "bind_headers",
                "pointer_fields"):
        if key in table:
            values[key] = reader.strings(prefix + key, table[key])
    if "backends" in table:
        backends = reader.strings(prefix + "backends", table["backends"])
        for backend in backends:
            if backend not in backend_names():
                reader.fail(prefix + "backends",
                            f"unknown backend {backend!r} (choose from {', '.join(backend_names())})")
        values["backends"] = backends
    values["defines"] = _defines(reader, prefix + "defines", table.get("defines", {}))
    for key in ("target", "strip_prefix"):
        if key in table:
            values[key] = table[key]
    if "target" in table:
        from .target import get_target

        try:
            get_target(table["target"])
        except KeyError as exc:
            reader.fail(prefix + "target", str(exc.args[0]))
    if "load" in table:
        if table["load"] not in ("link", "dynamic"):
            reader.fail(prefix + "load", f"expected \"link\" or \"dynamic\", got {table['load']!r}")
        values["load"] = table["load"]
    if "release_gil" in table:
        values["release_gil"], values["release_gil_min_bytes"] = _release_gil(
            reader, prefix + "release_gil", table["release_gil"])
    if "output_dir" in table:
        values["output_dir"] = _resolve(base_dir, table["output_dir"])
    if "function_table" in table:
        values["function_table"] = _function_table(reader, prefix + "function_table", table["function_table"])
    if "error_policy" in table:
        values["error_policy"] = _error_policy(reader, prefix + "error_policy", table["error_policy"])
    if "functions" in table:
        values["functions"] = _function_rules(reader, prefix + "functions", table["functions"])
    if "callbacks" in table:
        values["callbacks"] = _callbacks(reader, prefix + "callbacks", table["callbacks"])
    if reader.problems:
        raise ConfigError(reader.problems)
    return BindingConfig(**values)


def is_module_name(name: str) -> bool:
    """Whether ``import name`` can work: an identifier that is not a keyword."""
    return name.isidentifier() and not keyword.iskeyword(name)


def builtin_module_problem(name: str) -> str | None:
    """Why no binding can be imported as ``name``: a module built into this Python (``time``,
    and ``zlib`` or ``math`` in Debian's own) always comes first; else None."""
    if name in sys.builtin_module_names:
        return f"{name!r} is a module built into this Python, which always imports first"
    return None


def _resolve(base_dir: Path, value: str) -> Path:
    path = Path(value).expanduser()
    return path if path.is_absolute() else base_dir / path


def _defines(reader: _Reader, key: str, value: Any) -> dict[str, str | None]:
    """``{NAME = "value"}``, ``{NAME = true}`` or ``["NAME", "NAME=value"]``."""
    result: dict[str, str | None] = {}
    if isinstance(value, list):
        for item in reader.strings(key, value):
            name, sep, text = item.partition("=")
            result[name] = text if sep else None
        return result
    for name, text in value.items():
        if text is True:
            result[name] = None
        elif isinstance(text, (str, int)) and not isinstance(text, bool):
            result[name] = str(text)
        else:
            reader.fail(f"{key}.{name}", "expected a string, an integer or true")
    return result


def _function_table(reader: _Reader, key: str, value: Mapping[str, Any]) -> FunctionTable | None:
    unknown = set(value) - {"getter", "struct"}
    for extra in sorted(unknown):
        reader.fail(f"{key}.{extra}", _unknown_key(extra, ("getter", "struct")))
    for needed in ("getter", "struct"):
        if not isinstance(value.get(needed), str):
            reader.fail(f"{key}.{needed}", "expected a string")
    if reader.problems:
        return None
    return FunctionTable(value["getter"], value["struct"])


def _error_policy(reader: _Reader, key: str, value: Mapping[str, Any]) -> ErrorPolicy | None:
    unknown = set(value) - {"return_type", "success", "codes"}
    for extra in sorted(unknown):
        reader.fail(f"{key}.{extra}", _unknown_key(extra, ("codes", "return_type", "success")))
    if not isinstance(value.get("return_type"), str):
        reader.fail(f"{key}.return_type", "expected a string (the C return type, e.g. \"CK_RV\")")
    success = value.get("success", 0)
    if not isinstance(success, (str, int)) or isinstance(success, bool):
        reader.fail(f"{key}.success", "expected a constant name or an integer")
    codes = value.get("codes", "*")
    if not isinstance(codes, str):
        reader.fail(f"{key}.codes", "expected a glob string, e.g. \"CKR_*\"")
    if reader.problems:
        return None
    return ErrorPolicy(value["return_type"], success, codes)


_OWNED = compiled(r"owned\(\s*([A-Za-z_][A-Za-z0-9_]*)\s*\)")
_OWNED_AT_END = compiled(r"(?:^|\s)owned\(\s*([A-Za-z_][A-Za-z0-9_]*)\s*\)$")
#: a constant's name or a number (``-1``, ``0xFFFFFFFF``, ``1.5``)
_ON_ERROR = compiled(r"on_error\(\s*(-?[A-Za-z0-9_.+]+)\s*\)")
_ON_ERROR_AT_END = compiled(r"(?:^|\s)on_error\(\s*(-?[A-Za-z0-9_.+]+)\s*\)$")


def parse_owner(text: str) -> str:
    """``"owned(json_delete)"`` -> ``"json_delete"``: the C function that frees a result; ValueError otherwise."""
    found = _OWNED.fullmatch(text.strip())
    if found is None:
        raise ValueError(text)
    return found.group(1)


def parse_returns(text: str) -> tuple[str | None, bool]:
    """``returns``: ``"owned(F)"``, ``"pointer"`` or ``"pointer owned(F)"`` -> (F or None, whether
    returned characters are a Pointer); ValueError otherwise."""
    as_pointer, rest = _without_pointer_word(text.strip())
    if not rest:
        if not as_pointer:
            raise ValueError(text)
        return None, True
    return parse_owner(rest), as_pointer


def _without_pointer_word(text: str) -> tuple[bool, str]:
    """(whether ``text`` starts with the modifier ``pointer`` or is it, the rest)."""
    first, _, rest = text.partition(" ")
    return (True, rest.strip()) if first == "pointer" else (False, text)


def parse_on_error(text: str) -> str:
    """``"on_error(SQLITE_ABORT)"`` -> ``"SQLITE_ABORT"``: what a callable gives C when it raises;
    ValueError otherwise."""
    found = _ON_ERROR.fullmatch(text.strip())
    if found is None:
        raise ValueError(text)
    return found.group(1)


def parse_role(text: str) -> ParamRole:
    """``"out"`` -> ParamRole("out"); ``"in-array(count)"`` -> ParamRole("in-array", "count");
    ``"out owned(free)"`` -> ParamRole("out", owner="free"); ``"owned(free)"`` and
    ``"on_error(1)"`` keep the default role; ``"pointer"`` is ``"out pointer"``."""
    text = text.strip()
    owner = on_error = None
    found = _ON_ERROR_AT_END.search(text)
    if found is not None:
        on_error, text = found.group(1), text[: found.start()].strip()
        if not text:
            return ParamRole("", on_error=on_error)
    found = _OWNED_AT_END.search(text)
    if found is not None:
        owner, text = found.group(1), text[: found.start()].strip()
        if not text:
            return ParamRole("", owner=owner, on_error=on_error)
    if text == "pointer" or text.endswith(" pointer"):  # "pointer" ("out pointer"): data, as a Pointer
        base = parse_role(text[: -len("pointer")].strip() or "out")
        return dataclasses.replace(base, owner=owner or base.owner, on_error=on_error or base.on_error,
                                   as_pointer=True)
    role, sep, rest = text.partition("(")
    role = role.strip()
    length = rest.rstrip(")").strip() if sep else None
    at_most = None
    if length is not None and "," in length:
        length, _, option = (part.strip() for part in length.partition(","))
        name, _, value = (part.strip() for part in option.partition("="))
        if role not in ("out-bytes", "out-array") or name != "at_most" or not value.isdigit() or int(value) < 1:
            raise ValueError(text)
        at_most = int(value)
    if role not in PARAM_ROLES or (sep and not rest.endswith(")")) or (sep and not length):
        raise ValueError(text)
    return ParamRole(role, length, owner, on_error, at_most)


def _callbacks(reader: _Reader, key: str, value: Mapping[str, Any]) -> dict[str, str]:
    """``callbacks = { TYPEDEF = "on_error(VALUE)" }``: typedef -> VALUE."""
    found = {}
    for name, text in value.items():
        try:
            found[name] = parse_on_error(text if isinstance(text, str) else "")
        except ValueError:
            reader.fail(f"{key}.{name}", "expected \"on_error(VALUE)\", what the callables of this function "
                                         f"pointer type give C when they raise (a constant or a number), got {text!r}")
    return found


def _release_gil(reader: _Reader, key: str, value: Any) -> tuple[bool, int]:
    """``release_gil``: true or false, or ``{ min_bytes = N }`` (released for calls given N bytes of
    data or more); returns whether it is released and that bound (0: for every call)."""
    if isinstance(value, bool):
        return value, 0
    if isinstance(value, dict):
        bound = value.get("min_bytes")
        if set(value) == {"min_bytes"} and type(bound) is int and bound >= 1:
            return True, bound
        reader.fail(key, f"expected true, false or {{ min_bytes = N }}, N a positive number of bytes, got {value!r}")
    else:
        reader.fail(key, "expected true, false or { min_bytes = N } (release it only for calls given at least "
                         "N bytes of data)")
    return False, 0


def _function_rules(reader: _Reader, key: str, value: Any) -> tuple[FunctionRule, ...]:
    # Accept an array of tables ([[functions]] with ``match``) or a table keyed by glob.
    if isinstance(value, dict):
        items = [dict(v, match=k) if isinstance(v, dict) else v for k, v in value.items()]
    else:
        items = value
    rules = []
    for number, item in enumerate(items):
        where = f"{key}[{number}]"
        if not isinstance(item, dict):
            reader.fail(where, "expected a table")
            continue
        for extra in sorted(set(item) - {"match", "params", "release_gil", "errors", "nonnull", "returns", "optional"}):
            reader.fail(f"{where}.{extra}", _unknown_key(
                extra, ("errors", "match", "nonnull", "optional", "params", "release_gil", "returns")))
        pattern = item.get("match")
        if not isinstance(pattern, str):
            reader.fail(f"{where}.match", "expected a glob string naming functions")
            continue
        roles: dict[str, ParamRole] = {}
        params = item.get("params", {})
        if not isinstance(params, dict):
            reader.fail(f"{where}.params", "expected a table of parameter name = role")
            params = {}
        for pname, ptext in params.items():
            try:
                roles[pname] = parse_role(ptext) if isinstance(ptext, str) else parse_role("")
            except ValueError:
                reader.fail(
                    f"{where}.params.{pname}",
                    f"unknown role {ptext!r} (roles: in, out, inout, in-array(LEN), out-bytes(LEN), out-array(LEN), "
                    "len, null; out-bytes(LEN, at_most=N) and out-array(LEN, at_most=N) for a buffer C never fills "
                    "past N; followed by owned(FUNCTION) for what FUNCTION frees, or on_error(VALUE) for what "
                    "a callable gives C when it raises)",
                )
        for flag in ("errors", "optional"):
            if flag in item and not isinstance(item[flag], bool):
                reader.fail(f"{where}.{flag}", "expected true or false")
        release_gil, min_bytes = (_release_gil(reader, f"{where}.release_gil", item["release_gil"])
                                  if "release_gil" in item else (None, 0))
        nonnull: tuple[str, ...] = ()
        if item.get("nonnull") is True:
            nonnull = ("*",)
        elif "nonnull" in item:
            nonnull = reader.strings(f"{where}.nonnull", item["nonnull"])
        returns_owner, returns_pointer = None, False
        if "returns" in item:
            try:
                returns_owner, returns_pointer = parse_returns(item["returns"] if isinstance(item["returns"], str)
                                                               else "")
            except ValueError:
                reader.fail(f"{where}.returns", "expected \"owned(FUNCTION)\", the C function that frees the "
                                                "result, \"pointer\" (returned characters are data, a Pointer), or "
                                                f"both (\"pointer owned(FUNCTION)\"), got {item['returns']!r}")
        rules.append(FunctionRule(pattern, roles, release_gil, item.get("errors"), nonnull, returns_owner,
                                  where, item.get("optional") is True, min_bytes, returns_pointer=returns_pointer))
    return tuple(rules)


def _toml_diagnostic(path: Path, text: str, exc: Exception) -> Diagnostic:
    """Locate a TOML syntax error; tomllib puts the place only in its message."""
    message = str(exc)
    found = re.search(r" \(at line (\d+), column (\d+)\)$", message)
    if found:
        line, col = int(found.group(1)), int(found.group(2))
        message = message[: found.start()]
    else:
        # "(at end of document)": point just past the last character.
        lines = text.splitlines() or [""]
        line, col = len(lines), len(lines[-1]) + 1
        message = message.replace(" (at end of document)", " at end of file")
    return Diagnostic(Coord(str(path), line, col), f"invalid TOML: {message}")


def with_headers_found(config: BindingConfig, written_in: Path | None) -> BindingConfig:
    """``config`` with each header that is no file where it is named found as ``#include "NAME"``
    finds it from there: ``pegbind build zlib.h -l z`` reads ``/usr/include/zlib.h``, as a C
    file beside the user's would.  ``written_in``: the folder the config file that names the
    headers is in (None: they are named on the command line, from the current folder).  A
    name is looked for in the ``-I`` folders, then the compiler's and the C library's
    (:func:`~pegbind.preprocess.includes.search_chain`); a name written as an absolute path,
    or found nowhere, is left for the pipeline to report."""
    if all(Path(header).is_file() for header in config.headers):
        return config  # the usual case: nothing to search, nothing to import
    from .preprocess.includes import find_header, search_chain
    from .target import get_target

    try:
        chain = search_chain(config.include_dirs, get_target(config.target).name)
    except KeyError:
        return config  # reported where the target is read
    headers = []
    for header in config.headers:
        if written_in is None:
            written = None if header.is_absolute() else header
        else:  # as the config file names it: relative to its folder (see _resolve)
            written = header.relative_to(written_in) if header.is_relative_to(written_in) else None
        found = None if written is None or header.is_file() else find_header(str(written), chain)
        headers.append(header if found is None else Path(found[0]))
    return dataclasses.replace(config, headers=tuple(headers))


def load_config(path: str | Path) -> list[BindingConfig]:
    """Every binding in ``pegbind.toml`` or in ``[tool.pegbind]`` of a pyproject.toml."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(f"{path}: configuration file not found") from None
    toml = _toml()
    try:
        data = toml.loads(text)
    except toml.TOMLDecodeError as exc:
        raise ConfigError(_toml_diagnostic(path, text, exc)) from None
    root = ""
    if path.name == "pyproject.toml":
        data = data.get("tool", {}).get("pegbind")
        if data is None:
            raise ConfigError(f"{path}: no [tool.pegbind] table")
        root = "tool.pegbind."
    base_dir = path.parent
    if "binding" in data:
        extra = sorted(set(data) - {"binding"})
        if extra:
            key = root + extra[0]
            raise ConfigError(Diagnostic(config_coord(str(path), key),
                                         f"{key}: put binding settings inside [[binding]] tables"))
        tables = data["binding"]
        if not isinstance(tables, list):
            key = root + "binding"
            raise ConfigError(Diagnostic(config_coord(str(path), key), f"{key}: expected [[binding]] tables"))
        return [
            binding_from_table(t, base_dir=base_dir, source=str(path), prefix=f"{root}binding[{i}].")
            for i, t in enumerate(tables)
        ]
    return [binding_from_table(data, base_dir=base_dir, source=str(path), prefix=root)]


#: the fields a configuration sets by name (the others are derived, or set by pegbind's own front ends)
CONFIG_KEYS = tuple(f.name for f in fields(BindingConfig)
                    if f.name not in ("source", "key_prefix", "package", "run_path"))
