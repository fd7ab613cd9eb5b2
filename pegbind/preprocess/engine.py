"""Preprocessing layer, the driver: headers -> :class:`PreprocessResult` (C11 6.10).

In: header paths, -I folders, -D/-U, the target, headers to skip.
Out: the expanded token stream, the macro table with its history, the comment
index, the ``#pragma pack`` regions and the diagnostics.  Several headers form one
translation unit, as if a file held ``#include "h1"`` ``#include "h2"``.

The walk is iterative: a stack of open files, each with its logical lines and its
stack of conditional groups, so a file including itself stops at the depth limit
with an error instead of exhausting Python's recursion.  Text lines of active
groups gather until the next directive and are expanded together; an invocation
whose argument list is still open at a directive waits for the following lines, as
GCC lets arguments span directives.

``__has_*`` operators answer as GCC 12 does in C mode for the target:
``__has_include``/``__has_include_next`` search like ``#include``;
``__has_attribute``, ``__has_c_attribute`` and ``__has_builtin`` give the values
the real compiler gives (:class:`~pegbind.target.CompilerFacts`, ``__x__``
spellings too); ``__has_cpp_attribute``, ``__has_feature`` and ``__has_extension``
are 0.  ``defined`` is true for each of these operators but ``__has_feature`` and
``__has_extension``, which GCC 12 does not have.
"""
from __future__ import annotations

import functools
import os
from collections.abc import Mapping, Sequence
from dataclasses import field
from pathlib import Path
from typing import Literal

from ..diagnostics import Coord, Diagnostic, DiagnosticSink, PreprocessError
from ..frozen import mutable_dataclass, replace
from ..target import get_target
from .cexpr import ExpressionError, evaluate
from .comments import CommentIndex
from .directives import Directive, DirectiveSyntaxError, parse_directive, parse_pack, rebuild
from .includes import IncludeResolver, read_source, system_include_dirs
from .lexer import LexedFile, is_unterminated, lex, tokenize
from .macros import (
    HAS_OPERATORS,
    Expander,
    ExpansionAborted,
    ExpansionHooks,
    Macro,
    MacroTable,
    validate_body,
)
from .token import Token

#: nesting of #include beyond which a file is not opened (a guard-less file including itself)
MAX_INCLUDE_DEPTH = 200
#: files entered by #include in one run beyond which no more are, for a fan-out of files
#: that include the next one twice each (a file that includes itself stops at the depth
#: limit: see _include).  A guarded header read again is not entered, so real header
#: sets stay far below it (libxml2's parser.h enters 136 files, curl.h 108).
MAX_INCLUDES = 20_000

_CONDITIONALS = frozenset({"if", "ifdef", "ifndef", "elif", "else", "endif"})
#: macros whose value depends on where (or when) they are expanded, not on their definition
DYNAMIC_MACROS = frozenset({"__FILE__", "__LINE__", "__COUNTER__", "__INCLUDE_LEVEL__", "__DATE__", "__TIME__",
                            "__TIMESTAMP__", "__BASE_FILE__"})
# Output must be deterministic: the clock macros are fixed strings.
_FIXED = {"__DATE__": '"Jan  1 1970"', "__TIME__": '"00:00:00"', "__TIMESTAMP__": '"Thu Jan  1 00:00:00 1970"'}

#: the hide set of a token read from a file: no macro (C11 6.10.3.4)
_NOTHING_HIDDEN: frozenset[str] = frozenset()

Origin = Literal["user", "standard", "system"]


@mutable_dataclass()
class _Group:
    """One #if ... #endif group of the file being read."""

    #: the group's last directive: "if", "ifdef", "ifndef", then "elif" or "else"
    #: (gcc: "unterminated #else", at the line of the #if)
    directive: str
    coord: Coord
    parent_active: bool
    taken: bool  #: some branch has been taken
    active: bool  #: the current branch is being read
    seen_else: bool = False


@mutable_dataclass()
class _Frame:
    """An open file."""

    path: str
    origin: str
    lines: list[list[Token]]
    include_site: Coord | None  #: the #include that opened it
    chain_index: int  #: where the search chain found it (-1: includer's folder or named)
    index: int = 0
    groups: list[_Group] = field(default_factory=list)
    line_delta: int = 0  #: set by #line
    presumed_name: str | None = None  #: set by #line "name"
    guard: str | None = None  #: macro of a possible include guard
    guard_group: _Group | None = None
    guard_closed_at: int = -1  #: line index after the guard's #endif

    @property
    def active(self) -> bool:
        return self.groups[-1].active if self.groups else True


