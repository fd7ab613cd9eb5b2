"""The parse layer: preprocessed tokens -> the frozen :class:`pegbind.model.Module`.

In: a :class:`~pegbind.preprocess.engine.PreprocessResult` (expanded tokens,
macro table, comments, ``#pragma pack`` regions) and the target.  Out: a
``Module`` with every function, record, enum, typedef, variable and typed
constant, plus diagnostics for whatever could not be bound (each with its
reason and ``file:line:col`` in the original header).

Phases, in order: :mod:`.split` (cut at top-level ``;``) -> :mod:`.walker`
(``grammars/declarations.ppeg`` -> syntax nodes) -> :mod:`.builder` (syntax
-> model, constant expressions through :mod:`.constants`) -> object-like
macros evaluated as constants (:func:`macro_constants`).
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ..diagnostics import Diagnostic
from ..model import Constant, FunctionAlias, Module, TypedefRef
from ..patterns import compiled
from ..preprocess.engine import DYNAMIC_MACROS
from ..preprocess.token import Token
from ..target import TargetInfo
from .builder import CommentLookup, ModuleBuilder
from .constants import NotConstant, Value, char_constant, number
from .split import Piece, split_declarations
from .walker import SyntaxProblem, parse_syntax

if TYPE_CHECKING:  # the preprocessor is only needed for its result's shape
    from ..preprocess.engine import PreprocessResult

__all__ = ["parse_declarations", "parse_tokens", "evaluate_constant", "Value"]


def _read_declarations(
    tokens: Sequence[Token],
    target: TargetInfo,
    comments: CommentLookup | None = None,
    pack_changes: Sequence[tuple[int, int | None]] = (),
    is_library: Callable[[str], bool] | None = None,
) -> ModuleBuilder:
    builder = ModuleBuilder(target, comments=comments, pack_changes=pack_changes)
    for piece in split_declarations(tokens):
        if is_library is not None and not is_library(_written_in(piece.tokens[0])) and not _may_declare_a_type(piece):
            continue
        builder.add_piece(piece)
    return builder


def _written_in(token: Token) -> str:
    """The file whose text ``token`` stands in: where the outermost macro that made it was used
    (``GLAPI`` opening GLU's prototypes in glu.h is defined in gl.h), else where it is written."""
    return token.expansion[0].site.file if token.expansion else token.file


_TYPE_WORDS = frozenset({"typedef", "struct", "union", "enum"})


def _may_declare_a_type(piece: Piece) -> bool:
    """Whether ``piece`` could declare a type (or is broken, which is reported wherever it is).

    Outside the library's own headers only types are of use: a binding takes
    the C library's fd_set or size_t where its functions need them, never its
    functions or variables.  A piece with none of these words declares none
    (glibc's thousand prototypes, the compiler's intrinsics with their bodies),
    so it is not parsed at all.
    """
    if piece.kind == "definition":
        return False  # a function body's types are its own
    return piece.kind != "declaration" or any(t.text in _TYPE_WORDS for t in piece.tokens)


def parse_tokens(
    tokens: Sequence[Token],
    target: TargetInfo,
    *,
    comments: CommentLookup | None = None,
    pack_changes: Sequence[tuple[int, int | None]] = (),
) -> Module:
    """Declarations only (no macro constants): for tests and callers without a macro table."""
    return _read_declarations(tokens, target, comments, pack_changes).module()


def parse_declarations(pp: PreprocessResult, target: TargetInfo) -> Module:
    """The whole parse step: declarations, docs, pack regions, then the library's macros as constants."""
    builder = _read_declarations(pp.tokens, target, pp.comments, pp.pack_changes,
                                 lambda file: pp.origin(file) == "user")
    macro_constants(pp, builder)
    return builder.module(
        frozenset(f for f in pp.files if pp.origin(f) == "user"),
        frozenset(name for name, macro in pp.macros.definitions.items() if not macro.function_like),
        frozenset(name for name, macro in pp.macros.definitions.items() if macro.function_like),
    )


def _spelling(tokens: Sequence[Token]) -> str:
    return "".join((" " if i and t.space_before else "") + t.text for i, t in enumerate(tokens))


def _single_literal(tokens: Sequence[Token]) -> Token | None:
    """The one number or character constant of a body such as ``0x10UL`` or ``((5))``."""
    start, end = 0, len(tokens)
    while end - start >= 3 and tokens[start].text == "(" and tokens[end - 1].text == ")":
        start, end = start + 1, end - 1
    if end - start == 1 and tokens[start].kind in ("number", "char"):
        return tokens[start]
    return None


def _evaluate(tokens: Sequence[Token], builder: ModuleBuilder) -> Value | str:
    if not tokens:
        return "its body is empty"
    # Most constants of real headers are one literal (PKCS#11 has over a thousand):
    # typing it directly gives the same Value as the grammar, without a parse.
    literal = _single_literal(tokens)
    if literal is not None:
        try:
            if literal.kind == "number":
                return number(literal.text, builder.target)
            return char_constant(literal.text, builder.target)
        except NotConstant:
            pass  # the grammar path words the reason with its location
    node = parse_syntax(_values_unparenthesized(tokens, builder), "macro_expression")
    if isinstance(node, SyntaxProblem) and node.beyond_limit:
        return node.message
    if isinstance(node, SyntaxProblem):
        text = _spelling(tokens)
        return f"expands to '{text if len(text) <= 60 else text[:57] + '...'}'"
    try:
        return builder.evaluator.value(node)
    except NotConstant as problem:
        return problem.reason


def _values_unparenthesized(tokens: Sequence[Token], builder: ModuleBuilder) -> Sequence[Token]:
    """``tokens`` with the parentheses dropped around each name that is a value, not a type.

    The grammar cannot tell ``(T) & x`` (a cast of ``&x``) from ``(NAME) & x`` (an
    AND), which C tells apart by whether NAME is a type: gcc reads
    ``((MODE_A) & 1)`` with an enumerator MODE_A as an AND.  A parenthesized name
    is the name itself, so without its parentheses there is nothing to mistake.
    Parentheses after a name or a closing bracket are a call's, and stay
    (``sizeof (NAME)`` is ``sizeof NAME``).
    """
    scope = builder.evaluator.scope

    def is_value(name: str) -> bool:
        return scope.value_of(name) is not None and isinstance(scope.resolve(TypedefRef(name)), TypedefRef)

    def after_a_call_name(previous: Token | None) -> bool:
        if previous is None:
            return False
        return (previous.kind == "identifier" and previous.text != "sizeof") or previous.text in (")", "]")

    out: list[Token] = []
    i = 0
    while i < len(tokens):
        if (
            tokens[i].text == "(" and i + 2 < len(tokens) and tokens[i + 2].text == ")"
            and tokens[i + 1].kind == "identifier"
            and not after_a_call_name(out[-1] if out else None)
            and is_value(tokens[i + 1].text)
        ):
            out.append(tokens[i + 1])
            i += 3
            continue
        out.append(tokens[i])
        i += 1
    return out


def macro_constants(pp: Any, builder: ModuleBuilder) -> None:
    """Every object-like macro of the library, in definition order, as a Constant or a note saying why not."""

    def the_librarys(macro: Any) -> bool:
        # whose a file is, as the preprocessor decided once it had read everything
        return macro.origin not in ("builtin", "command-line") and pp.origin(macro.coord.file) == "user"

    for macro in pp.macros.definitions.values():
        if macro.function_like and the_librarys(macro):
            named = _forwarded_to(pp, macro, builder)
            if named is not None:  # OpenSSL's #define EVP_MD_CTX_create() EVP_MD_CTX_new()
                doc = builder.comments.doc_before(macro.coord) if builder.comments else ""
                builder.function_aliases[macro.name] = FunctionAlias(macro.name, named, macro.coord, doc)
                continue
            builder.diagnostics.append(_note(macro, "it is a function-like macro"))
    for macro in pp.macros.object_like(origin=None):
        if not the_librarys(macro):
            continue
        dynamic = _dynamic_use(macro, pp.macros)
        if dynamic is not None:  # SDL's SDL_LINE is __LINE__ where it is used, not a constant
            builder.diagnostics.append(_note(macro,
                                             f"it expands to {dynamic}, whose value depends on where it is used"))
            continue
        if _names_nothing(macro.body):
            # nothing in it to expand: its name expands to its replacement list (PKCS#11's
            # thousand numbers), which names no function
            result = _evaluate(macro.body, builder)
        else:
            # the macro's name expanded, as C code naming it is: the macro itself is not expanded
            # again inside (ICU's ucol_open is U_ICU_ENTRY_POINT_RENAME(ucol_open), ucol_open_72)
            problems: list[Diagnostic] = []
            expanded = pp.expand([Token.at("identifier", macro.name, macro.coord)], problems)
            if problems:  # what C code naming it would stop at (_Pragma(1))
                builder.diagnostics.append(_note(macro, f"its expansion is in error: {problems[0].message}"))
                continue
            named = _named_function(expanded, builder)
            if named is not None and named != macro.name:
                doc = builder.comments.doc_before(macro.coord) if builder.comments else ""
                builder.function_aliases[macro.name] = FunctionAlias(macro.name, named, macro.coord, doc)
                continue
            result = _evaluate(expanded, builder)
        if isinstance(result, str):
            unknown = _UNKNOWN_NAME.match(result)
            named = pp.macros.get(unknown.group(1)) if unknown else None
            if named is not None and named.function_like:
                result = f"'{named.name}' is a function-like macro named without arguments"
            builder.diagnostics.append(_note(macro, result))
            continue
        doc = (builder.comments.doc_before(macro.coord) or builder.comments.doc_after(macro.coord)
               if builder.comments else "")
        builder.constants[macro.name] = Constant(
            macro.name, result.value if result.address is None else result.address, result.ctype,
            _spelling(macro.body), macro.coord, doc
        )


_UNKNOWN_NAME = compiled(r"'(\w+)' is not a constant\Z")


def _names_nothing(body: Sequence[Token]) -> bool:
    """Whether a replacement list holds no identifier (no macro, no ``_Pragma``, no
    ``__LINE__``) and no ``##``: what expanding its macro's name gives is the list itself."""
    return all(token.kind != "identifier" and token.text not in ("##", "%:%:") for token in body)


def _dynamic_use(macro: Any, table: Any) -> str | None:
    """The position-dependent macro (``__LINE__``, ``__FILE__`` ...) ``macro`` reaches through its
    replacement list and the macros it names, or None."""
    pending, seen = [macro], {macro.name}
    while pending:
        for token in pending.pop().body:
            if token.kind != "identifier":
                continue
            if token.text in DYNAMIC_MACROS:
                return token.text
            inner = table.get(token.text)
            if inner is not None and inner.name not in seen:
                seen.add(inner.name)
                pending.append(inner)
    return None


def _unparenthesized(tokens: Sequence[Token]) -> tuple[int, int]:
    """(start, end) of ``tokens`` without a first ``(`` and last ``)`` (``(f)``, ``(f(a))``), again
    while there are; the callers then check what is left is one name, or one call."""
    start, end = 0, len(tokens)
    while end - start >= 3 and tokens[start].text == "(" and tokens[end - 1].text == ")":
        start, end = start + 1, end - 1
    return start, end


def _named_function(tokens: Sequence[Token], builder: ModuleBuilder) -> str | None:
    """The function a macro body names, alone or in parentheses (``gzopen64``, ``(f)``), else None."""
    start, end = _unparenthesized(tokens)
    if end - start == 1 and tokens[start].kind == "identifier" and tokens[start].text in builder.functions:
        return tokens[start].text
    return None


def _forwarded_to(pp: Any, macro: Any, builder: ModuleBuilder) -> str | None:
    """The function a function-like macro calls with its own arguments, as they are and in their
    order (``#define EVP_MD_CTX_destroy(ctx) EVP_MD_CTX_free(ctx)``, the arguments parenthesized or
    not), expanded as a call of it is; None for any other macro (one that adds arguments or
    computes, as libevent's ``evtimer_new``)."""
    if macro.variadic or macro.name in builder.functions:
        return None
    site = macro.coord
    args = [Token.at("identifier", f"__pegbind_argument_{i}", site) for i in range(len(macro.params))]
    call = [Token.at("identifier", macro.name, site), Token.at("punct", "(", site)]
    for i, arg in enumerate(args):
        call += [Token.at("punct", ",", site), arg] if i else [arg]
    problems: list[Diagnostic] = []
    tokens = pp.expand([*call, Token.at("punct", ")", site)], problems)
    start, end = _unparenthesized(tokens)  # (f(a, b))
    if problems or end - start < 3 or tokens[start + 1].text != "(" or tokens[end - 1].text != ")":
        return None
    named = tokens[start].text
    function = builder.functions.get(named) if tokens[start].kind == "identifier" else None
    if function is None or function.variadic or len(function.params) != len(args):
        return None
    # what stands between the parentheses: the arguments, each alone or parenthesized, in order
    inside = [token.text for token in tokens[start + 2 : end - 1]]
    wanted: list[str] = []
    for i, arg in enumerate(args):
        wanted += ([","] if i else []) + [arg.text]
    plain = [text for text in inside if text not in ("(", ")")]
    parens_ok = all(inside[k] != "(" or (k + 2 < len(inside) and inside[k + 2] == ")") for k in range(len(inside)))
    return named if plain == wanted and parens_ok else None


def _note(macro: Any, reason: str) -> Diagnostic:
    return Diagnostic(macro.coord, f"macro {macro.name} is not a constant: {reason}", "note")


def evaluate_constant(tokens: Sequence[Token], module_so_far: Module, target: TargetInfo) -> Value | str:
    """The typed value of a constant expression written as ``tokens`` (already macro-expanded),
    with the enumerators, typedefs and records of ``module_so_far`` in scope; or why it is not one."""
    builder = ModuleBuilder(target)
    builder.records = {r.key: r for r in module_so_far.records}
    builder.typedefs = {t.name: t for t in module_so_far.typedefs}
    builder.enums = {e.key: e for e in module_so_far.enums}
    for enum in module_so_far.enums:
        for member in enum.members:
            builder.values[member.name] = _enumerator_value(member.value, builder)
    return _evaluate(tokens, builder)


def _enumerator_value(value: int, builder: ModuleBuilder) -> Value:
    from ..model import Primitive

    prim = next(p for p in ("int", "unsigned int", "long", "unsigned long", "long long", "unsigned long long")
                if builder.target.fits(value, p) or p == "unsigned long long")
    return Value(value, prim, Primitive(prim))

