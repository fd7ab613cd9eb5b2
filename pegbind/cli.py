"""The ``pegbind`` command line (also ``python -m pegbind``).

Input: argv.  Output: files, JSON or reports on stdout, diagnostics on
stderr, and the exit status: 0 success, 1 diagnostics (bad header, config,
compiler disagreement), 2 usage.  Flags mirror the configuration keys one to
one; a ``--config`` file (or ``pegbind.toml`` / ``[tool.pegbind]`` found in
the current folder) supplies the same keys.
"""
from __future__ import annotations

import argparse
import gc
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import fields
from pathlib import Path
from typing import NoReturn

from . import __version__, log
from .backends import backend_names
from .config import (
    BindingConfig,
    ErrorPolicy,
    FunctionRule,
    FunctionTable,
    builtin_module_problem,
    is_module_name,
    load_config,
    parse_on_error,
    parse_returns,
    parse_role,
    with_headers_found,
)
from .diagnostics import ConfigError, Diagnostic, PegbindError
from .resources import target_names

EXIT_OK, EXIT_DIAGNOSTICS, EXIT_USAGE = 0, 1, 2


class UsageError(ConfigError):
    """The command line itself is wrong (a flag's value, nothing to read): exit status 2, as
    argparse's own usage errors."""


class _Parser(argparse.ArgumentParser):
    """argparse, but usage errors exit with status 2 and our own wording."""

    def error(self, message: str):
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


