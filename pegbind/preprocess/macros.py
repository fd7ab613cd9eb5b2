"""Preprocessing layer, step 4: the macro table and macro expansion (C11 6.10.3).

In: tokens (from :mod:`.lexer`), the definitions made by ``#define``/``#undef``.
Out: expanded tokens, each carrying its :class:`~.token.ExpansionFrame` chain, and
diagnostics for wrong invocations.

Expansion follows Prosser's hide-set algorithm, which gives the results the
standard prints in 6.10.3.5: every token travels with the set of macro names it
must not expand again; an object-like macro adds its name to its body's sets, a
function-like one adds its name to ``HS(name) & HS(')')``.  The rescanning loop is
iterative (an explicit stack holding the rest of the input, so a function-like
name produced by a body can take its arguments from the text that follows, as GCC
does); only the full expansion of an argument (6.10.3.1) recurses, bounded by
:data:`MAX_NESTING`.  A budget of :data:`MAX_EXPANSION_TOKENS` produced tokens for
each macro invoked in the text (with all that its expansion invokes) stops macros
whose expansion explodes.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import field

from ..diagnostics import Coord, DiagnosticSink
from ..frozen import frozen_dataclass, maker, mutable_dataclass, replace
from .lexer import tokenize
from .token import ExpansionFrame, Token

#: tokens a single top-level expansion may produce before it is stopped with an error: the
#: largest in the real headers of the suite is under 4,000 (curl's CURLOPT); reaching the
#: limit costs about 2 µs a token, so an exploding macro is stopped within half a second
MAX_EXPANSION_TOKENS = 200_000
#: what the expansions in one top-level text may produce together, beyond that budget, for each
#: token written in it: a line of many small expansions (a generated table) is taken, but one
#: that calls a macro of 100,000 tokens a thousand times (a billion) is stopped, as it would be
#: in one expansion, and the time stays linear in the input
TOKENS_PER_WRITTEN = 64
#: depth of arguments inside arguments (each level expands an argument fully first)
MAX_NESTING = 200

_EMPTY: frozenset[str] = frozenset()
# A placemarker (6.10.3.3p2) and the pending ## operator inside a substitution.
_PLACEMARKER = None
_PASTE = "##"

_Item = tuple[Token, frozenset[str]]


@frozen_dataclass()
class Macro:
    """One macro definition."""

    name: str
    params: tuple[str, ...] | None  #: None for an object-like macro; ``__VA_ARGS__`` for ``...``
    variadic: bool
    body: tuple[Token, ...]  #: the replacement list as written
    coord: Coord  #: where the name was written in its #define (or a pseudo-file for -D)
    origin: str  #: "user", "standard", "system", "builtin" (target) or "command-line" (-D)

    @property
    def function_like(self) -> bool:
        return self.params is not None

    def same_definition(self, other: Macro) -> bool:
        """6.10.3p2: identical parameters and replacement lists, white space separations included."""
        if (self.params, self.variadic) != (other.params, other.variadic) or len(self.body) != len(other.body):
            return False
        return all(
            a.text == b.text and (i == 0 or a.space_before == b.space_before)
            for i, (a, b) in enumerate(zip(self.body, other.body, strict=True))
        )


@frozen_dataclass()
class MacroEvent:
    """One change to the table, in the order the preprocessor met them."""

    action: str  #: "define", "redefine" or "undef"
    name: str
    macro: Macro | None  #: the new definition (None for undef)
    coord: Coord


@mutable_dataclass()
class MacroTable:
    """Final definitions by name, plus the full history of defines and undefs."""

    definitions: dict[str, Macro] = field(default_factory=dict)
    history: list[MacroEvent] = field(default_factory=list)

    def __contains__(self, name: object) -> bool:
        return name in self.definitions

    def __getitem__(self, name: str) -> Macro:
        return self.definitions[name]

    def get(self, name: str) -> Macro | None:
        return self.definitions.get(name)

    def define(self, macro: Macro) -> Macro | None:
        """Add or replace; returns the previous definition when it differs (a redefinition)."""
        previous = self.definitions.pop(macro.name, None)
        # Re-inserting keeps the dict in order of (last) definition.
        self.definitions[macro.name] = macro
        action = "define" if previous is None else "redefine"
        self.history.append(MacroEvent(action, macro.name, macro, macro.coord))
        if previous is not None and not previous.same_definition(macro):
            return previous
        return None

    def undef(self, name: str, coord: Coord) -> None:
        self.definitions.pop(name, None)
        self.history.append(MacroEvent("undef", name, None, coord))

    def object_like(self, origin: str | None = "user") -> list[Macro]:
        """Object-like macros (of that origin; None for all) in order of definition."""
        return [m for m in self.definitions.values() if m.params is None and (origin is None or m.origin == origin)]


class ExpansionAborted(Exception):
    """Raised inside the expander when a limit is hit; the diagnostic is already recorded."""


@mutable_dataclass()
class ExpansionHooks:
    """What the expander asks the driver: dynamic macros, #if operators, _Pragma."""

    #: __FILE__, __LINE__, ... -> the token replacing ``token``; None when not dynamic
    dynamic: Callable[[Token], Token | None] = lambda token: None
    #: names that ``defined`` reports although they are not in the table (__FILE__, __has_include ...)
    builtin_names: frozenset[str] = _EMPTY
    #: ``__has_include``-style operator: (operator name, argument tokens) -> value
    has_operator: Callable[[str, list[Token], Token], int] = lambda name, args, token: 0
    #: ``_Pragma("...")`` met at the top level: (pragma text, site, output position)
    pragma: Callable[[str, Token, int], None] = lambda text, site, position: None
    #: the names ``dynamic`` may replace (it is asked about no other identifier); None: any
    dynamic_names: frozenset[str] | None = None