@mutable_dataclass()
class PreprocessResult:
    """Everything the preprocessor found out about one translation unit."""

    tokens: list[Token]
    macros: MacroTable
    comments: CommentIndex
    #: (index in tokens from which it holds, #pragma pack value or None for the default)
    pack_changes: list[tuple[int, int | None]]
    diagnostics: list[Diagnostic]
    files: list[str]  #: every file opened, in the order first opened
    #: the hooks the run's expansions used (__LINE__, _Pragma ...), for :meth:`expand`
    _hooks: ExpansionHooks = field(repr=False, compare=False)
    _resolver: IncludeResolver = field(repr=False, compare=False)
    #: #pragma lines kept for the rendered text: (token index, text after "pragma", coord)
    pragmas: list[tuple[int, str, Coord]] = field(default_factory=list)

    def expand(self, tokens: Sequence[Token], problems: list[Diagnostic] | None = None) -> list[Token]:
        """Macro-expand ``tokens`` with the final macro table; the errors the expansion finds go
        into ``problems`` where one is given (else they are ignored)."""
        sink = DiagnosticSink()
        expanded = Expander(self.macros, sink, self._hooks).expand(tokens)
        if problems is not None:
            problems += sink.errors()
        return expanded

    @property
    def search_dirs(self) -> list[str]:
        """The folders ``#include`` searched, in order (the system's and pegbind's own included)."""
        return [entry.path for entry in self._resolver.chain]

    def origin(self, file: str) -> Origin:
        """"user" (the library's), "standard" (pegbind's own headers) or "system" for a file of this run."""
        return self._resolver.origin(file)  # type: ignore[return-value]


