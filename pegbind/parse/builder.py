"""Parse layer, step 2: syntax nodes -> the frozen model, declaration by declaration.

In: :class:`~pegbind.parse.split.Piece` values (parsed with
:func:`~pegbind.parse.walker.parse_syntax`), an optional comment index for
docs and the ``#pragma pack`` changes.  Out: :meth:`ModuleBuilder.module`, a
:class:`pegbind.model.Module` with every dropped declaration listed in its
diagnostics.

Registry order: a record or enum sits at the position where it was *first
mentioned* (forward declaration, use through a pointer, or definition); a
later definition fills in the fields without moving it, so one key maps to one
:class:`~pegbind.model.Record`.  Untagged records take the name of the first
plain typedef name declared with them (``typedef struct {...} A, *PA;`` ->
``"A"``), otherwise ``"struct <anonymous at FILE:LINE:COL>"``, and for one a macro
writes, where that macro was used too: each expansion is a type of its own.

``__builtin_va_list`` (and any other unknown identifier used as a type) stays
a :class:`~pegbind.model.TypedefRef` with no typedef behind it;
``Module.resolve`` returns such a reference unchanged.
"""
from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator, Sequence
from typing import Protocol

from ..diagnostics import Coord, Diagnostic, PegbindError, Severity
from ..model import (
    COMPLEX_PARTS,
    Array,
    Constant,
    CType,
    Enum,
    EnumMember,
    Field,
    Function,
    FunctionAlias,
    FunctionType,
    Module,
    Param,
    Pointer,
    Primitive,
    Record,
    RecordRef,
    Type,
    Typedef,
    TypedefRef,
    Variable,
    as_type,
    assert_never,
    canonical_type,
    new_function_type,
    new_param,
    new_pointer,
    new_primitive,
    new_typedef_ref,
    unnamed,
)
from ..preprocess.literals import split_literal
from ..preprocess.token import Token
from ..target import TargetInfo
from . import syntax as s
from .constants import Evaluator, NotConstant, Value, shared_primitive
from .split import Piece
from .walker import SyntaxProblem, parse_syntax

_VOID = Primitive("void")


class CommentLookup(Protocol):
    def doc_before(self, coord: Coord) -> str: ...

    def doc_after(self, coord: Coord) -> str: ...


class Dropped(Exception):
    """A declaration cannot go into the model; the message says why."""

    def __init__(self, message: str, token: Token | None, severity: Severity = "error"):
        super().__init__(message)
        self.message = message
        self.token = token
        self.severity = severity


#: sorted words of a basic type specifier (``signed`` and ``int`` folded) -> canonical name
_BASIC: dict[tuple[str, ...], str] = {}


def _register_basic() -> None:
    spellings = {
        "void": ["void"],
        "_Bool": ["_Bool"],
        "char": ["char"],
        "signed char": ["signed char"],
        "unsigned char": ["unsigned char"],
        "int": ["int", "signed", "signed int"],
        "unsigned int": ["unsigned", "unsigned int"],
        "long": ["long", "long int", "signed long", "signed long int"],
        "unsigned long": ["unsigned long", "unsigned long int"],
        "long long": ["long long", "long long int", "signed long long", "signed long long int", "__int64",
                      "signed __int64"],
        "unsigned long long": ["unsigned long long", "unsigned long long int", "unsigned __int64"],
        "__int128": ["__int128", "signed __int128"],
        "unsigned __int128": ["unsigned __int128"],
        "float": ["float"],
        "double": ["double"],
        "long double": ["long double"],
        "short": ["short", "short int", "signed short", "signed short int", "__int16", "signed __int16"],
        "unsigned short": ["unsigned short", "unsigned short int", "unsigned __int16"],
    }
    spellings["int"] += ["__int32", "signed __int32"]
    spellings["unsigned int"] += ["unsigned __int32"]
    spellings["signed char"] += ["__int8", "signed __int8"]
    spellings["unsigned char"] += ["unsigned __int8"]
    for name, forms in spellings.items():
        for form in forms:
            _BASIC[tuple(sorted(form.split()))] = name


_register_basic()
_SIGNED_SPELLINGS = {"__signed__": "signed", "__signed": "signed"}
_COMPLEX = ("_Complex", "__complex__")
_UNSUPPORTED = {
    "_Imaginary": "imaginary types",
    "_Float128": "_Float128", "_Float64x": "_Float64x", "_Float64": "_Float64", "_Float32x": "_Float32x",
    "_Float32": "_Float32", "_Float16": "_Float16", "__float128": "__float128", "__bf16": "__bf16",
    "_Decimal32": "decimal floating types", "_Decimal64": "decimal floating types",
    "_Decimal128": "decimal floating types",
}


#: the words of a basic type as written -> its canonical name, for the spellings met so far
_PRIMITIVE_NAMES: dict[tuple[str, ...], str] = {}


def primitive_name(words: Sequence[Token]) -> str:
    """The canonical name of a basic type written as ``words`` (``long unsigned int`` -> ``unsigned long``)."""
    written = tuple([word.text for word in words])
    name = _PRIMITIVE_NAMES.get(written)
    if name is None:
        name = _PRIMITIVE_NAMES[written] = _primitive_name(words)  # what it refuses raises, and is not kept
    return name