HAS_OPERATORS = frozenset(
    {
        "__has_include", "__has_include_next", "__has_attribute", "__has_cpp_attribute",
        "__has_c_attribute", "__has_builtin", "__has_feature", "__has_extension",
    }
)


class Expander:
    """Macro expansion with hide sets over one :class:`MacroTable`."""

    def __init__(self, table: MacroTable, sink: DiagnosticSink, hooks: ExpansionHooks | None = None,
                 included_from: Callable[[], tuple[Coord, ...]] = tuple):
        self.table = table
        self.sink = sink
        self.hooks = hooks or ExpansionHooks()
        self.included_from = included_from
        self._budget = 0
        self._left = 0  #: what the expansions of the top-level text may still produce
        self._depth = 0
        #: where the top-level text being expanded ends (an invocation left open is reported there)
        self._end: Coord | None = None
        #: a macro's identity -> (the macro, its plain replacement list or None): see _plain
        self._plain_lists: dict[int, tuple[Macro, tuple[tuple[Token, int], ...] | None]] = {}

    # ---- public entry points ---------------------------------------------------------------

    def expand(self, tokens: Sequence[Token], *, in_if: bool = False, end: Coord | None = None) -> list[Token]:
        """Fully macro-expand ``tokens`` (as text at the top level of a file), which end at ``end``
        (a directive's line: where gcc reports an invocation left open)."""
        output, _ = self.expand_items([(t, _EMPTY) for t in tokens], final=True, in_if=in_if, end=end)
        return [token for token, _ in output]

    def expand_items(self, items: list[_Item], *, final: bool, in_if: bool = False,
                     end: Coord | None = None) -> tuple[list[_Item], list[_Item]]:
        """Expand top-level text; when ``final`` is False, an invocation whose arguments run
        past the end is handed back unexpanded (second value) so more lines can follow."""
        saved = self._budget, self._left, self._depth, self._end  # a hook may expand while an expansion runs
        self._budget = 0
        self._left = MAX_EXPANSION_TOKENS + TOKENS_PER_WRITTEN * len(items)
        self._depth = 0
        self._end = end
        try:
            return self._rescan(items, top=True, final=final, in_if=in_if)
        except ExpansionAborted:
            return [], []
        finally:
            self._budget, self._left, self._depth, self._end = saved

    def changes_nothing(self, tokens: Sequence[Token]) -> bool:
        """Whether top-level text ``tokens``, with nothing before them waiting, is its own
        expansion: none of its identifiers is a macro, a dynamic name or ``_Pragma``
        (most lines of a header; the caller need not hand them to :meth:`expand_items`)."""
        words = {token.text for token in tokens if token.kind == "identifier"}
        if "_Pragma" in words or not self.table.definitions.keys().isdisjoint(words):
            return False
        dynamic = self.hooks.dynamic_names
        return not words if dynamic is None else dynamic.isdisjoint(words)  # None: any name may be dynamic

    # ---- the rescanning loop (6.10.3.4) -------------------------------------------------------

    def _rescan(self, items: list[_Item], *, top: bool, final: bool, in_if: bool) -> tuple[list[_Item], list[_Item]]:
        stack = items[::-1]  # the next token is stack[-1]
        # How many of the bottom items of the stack were given, not produced by an expansion.
        # At the top level the budget is for each expansion: once the next token is one that
        # was given, every expansion before it is complete.  Taking given items shrinks the
        # stack below the count, which the next turn sees; only arguments taken before a
        # replacement is pushed over them need the count set at once.
        given = len(stack)
        out: list[_Item] = []
        definitions = self.table.definitions
        dynamic_names = self.hooks.dynamic_names
        while stack:
            if len(stack) <= given:
                given = len(stack) - 1
                if top:
                    self._budget = 0
            item = stack.pop()
            token, hide = item
            if token.kind != "identifier":
                out.append(item)
                continue
            name = token.text
            if in_if and (name == "defined" or name in HAS_OPERATORS):
                out.append((self._if_operator(token, stack), _EMPTY))
                continue
            macro = definitions.get(name)
            if macro is None:
                if name == "_Pragma" and top:
                    if self._pragma_operator(token, stack, len(out)):
                        continue
                dynamic = self.hooks.dynamic(token) if dynamic_names is None or name in dynamic_names else None
                out.append((dynamic, hide) if dynamic is not None else item)
                continue
            if name in hide:
                out.append(item)  # painted blue: never expanded again (6.10.3.4p2)
                continue
            if macro.params is None:
                replacement = self._substitute(macro, token, None, hide | {name}, in_if)
                _push_rescanned(replacement, stack, out)
                continue
            # Function-like: only a following '(' makes an invocation (6.10.3p10).
            if not stack:
                if top and not final:
                    return out, [item]
                out.append(item)
                continue
            following = stack[-1][0]
            if following.text != "(" or following.kind != "punct":
                out.append(item)
                continue
            consumed: list[_Item] = []
            arguments = self._collect_arguments(stack, consumed)
            given = min(given, len(stack))
            if arguments is None:
                if top and not final:
                    return out, [item, *consumed]
                message = f'unterminated argument list invoking macro "{name}"'
                if top and self._end is not None:  # gcc: where the text ended
                    self.sink.error(self._end, message, included_from=self.included_from())
                else:
                    self._error(token, message)
                out.append(item)
                out.extend(consumed)
                continue
            args, commas, closing_hide = arguments
            checked = self._check_argument_count(macro, consumed[-1][0], args, commas)
            if checked is None:
                out.append(item)
                continue
            args, va_absent = checked
            new_hide = (hide & closing_hide) | {name}
            replacement = self._substitute(macro, token, args, new_hide, in_if, va_absent)
            _push_rescanned(replacement, stack, out)
        return out, []

    def _collect_arguments(
        self, stack: list[_Item], consumed: list[_Item]
    ) -> tuple[list[list[_Item]], list[_Item], frozenset[str]] | None:
        """Pop ``( args )`` off the stack; None if the input ends first (consumed keeps what was taken)."""
        consumed.append(stack.pop())  # the '('
        args: list[list[_Item]] = [[]]
        commas: list[_Item] = []  # the separators, kept for the variable arguments
        depth = 1
        while stack:
            item = stack.pop()
            consumed.append(item)
            token = item[0]
            if token.kind == "punct":
                text = token.text
                if text == "(":
                    depth += 1
                elif text == ")":
                    depth -= 1
                    if depth == 0:
                        return args, commas, item[1]
                elif text == "," and depth == 1:
                    commas.append(item)
                    args.append([])
                    continue
            args[-1].append(item)
        return None  # the input ended first; everything taken is in ``consumed``

    def _check_argument_count(self, macro: Macro, closing: Token, args: list[list[_Item]],
                              commas: list[_Item]) -> tuple[list[list[_Item]], bool] | None:
        """The arguments, one list per parameter, and whether the variable ones were left out
        (GNU: ``F(a)`` for ``F(a, ...)``, or ``F()`` for ``F(...)``), or None after an error
        (at the invocation's ``closing`` parenthesis, as gcc says it)."""
        params = macro.params or ()
        name = macro.name

        def error(message: str) -> None:
            defined = f'{macro.coord.file}:{macro.coord.line}: note: macro "{name}" defined here'
            self._error(closing, message, (defined,))

        if macro.variadic:
            named = len(params) - 1
            if len(args) > named + 1:
                # The variable part keeps its commas.
                rest: list[_Item] = []
                for index, arg in enumerate(args[named:]):
                    if index:
                        rest.append(commas[named + index - 1])
                    rest.extend(arg)
                args = args[:named] + [rest]
            absent = named == 0 and not args[0]
            if len(args) == named and named > 0:
                args = args + [[]]  # GNU: the variable arguments may be left out entirely
                absent = True
            if len(args) < len(params):
                error(f'macro "{name}" requires {len(params)} arguments, but only {len(args)} given')
                return None
            return args, absent
        if not params:
            if len(args) == 1 and not args[0]:
                return [], False
            error(f'macro "{name}" passed {len(args)} argument{_s(len(args))}, but takes just 0')
            return None
        if len(args) < len(params):
            error(f'macro "{name}" requires {len(params)} argument{_s(len(params))}, but only {len(args)} given')
            return None
        if len(args) > len(params):
            error(f'macro "{name}" passed {len(args)} arguments, but takes just {len(params)}')
            return None
        return args, False

    # ---- substitution, # and ## (6.10.3.1 - 6.10.3.3) -----------------------------------------

    def _plain(self, macro: Macro) -> tuple[tuple[Token, int], ...] | None:
        """``macro``'s replacement list as (token, index of the parameter it names, else -1),
        where it has no ``#``, ``##`` or ``__VA_OPT__`` (most: ``F(a, b) ((a) + (b))``); None
        for the rest.  Worked out once a definition: substituting went through a dozen tests
        per token of the list for each invocation (a megabyte of ``F(1,2)+``: 150,000)."""
        kept = self._plain_lists.get(id(macro))
        if kept is not None and kept[0] is macro:
            return kept[1]
        params = {p: i for i, p in enumerate(macro.params)} if macro.params else {}
        special = ("##", "%:%:", "#", "%:", "__VA_OPT__") if macro.params is not None else ("##", "%:%:")
        plain = None if any(tok.text in special for tok in macro.body) else tuple(
            (tok, params.get(tok.text, -1) if tok.kind == "identifier" else -1) for tok in macro.body)
        self._plain_lists[id(macro)] = (macro, plain)
        return plain

    def _substitute(self, macro: Macro, site: Token, args: list[list[_Item]] | None,
                    hide: frozenset[str], in_if: bool, va_absent: bool = False) -> list[_Item]:
        frames = site.expansion + (ExpansionFrame(macro.name, site.coord),)
        body = macro.body
        self._spend(len(body), site)
        plain = self._plain(macro)
        if plain is not None:
            return self._substitute_plain(plain, site, args, hide, in_if, frames)
        params = {p: i for i, p in enumerate(macro.params)} if macro.params else {}
        expanded_cache: dict[int, list[_Item]] = {}
        va_index = len(params) - 1 if macro.variadic else -1
        seq: list = []  # tokens (as items), _PLACEMARKER, or _PASTE markers
        skip_paren_at = -1  # the ')' closing a __VA_OPT__( ... ) being kept
        count = len(body)
        i = 0
        while i < count:
            tok = body[i]
            text = tok.text
            kind = tok.kind
            if i == skip_paren_at:
                i += 1
                continue
            if (kind == "punct" and text in ("#", "%:") and args is not None and i + 1 < count
                    and body[i + 1].text in params):
                arg = args[params[body[i + 1].text]]
                seq.append((self._stringify(arg, tok, frames), _EMPTY))
                i += 2
                continue
            if kind == "punct" and text in ("##", "%:%:"):
                nxt = body[i + 1]
                if (args is not None and va_index >= 0 and nxt.text == macro.params[va_index]  # type: ignore[index]
                        and seq and seq[-1] is not _PLACEMARKER and seq[-1] is not _PASTE and seq[-1][0].text == ","):
                    # GNU ", ## __VA_ARGS__": drop the comma when the variable arguments were
                    # left out (an empty one given explicitly keeps it, as GCC does).
                    va = args[va_index]
                    if va_absent:
                        seq.pop()
                    else:
                        seq.extend(va)
                    i += 2
                    continue
                seq.append(_PASTE)
                i += 1
                continue
            if args is not None and kind == "identifier":
                if text == "__VA_OPT__" and va_index >= 0 and i + 1 < count and body[i + 1].text == "(":
                    close = _matching_paren(body, i + 1)
                    if self._has_variable_arguments(args[va_index], in_if):
                        skip_paren_at = close
                        i += 2
                    else:
                        seq.append(_PLACEMARKER)
                        i = close + 1
                    continue
                index = params.get(text)
                if index is not None:
                    arg = args[index]
                    next_is_paste = i + 1 < count and body[i + 1].text in ("##", "%:%:")
                    if next_is_paste or (seq and seq[-1] is _PASTE):
                        if arg:
                            seq.extend(arg)
                        else:
                            seq.append(_PLACEMARKER)
                    else:
                        expanded = expanded_cache.get(index)
                        if expanded is None:
                            expanded = self._expand_argument(arg, site, in_if)
                            expanded_cache[index] = expanded
                        if expanded:
                            first_token, first_hide = expanded[0]
                            if first_token.space_before != tok.space_before:
                                first_token = _respaced(first_token, tok.space_before)
                            seq.append((first_token, first_hide))
                            seq.extend(expanded[1:])
                        else:
                            seq.append(_PLACEMARKER)
                    i += 1
                    continue
            seq.append((_make_token(kind, text, tok.file, tok.line, tok.col, frames, tok.space_before), _EMPTY))
            i += 1
        result = self._paste_all(seq, site) if _PASTE in seq else [x for x in seq if x is not _PLACEMARKER]
        if result:
            first, first_hide = result[0]
            if first.space_before != site.space_before:
                result[0] = (_respaced(first, site.space_before), first_hide)
        self._spend(len(result), site)
        return [(token, item_hide | hide) if item_hide else (token, hide) for token, item_hide in result]

    def _substitute_plain(self, plain: tuple[tuple[Token, int], ...], site: Token, args: list[list[_Item]] | None,
                          hide: frozenset[str], in_if: bool, frames: tuple[ExpansionFrame, ...]) -> list[_Item]:
        """:meth:`_substitute` of a replacement list without ``#``, ``##`` or ``__VA_OPT__``
        (see :meth:`_plain`): each parameter's argument fully expanded, once; the same result."""
        out: list[_Item] = []
        expanded_of: dict[int, list[_Item]] = {}
        for tok, index in plain:
            if index < 0 or args is None:
                out.append((_make_token(tok.kind, tok.text, tok.file, tok.line, tok.col, frames, tok.space_before),
                            hide))
                continue
            expanded = expanded_of.get(index)
            if expanded is None:
                expanded = expanded_of[index] = self._expand_argument(args[index], site, in_if)
            if not expanded:
                continue  # a placemarker: nothing to paste it to
            first_token, first_hide = expanded[0]
            if first_token.space_before != tok.space_before:
                first_token = _respaced(first_token, tok.space_before)
            out.append((first_token, first_hide | hide if first_hide else hide))
            out.extend([(token, item_hide | hide) if item_hide else (token, hide) for token, item_hide in expanded[1:]])
        if out and out[0][0].space_before != site.space_before:
            out[0] = (_respaced(out[0][0], site.space_before), out[0][1])
        self._spend(len(out), site)
        return out

    def _paste_all(self, seq: list, site: Token) -> list[_Item]:
        out: list = []
        j = 0
        while j < len(seq):
            element = seq[j]
            if element is _PASTE and out and j + 1 < len(seq):
                left = out.pop()
                right = seq[j + 1]
                j += 2
                if right is _PASTE:  # "a ## ## b": the second ## is an operand
                    continue
                if left is _PLACEMARKER:
                    out.append(right)
                elif right is _PLACEMARKER:
                    out.append(left)
                else:
                    out.extend(self._paste(left, right, site))
                continue
            if element is not _PASTE:
                out.append(element)
            j += 1
        return [x for x in out if x is not _PLACEMARKER]

    def _paste(self, left: _Item, right: _Item, site: Token) -> list[_Item]:
        lt, rt = left[0], right[0]
        text = lt.text + rt.text
        pieces = tokenize(text, lt.file)
        hide = left[1] | right[1]
        if len(pieces) == 1 and pieces[0].text == text:
            return [(Token(pieces[0].kind, text, lt.file, lt.line, lt.col, lt.expansion, lt.space_before), hide)]
        self._error(site, f'pasting "{lt.text}" and "{rt.text}" does not give a valid preprocessing token')
        return [left, right]

    def _stringify(self, arg: list[_Item], hash_token: Token, frames: tuple[ExpansionFrame, ...]) -> Token:
        parts: list[str] = []
        for index, (token, _hide) in enumerate(arg):
            if index and token.space_before:
                parts.append(" ")
            text = token.text
            if token.kind in ("string", "char") or (token.kind == "other" and text[:1] in "'\""):
                text = text.replace("\\", "\\\\").replace('"', '\\"')
            parts.append(text)
        spelled = "".join(parts)
        if (len(spelled) - len(spelled.rstrip("\\"))) % 2:  # an argument ending in a lone backslash
            last = arg[-1][0]
            self.sink.warning(last.expansion[0].site if last.expansion else last.coord,
                              "invalid string literal, ignoring final '\\'", included_from=self.included_from())
            spelled = spelled[:-1]  # as gcc does: the string would not end
        return Token("string", '"' + spelled + '"', hash_token.file, hash_token.line, hash_token.col, frames,
                     hash_token.space_before)

    def _expand_argument(self, arg: list[_Item], site: Token, in_if: bool) -> list[_Item]:
        if not arg:
            return []
        for token, _ in arg:
            if token.kind == "identifier":
                break
        else:  # no name to expand (F(1, 2)): the rescan would give it back as it is
            return list(arg)
        self._depth += 1
        if self._depth > MAX_NESTING:
            self._error(site, f"macro arguments nested more than {MAX_NESTING} levels deep")
            raise ExpansionAborted
        try:
            expanded, _ = self._rescan(arg, top=False, final=True, in_if=in_if)
        finally:
            self._depth -= 1
        return expanded

    def _has_variable_arguments(self, arg: list[_Item], in_if: bool) -> bool:
        return bool(arg) and bool(self._rescan(arg, top=False, final=True, in_if=in_if)[0])

    def _spend(self, count: int, site: Token) -> None:
        self._budget += count
        self._left -= count
        if self._budget > MAX_EXPANSION_TOKENS or self._left < 0:
            outermost = site.expansion[0].macro if site.expansion else site.text
            root = Token.at(site.kind, site.text, site.expansion[0].site) if site.expansion else site
            if self._budget > MAX_EXPANSION_TOKENS:
                self._error(root, f'expansion of macro "{outermost}" exceeds {MAX_EXPANSION_TOKENS} tokens')
            else:
                self._error(root, f"the macros of this line expand to more than {MAX_EXPANSION_TOKENS} tokens and "
                                  f"{TOKENS_PER_WRITTEN} for each token written (pegbind's limit)")
            raise ExpansionAborted

    # ---- operators of #if: defined, __has_include, __has_attribute ... --------------------------

    def _if_operator(self, token: Token, stack: list[_Item]) -> Token:
        name = token.text
        if name == "defined":
            parenthesized = bool(stack) and stack[-1][0].text == "("
            if parenthesized:
                stack.pop()
            if not stack or stack[-1][0].kind != "identifier":
                self._error(token, 'operator "defined" requires an identifier')
                raise ExpansionAborted
            target = stack.pop()[0].text
            if parenthesized:
                if not stack or stack[-1][0].text != ")":
                    self._error(token, 'missing \')\' after "defined"')
                    raise ExpansionAborted
                stack.pop()
            value = int(target in self.table.definitions or target in self.hooks.builtin_names)
            return replace(token, kind="number", text=str(value))
        if not stack or stack[-1][0].text != "(":
            self._error(token, f'missing \'(\' after "{name}"')
            raise ExpansionAborted
        stack.pop()
        inner: list[Token] = []
        depth = 1
        while stack:
            item = stack.pop()[0]
            if item.text == "(":
                depth += 1
            elif item.text == ")":
                depth -= 1
                if depth == 0:
                    break
            inner.append(item)
        else:
            self._error(token, f'missing \')\' after "{name}" operand')
            raise ExpansionAborted
        value = self.hooks.has_operator(name, inner, token)
        return replace(token, kind="number", text=str(value))

    def _pragma_operator(self, token: Token, stack: list[_Item], position: int) -> bool:
        """``_Pragma ( string-literal )`` (6.10.9): hand the destringized text to the driver.

        As in gcc, the operand is macro-expanded first: ``_Pragma(STR(x))``, which a
        macro such as ``DO_PRAGMA(x)`` leaves behind, is a pragma too.
        """
        if not stack:
            return False  # the operand may follow in what is read next
        if stack[-1][0].text != "(":
            self._error(stack[-1][0], "_Pragma takes a parenthesized string literal")
            return True
        depth, close = 0, None
        for at in range(len(stack) - 1, -1, -1):  # the next token is stack[-1]
            text = stack[at][0].text
            depth += (text == "(") - (text == ")")
            if depth == 0:
                close = at
                break
        if close is None:  # the operand runs past what has been read
            return False
        operand = stack[close + 1 : -1][::-1]
        if not (len(operand) == 1 and operand[0][0].kind == "string"):
            operand = self._expand_argument(operand, token, in_if=False)
        closing = stack[close][0]
        del stack[close:]
        if len(operand) != 1 or operand[0][0].kind != "string":
            # gcc reads "(", a string literal, ")", and says so at the first token that is not the one
            wrong = (closing if not operand else operand[0][0] if operand[0][0].kind != "string"
                     else operand[1][0])
            self._error(wrong, "_Pragma takes a parenthesized string literal")
            return True
        literal = operand[0][0]
        body = literal.text[literal.text.index('"') + 1 : -1]
        self.hooks.pragma(body.replace('\\"', '"').replace("\\\\", "\\"), token, position)
        return True

    def _error(self, token: Token, message: str, notes: tuple[str, ...] = ()) -> None:
        site = token.expansion[0].site if token.expansion else token.coord
        note = token.origin_note()
        self.sink.error(site, message + note, included_from=self.included_from(), notes=notes)