class _Engine:
    def __init__(self, headers: Sequence[str | Path], include_dirs: Sequence[str | Path], target: str | None,
                 skip_includes: Sequence[str], bind_headers: Sequence[str], included: bool = False):
        self.target = get_target(target)
        #: what __INCLUDE_LEVEL__ is in the headers themselves (see preprocess's ``included``)
        self.first_level = 1 if included else 0
        self.sink = DiagnosticSink()
        self.resolver = IncludeResolver([str(d) for d in include_dirs], self.target.name,
                                        [str(h) for h in headers], list(bind_headers))
        self.skip = set(skip_includes)
        self.table = MacroTable()
        self.comments = CommentIndex()
        self.output: list[Token] = []
        self.frames: list[_Frame] = []
        self.lexed: dict[str, LexedFile] = {}
        self.files: list[str] = []
        self.once: set[str] = set()
        self.poisoned: set[str] = set()  #: names ``#pragma GCC poison`` forbids from here on
        self.guards: dict[str, str] = {}
        self.entered = 0  #: files #include entered (see MAX_INCLUDES)
        self.too_deep: set[Coord] = set()  #: the #include sites said to nest too deep
        self.counter = 0
        self.base_file = ""
        self.pack: int | None = None
        self.pack_stack: list[int | None] = []
        self.pack_changes: list[tuple[int, int | None]] = []
        self.pragmas: list[tuple[int, str, Coord]] = []
        builtin = frozenset(DYNAMIC_MACROS | (HAS_OPERATORS - {"__has_feature", "__has_extension"}))
        self.hooks = ExpansionHooks(self._dynamic, builtin, self._has_operator, self._pragma_operator,
                                    dynamic_names=DYNAMIC_MACROS)
        self.expander = Expander(self.table, self.sink, self.hooks, self._included_from)
        self.pending: list = []  # text items waiting for expansion
        self._chunk_base = 0  # output index where the chunk being expanded starts

    # ---- diagnostics ---------------------------------------------------------------------------

    def _included_from(self) -> tuple[Coord, ...]:
        return tuple(f.include_site for f in reversed(self.frames) if f.include_site is not None)

    def error(self, coord: Coord | None, message: str, **extra) -> None:
        self.sink.error(coord, message, included_from=self._included_from(), **extra)

    def warning(self, coord: Coord | None, message: str, **extra) -> None:
        self.sink.warning(coord, message, included_from=self._included_from(), **extra)

    # ---- macros from the target and the command line -------------------------------------------

    def predefine(self, defines: Mapping[str, str | None], undefines: Sequence[str]) -> None:
        for macro in _predefined_macros(self.target.name):
            self.table.define(macro)
        for name, given in defines.items():
            self._define_text(name, "1" if given is None else given, "<command-line>", "command-line")
        for name in undefines:
            self.table.undef(name, Coord("<command-line>", 1, 1))

    def _define_text(self, name: str, value: str, file: str, origin: str) -> None:
        tokens = tokenize(f"#define {name} {value}", file)
        try:
            directive = parse_directive(tokens)
        except DirectiveSyntaxError as err:
            self.error(err.coord, err.message)
            return
        self._define(directive, origin)

    # ---- the walk -------------------------------------------------------------------------------

    def run(self, headers: Sequence[str | Path], include_first: Sequence[str] = ()) -> None:
        # gcc reads the C library's stdc-predef.h before the first header, as if -include'd
        # (__STDC_IEC_559__, __STDC_ISO_10646__ ...): so does pegbind, where the system's are read
        if system_include_dirs(self.target.name) is not None:
            self._read_first("stdc-predef.h")
        # then what the user -include's, of the origin its folder gives (the C library's
        # stdio.h lends jpeglib.h its types; its functions are not bound)
        for name in include_first:
            if not self._read_first(name):
                self.error(None, f"include_first: <{name}> is not on the #include path")
        for header in headers:
            path = str(header)
            if not self.base_file:
                self.base_file = path
            if not os.path.isfile(path):
                self.error(None, f"'{path}' file not found")
                continue
            self.resolver.claim(path)
            self._open(path, self.resolver.origin(path), None, -1)
            self._walk()

    def _read_first(self, name: str) -> bool:
        """Read ``name``, found as ``#include <name>`` is, before the headers; False where it is not found."""
        found = self.resolver.find(name, False, None, "system")
        if found is None:
            return False
        self._open(found[0], found[2], None, found[1])
        self._walk()
        return True

    def finish(self) -> None:
        """Let go of what only the run needed, and of the references back to the engine.

        The hooks and the expander call the engine's own methods, so the engine
        and they were a reference cycle holding every token the run read: only
        a full collection of the cycle collector freed them (2.7 s after a few
        reads of a megabyte header).  What the result keeps, the hooks, keeps
        the engine alive without a cycle.
        """
        del self.hooks, self.expander
        self.lexed.clear()

    def _open(self, path: str, origin: str, site: Coord | None, chain_index: int) -> None:
        lexed = self.lexed.get(path)
        if lexed is None:
            try:
                text = read_source(path)
            except OSError as err:
                self.error(site, f"cannot read '{path}': {err.strerror}")
                return
            lexed = self.lexed[path] = lex(text, path)
            self.files.append(path)
            self.comments.add(lexed.comments)
            for problem in lexed.problems:
                self.sink.add(Diagnostic(problem.coord, problem.message, problem.severity,
                                         included_from=((site,) if site else ()) + self._included_from()))
        self.frames.append(_Frame(path, origin, lexed.lines, site, chain_index))

    def _walk(self) -> None:
        frames = self.frames
        while frames:
            frame = frames[-1]
            lines = frame.lines
            if frame.index >= len(lines):
                self._close(frame)
                continue
            line = lines[frame.index]
            frame.index += 1
            first = line[0]
            if first.kind == "punct" and (first.text == "#" or first.text == "%:"):
                if frame.guard_closed_at >= 0:
                    frame.guard = None  # something follows the guard's #endif
                if self.pending:
                    self._flush(final=False)
                self._directive(frame, line)
                continue
            if frame.guard_closed_at >= 0:
                frame.guard = None  # text after the guard's #endif
            if not frame.active:
                continue
            for token in line:
                if token.kind == "other" and is_unterminated(token):
                    quote = token.text.lstrip("u8UL")[0]
                    self.error(token.coord, f"missing terminating {quote} character")
            if self.poisoned:
                self._check_poison(line)
            if not self.pending and self.expander.changes_nothing(line):
                self.output += line  # no invocation waits for it, and it names no macro
                continue
            self.pending += [(token, _NOTHING_HIDDEN) for token in line]

    def _flush(self, *, final: bool, end: Coord | None = None) -> None:
        items = self.pending
        self.pending = []
        self._chunk_base = len(self.output)
        out, leftover = self.expander.expand_items(items, final=final, end=end)
        self.output += [token for token, _ in out]
        self.pending = leftover

    def _close(self, frame: _Frame) -> None:
        if self.pending:
            lexed = self.lexed[frame.path]
            last = lexed.last_line()
            self._flush(final=True, end=Coord(frame.path, last, lexed.line_end(last)))
        for group in frame.groups:
            self.error(group.coord, f"unterminated #{group.directive}")
        if frame.guard is not None and frame.guard_closed_at == len(frame.lines):
            self.guards[os.path.realpath(frame.path)] = frame.guard
        self.frames.pop()

    # ---- directives -----------------------------------------------------------------------------

    def _directive(self, frame: _Frame, line: list[Token]) -> None:
        name = line[1].text if len(line) > 1 else ""
        if self.poisoned and name != "pragma" and frame.active:
            self._check_poison(line[2:])
        if name in _CONDITIONALS:
            self._conditional(frame, name, line)
            return
        if not frame.active:
            return
        try:
            directive = parse_directive(line)
        except DirectiveSyntaxError as err:
            self.error(err.coord, err.message)
            return
        kind = directive.kind
        if kind == "define":
            self._define(directive, frame.origin)
        elif kind == "undef":
            assert directive.identifier is not None
            self._undef(frame, directive.identifier, directive.rest)
        elif kind in ("include", "include_next", "import"):
            self._include(frame, directive)
        elif kind == "pragma":
            self._pragma(frame, directive)
        elif kind == "error":
            self.error(directive.name_token.coord if directive.name_token else directive.coord,
                       "#error " + rebuild(list(directive.rest))[0] if directive.rest else "#error")
        elif kind == "warning":
            self.warning(directive.name_token.coord if directive.name_token else directive.coord,
                         "#warning " + rebuild(list(directive.rest))[0] if directive.rest else "#warning")
        elif kind == "line":
            self._line(frame, directive)
        elif kind == "unknown":
            assert directive.name_token is not None
            self.error(directive.name_token.coord, f"invalid preprocessing directive #{directive.name_token.text}")
        # ident / sccs / the null directive: nothing to do.

    def _line_end(self, frame: _Frame, line: Sequence[Token]) -> Coord | None:
        """Just past the physical line a directive's last token is on (its comments and blanks too)."""
        if not line:
            return None
        last = line[-1].line
        return Coord(frame.path, last, self.lexed[frame.path].line_end(last))

    def _undef(self, frame: _Frame, name: Token, rest: Sequence[Token]) -> None:
        if name.text == "defined":
            self.error(name.coord, '"defined" cannot be used as a macro name')
            return
        self._extra_tokens(frame, "undef", rest)
        # gcc warns of undefining what it makes itself, and __STDC__ (-Wbuiltin-macro-redefined)
        macro = self.table.get(name.text)
        if (name.text in DYNAMIC_MACROS and name.text in self.hooks.builtin_names) or (
                name.text == "__STDC__" and macro is not None and macro.origin == "builtin"):
            self.warning(name.coord, f'undefining "{name.text}"')
        self._forget_builtin(name.text)
        self.table.undef(name.text, name.coord)

    def _forget_builtin(self, name: str) -> None:
        """A macro the preprocessor makes (``__LINE__``) undefined or defined by the header: no
        longer made, nor ``defined()``, as with gcc."""
        if name in self.hooks.builtin_names:
            self.hooks.builtin_names = self.hooks.builtin_names - {name}
            self.hooks.dynamic_names = (self.hooks.dynamic_names or DYNAMIC_MACROS) - {name}

    def _define(self, directive: Directive, origin: str) -> None:
        name_token = directive.identifier
        assert name_token is not None
        if name_token.text == "defined":
            self.error(name_token.coord, '"defined" cannot be used as a macro name')
            return
        if name_token.text in self.hooks.builtin_names and name_token.text in DYNAMIC_MACROS:
            self.warning(name_token.coord, f'"{name_token.text}" redefined')  # gcc's -Wbuiltin-macro-redefined
            self._forget_builtin(name_token.text)  # the definition replaces it, for good
        problem = validate_body(directive.params, directive.variadic, directive.rest)
        if problem is not None:
            self.error(problem[0].coord, problem[1])
            return
        for token in directive.rest:
            if token.kind == "other" and is_unterminated(token):
                quote = token.text.lstrip("u8UL")[0]
                self.error(token.coord, f"missing terminating {quote} character")
        macro = Macro(name_token.text, directive.params, directive.variadic, directive.rest, name_token.coord, origin)
        previous = self.table.define(macro)
        if previous is not None:
            self.warning(name_token.coord, f'"{macro.name}" redefined',
                         notes=(f"{previous.coord}: note: this is the location of the previous definition",))

    def _extra_tokens(self, frame: _Frame, name: str, extra: Sequence[Token]) -> None:
        """gcc's warning for what follows a directive that ends at its name or its header
        (``#endif FOO``); not in a system header, whose warnings gcc keeps to itself."""
        if extra and frame.origin == "user":
            self.warning(extra[0].coord, f"extra tokens at end of #{name} directive")

    def _conditional(self, frame: _Frame, name: str, line: list[Token]) -> None:
        groups = frame.groups
        coord = line[0].coord
        if name in ("if", "ifdef", "ifndef"):
            parent_active = frame.active
            value = False
            guard_name = None
            if parent_active:
                value, guard_name = self._condition(frame, name, line)
            group = _Group(name, coord, parent_active, value, parent_active and value)
            groups.append(group)
            # An include guard: the file's first line is #ifndef X (or #if !defined X).
            if frame.index == 1 and guard_name is not None and len(groups) == 1:
                frame.guard = guard_name
                frame.guard_group = group
            return
        if not groups:
            self.error(line[1].coord, f"#{name} without #if")
            return
        group = groups[-1]
        if name in ("endif", "else") and group.parent_active:
            self._extra_tokens(frame, name, line[2:])
        if name == "endif":
            groups.pop()
            if group is frame.guard_group and frame.guard is not None:
                frame.guard_closed_at = frame.index
            return
        if group is frame.guard_group:
            frame.guard = None
        if group.seen_else:
            self.error(line[1].coord, f"#{name} after #else")
            return
        group.directive = name
        if name == "else":
            group.seen_else = True
            group.active = group.parent_active and not group.taken
            group.taken = True
            return
        # elif: evaluated only when no earlier branch was taken
        if group.parent_active and not group.taken:
            value, _ = self._condition(frame, "if", line)
            group.active = value
            group.taken = value
        else:
            group.active = False

    def _condition(self, frame: _Frame, name: str, line: list[Token]) -> tuple[bool, str | None]:
        """(value, macro name if this could be an include guard)."""
        if name in ("ifdef", "ifndef"):
            if len(line) < 3 or line[2].kind != "identifier":
                self.error(line[1].coord, f"no macro name given in #{name} directive")
                return False, None
            self._extra_tokens(frame, name, line[3:])
            target = line[2].text
            defined = target in self.table.definitions or target in self.hooks.builtin_names
            return (defined if name == "ifdef" else not defined), (target if name == "ifndef" else None)
        rest = line[2:]
        if not rest:
            self.error(line[1].coord, f"#{line[1].text} with no expression")
            return False, None
        guard = None
        texts = [t.text for t in rest]
        if texts[:2] == ["!", "defined"] and (len(texts) == 3
                                              or (len(texts) == 5 and texts[2] == "(" and texts[4] == ")")):
            guard = texts[2] if len(texts) == 3 else texts[3]
        errors_before = len(self.sink.items)
        try:
            expanded = self.expander.expand(rest, in_if=True, end=self._line_end(frame, line))
        except ExpansionAborted:
            return False, None
        if len(self.sink.items) != errors_before and self.sink.has_errors:
            return False, None

        def warn(token: Token, message: str) -> None:
            self.warning(token.coord if not token.expansion else line[1].coord, message)

        try:
            value = evaluate(expanded, target=self.target, warn=warn)
        except ExpressionError as err:
            where = err.token.coord if err.token is not None and not err.token.expansion else line[1].coord
            self.error(where, err.message)
            return False, None
        return value != 0, guard

    def _include(self, frame: _Frame, directive: Directive) -> None:
        site = directive.coord
        header = directive.header
        if header is not None:
            self._extra_tokens(frame, directive.kind, directive.rest)
        else:
            expanded = self.expander.expand(directive.rest, end=self._line_end(frame, directive.rest))
            header = _header_from_tokens(expanded)
            if header is None:
                self.error(directive.name_token.coord if directive.name_token else site,
                           f'#{directive.kind} expects "FILENAME" or <FILENAME>')
                return
        quoted = header[0] == '"'
        name = header[1:-1]
        if not name:
            named = directive.header_token if directive.header is not None else (directive.rest or (None,))[0]
            self.error(named.coord if named is not None else site, f"empty filename in #{directive.kind}")
            return
        if name in self.skip or header in self.skip:
            return
        next_after = None
        if directive.kind == "include_next":
            next_after = frame.chain_index if frame.chain_index >= 0 else self.resolver.chain_index_of(frame.path)
            if next_after is None:
                next_after = -1
        found = self.resolver.find(name, quoted, frame.path, frame.origin, next_after)
        if found is None:
            # Point at the header name, as gcc and clang do.
            named = directive.header_token if directive.header is not None else (directive.rest or (None,))[0]
            self.error(named.coord if named is not None else site, f"'{name}' file not found")
            return
        path, chain_index, origin = found
        real = os.path.realpath(path)
        if real in self.once:
            return
        if directive.kind == "import":
            self.once.add(real)
        guard = self.guards.get(real)
        if guard is not None and guard in self.table.definitions:
            return  # guarded and already read: reading it again would produce nothing
        if len(self.frames) >= MAX_INCLUDE_DEPTH:
            if site not in self.too_deep:  # once a site: a file including itself twice reaches it 2**n times
                self.too_deep.add(site)
                self.error(site, f"#include nested depth {len(self.frames)} exceeds maximum of {MAX_INCLUDE_DEPTH}")
            return
        if self.too_deep and any(os.path.realpath(f.path) == real for f in self.frames):
            # Once a recursion has run into the depth limit, a file already open is not
            # entered again: one that includes itself twice would be read 2**200 times
            # (gcc does so), its whole text each time.  What it declares is read already.
            return
        self.entered += 1
        if self.entered > MAX_INCLUDES:
            if self.entered == MAX_INCLUDES + 1:  # said once; every later #include is passed over
                self.error(site, f"#include entered more than {MAX_INCLUDES} files (pegbind's limit): "
                                 "headers without a guard, each included more than once?")
            return
        self._open(path, origin, site, chain_index)

    def _check_poison(self, tokens: Sequence[Token]) -> None:
        """gcc's error at each use of a name ``#pragma GCC poison`` forbade, in the header's own
        text (a macro defined before the pragma may still expand to it)."""
        for token in tokens:
            if token.kind == "identifier" and token.text in self.poisoned:
                self.error(token.coord, f'attempt to use poisoned "{token.text}"')

    def _poison(self, names: Sequence[Token], at: Coord | None = None) -> None:
        """``#pragma GCC poison NAME...``: each use of the names from here on is an error.
        ``at``: where to say a problem, for names read from a ``_Pragma``'s string."""
        for name in names:
            where = at or (name.expansion[0].site if name.expansion else name.coord)
            if name.kind != "identifier":
                self.error(where, "invalid #pragma GCC poison directive")
                return
            if name.text in self.table:
                self.warning(where, f'poisoning existing macro "{name.text}"')
            self.poisoned.add(name.text)

    def _pragma(self, frame: _Frame, directive: Directive) -> None:
        rest = directive.rest
        if len(rest) >= 2 and rest[0].text == "GCC" and rest[1].text == "poison":
            self._poison(rest[2:])
        text = rebuild(list(directive.rest))[0]
        self._apply_pragma(text, directive.coord, len(self.output))

    def _apply_pragma(self, text: str, coord: Coord, position: int) -> None:
        self.pragmas.append((position, text, coord))
        if text.strip() == "once":
            if self.frames:
                self.once.add(os.path.realpath(self.frames[-1].path))
            return
        pack = parse_pack(" " + text)
        if pack is None:
            return
        action, value = pack
        if action == "show":
            return
        if value is not None and value not in (1, 2, 4, 8, 16):
            # gcc ignores the whole pragma, push included (-Wpragmas).
            self.sink.warning(coord, f"alignment must be a small power of two, not {value}")
            return
        if action == "pop" and not self.pack_stack:
            self.sink.warning(coord, "'#pragma pack (pop)' encountered without matching '#pragma pack (push)'")
        if action == "push":
            self.pack_stack.append(self.pack)
            if value is not None:
                self.pack = value
        elif action == "pop":
            self.pack = self.pack_stack.pop() if self.pack_stack else None
            if value is not None:
                self.pack = value
        else:
            self.pack = value
        self.pack_changes.append((position, self.pack))

    def _line(self, frame: _Frame, directive: Directive) -> None:
        # what gcc says of a malformed #line, where it says it (a token a macro gave: at the #line)
        def at(token: Token) -> Coord:
            return token.coord if not token.expansion else directive.coord

        expanded = self.expander.expand(directive.rest, end=self._line_end(frame, directive.rest))
        if not expanded:
            name = directive.name_token or directive.hash_token
            self.error(Coord(name.file, name.line, name.col + len(name.text)),
                       "unexpected end of file after #line")
            return
        number = expanded[0]
        if number.kind != "number" or not number.text.isdigit():
            self.error(at(number), f'"{number.text}" after #line is not a positive integer')
            return
        if int(number.text) > 0xFFFF_FFFF:
            self.warning(at(number), "line number out of range")
        if len(expanded) > 1 and not (expanded[1].kind == "string" and expanded[1].text.startswith('"')):
            self.error(at(expanded[1]), f'"{expanded[1].text}" is not a valid filename')
            return
        if len(expanded) > 2:
            self.warning(at(expanded[2]), "extra tokens at end of #line directive")
        next_physical = directive.rest[-1].line + 1
        frame.line_delta = int(number.text) - next_physical
        if len(expanded) > 1:
            frame.presumed_name = expanded[1].text[1:-1]

    # ---- hooks of the expander ----------------------------------------------------------------

    def _dynamic(self, token: Token) -> Token | None:
        name = token.text
        if name not in DYNAMIC_MACROS:
            return None
        frame = self.frames[-1] if self.frames else None
        if name == "__LINE__":
            site = token.expansion[0].site if token.expansion else token.coord
            value = str(site.line + (frame.line_delta if frame else 0))
            return replace(token, kind="number", text=value)
        if name in ("__FILE__", "__BASE_FILE__"):
            path = self.base_file if name == "__BASE_FILE__" or frame is None else (frame.presumed_name or frame.path)
            text = '"' + path.replace("\\", "\\\\").replace('"', '\\"') + '"'
            return replace(token, kind="string", text=text)
        if name == "__COUNTER__":
            value = str(self.counter)
            self.counter += 1
            return replace(token, kind="number", text=value)
        if name == "__INCLUDE_LEVEL__":
            return replace(token, kind="number", text=str(max(len(self.frames) - 1, 0) + self.first_level))
        return replace(token, kind="string", text=_FIXED[name])

    def _has_operator(self, name: str, args: list[Token], token: Token) -> int:
        if name in ("__has_include", "__has_include_next"):
            header = _header_from_tokens(args) or _header_from_tokens(self.expander.expand(args))
            if header is None:
                self.error(token.coord, f'operator "{name}" requires a header-name')
                return 0
            frame = self.frames[-1] if self.frames else None
            next_after = None
            if name == "__has_include_next" and frame is not None:
                next_after = frame.chain_index if frame.chain_index >= 0 else self.resolver.chain_index_of(frame.path)
                if next_after is None:
                    next_after = -1
            found = self.resolver.find(header[1:-1], header[0] == '"', frame.path if frame else None,
                                       frame.origin if frame else "user", next_after)
            return int(found is not None)
        if not args or args[0].kind != "identifier":
            return 0
        word = args[0].text
        compiler = self.target.compiler
        if name == "__has_attribute":
            return compiler.attribute(word) if len(args) == 1 else 0
        if name == "__has_c_attribute":
            spelled = "".join(t.text for t in args)  # gnu::packed, gnu::__packed__
            scope, _, plain = spelled.rpartition("::")
            if scope and plain.startswith("__") and plain.endswith("__") and len(plain) > 4:
                spelled = f"{scope}::{plain[2:-2]}"
            return compiler.c_attributes.get(spelled, 0)
        if name == "__has_builtin":
            return int(len(args) == 1 and word in compiler.builtins)
        return 0

    def _pragma_operator(self, text: str, site: Token, position: int) -> None:
        coord = site.expansion[0].site if site.expansion else site.coord
        words = text.split(None, 2)
        if words[:2] == ["GCC", "poison"]:
            self._poison(tokenize(words[2] if len(words) > 2 else "", coord.file), at=coord)
        self._apply_pragma(text, coord, self._chunk_base + position)