def _primitive_name(words: Sequence[Token]) -> str:
    spelled = [_SIGNED_SPELLINGS.get(w.text, w.text) for w in words]
    for word, token in zip(spelled, words, strict=True):
        if word in _UNSUPPORTED:
            plural = _UNSUPPORTED[word].endswith("types")
            raise Dropped(f"unsupported type: {_UNSUPPORTED[word]} {'have' if plural else 'has'} no binding", token,
                          "warning")
    complex_words = [token for word, token in zip(spelled, words, strict=True) if word in _COMPLEX]
    if complex_words:
        if len(complex_words) > 1:
            raise Dropped("duplicate '_Complex'", complex_words[1])
        real = [word for word in spelled if word not in _COMPLEX]
        name = _BASIC.get(tuple(sorted(real))) if real else "double"  # GCC: a bare _Complex is double's
        if f"{name} _Complex" in COMPLEX_PARTS:
            return f"{name} _Complex"
        if name is None:
            raise Dropped(f"invalid combination of type specifiers '{' '.join(w.text for w in words)}'", words[0])
        raise Dropped("unsupported type: complex integer types (a GNU extension) have no binding",
                      complex_words[0], "warning")
    name = _BASIC.get(tuple(sorted(spelled)))
    if name is None:
        raise Dropped(f"invalid combination of type specifiers '{' '.join(w.text for w in words)}'", words[0])
    return name