def _matching_paren(body: Sequence[Token], open_at: int) -> int:
    depth = 0
    for index in range(open_at, len(body)):
        if body[index].text == "(":
            depth += 1
        elif body[index].text == ")":
            depth -= 1
            if depth == 0:
                return index
    return len(body) - 1


def _push_rescanned(replacement: list[_Item], stack: list[_Item], out: list[_Item]) -> None:
    """Put a replacement list where the rescan (6.10.3.4) reads next: its tokens up to the first
    identifier straight into ``out``, as the rescan would put them (nothing else can start an
    expansion), the rest onto the ``stack``, first on top."""
    first = 0
    for token, _ in replacement:
        if token.kind == "identifier":
            break
        first += 1
    if first:
        out.extend(replacement[:first] if first < len(replacement) else replacement)
    stack.extend(reversed(replacement[first:]) if first else reversed(replacement))


def _respaced(token: Token, space_before: bool) -> Token:
    return _make_token(token.kind, token.text, token.file, token.line, token.col, token.expansion, space_before)


#: a Token, made without the call of its class (see pegbind.frozen.maker): one per token of every expansion
_make_token = maker(Token)


def _s(count: int) -> str:
    return "" if count == 1 else "s"


def validate_body(params: tuple[str, ...] | None, variadic: bool, body: Iterable[Token]) -> tuple[Token, str] | None:
    """Constraint checks of a #define (6.10.3p5, 6.10.3.2p1, 6.10.3.3p1): (token, message) or None."""
    tokens = list(body)
    if tokens and tokens[0].text in ("##", "%:%:"):
        return tokens[0], "'##' cannot appear at either end of a macro expansion"
    if tokens and tokens[-1].text in ("##", "%:%:"):
        return tokens[-1], "'##' cannot appear at either end of a macro expansion"
    names = set(params or ())
    opened: Token | None = None  #: the __VA_OPT__ whose parentheses the token is in
    depth = 0
    for index, token in enumerate(tokens):
        if token.kind == "identifier" and token.text == "__VA_ARGS__" and not (variadic and "__VA_ARGS__" in names):
            return token, "__VA_ARGS__ can only appear in the expansion of a C99 variadic macro"
        if params is not None and token.text in ("#", "%:") and token.kind == "punct":
            following = tokens[index + 1] if index + 1 < len(tokens) else None
            if following is None or (following.text not in names and following.text != "__VA_OPT__"):
                return token, "'#' is not followed by a macro parameter"
        if variadic and token.kind == "identifier" and token.text == "__VA_OPT__":
            # __VA_OPT__ ( tokens with balanced parentheses ), not nested (C23 6.10.5.1p3)
            if opened is not None:
                return token, "__VA_OPT__ may not appear in a __VA_OPT__"
            if index + 1 == len(tokens) or tokens[index + 1].text != "(":
                return token, "unterminated __VA_OPT__"
            opened, depth = token, 0
        elif opened is not None and token.kind == "punct" and token.text in ("(", ")"):
            depth += 1 if token.text == "(" else -1
            if depth == 0:
                opened = None
    if opened is not None:
        return opened, "unterminated __VA_OPT__"
    return None