@functools.cache
def _predefined_macros(target: str) -> tuple[Macro, ...]:
    """The macros the target's compiler predefines, read once per process (a few hundred).

    Read as ``gcc -dM -E`` lists them, a ``#define`` a line, as one text:
    lexing each apart cost 5 ms of every run, most of it the lexer's setup.
    Of an object-like macro, as nearly all are, only the replacement list is
    lexed, at the column it has after ``#define NAME ``: the directive's
    words were two thirds of the tokens (3.6 -> 2.0 ms).
    """
    predefines = get_target(target).predefines
    assert not any("\n" in value for value in predefines.values()), "the compiler data holds a multi-line definition"
    # a line a macro, each on the line and at the column its #define gives it: an object-like
    # macro's replacement list alone, a function-like macro's whole directive
    object_like = [name.isidentifier() for name in predefines]
    lines = lex("\n".join(" " * (len("#define ") + len(name) + 1) + value if plain else f"#define {name} {value}"
                          for (name, value), plain in zip(predefines.items(), object_like, strict=True)),
                "<built-in>").lines
    line_of = {line[0].line: line for line in lines}
    macros = []
    for number, (name, plain) in enumerate(zip(predefines, object_like, strict=True), 1):
        if plain:
            macros.append(Macro(name, None, False, tuple(line_of.get(number, ())), Coord("<built-in>", number, 9),
                                "builtin"))
            continue
        directive = parse_directive(line_of[number])
        assert directive.identifier is not None, f"the compiler data defines {name!r}"
        macros.append(Macro(directive.identifier.text, directive.params, directive.variadic, directive.rest,
                            directive.identifier.coord, "builtin"))
    return tuple(macros)