def _add_binding_flags(parser: argparse.ArgumentParser) -> None:
    """Flags that mirror the configuration keys (DESIGN §3)."""
    parser.add_argument("headers", nargs="*", metavar="HEADER", help="C headers to read (config key: headers)")
    parser.add_argument("--config", "-c", metavar="FILE", help="pegbind.toml or pyproject.toml with [tool.pegbind]")
    parser.add_argument("--binding", metavar="NAME", help="with a config of several [[binding]] tables: the one to use")
    parser.add_argument("--name", "-n", help="Python module name (default: the first header's stem)")
    parser.add_argument("-I", "--include-dir", dest="include_dirs", action="append", default=[], metavar="DIR",
                        help="search DIR for #include, before the system folders (repeatable; "
                             "config key: include_dirs)")
    parser.add_argument("-D", "--define", dest="defines", action="append", default=[], metavar="NAME[=VALUE]",
                        help="define a macro before the headers are read, as cc -D (repeatable; config key: defines)")
    parser.add_argument("-U", "--undefine", dest="undefines", action="append", default=[], metavar="NAME",
                        help="undefine a predefined macro, as cc -U (repeatable; config key: undefines)")
    # the names only: importing pegbind.target (and the model) would slow what need neither
    parser.add_argument("--target", choices=target_names(),
                        help=f"data model and predefines (default {_DEFAULT_TARGET})")
    parser.add_argument("--backend", dest="backends", action="append", choices=backend_names(),
                        help="repeatable (default cython)")
    parser.add_argument("-l", "--link", action="append", default=[], metavar="LIB", help="link against libLIB")
    parser.add_argument("-L", "--library-dir", dest="library_dirs", action="append", default=[], metavar="DIR",
                        help="search DIR for the -l libraries, at link and at load time (repeatable; "
                             "config key: library_dirs)")
    parser.add_argument("--source", dest="sources", action="append", default=[], metavar="FILE.c",
                        help="a C file compiled into the module, for a library that is not installed "
                             "(repeatable; config key: sources)")
    parser.add_argument("--load", choices=("link", "dynamic"), help="link time (default) or load(path) at run time")
    parser.add_argument("--function-table", metavar="GETTER:STRUCT", help="e.g. C_GetFunctionList:CK_FUNCTION_LIST")
    parser.add_argument("--include", action="append", default=[], metavar="GLOB", help="names to bind (default *)")
    parser.add_argument("--exclude", action="append", default=[], metavar="GLOB", help="names to leave out")
    parser.add_argument("--strip-prefix", metavar="PREFIX", help="leave PREFIX off the Python names (vm_add: add)")
    parser.add_argument("--error-policy", metavar="RETURN_TYPE:SUCCESS[:CODES]", help="e.g. CK_RV:CKR_OK:CKR_*")
    parser.add_argument(
        "--function", dest="functions", action="append", default=[], metavar="GLOB:PARAM=ROLE[,...]",
        help="parameter roles for matching functions, e.g. 'C_GetSlotList:pSlotList=out-array(pulCount)'; "
             "'json_loads:return=owned(json_delete)' names the function that frees a result; "
             "'zmq_recv:release_gil=true' (or =false, =min_bytes=N) releases the GIL in its calls",
    )
    parser.add_argument(
        "--callback", dest="callbacks", action="append", default=[], metavar="TYPEDEF=on_error(VALUE)",
        help="what the callables of a function pointer type give C when they raise, e.g. "
             "'curl_write_callback=on_error(CURL_WRITEFUNC_ERROR)' (for one parameter: "
             "--function 'sqlite3_exec:callback=on_error(1)')",
    )
    parser.add_argument("--release-gil", action="store_true", default=None, help="release the GIL in every call")
    parser.add_argument("--skip-include", dest="skip_includes", action="append", default=[], metavar="HEADER",
                        help="an #include <HEADER> that may be missing here: read on without it (repeatable)")
    parser.add_argument("--include-first", dest="include_first", action="append", default=[], metavar="HEADER",
                        help="read <HEADER> before the headers, as cc -include: one a header expects its includer "
                        "to have included (repeatable; config key: include_first)")
    parser.add_argument(
        "--bind-header", dest="bind_headers", action="append", default=[], metavar="GLOB",
        help="also bind the declarations of headers matching GLOB ('!GLOB': leave them out); "
        "by default only the named headers, their folders and the -I folders are bound",
    )
    parser.add_argument(
        "--pointer-field", dest="pointer_fields", action="append", default=[], metavar="RECORD.MEMBER",
        help="characters the member points at are data: read as a Pointer, sliced with their length, "
        "not as text up to a NUL (repeatable; config key: pointer_fields)",
    )
    chatter = parser.add_mutually_exclusive_group()
    chatter.add_argument("-v", "--verbose", action="store_true",
                         help="say what runs: each phase, and each Cython and compiler command, with its time")
    chatter.add_argument("-q", "--quiet", action="store_true", help="print errors only, no warnings")
    parser.add_argument("-o", "--output-dir", metavar="DIR",
                        help="where the generated files go (default build/pegbind)")


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser; with ``command`` (one of the commands), only that command's
    flags are declared and the others are only named: declaring some 150 flags for every
    command took 2 to 5 ms of a cold run (0.4% of sqlite3.h's ``generate`` in instructions)."""
    parser = _Parser(
        prog="pegbind",
        description="Generate Python bindings (Cython, cffi, ctypes) from raw C headers.",
    )
    parser.add_argument("--version", action="version", version=f"pegbind {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    commands.required = True

    def declared(name: str) -> bool:
        return command is None or command == name

    generate = commands.add_parser("generate", help="write the binding's sources",
                                   description="Write the generated sources.")
    if declared("generate"):
        _add_binding_flags(generate)
        generate.add_argument("--templates", action="append", default=[], metavar="DIR",
                              help="template folder searched first")

    build = commands.add_parser("build", help="generate and compile in place",
                                description="Generate, then compile the extension.")
    if declared("build"):
        _add_binding_flags(build)
        build.add_argument("--templates", action="append", default=[], metavar="DIR",
                           help="template folder searched first")

    dump = commands.add_parser("dump", help="print the model (or preprocessed text)",
                               description="Print the model as JSON.")
    if declared("dump"):
        _add_binding_flags(dump)
        dump.add_argument(
            "--stage", choices=("model", "preprocessed", "plan"), default="model",
            help="model: JSON of the declarations (default); preprocessed: expanded text with line markers; "
                 "plan: JSON of each wrapper's call plan",
        )

    verify = commands.add_parser(
        "verify", help="compare the model with the real compiler",
        description="Compile a probe with the C compiler and compare every constant, size, alignment and offset.",
    )
    if declared("verify"):
        _add_binding_flags(verify)
        verify.add_argument("--cc", default=None,
                            help="the compiler used as the oracle (default gcc; for linux-aarch64 and win-x86_64 "
                                 "Debian's cross gcc, whose probe is compiled but not run)")

    bench = commands.add_parser(
        "bench", help="time calls through every backend, side by side",
        description="Build the binding with each backend (default: all three) and time the same calls, "
        "interleaved, beside CPython's call floor operator.add(1, 2).",
    )
    if declared("bench"):
        _add_binding_flags(bench)
        bench.add_argument("--call", dest="calls", action="append", default=[], metavar="EXPR",
                           help="a call on the generated module, named m, e.g. 'm.vm_add(1, 2)' (repeatable)")
        bench.add_argument("--setup", default="", metavar="CODE",
                           help="Python run once per backend before timing (sees m)")
        bench.add_argument("--rounds", type=int, default=30, help="rounds (default 30)")
        bench.add_argument("--number", type=int, default=2000, help="calls per round (default 2000)")
    return parser


# --------------------------------------------------------------------------
#: a config's target when it names none
_DEFAULT_TARGET = next(f.default for f in fields(BindingConfig) if f.name == "target")

# Flags -> BindingConfig
# --------------------------------------------------------------------------


def _split_pair(flag: str, text: str, parts: int) -> list[str]:
    pieces = text.split(":")
    if len(pieces) < parts:
        raise UsageError(Diagnostic(None, f"{flag}: expected {parts} parts separated by ':', got {text!r}"))
    return pieces


def _function_rule(text: str) -> FunctionRule:
    pattern, sep, roles_text = text.partition(":")
    if not sep or not pattern:
        raise UsageError(Diagnostic(None, f"--function: expected GLOB:PARAM=ROLE[,...], got {text!r}"))
    roles = {}
    returns_owner, returns_pointer = None, False
    release_gil, min_bytes = None, 0
    for item in filter(None, (part.strip() for part in _split_roles(roles_text))):
        name, eq, role = item.partition("=")
        if not eq:
            raise UsageError(Diagnostic(None, f"--function: expected PARAM=ROLE, got {item!r}"))
        setting = _release_gil_setting(role.strip()) if name.strip() == "release_gil" else None
        if setting is not None:  # the rule's release_gil key (no role is spelled so)
            release_gil, min_bytes = setting
            continue
        if name.strip() == "return":  # no parameter can be called so: it is the result
            try:
                returns_owner, returns_pointer = parse_returns(role)
            except ValueError:
                raise UsageError(Diagnostic(None, f"--function: expected return=owned(FUNCTION), return=pointer "
                                                  f"or return=pointer owned(FUNCTION), got {item!r}")) from None
            continue
        try:
            roles[name.strip()] = parse_role(role)
        except ValueError:
            hint = (" (release_gil=true, release_gil=false or release_gil=min_bytes=N, N at least 1, "
                    "sets the GIL's release)" if name.strip() == "release_gil" else "")
            message = f"--function: unknown role {role!r} for parameter {name!r}{hint}"
            raise UsageError(Diagnostic(None, message)) from None
    return FunctionRule(pattern, roles, release_gil, returns_owner=returns_owner, key="--function",
                        returns_pointer=returns_pointer, release_gil_min_bytes=min_bytes)


def _release_gil_setting(text: str) -> tuple[bool, int] | None:
    """``release_gil=true``, ``=false`` or ``=min_bytes=N`` of ``--function``, as a rule's
    ``release_gil = true`` or ``{ min_bytes = N }``: (release, min_bytes); None for another text."""
    if text in ("true", "false"):
        return text == "true", 0
    count = text.removeprefix("min_bytes=")
    if count != text and count.isascii() and count.isdecimal() and int(count) >= 1:  # as the config's
        return True, int(count)
    return None


def _split_roles(text: str) -> list[str]:
    """Split at commas outside parentheses: ``a=out,b=in-array(n)``."""
    parts, depth, current = [], 0, ""
    for ch in text:
        depth += ch == "("
        depth -= ch == ")"
        if ch == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += ch
    parts.append(current)
    return parts


#: the commands that, given a config of several bindings and no --binding, run for each
_FOR_EACH = ("generate", "build")


def _configs_from_args(args: argparse.Namespace) -> list[BindingConfig]:
    """The bindings to run: the one ``--config`` (or a config found here) describes, or with
    ``--binding`` the one chosen of several; for ``generate`` and ``build``, all of several.
    The flags override what the config says, in each."""
    for header in args.headers or ():
        if Path(header).suffix == ".toml":  # read as C, the first line of TOML is a syntax error
            raise UsageError(Diagnostic(None, f"{header} is a config file, not a C header: "
                                              f"pass it with --config {header}"))
    bases = _base_configs(args)
    if bases is None:
        return [with_headers_found(_config_from_args(args, None), None)]
    if len(bases) > 1:
        names = ", ".join(b.qualified_name for b in bases)
        if args.name or args.headers:
            flag = "--name" if args.name else "a header"
            raise UsageError(Diagnostic(None, f"{flag} given for a config of several bindings ({names}): "
                                               "choose one with --binding"))
    # headers named here are found from the current folder; the config's, from its own
    return [with_headers_found(_config_from_args(args, base), None if args.headers else Path(base.source).parent)
            for base in bases]


def _config_from_args(args: argparse.Namespace, base: BindingConfig | None) -> BindingConfig:
    """The binding ``base`` (None: the flags alone) overridden by flags."""
    changes: dict = {}
    cwd = Path.cwd()
    if args.headers:
        changes["headers"] = tuple(Path(h) for h in args.headers)
    if base is None and not args.headers:
        raise UsageError(
            Diagnostic(None, "no headers given and no pegbind.toml or [tool.pegbind] here "
                             "(try: pegbind COMMAND HEADER.h)")
        )
    for key in ("include_dirs", "library_dirs", "sources"):
        values = getattr(args, key)
        if values:
            changes[key] = (*(getattr(base, key) if base else ()), *(cwd / Path(v) for v in values))
    for key in ("undefines", "link", "skip_includes", "include_first", "bind_headers", "pointer_fields"):
        values = getattr(args, key)
        if values:
            changes[key] = (*(getattr(base, key) if base else ()), *values)
    if args.include:
        changes["include"] = tuple(args.include)
    if args.exclude:
        changes["exclude"] = (*(base.exclude if base else ()), *args.exclude)
    if args.defines:
        defines = dict(base.defines) if base else {}
        for item in args.defines:
            name, sep, value = item.partition("=")
            defines[name] = value if sep else None
        changes["defines"] = defines
    for key in ("target", "load", "strip_prefix", "release_gil"):
        value = getattr(args, key)
        if value is not None:
            changes[key] = value
    if args.release_gil:
        changes["release_gil_min_bytes"] = 0  # in every call, whatever the config's bound
    if args.backends:
        changes["backends"] = tuple(dict.fromkeys(args.backends))
    if args.output_dir:
        changes["output_dir"] = cwd / args.output_dir
        if changes["output_dir"].exists() and not changes["output_dir"].is_dir():
            raise UsageError(Diagnostic(None, f"--output-dir: {args.output_dir} exists and is not a folder"))
    if args.function_table:
        getter, struct = _split_pair("--function-table", args.function_table, 2)[:2]
        changes["function_table"] = FunctionTable(getter, struct)
    if args.error_policy:
        pieces = _split_pair("--error-policy", args.error_policy, 2)
        success: str | int = int(pieces[1], 0) if pieces[1].lstrip("-").isdigit() else pieces[1]
        changes["error_policy"] = ErrorPolicy(pieces[0], success, pieces[2] if len(pieces) > 2 else "*")
    if args.functions:
        changes["functions"] = (*(base.functions if base else ()), *(_function_rule(t) for t in args.functions))
    if args.callbacks:
        callbacks = dict(base.callbacks) if base else {}
        for item in args.callbacks:
            name, _, text = item.partition("=")
            try:
                callbacks[name.strip()] = parse_on_error(text)
            except ValueError:
                raise UsageError(Diagnostic(
                    None, f"--callback: expected TYPEDEF=on_error(VALUE), got {item!r}")) from None
        changes["callbacks"] = callbacks
    # The module name: --name, else the config's (checked when read), else the first header's stem.
    name = args.name or (None if base else Path(args.headers[0]).stem.replace("-", "_").replace(".", "_"))
    if name is not None:
        if not is_module_name(name):
            where = "--name" if args.name else f"{args.headers[0]} (choose a module name with --name)"
            raise UsageError(Diagnostic(None, f"{where}: {name!r} is not a valid Python module name"))
        if builtin_module_problem(name) and args.name:
            raise UsageError(Diagnostic(None, f"--name: {builtin_module_problem(name)}: choose another name"))
        if builtin_module_problem(name):
            # a name taken from the header: one that works instead, and say so
            _warn(Diagnostic(None, f"{builtin_module_problem(name)}: the module is named {name + '_'!r} "
                                   "(choose another name with --name)", "warning"))
            name += "_"
        changes["name"] = name
    if base is None:
        return BindingConfig(headers=changes.pop("headers"), **changes)
    from dataclasses import replace

    return replace(base, **changes)


def _base_configs(args: argparse.Namespace) -> list[BindingConfig] | None:
    path: Path | None = Path(args.config) if args.config else None
    if path is None and not args.headers:
        for candidate in (Path("pegbind.toml"), Path("pyproject.toml")):
            if candidate.is_file() and (candidate.name != "pyproject.toml" or "[tool.pegbind" in candidate.read_text()):
                path = candidate
                break
    if path is None:
        return None
    bindings = load_config(path)
    if args.binding:
        for binding in bindings:
            if args.binding in (binding.qualified_name, binding.name):
                return [binding]
        names = ", ".join(b.qualified_name for b in bindings)
        raise UsageError(Diagnostic(None, f"--binding: no binding named {args.binding!r} in {path} "
                                           f"(there are: {names})"))
    if len(bindings) > 1 and args.command not in _FOR_EACH:
        names = ", ".join(b.qualified_name for b in bindings)
        raise UsageError(Diagnostic(None, f"{path} holds several bindings ({names}): choose one with --binding"))
    return bindings


# --------------------------------------------------------------------------
# Commands
# --------------------------------------------------------------------------


def _template_dirs(args: argparse.Namespace) -> list[Path]:
    folders = [Path(t) for t in args.templates]
    for folder in folders:
        if not folder.is_dir():
            raise UsageError(Diagnostic(None, f"--templates: {folder} is not a folder"))
    return folders


def _cmd_generate(args: argparse.Namespace, config: BindingConfig) -> int:
    return _cached(args, config, "generate")


def _cmd_build(args: argparse.Namespace, config: BindingConfig) -> int:
    return _cached(args, config, "build")


def _cached(args: argparse.Namespace, config: BindingConfig, command: str) -> int:
    """Run ``generate`` or ``build``, or, when nothing it depends on has changed since the same
    command last ran, say what that run said without running it (:mod:`pegbind.regen`)."""
    from . import regen

    templates = _template_dirs(args)
    name = regen.key(command, (config, [str(t) for t in templates]))
    hit = regen.lookup(name)
    if hit is not None:
        log.info("pegbind", "nothing %s reads has changed since it last ran: its output is as then "
                 "(cache entry %s)", command, name[:16])
        written, warnings = hit
        if not _quiet:
            for text in warnings:
                print(text, file=sys.stderr)
        for path in written if not _quiet else ():
            print(path)
        return EXIT_OK
    from .pipeline import Inputs, build_extension, generate_sources

    inputs = Inputs()
    said: list[str] = []

    def report(diagnostic: Diagnostic) -> None:
        said.append(diagnostic.render(excerpt=False))
        _warn(diagnostic)

    run = generate_sources if command == "generate" else build_extension
    made = run(config, template_dirs=templates, report=report, inputs=inputs)
    _clear_status()
    for made_path in made if not _quiet else ():  # -q: errors only
        print(made_path)
    # the user's templates: each file, and each folder (one added would override pegbind's)
    own = [path for folder in templates for path in sorted(folder.rglob("*"))]
    read = [*inputs.files, *(str(f) for f in own if f.is_file())]
    if config.from_file:
        read.append(config.source)
    folders = [*inputs.folders, *(str(t) for t in templates), *(str(f) for f in own if f.is_dir())]
    printed = [str(p) for p in made]
    regen.store(name, read, folders, printed + _generated(config, command, made), printed, said)
    return EXIT_OK


def _generated(config: BindingConfig, command: str, written: Sequence[Path]) -> list[str]:
    """The generated sources a build compiled, besides the modules it printed: the cache
    entry holds them too, so that one edited by hand is written again."""
    if command != "build":
        return []
    import sysconfig

    from .backends import get_backend

    folder = Path(written[0]).parent if written else config.output_dir
    names = [f"{config.name}{suffix}" for backend in config.backends for _, suffix in get_backend(backend).outputs]
    # and the extension module a backend compiles besides the module printed (cffi's _<name>_cffi)
    names += [f"{extension}{sysconfig.get_config_var('EXT_SUFFIX')}" for backend in config.backends
              if (extension := get_backend(backend).extension(config)) is not None]
    return [str(folder / name) for name in dict.fromkeys(names) if (folder / name).exists()]


def _cmd_dump(args: argparse.Namespace, config: BindingConfig) -> int:
    from .pipeline import preprocess_binding, read_binding

    if args.stage == "preprocessed":
        from .preprocess import render_preprocessed

        _write_out(render_preprocessed(preprocess_binding(config)))
        return EXIT_OK
    if args.stage == "plan":
        from .dump import dump_plans, json_text
        from .exports import linked_exports
        from .passes import run_passes

        read = read_binding(config)
        binding = run_passes(read.module, config, read.target, linked_exports(config))
        _write_out(json_text(dump_plans(binding)))
        return EXIT_OK
    from .dump import dump_json

    read = read_binding(config, strict=False)
    _write_out(dump_json(read))
    errors = [d for d in read.module.diagnostics if d.severity == "error"]
    if errors:
        _report(errors)
        return EXIT_DIAGNOSTICS
    return EXIT_OK


def _cmd_verify(args: argparse.Namespace, config: BindingConfig) -> int:
    from .passes.select import select_declarations
    from .pipeline import binding_defines, read_binding
    from .verify import verify

    read = read_binding(config)
    report = verify(
        select_declarations(read.module, config),
        headers=config.headers,
        include_dirs=config.include_dirs,
        defines=binding_defines(config),
        target=read.target,
        compiler=args.cc,
    )
    print(report.format())
    return EXIT_DIAGNOSTICS if report.mismatches else EXIT_OK


def _cmd_bench(args: argparse.Namespace, config: BindingConfig) -> int:
    from dataclasses import replace

    from .bench import run_bench

    if not args.backends:  # side by side means every backend unless narrowed
        config = replace(config, backends=backend_names())
    print(run_bench(config, args.calls, setup=args.setup, rounds=args.rounds, number=args.number, report=_warn))
    return EXIT_OK


_COMMANDS = {
    "generate": _cmd_generate,
    "build": _cmd_build,
    "dump": _cmd_dump,
    "verify": _cmd_verify,
    "bench": _cmd_bench,
}


def _warn(diagnostic: Diagnostic) -> None:
    """A finding that does not stop the command (e.g. a function left out, with the reason); -q keeps it back."""
    if not _quiet:
        _clear_status()
        print(diagnostic.render(excerpt=False), file=sys.stderr)


def _report(diagnostics: Sequence[Diagnostic]) -> None:
    from .diagnostics import render_all

    _clear_status()
    print(render_all(diagnostics), file=sys.stderr)


#: commands that run no third-party code which might count on the interpreter's teardown
_QUICK_EXIT = frozenset({"generate", "dump", "verify"})


def run() -> NoReturn:
    """The ``pegbind`` script and ``python -m pegbind``: :func:`main`, then exit.

    Tearing the interpreter down frees every object one at a time: after
    reading NSS's ``pkcs11.h`` that takes 55 ms, a seventh of the command,
    to release memory the system takes back anyway.  So once the output is
    flushed, the commands that load only pegbind's own code end the process
    at once; they also leave garbage cycles uncollected.  Tests call
    :func:`main`, which returns.
    """
    argv = sys.argv[1:]
    quick = bool(argv) and argv[0] in _QUICK_EXIT
    if quick:
        # Reading a header makes about a million objects, nearly all kept until
        # the end and hardly any in a cycle: collecting cycles at all cost sqlite3.h's
        # generate 27 ms, a twenty-fifth, and saved no memory (peak unchanged, also
        # on a megabyte header).  The pipeline pauses it in its phases for library callers.
        gc.disable()
    status = main(argv)
    if quick:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except OSError:  # a closed pipe: the reader has gone, as in main()
            pass
        os._exit(status)
    sys.exit(status)


def _write_out(text: str) -> None:
    """``text`` on stdout, whatever its error handler: a byte a header held that is not UTF-8
    goes out as that byte, as ``gcc -E`` passes it on (a strict stream would refuse it)."""
    try:
        sys.stdout.write(text)
    except UnicodeEncodeError:
        encoding = sys.stdout.encoding or "utf-8"
        try:
            data = text.encode(encoding, "surrogateescape")
        except UnicodeEncodeError:  # a character the stream's encoding has no byte for
            data = text.encode(encoding, "backslashreplace")
        sys.stdout.flush()
        sys.stdout.buffer.write(data)


def _chatter(args: argparse.Namespace) -> None:
    """-v: pegbind's log (the phases, each command a build runs, their times) on stderr; -q: no warnings.

    Neither, on a terminal: one status line saying what runs now (the ``pegbind.progress``
    log), rewritten in place and cleared before anything else is printed
    (:mod:`pegbind.chatter`, imported only when there is something to show or to undo).
    """
    global _quiet
    _quiet = bool(getattr(args, "quiet", False))
    verbose = bool(getattr(args, "verbose", False))
    status = not _quiet and not verbose and sys.stderr.isatty()
    if verbose or status or "logging" in sys.modules:  # else no logger was ever set up
        from . import chatter

        chatter.configure(verbose, status)


def _clear_status() -> None:
    """Take the status line away, so that what is printed next starts a clean line."""
    chatter = sys.modules.get(f"{__package__}.chatter")
    if chatter is not None:
        chatter.StatusLine.clear()


_quiet = False


def main(argv: Sequence[str] | None = None) -> int:
    """The ``pegbind`` command line, run in this process; returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    args = build_parser(argv[0] if argv and argv[0] in _COMMANDS else None).parse_args(argv)
    _chatter(args)

    def run() -> int:
        configs = _configs_from_args(args)
        if len(configs) == 1:
            return _COMMANDS[args.command](args, configs[0])
        return _each(args, configs)

    try:
        return _guarded(run)
    finally:
        _clear_status()


def _guarded(run: Callable[[], int]) -> int:
    """``run()``'s exit status, with what it raised reported as pegbind reports it."""
    try:
        return run()
    except UsageError as exc:
        _report(exc.diagnostics)
        return EXIT_USAGE
    except PegbindError as exc:
        _report(exc.diagnostics)
        return EXIT_DIAGNOSTICS
    except KeyboardInterrupt:
        _clear_status()
        print("pegbind: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK
    except OSError as exc:  # the file system refused (a folder that is a file, no permission, a full disk)
        where = f"{exc.filename}: " if exc.filename else ""
        _clear_status()
        print(f"error: {where}{exc.strerror or exc}", file=sys.stderr)
        return EXIT_DIAGNOSTICS
    except Exception as exc:  # a defect in pegbind itself: say so in one line, not a traceback
        if os.environ.get("PEGBIND_DEBUG"):
            raise
        _clear_status()
        print(
            f"pegbind: internal error: {type(exc).__name__}: {exc} "
            "(please report it; set PEGBIND_DEBUG=1 to see the traceback)",
            file=sys.stderr,
        )
        return EXIT_DIAGNOSTICS


def _each(args: argparse.Namespace, configs: list[BindingConfig]) -> int:
    """``generate`` or ``build`` of each binding of a config, in parallel on the machine's cores;
    what each says is printed in the config's order, and the worst status is the command's."""
    import logging
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    workers = min(len(configs), os.cpu_count() or 1)
    logging.getLogger("pegbind.progress").info("%s of %d bindings on %d cores", args.command, len(configs), workers)
    # fork: the workers start with this process's imports and settings (-q, -v) already made
    context = multiprocessing.get_context("fork") if sys.platform.startswith("linux") else None
    with ProcessPoolExecutor(workers, mp_context=context) as pool:
        results = list(pool.map(_one_of_several, [args] * len(configs), configs))
    _clear_status()
    status = EXIT_OK
    for code, out, err in results:
        sys.stderr.write(err)
        _write_out(out)
        status = max(status, code)
    return status


def _one_of_several(args: argparse.Namespace, config: BindingConfig) -> tuple[int, str, str]:
    """One binding's command in a worker of :func:`_each`: (status, stdout, stderr)."""
    import contextlib
    import io
    import logging

    logging.getLogger("pegbind.progress").handlers = []  # the status line is the parent's
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = _guarded(lambda: _COMMANDS[args.command](args, config))
    return status, out.getvalue(), err.getvalue()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