class ModuleBuilder:
    """Accumulates declarations in source order; also the evaluator's :class:`~.constants.Scope`."""

    def __init__(
        self,
        target: TargetInfo,
        *,
        comments: CommentLookup | None = None,
        pack_changes: Sequence[tuple[int, int | None]] = (),
    ):
        self.target = target
        self.comments = comments
        self._pack_at = [index for index, _ in pack_changes]
        self._pack_value = [value for _, value in pack_changes]
        self.records: dict[str, Record] = {}
        self.enums: dict[str, Enum] = {}
        self.typedefs: dict[str, Typedef] = {}
        self.functions: dict[str, Function] = {}
        self.variables: dict[str, Variable] = {}
        #: the functions the headers declare or define static, by name (see :meth:`definition`)
        self.static_definitions: dict[str, Token] = {}
        self.constants: dict[str, Constant] = {}
        self.function_aliases: dict[str, FunctionAlias] = {}
        self.values: dict[str, Value] = {}
        #: every enumerator declared so far (each may be declared once)
        self.enumerators: set[str] = set()
        self.diagnostics: list[Diagnostic] = []
        self._piece: Piece | None = None

    @property
    def evaluator(self) -> Evaluator:
        """An evaluator of constant expressions in this scope (made on use: it keeps no state,
        and kept here it would make the builder and it a reference cycle)."""
        return Evaluator(self)

    # -- results ---------------------------------------------------------------
    def module(self, library_files: frozenset[str] | None = None, macro_names: frozenset[str] = frozenset(),
               call_macro_names: frozenset[str] = frozenset()) -> Module:
        left_out = [token for name, token in self.static_definitions.items() if name not in self.functions]
        if left_out:  # often a family of helpers (jansson's json_decref, json_object_set ...): one warning
            count = f"{len(left_out)} function{'s' if len(left_out) > 1 else ''}"
            self.report(f"{count} the headers declare static {'are' if len(left_out) > 1 else 'is'} not bound "
                        f"(a static function has no symbol in any library): "
                        f"{', '.join(token.text for token in left_out)}", left_out[0], "warning")
            self.static_definitions = {}
        return Module(
            self.target.name,
            functions=tuple(self.functions.values()),
            records=tuple(self.records.values()),
            enums=tuple(self.enums.values()),
            typedefs=tuple(self.typedefs.values()),
            constants=tuple(self.constants.values()),
            variables=tuple(self.variables.values()),
            function_aliases=tuple(self.function_aliases.values()),
            diagnostics=tuple(self.diagnostics),
            library_files=library_files,
            macro_names=macro_names,
            call_macro_names=call_macro_names,
        )

    def report(self, message: str, token: Token | None, severity: Severity = "error") -> None:
        coord = token.coord if token is not None else None
        note = token.origin_note() if token is not None else ""
        self.diagnostics.append(Diagnostic(coord, message + note, severity))

    def doc(self, first: Token | None, last: Token | None = None) -> str:
        if self.comments is None:
            return ""
        text = self.comments.doc_before(first.coord) if first is not None else ""
        if not text and last is not None:
            text = self.comments.doc_after(last.coord)
        return text

    # -- Scope for the evaluator -------------------------------------------------
    def value_of(self, name: str) -> Value | None:
        return self.values.get(name)

    def type_of(self, type_name: s.TypeName) -> CType:
        try:
            base = self.base_type(type_name.specifiers, None)
            if type_name.declarator is None:
                return base
            return self.apply(type_name.declarator, base)[1]
        except Dropped as problem:
            raise NotConstant(problem.message, problem.token) from None

    def resolve(self, ctype: CType) -> Type:
        seen: set[str] = set()
        quals: tuple[str, ...] = ()
        resolved = as_type(ctype)
        while isinstance(resolved, TypedefRef) and resolved.name not in seen:
            seen.add(resolved.name)
            found = self.typedefs.get(resolved.name)
            if found is None:
                break
            quals += resolved.quals
            resolved = as_type(found.type)
        return resolved.with_quals(*quals) if quals else resolved

    def enum_primitive(self, key: str) -> str:
        from ..target import enum_type

        enum = self.enums.get(key)
        return "int" if enum is None or not enum.members else enum_type(self.module(), enum, self.target)

    def size_align(self, ctype: CType, token: Token) -> tuple[int, int]:
        resolved = self.resolve(ctype)
        match resolved:
            case Primitive():
                if resolved.name not in self.target.sizes:
                    raise NotConstant(f"'{resolved.name}' does not exist on {self.target.name}", token)
                return self.target.sizes[resolved.name]
            case Pointer():
                return self.target.sizes["pointer"]
            case Array():
                if resolved.length is None:
                    raise NotConstant(f"sizeof of the incomplete array type '{ctype.to_c()}'", token)
                size, align = self.size_align(resolved.element, token)
                return size * resolved.length, align
            case RecordRef():
                if resolved.kind == "enum":
                    return self.target.sizes["int"]
                record = self.records.get(resolved.key)
                if record is None or record.fields is None:
                    raise NotConstant(f"sizeof of the incomplete type '{ctype.to_c()}'", token)
                return self._record_layout(resolved, token)
            case FunctionType():
                raise NotConstant("sizeof applied to a function type", token)
            case TypedefRef():
                raise NotConstant(f"the size of '{ctype.to_c()}' is unknown (no typedef of that name)", token)
            case _:
                assert_never(resolved)

    def _record_layout(self, ctype: CType, token: Token) -> tuple[int, int]:
        from ..target import size_align

        try:
            return size_align(self.module(), ctype, self.target)
        except PegbindError as problem:  # layout reports its own problems; here they only explain
            raise NotConstant(f"no layout for '{ctype.to_c()}': {problem}", token) from None

    def offset_of(self, ctype: CType, member: str, token: Token) -> int:
        from ..target import record_layout

        resolved = self.resolve(ctype)
        if not isinstance(resolved, RecordRef) or resolved.kind == "enum":
            raise NotConstant(f"offsetof applied to '{ctype.to_c()}', which is not a struct or union", token)
        try:
            layout = record_layout(self.module(), resolved.key, self.target)
        except PegbindError as problem:
            raise NotConstant(f"no layout for '{ctype.to_c()}': {problem}", token) from None
        for name, placed in layout.flat_fields(nested=True):
            if name == member:
                return placed.offset
        raise NotConstant(f"'{ctype.to_c()}' has no member '{member}'", token)

    def int_value(self, expr: s.Expr, what: str) -> int:
        try:
            return self.evaluator.int_value(expr)
        except NotConstant as problem:
            raise Dropped(f"{what} is not an integer constant: {problem.reason}", problem.token) from None

    # -- pieces ----------------------------------------------------------------
    def add_piece(self, piece: Piece) -> None:
        """Parse one piece of the stream and add what it declares."""
        self._piece = piece
        tokens = piece.tokens
        if piece.kind == "unbalanced":
            self.report("unexpected '}' (no '{' is open)", tokens[0])
            return
        if piece.kind == "unterminated":
            self.report("expected ';' at end of input", tokens[-1])
            return
        if piece.kind == "definition":
            # Parse the head as a declaration, to name what is skipped.
            brace = next(i for i, t in enumerate(tokens) if t.text == "{")
            semi = Token.at("punct", ";", tokens[brace].coord)
            tokens = (*tokens[:brace], semi)
        result = parse_syntax(tokens)
        if isinstance(result, SyntaxProblem):
            token = result.token if result.token is not None else tokens[-1]
            self.report(result.message, token)
            return
        try:
            if isinstance(result, s.StaticAssert):
                self.static_assert(result)
            elif piece.kind == "definition":
                self.definition(result)
            else:
                self.declaration(result)
        except Dropped as problem:
            message = problem.message
            names = [d.declarator.name_token.text for d in getattr(result, "declarators", ())
                     if d.declarator.name_token is not None]
            if problem.severity == "warning" and names:
                # which declaration goes: many a macro makes share the place they were written at
                # (FFTW's FFTW_DEFINE_API(..., __float128, ...): 36 of them)
                message = f"{', '.join(names)} {'are' if len(names) > 1 else 'is'} left out: {message}"
            self.report(message, problem.token or tokens[0], problem.severity)

    def static_assert(self, node: s.StaticAssert) -> None:
        try:
            holds = self.evaluator.int_value(node.condition)
        except NotConstant as problem:
            self.report(f"static assertion not checked: {problem.reason}", node.token, "note")
            return
        if not holds:
            message = "static assertion failed"
            if node.message is not None:  # as gcc shows it: the pieces joined, between one pair of quotes
                pieces = [split_literal(token.text) for token in node.message.tokens]
                prefix = next((prefix for prefix, _ in pieces if prefix), "")
                message += f': {prefix}"{"".join(body for _, body in pieces)}"'
            self.report(message, node.token, "warning")

    def definition(self, node: s.Declaration) -> None:
        """A function a header defines: its head declares it, unless it is ``static``.

        A ``static`` definition (``static inline``) has internal linkage: no library
        exports it, and a binding that loads the library cannot call it, so it is left
        out, with one warning naming all of those (:meth:`module`).  Any other
        (``extern inline``, gnu_inline's out-of-line copy, C99 ``inline``) is declared as
        a prototype would declare it; whether the library exports its symbol is then
        checked as for any function.
        """
        if "static" not in node.specifiers.storage:
            self.declaration(node)
            return
        name = node.declarators[0].declarator.name_token if node.declarators else None
        if name is None:
            self.report("expected a name in this declarator", node.specifiers.first)
        else:
            self.static_definitions.setdefault(name.text, name)

    def declaration(self, node: s.Declaration) -> None:
        # BNF: declaration = decl_specifiers init_declarator_list? ';'
        specs = node.specifiers
        typedef = "typedef" in specs.storage
        base = self.base_type(specs, self._naming_declarator(node) if typedef else None, node.last)
        for init in node.declarators:
            name_token, ctype = self.apply(init.declarator, base)
            if name_token is None:
                raise Dropped("expected a name in this declarator", specs.first)
            ctype = self.type_attributes(ctype, (*specs.attributes, *init.attributes))
            name = name_token.text
            doc = self.doc(specs.first, node.last)
            if typedef:
                _, aligned = self._layout_attributes((*specs.attributes, *init.attributes))
                self.add_typedef(Typedef(name, ctype, name_token.coord, doc, aligned), name_token)
                continue
            resolved = self.resolve(ctype)
            if isinstance(resolved, FunctionType) and ("static" in specs.storage or name in self.static_definitions):
                # internal linkage (see definition()), and so for a later declaration with no
                # storage class, or extern, while a static one is visible (C11 6.2.2p4-5):
                # msgpack's static int msgpack_pack_int(...); then inline int msgpack_pack_int(...) {...}
                self.static_definitions.setdefault(name, name_token)
                continue
            if isinstance(resolved, FunctionType):
                previous = self.functions.get(name)
                if previous is not None and not self._compatible(previous.type, resolved):
                    # C11 6.7p4: all declarations of a function shall specify compatible types; the
                    # first is kept, as the model keeps one
                    self.report(f"conflicting types for '{name}': '{unnamed(resolved).to_c()}' after "
                                f"'{unnamed(previous.type).to_c()}' at {previous.coord}", name_token)
                if name not in self.functions:
                    labels = [a.label for a in init.attributes if a.kind == "asm"]
                    self.functions[name] = Function(
                        name, resolved.ret, resolved.params, resolved.variadic, name_token.coord, doc,
                        self._nonnull((*specs.attributes, *init.attributes), resolved.params, init.declarator),
                        labels[-1] if labels and labels[-1] != name else None,
                    )
                continue
            if "static" in specs.storage:
                self.report(f"skipped the static variable '{name}': it has no external linkage", name_token, "note")
                continue
            if name not in self.variables:
                self.variables[name] = Variable(name, ctype, name_token.coord, doc)

    def _compatible(self, first: CType, second: CType) -> bool:
        """Whether two types are compatible (C11 6.2.7), as far as the model tells: typedefs
        resolved, qualifiers in any order, an array of no length matching any, an enum any
        integer type (its compatible type is one of them), a parameter as the function has it
        (6.7.6.3p7-8, its own qualifiers aside), and a function declared with no parameters
        any function of the same return type (the model cannot tell ``f()`` from ``f(void)``)."""
        return self._alike(canonical_type(first, self.resolve), canonical_type(second, self.resolve))

    def _alike(self, a: CType, b: CType) -> bool:
        if a == b:
            return True
        if set(getattr(a, "quals", ())) != set(getattr(b, "quals", ())):
            return False
        match as_type(a), as_type(b):
            case Pointer(target=x), Pointer(target=y):
                return self._alike(x, y)
            case Array(element=x, length=m), Array(element=y, length=n):
                return (m is None or n is None or m == n) and self._alike(x, y)
            case FunctionType() as f, FunctionType() as g:
                if not self._alike(_unqualified(f.ret), _unqualified(g.ret)):
                    return False
                if not (f.params or f.variadic) or not (g.params or g.variadic):
                    return True
                return (f.variadic == g.variadic and len(f.params) == len(g.params)
                        and all(self._alike(_unqualified(_adjusted(p.type)), _unqualified(_adjusted(q.type)))
                                for p, q in zip(f.params, g.params, strict=True)))
            case Primitive(name=x), Primitive(name=y):
                return x == y
            case RecordRef(kind="enum"), Primitive() as other:
                return _is_integer(other)
            case Primitive() as other, RecordRef(kind="enum"):
                return _is_integer(other)
        return False

    def canonical(self, ctype: CType) -> CType:
        """``ctype`` with the typedefs of every level resolved and parameter names dropped."""
        return canonical_type(ctype, self.resolve)

    def add_typedef(self, typedef: Typedef, token: Token) -> None:
        previous = self.typedefs.get(typedef.name)
        if previous is None:
            self.typedefs[typedef.name] = typedef
        elif previous.type != typedef.type and self.canonical(previous.type) != self.canonical(typedef.type):
            # C11 6.7p3: a typedef may be declared again to denote the same type,
            # however spelled (glibc's va_list is __gnuc_va_list, MinGW's size_t its own)
            self.report(
                f"conflicting types for typedef '{typedef.name}': '{typedef.type.to_c()}' "
                f"after '{previous.type.to_c()}' at {previous.coord}", token,
            )

    @staticmethod
    def _naming_declarator(node: s.Declaration) -> str | None:
        """The typedef name that names an untagged record declared with it."""
        for init in node.declarators:
            d = init.declarator
            if d.name is not None and not d.pointers and not d.suffixes:
                return d.name.text
        return None

    # -- types -----------------------------------------------------------------
    def base_type(self, specs: s.Specifiers, typedef_key: str | None, last: Token | None = None) -> CType:
        """The type named by declaration specifiers (C11 6.7.2), qualifiers included."""
        quals = tuple(dict.fromkeys(specs.quals))
        base: CType
        if specs.record is not None:
            base = self.record_type(specs.record, typedef_key, specs.first, last)
        elif specs.enum is not None:
            base = self.enum_type(specs.enum, typedef_key, specs.first, last)
        elif specs.typeof is not None:
            raise Dropped("unsupported type: __typeof__ is not supported", specs.typeof, "warning")
        elif specs.typedef_name is not None:
            if specs.basic:
                raise Dropped(
                    f"'{specs.basic[0].text}' cannot be combined with the type name '{specs.typedef_name.text}'",
                    specs.basic[0],
                )
            return new_typedef_ref(specs.typedef_name.text, quals)  # made with its qualifiers
        else:
            return new_primitive(primitive_name(specs.basic), quals)
        if specs.basic:
            raise Dropped(f"'{specs.basic[0].text}' cannot be combined with a struct, union or enum", specs.basic[0])
        return base.with_quals(*quals) if quals else base

    def apply(self, declarator: s.Declarator, base: CType, *, in_parameter: bool = False,
              unsized: bool = False) -> tuple[Token | None, CType]:
        """The declared name and type: pointers bind first, then suffixes, then the inner declarator (C11 6.7.6).

        ``in_parameter``: a parameter may be a variable length array (``double m[rows][cols]``,
        C11 6.7.6.2); a length that is not a constant is then recorded as unknown.
        ``unsized``: ``base`` is an array written with no length (an outer declarator's ``[]``).
        """
        ctype = base
        unsized = unsized and not declarator.pointers
        for quals in declarator.pointers:
            ctype = new_pointer(ctype, quals)
        for suffix in reversed(declarator.suffixes):
            self._check_derivation(declarator, suffix, self.resolve(ctype), unsized)
            unsized = isinstance(suffix, s.ArraySuffix) and suffix.length is None
            if isinstance(suffix, s.ArraySuffix):
                length = None
                if suffix.length is not None and in_parameter and not self.evaluator.is_constant(suffix.length):
                    length = None
                elif suffix.length is not None:
                    length = self.int_value(suffix.length, "the array length")
                    if length < 0:
                        raise Dropped(f"the array length {length} is negative", suffix.token)
                ctype = Array(ctype, length)
            else:
                ctype = new_function_type(ctype, self.parameters(suffix), suffix.variadic)
        if declarator.inner is not None:
            return self.apply(declarator.inner, ctype, in_parameter=in_parameter, unsized=unsized)
        return declarator.name, ctype

    @staticmethod
    def _check_derivation(declarator: s.Declarator, suffix: s.ArraySuffix | s.ParamsSuffix, inner: CType,
                          unsized: bool) -> None:
        """The constraints on what an array or function type is made of (C11 6.7.6.2p1,
        6.7.6.3p1), in gcc's words: no function returns an array or a function, no array
        holds functions or arrays written with no length (``unsized``: ``inner`` is one)."""
        named = declarator
        while named.name is None and named.inner is not None:
            named = named.inner
        if named.name is None:
            return  # a declaration's declarator with no name is an error of its own; a type name's is let be
        what, where = f"'{named.name.text}'", named.name
        if isinstance(suffix, s.ParamsSuffix):
            if isinstance(inner, (Array, FunctionType)):
                made = "an array" if isinstance(inner, Array) else "a function"
                raise Dropped(f"{what} declared as function returning {made}", where)
        elif isinstance(inner, FunctionType):
            raise Dropped(f"declaration of {what} as array of functions", where)
        elif unsized:
            raise Dropped(f"array type has incomplete element type '{inner.to_c()}'", where)

    def parameters(self, suffix: s.ParamsSuffix) -> tuple[Param, ...]:
        params: list[Param] = []
        names: set[str] = set()
        for param in suffix.params:
            base = self.base_type(param.specifiers, None)
            if param.declarator is None:
                name, ctype = None, base
            else:
                name, ctype = self.apply(param.declarator, base, in_parameter=True)
            if name is not None and name.text in names:
                raise Dropped(f"redefinition of parameter '{name.text}'", name)  # C11 6.7p3, as gcc says it
            if name is not None:
                names.add(name.text)
            if name is None and ctype == _VOID and len(suffix.params) > 1:
                raise Dropped("'void' must be the only parameter", param.specifiers.first)  # C11 6.7.6.3p10
            length_from = _length_from(param.declarator, params) if isinstance(ctype, Array) else None
            params.append(new_param(name.text if name else None, ctype, (name or param.specifiers.first).coord,
                                    length_from))
        # `f(void)`: one unnamed parameter of type void means no parameters (C11 6.7.6.3p10)
        if len(params) == 1 and params[0].name is None and params[0].type == _VOID:
            return ()
        return tuple(params)

    def _nonnull(self, attributes: Sequence[s.Attribute], params: Sequence[Param],
                 declarator: s.Declarator | None = None) -> tuple[int, ...]:
        """``__attribute__((nonnull(N, ...)))`` as sorted 1-based numbers; bare ``nonnull``: every pointer.
        With the function's ``declarator``, its parameters declared ``T p[static N]`` too: C passes
        them at least N elements (C11 6.7.6.3p7), as systemd's ``sd_id128_to_string(id, s[static 33])``."""
        found: set[int] = set(_static_arrays(declarator)) if declarator is not None else set()
        for attribute in attributes:
            if attribute.kind != "nonnull":
                continue
            if attribute.indices:
                found.update(i for i in attribute.indices if 1 <= i <= len(params))
            else:
                found.update(i + 1 for i, p in enumerate(params) if isinstance(self.resolve(p.type), (Pointer, Array)))
        return tuple(sorted(found))

    def type_attributes(self, ctype: CType, attributes: Sequence[s.Attribute]) -> CType:
        """``ctype`` as ``mode`` makes it; a ``vector_size`` type is dropped (no binding has vectors)."""
        for attribute in attributes:
            if attribute.kind == "vector_size":
                raise Dropped("unsupported type: vector types (vector_size) have no binding", attribute.token,
                              "warning")
            if attribute.kind == "mode":
                ctype = self._with_mode(ctype, attribute)
        return ctype

    def _with_mode(self, ctype: CType, attribute: s.Attribute) -> CType:
        # GCC machine modes: the size in bytes of each integer and floating mode
        mode = attribute.mode
        integer_sizes = {"QI": 1, "HI": 2, "SI": 4, "DI": 8, "TI": 16, "byte": 1,
                         "word": self.target.pointer_size, "pointer": self.target.pointer_size}
        floating = {"SF": "float", "DF": "double", "XF": "long double"}
        complex_modes = {"SC": "float _Complex", "DC": "double _Complex", "XC": "long double _Complex"}
        resolved = self.resolve(ctype)
        if not isinstance(resolved, Primitive) or resolved.is_void:
            raise Dropped(f"mode({mode}) on the type '{ctype.to_c()}', which is not arithmetic", attribute.token)
        if mode in floating and resolved.is_floating:
            return Primitive(floating[mode], resolved.quals)
        if mode in complex_modes and resolved.is_complex:
            return Primitive(complex_modes[mode], resolved.quals)
        size = integer_sizes.get(mode)
        if size is None or resolved.is_floating or resolved.is_complex:
            raise Dropped(f"unsupported type: mode({mode}) has no binding", attribute.token, "warning")
        unsigned = resolved.is_unsigned or (resolved.name == "char" and not self.target.char_signed)
        candidates = ("char", "short", "int", "long", "long long", "__int128")
        for name in candidates:
            plain = "signed char" if name == "char" else name
            if self.target.size_of(plain) == size:
                return Primitive(("unsigned " + name) if unsigned else plain, resolved.quals)
        raise Dropped(f"mode({mode}): no {size}-byte integer type on {self.target.name}", attribute.token)

    def _layout_attributes(self, attributes: Sequence[s.Attribute]) -> tuple[bool, int | None]:
        packed = False
        aligned: int | None = None
        for attribute in attributes:
            if attribute.kind == "packed":
                packed = True
                continue
            if attribute.kind != "aligned":
                continue
            if attribute.value is None:
                value = 16  # bare `aligned`: the largest alignment the target ever needs
            elif isinstance(attribute.value, s.TypeName):
                value = self.size_align(self.type_of(attribute.value), attribute.token)[1]
            else:
                value = self.int_value(attribute.value, "the alignment")
            aligned = max(aligned or 0, value)
        return packed, aligned

    def _pack(self, token: Token | None) -> int | None:
        if token is None or self._piece is None or not self._pack_at:
            return None
        offset = next((i for i, t in enumerate(self._piece.tokens) if t is token), 0)
        position = bisect_right(self._pack_at, self._piece.start + offset) - 1
        return self._pack_value[position] if position >= 0 else None

    def record_type(self, spec: s.RecordSpec, typedef_key: str | None, first: Token, last: Token | None) -> RecordRef:
        # BNF: record_specifier = ('struct' | 'union') noise* (IDENTIFIER noise* record_body? | record_body)
        kind = spec.kind
        tag = spec.tag.text if spec.tag is not None else None
        where = spec.tag or spec.keyword
        if tag is not None:
            key = f"{kind} {tag}"
        else:
            key = typedef_key or _anonymous_key(kind, spec.keyword)
        ref = RecordRef(kind, tag, key)  # type: ignore[arg-type]
        existing = self.records.get(key)
        if spec.members is None:
            if existing is None:
                self.records[key] = Record(kind, tag, key, None, coord=where.coord, doc=self.doc(first))  # type: ignore[arg-type]
            return ref
        if existing is not None and existing.fields is not None:
            fields = self.fields(spec.members)
            if fields != existing.fields:
                raise Dropped(f"redefinition of '{key}' with different members (first at {existing.coord})", where)
            return ref
        if existing is None:
            # placeholder: keeps the position of the first mention, and lets members point back at it
            self.records[key] = Record(kind, tag, key, None, coord=where.coord)  # type: ignore[arg-type]
        fields = self.fields(spec.members)
        packed, aligned = self._layout_attributes(spec.attributes)
        self.records[key] = Record(
            kind, tag, key, fields, self._pack(spec.lbrace), packed, aligned,  # type: ignore[arg-type]
            coord=where.coord, doc=(existing.doc if existing is not None and existing.doc else "") or self.doc(first),
        )
        return ref

    def fields(self, members: Sequence[s.MemberDeclaration | s.StaticAssert]) -> tuple[Field, ...]:
        # BNF: member_declaration = decl_specifiers member_declarators? ';'
        fields: list[Field] = []
        names: dict[str, Coord | None] = {}  #: the members' names so far, an anonymous member's too
        for member in members:
            if isinstance(member, s.StaticAssert):
                self.static_assert(member)
                continue
            specs = member.specifiers
            base = self.base_type(specs, None)
            if not member.declarators:
                record = specs.record
                if record is not None and record.tag is None and record.members is not None:
                    # C11 6.7.2.1p13: an anonymous struct or union member
                    packed, aligned = self._layout_attributes(specs.attributes)
                    anonymous = Field(None, base, None, aligned, packed, record.keyword.coord,
                                      self.doc(specs.first, member.last))
                    inner = self._member_names([anonymous])
                    for inner_name, coord in inner.items():
                        if inner_name in names:  # said at the inner member, as gcc says it
                            at = Token.at("identifier", inner_name, coord) if coord is not None else record.keyword
                            raise Dropped(f"duplicate member '{inner_name}'", at)
                    names.update(inner)
                    fields.append(anonymous)
                continue
            for item in member.declarators:
                name: Token | None = None
                ctype = base
                if item.declarator is not None:
                    name, ctype = self.apply(item.declarator, base)
                ctype = self.type_attributes(ctype, (*specs.attributes, *item.attributes))
                width = None
                if item.bit_width is not None:
                    width = self.int_value(item.bit_width, "the bit-field width")
                    if width < 0 or (width == 0 and name is not None):
                        raise Dropped(f"invalid bit-field width {width}", (name or item.first))
                    limit = self._bit_limit(ctype)
                    if limit is not None and width > limit:
                        what = f"'{name.text}'" if name is not None else "the unnamed bit-field"
                        raise Dropped(f"width of {what} exceeds its type ({width} > {limit} bits)",
                                      (name or item.first))
                elif name is None:
                    raise Dropped("expected a member name", item.first)
                packed, aligned = self._layout_attributes((*specs.attributes, *item.attributes))
                if name is not None and name.text in names:
                    raise Dropped(f"duplicate member '{name.text}'", name)  # C11 6.7p3, as gcc says it
                if name is not None:
                    names[name.text] = name.coord
                fields.append(Field(
                    name.text if name else None, ctype, width, aligned, packed,
                    (name or item.first).coord,
                    self.doc(specs.first if item is member.declarators[0] else item.first, item.last),
                ))
        return tuple(fields)

    def _member_names(self, fields: Sequence[Field]) -> dict[str, Coord | None]:
        """The names of ``fields``, an anonymous struct's or union's among them (C11 6.7.2.1p13),
        and where each is declared."""
        names: dict[str, Coord | None] = {}
        for field in fields:
            if field.name is not None:
                names[field.name] = field.coord
                continue
            inner = self.resolve(field.type)
            record = self.records.get(inner.key) if isinstance(inner, RecordRef) else None
            if record is not None and record.fields:
                names.update(self._member_names(record.fields))
        return names

    def _bit_limit(self, ctype: CType) -> int | None:
        """How many bits a bit-field of ``ctype`` may have (C11 6.7.2.1p4), when known here."""
        seen: set[str] = set()
        while isinstance(ctype, TypedefRef) and ctype.name not in seen and ctype.name in self.typedefs:
            seen.add(ctype.name)
            ctype = self.typedefs[ctype.name].type
        if not isinstance(ctype, Primitive) or ctype.name not in self.target.sizes:
            return None
        return 1 if ctype.name == "_Bool" else 8 * self.target.size_of(ctype.name)

    def enum_type(self, spec: s.EnumSpec, typedef_key: str | None, first: Token, last: Token | None) -> RecordRef:
        # BNF: enum_specifier = 'enum' noise* (IDENTIFIER noise* enum_body? | enum_body)
        tag = spec.tag.text if spec.tag is not None else None
        where = spec.tag or spec.keyword
        key = f"enum {tag}" if tag is not None else (typedef_key or _anonymous_key("enum", spec.keyword))
        ref = RecordRef("enum", tag, key)
        existing = self.enums.get(key)
        if spec.members is None:
            if existing is None:
                self.enums[key] = Enum(tag, key, (), coord=where.coord, doc=self.doc(first))
            return ref
        if existing is not None and existing.members:
            return ref  # the same header read twice; enumerators are already known
        members: list[EnumMember] = []
        previous = -1
        int_low, int_high = self.target.int_range("int")
        for enumerator in spec.members:
            # BNF: enumerator = IDENTIFIER noise* ('=' constant_expression)?
            if enumerator.name.text in self.enumerators:  # C11 6.7p3, as gcc says it
                raise Dropped(f"redeclaration of enumerator '{enumerator.name.text}'", enumerator.name)
            self.enumerators.add(enumerator.name.text)
            if enumerator.value is not None:
                value = self.int_value(enumerator.value, f"the value of '{enumerator.name.text}'")
            else:
                value = previous + 1
            previous = value
            # C11 6.7.2.2p3: enumerators are ints; gcc widens the ones that do not fit
            prim = "int" if int_low <= value <= int_high else next(
                p for p in ("unsigned int", "long", "unsigned long", "long long", "unsigned long long")
                if self.target.fits(value, p) or p == "unsigned long long")
            self.values[enumerator.name.text] = Value(value, prim, shared_primitive(prim))
            members.append(EnumMember(enumerator.name.text, value, enumerator.name.coord,
                                      self.doc(enumerator.name, enumerator.last)))
        packed, _ = self._layout_attributes(spec.attributes)
        self.enums[key] = Enum(tag, key, tuple(members), packed, where.coord,
                               (existing.doc if existing is not None else "") or self.doc(first))
        return ref