def _header_from_tokens(tokens: Sequence[Token]) -> str | None:
    """``"x.h"`` or ``<x.h>`` from the tokens of a macro-expanded #include (6.10.2p4)."""
    if not tokens:
        return None
    if tokens[0].kind == "string" and tokens[0].text.startswith('"'):
        return tokens[0].text
    if tokens[0].text == "<":
        parts: list[str] = []
        for index, token in enumerate(tokens[1:], 1):
            if token.text == ">":
                return "<" + "".join(parts) + ">"
            if index > 1 and token.space_before:
                parts.append(" ")
            parts.append(token.text)
    return None


def preprocess(
    headers: Sequence[str | Path],
    *,
    include_dirs: Sequence[str | Path] = (),
    defines: Mapping[str, str | None] = {},
    undefines: Sequence[str] = (),
    target: str | None = None,
    skip_includes: Sequence[str] = (),
    bind_headers: Sequence[str] = (),
    include_first: Sequence[str] = (),
    included: bool = False,
) -> PreprocessResult:
    """Preprocess ``headers`` as one translation unit; raises PreprocessError on any error.

    ``bind_headers`` are globs over header paths that widen or (``!GLOB``)
    narrow which files are the library's (see :mod:`.includes`); ``include_first``
    are read before the headers, as ``cc -include`` reads them.  ``included``: the
    headers are read as a source file including them reads them (``__INCLUDE_LEVEL__``
    is 1 in them), as the binding's own C code and every program of the library
    does; else each is the main file, as ``gcc -E header.h`` reads it (0).
    """
    engine = _Engine(headers, include_dirs, target, skip_includes, bind_headers, included)
    engine.predefine(defines, undefines)
    engine.run(headers, include_first)
    result = PreprocessResult(
        engine.output, engine.table, engine.comments, engine.pack_changes, engine.sink.items,
        engine.files, engine.hooks, engine.resolver, engine.pragmas,
    )
    engine.finish()
    if engine.sink.has_errors:
        raise PreprocessError(engine.sink.items)
    return result