def _unqualified(ctype: CType) -> CType:
    return as_type(ctype).unqualified()


def _is_integer(primitive: Primitive) -> bool:
    return not (primitive.is_void or primitive.is_floating or primitive.is_complex)


def _adjusted(ctype: CType) -> CType:
    """A parameter's type as the function has it: an array is a pointer to its element, a
    function a pointer to it (C11 6.7.6.3p7-8)."""
    if isinstance(ctype, Array):
        return Pointer(ctype.element)
    if isinstance(ctype, FunctionType):
        return Pointer(ctype)
    return ctype


def _length_from(declarator: s.Declarator | None, earlier: Sequence[Param]) -> str | None:
    """For an array parameter whose length names an earlier parameter, ``n`` or ``*n``
    (``const uint8_t buf[n]``, brotli's ``uint8_t encoded_buffer[*encoded_size]``): that
    spelling (see :attr:`Param.length_from`); None for any other length."""
    if declarator is None or declarator.pointers or declarator.inner is not None or not declarator.suffixes:
        return None
    outer = declarator.suffixes[0]
    if not isinstance(outer, s.ArraySuffix) or outer.length is None:
        return None
    length, star = outer.length, ""
    if isinstance(length, s.Unary) and length.op == "*":
        length, star = length.operand, "*"
    if not isinstance(length, s.Name):
        return None
    named = any(p.name == length.token.text for p in earlier)
    return star + length.token.text if named else None


def _anonymous_key(kind: str, keyword: Token) -> str:
    """The key of an untagged struct, union or enum: where its keyword is written, and for
    one a macro writes, where that macro was used.  Each expansion declares a type of its
    own (C11 6.7.2.3p5): libuv's UV_HANDLE_FIELDS puts a union in every handle record."""
    if keyword.expansion:
        frame = keyword.expansion[0]  # the outermost: the use in the header's own text
        return f"{kind} <anonymous at {keyword.coord} in {frame.macro} at {frame.site}>"
    return f"{kind} <anonymous at {keyword.coord}>"


def _static_arrays(declarator: s.Declarator) -> Iterator[int]:
    """The 1-based numbers of the parameters a function's declarator writes ``T p[static N]``."""
    while declarator.name is None and declarator.inner is not None:
        declarator = declarator.inner
    if not declarator.suffixes or not isinstance(declarator.suffixes[0], s.ParamsSuffix):
        return
    for number, param in enumerate(declarator.suffixes[0].params, 1):
        inner = param.declarator  # (its stars are the elements': char *names[static 2])
        if (inner is not None and inner.inner is None and inner.suffixes
                and isinstance(inner.suffixes[0], s.ArraySuffix) and inner.suffixes[0].static):
            yield number
