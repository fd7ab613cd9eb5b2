"""The binding model: what the passes hand to the emitters.

Input: built by :func:`pegbind.passes.run_passes` from a
:class:`~pegbind.model.Module` and a :class:`~pegbind.config.BindingConfig`.
Output: read by ``emit/`` (templates see these values, never the config).

The C declarations stay in :attr:`BindingModel.module` untouched; this layer
adds the Python side: the Python name of each declaration, how each
parameter, return value and record field crosses the language boundary (a
*kind*, backend-neutral, so cffi and ctypes read the same plan), the error
policy per function, how the library is reached (link time, ``dlopen``, or a
function table) and the dependency order of type declarations.

How a wrapper behaves, whatever the backend (DESIGN section 4):

* The Python caller passes :attr:`FunctionBinding.inputs`, positional-only,
  in C parameter order.
* Before the call each parameter gets its C value from its role
  (:class:`ParamBinding`); ``len`` parameters are filled from the array they
  measure, ``null`` ones are NULL/0.
* When :attr:`FunctionBinding.probe` is set the function is called twice: first
  with NULL for every ``out-bytes``/``out-array`` buffer and 0 in the length
  it points at (the C function stores the length it needs), then with buffers
  of that many elements; the results are cut to the length stored by the
  second call.  The error policy applies to both calls.
* The Python result is :attr:`FunctionBinding.results`: the C return value
  when :attr:`FunctionBinding.returns_value`, then ``out``/``inout``/
  ``out-bytes``/``out-array`` values in parameter order.  No value: ``None``;
  one value: that value; several: a tuple.

The ``plan-calls`` pass turns each function binding into the steps of its
wrapper (:class:`~pegbind.passes.callplan.CallPlan`), which every backend renders.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import field
from typing import TYPE_CHECKING, Any, Literal

from ..config import ErrorPolicy, ParamRole
from ..diagnostics import Diagnostic
from ..frozen import frozen_dataclass
from ..model import Constant, CType, Enum, Function, Module, Record, TypeNode
from ..target import TargetInfo

if TYPE_CHECKING:  # the call plan refers to these bindings; they refer to it only by annotation
    from .callplan import CallPlan

#: How a value crosses the boundary:
#:
#: * ``int`` / ``bool`` / ``float`` — arithmetic values (enums are ``int`` going in);
#: * ``complex`` — a C99 complex type: Python ``complex`` (an ``int``, a ``float`` or
#:   anything with ``__complex__`` going in);
#: * ``enum`` — an enum value coming out (a return, an ``out`` cell): the member of its
#:   ``IntEnum`` class, or a plain ``int`` for a value that is no member;
#: * ``cstring`` — ``const char *`` in: ``str`` (UTF-8), ``bytes`` or any buffer
#:   (copied with a terminating NUL unless it is ``bytes``), ``None`` for NULL;
#: * ``buffer`` — other ``const`` data pointers: any readable buffer or ``None``
#:   (also the elements of an ``in-array`` of bytes, whatever the constness);
#: * ``writable_buffer`` — non-``const`` data pointers: a writable buffer or ``None``;
#:   both buffer kinds also take a :class:`Pointer` object of their type (any object
#:   pointer, record or handle for ``void *``);
#: * ``record_ptr`` — pointer to a struct/union: an instance of its class or ``None``
#:   going in; coming out, a view of the library's memory (``None`` for NULL);
#: * ``record`` — a struct/union by value: an instance of its class;
#: * ``handle`` — pointer to an opaque type (an incomplete struct or union, or a
#:   ``typedef void X``): an instance of its handle class (:class:`HandleBinding`)
#:   or ``None`` for NULL; a ``void *`` ``Pointer`` is taken too, as C converts it;
#: * ``pointer`` — any other object pointer (``void *`` coming out, ``int **``):
#:   a ``Pointer`` object typed by its C type (:attr:`ParamBinding.pointer_type`),
#:   ``None`` for NULL; going in, one of that type or of ``void *``;
#: * ``string`` — returned ``char *`` (or a ``char **`` out cell): ``bytes`` (``None`` for NULL);
#: * ``bytes`` — the result of an ``out-bytes`` parameter;
#: * ``null`` — a ``null``-role parameter: not seen from Python, always NULL/0;
#: * ``void`` — no value (returns only).
ValueKind = Literal[
    "int", "bool", "float", "complex", "enum", "cstring", "buffer", "writable_buffer", "record_ptr", "record", "handle",
    "pointer", "string", "bytes", "null", "void", "callback", "function_pointer",
]

#: the :attr:`ParamBinding.cell_tag` of a ``void *`` parameter: it takes a cell of any type
ANY_CELL = "*"
#: the first letter of the cell tag of a pointer to an enum: an integer cell of its size,
#: signed or not (``e4``)
ENUM_CELL = "e"

#: How a record field is presented (see :class:`FieldBinding`).
FieldKind = Literal[
    "int", "bool", "float", "complex", "enum", "char_array", "byte_array", "array", "record_array", "record", "string",
    "record_ptr", "data_pointer", "function_pointer", "handle", "array_pointer",
]

#: The kinds of ``in-array`` item that are pointers into what the caller's objects hold (a list
#: C reads: ``char *const argv[]``, libpng's rows): the wrapper keeps those objects for the call
#: and gives C their addresses, with a NULL after the last (handles are passed as they are).
LIST_KINDS = ("cstring", "writable_buffer", "record_ptr")

#: The roles whose value the Python caller passes.
INPUT_ROLES = ("in", "inout", "in-array")
#: The roles whose value is part of the Python result.
OUTPUT_ROLES = ("out", "inout", "out-bytes", "out-array")


@frozen_dataclass()
class ParamBinding:
    """One C parameter and how the Python caller supplies it.

    What ``kind`` and ``element`` describe depends on ``role.role``:

    ========== ========================================= =================================
    role       ``kind``                                  ``element``
    ========== ========================================= =================================
    in         the value passed (any :data:`ValueKind`)   pointed-to type of buffer kinds
    out        the pointed-to value: ``int``/``bool``/    the pointed-to type (the wrapper
    inout      ``float``/``enum``/``record``/``handle``;  allocates one of it)
               for ``T **``: ``handle``/``record_ptr``/
               ``pointer``/``string``
    in-array   each element: ``int``/``bool``/``float``/  the element type (the wrapper
               ``record``/``handle``; ``buffer`` for      allocates ``len(seq)`` of them);
               byte elements (any readable buffer, or     for ``buffer``: None when ``void``
               a sequence of ints when not ``void``)      (buffers only)
    out-array  each element: ``int``/``bool``/``float``/  the element type
               ``record``/``handle``
    out-bytes  ``bytes``                                  the element type (1 byte for void)
    len        ``int``                                    pointed-to type if ``by_pointer``
    null       ``null``                                   None
    ========== ========================================= =================================
    """

    index: int  #: position in the C parameter list
    c_name: str | None  #: the name in the header (None when unnamed)
    py_name: str  #: the Python parameter name (keywords renamed, ``argN`` when unnamed)
    ctype: CType  #: the declared C type
    role: ParamRole  #: ``in`` unless a config rule says otherwise
    kind: ValueKind
    #: registry key of the record for ``record``/``record_ptr`` kinds, of the handle
    #: class for ``handle`` (:attr:`HandleBinding.key`), of the enum for ``enum``
    record_key: str | None = None
    #: see the table above
    element: CType | None = None
    #: ``None`` from Python raises TypeError (config ``nonnull`` or ``__attribute__((nonnull))``);
    #: only set on pointer parameters the caller passes
    nonnull: bool = False
    #: for ``in-array``/``out-array``/``out-bytes``: index of the ``len`` parameter (None: no length)
    length: int | None = None
    #: for ``len``: index of the parameter it measures
    length_of: int | None = None
    #: for ``len``: the other ``in-array`` parameters it counts as well (glShaderSource's
    #: ``count`` of ``string`` and ``length``): each must hold as many items as the first
    also_measures: tuple[int, ...] = ()
    #: for ``len``: the C parameter points at the length (in/out: the size probe);
    #: otherwise it is the length itself
    by_pointer: bool = False
    #: for a ``len`` of an ``out-bytes``/``out-array`` that is not a pointer: the
    #: caller passes the number of elements wanted (e.g. ``C_GenerateRandom(s, 32)``)
    is_input: bool = False
    #: 1-based position among the arguments the Python caller passes (0: not passed)
    position: int = 0
    #: for a parameter C declares as an array of N elements, directly or through a
    #: typedef (``uuid_t uu``, ``double m[4]``): N, the fewest a buffer for it must hold
    #: (or, for an ``in-array`` of records with no length parameter, the fewest items)
    array_length: int | None = None
    #: a buffer C is told the size of (a ``len`` parameter measures it, or a length the
    #: header states bounds it): an empty one is as good as any (``crc32(crc, b"", 0)``)
    counted: bool = False
    #: the type C passes when it is not ``ctype``: an array parameter adjusted to a
    #: pointer to its element, qualifiers kept (``const uuid_t`` -> ``const unsigned char *``),
    #: a function parameter to a pointer to the function
    adjusted: CType | None = None
    #: for ``pointer`` kinds (of the value itself, or of an ``out`` cell's value), and the
    #: data pointers a ``Pointer`` object may be passed for (``buffer`` kinds, ``cstring``):
    #: the pointer type as C spells it with every typedef resolved (``"char **"``), which
    #: tells ``Pointer`` objects of different types apart ("" for a buffer a ``len``
    #: parameter is measured from: that takes only what has a length)
    pointer_type: str = ""
    #: a ``const`` pointer to a character type (``const char *``, ``const xmlChar *``):
    #: a ``str`` is passed as its UTF-8 bytes
    text: bool = False
    #: for a pointer to one arithmetic value (``uLongf *destLen``): the cell classes
    #: (:class:`CellBinding`) whose object C may read and write through it, the one
    #: of the pointee's own type first; empty when no cell is taken
    cells: tuple[str, ...] = ()
    #: the :attr:`CellBinding.tag` of :attr:`cells`; :data:`ANY_CELL` for a ``void *``
    cell_tag: str = ""
    #: for an integer (or a pointer to one) that states the length of pointers: the
    #: pointer just before it, by name (``crc32(crc, buf, len)``, see
    #: :func:`pegbind.passes.plan.length_unit`), or the array parameters declared with it
    #: (``size_t n, const double x[n], double y[n]``): their indices; the call refuses
    #: a length one of those buffers does not hold
    bounds: tuple[int, ...] = ()
    #: what :attr:`bounds` counts: ``bytes``, or ``items`` of the pointer's element type
    bound_unit: Literal["bytes", "items", ""] = ""
    #: for such a length of untyped memory: the index of the integer right after it that
    #: multiplies it, a size in bytes and a count of items of that size in either order
    #: (fread's ``ptr, size, nmemb``, qsort's ``base, nmemb, size``): the call refuses a
    #: product the buffer does not hold
    bound_factor: int | None = None
    #: for an ``out`` parameter: the :class:`Deallocator` name of what C writes to it
    #: (config ``owned(F)``): the Python object frees it once (see :class:`Deallocator`)
    owner: str | None = None
    #: for a ``callback``: what C passes the Python callable and takes back from it
    callback: CallbackBinding | None = None
    #: for an ``out`` ``string``: the parameter (its index) of the integer cell right after it
    #: that C writes its length to (TurboJPEG's ``unsigned char **jpegBuf, unsigned long
    #: *jpegSize``): it reads as that many bytes, NULs and all (see ReturnBinding.length_param)
    length_param: int | None = None

    @property
    def c_type(self) -> CType:
        """The parameter's type as C passes it (:attr:`adjusted`, else :attr:`ctype`)."""
        return self.adjusted if self.adjusted is not None else self.ctype

    @property
    def takes_empty(self) -> bool:
        """Whether an empty buffer is as good as any for it: C is told its size (:attr:`counted`),
        or reads it as characters to their NUL (:attr:`text`: ``b""`` and ``""`` end with one,
        fontconfig's ``FcNameParse(b"")``); not an array parameter, of N items."""
        return self.array_length is None and (self.counted or self.text)

    @property
    def passed(self) -> bool:
        """Whether the Python caller passes this parameter."""
        return self.role.role in INPUT_ROLES or self.is_input

    @property
    def label(self) -> str:
        """How error messages name it: ``argument 2 (pData)``, counted as the caller counts."""
        if self.position:
            return f"argument {self.position} ({self.py_name})"
        return f"C parameter {self.index + 1} ({self.py_name})"


@frozen_dataclass()
class CallbackValue:
    """One argument of a callback, or its result: how it crosses between C and the Python callable.

    An argument reaches the callable as a return value of that type would
    (``kind`` as :attr:`ReturnBinding.kind`: a number, an enum member, a record
    view, a handle, ``bytes`` for characters, a typed ``Pointer``); the
    callable's result goes back to C as an argument of that type would, with
    the same checks (``int``/``bool``/``float``/``enum``, or ``void``; a ``handle`` or
    ``pointer`` result is C's own memory: a handle or Pointer the library handed out, or None).
    """

    ctype: CType
    kind: ValueKind
    record_key: str | None = None  #: as :attr:`ParamBinding.record_key`
    pointer_type: str = ""  #: for ``pointer`` and ``handle``: as :attr:`ParamBinding.pointer_type`
    #: for an ``int``/``enum`` result: the range C can hold (a value outside is an error)
    int_range: tuple[int, int] | None = None
    #: for a ``pointer`` argument: the callback's integer arguments whose product is how much
    #: it points to, by their names (a buffer and its size: libyaml's reader's ``buffer,
    #: size``; curl's ``ptr, size, nmemb``); the Pointer the callable gets reads and writes
    #: no element past it (none: not stated); for a ``string`` argument, how many bytes it
    #: reads as (yajl's ``numberVal, numberLen``), NULs and all, rather than up to a NUL
    counted_by: tuple[int, ...] = ()
    #: how many of that product make one element (its size for a count in bytes, else 1)
    per_element: int = 1


@frozen_dataclass()
class CallbackBinding:
    """A function pointer parameter, which takes a Python callable (or None, or a
    ``FunctionPointer`` of the same type): C calls the callable through a closure.

    The closure lives until the call returns, and after it, because C may keep
    the pointer to call it later (expat's handlers): with the first handle or
    record argument of the call (:attr:`keeper`), replaced when the same
    function sets the same parameter for it again; without one, for the life of
    the module, replaced the same way.  But one C did not call while the call
    ran is not released by the next: C may hold both (``lua_pushcclosure``,
    ``atexit``); see the runtime's ``_pb_retain``.
    """

    #: the function pointer type as C spells it with its typedefs resolved: what a
    #: ``FunctionPointer`` passed for it must be
    c_text: str
    args: tuple[CallbackValue, ...]
    ret: CallbackValue
    #: the index of the parameter whose object keeps the closure alive (None: the module)
    keeper: int | None = None
    #: what C gets from a callable that raised (config ``on_error(V)``; None: a zero)
    on_error: int | float | None = None
    #: the function's user-data pointer, as (its parameter index, the index of the callback's
    #: argument C passes it back in): ``sqlite3_exec(db, sql, callback, arg, errmsg)`` calls
    #: ``callback(arg, ...)``; a backend may pass its own context there to reach the callable
    #: without a closure, and give the callable what the caller passed (None: no such pair)
    user_data: tuple[int, int] | None = None

    @property
    def factory_key(self) -> str:
        """What tells closures apart: the C type, what they give C when the callable raises, and
        the sizes the arguments are bounded by (one type may be written with names that state
        them and without)."""
        key = self.c_text if self.on_error is None else f"{self.c_text} on_error({self.on_error!r})"
        bounds = [(i, a.counted_by, a.per_element) for i, a in enumerate(self.args) if a.counted_by]
        return f"{key} bounded {bounds}" if bounds else key

    @property
    def failed(self) -> str:
        """What a closure returns to C when its callable raised, as a Python literal."""
        kind = self.ret.kind
        if kind in ("void", "handle", "pointer"):
            return "None"  # no result, or NULL
        if kind == "bool":
            return repr(bool(self.on_error))
        if kind == "float":
            return repr(float(self.on_error or 0))
        return repr(int(self.on_error or 0))


@frozen_dataclass()
class CallbackClass:
    """A function pointer typedef a parameter is declared with (``curl_write_callback``): a class
    whose instances are C function pointers made from Python callables, made once and passed
    where C takes that type as often as needed (a ``FunctionPointer`` subclass)."""

    py_name: str
    callback: CallbackBinding
    #: its pointers' C type: the typedef's name, or ``name *`` for a typedef of a function
    #: type (Z3's ``Z3_error_handler``), whose parameters C adjusts to pointers
    c_pointer: str


@frozen_dataclass()
class ReturnBinding:
    """How a wrapper gives back what C returns."""

    ctype: CType
    #: ``int``/``bool``/``float``/``enum``/``record``/``record_ptr``/``handle``/``pointer``/``string``/``void``
    kind: ValueKind
    record_key: str | None = None  #: as :attr:`ParamBinding.record_key`
    pointer_type: str = ""  #: as :attr:`ParamBinding.pointer_type`
    owner: str | None = None  #: as :attr:`ParamBinding.owner`, for the result (config ``returns``)
    #: for a ``string`` result: the parameter (its index) of an integer cell C writes its length
    #: to (``lua_tolstring``'s ``size_t *len``, ``leveldb_get``'s ``size_t *vallen``): it reads as
    #: that many bytes, NULs and all, where the call was given a cell there (else to its NUL)
    length_param: int | None = None


@frozen_dataclass()
class ErrorCheck:
    """The error policy as it applies to one function: raise unless ``ret == success``."""

    policy: ErrorPolicy
    success: int  #: the success value, resolved from a constant name when needed


@frozen_dataclass()
class FunctionBinding:
    """A wrapped function: the C declaration plus its Python face."""

    function: Function
    py_name: str
    params: tuple[ParamBinding, ...]
    ret: ReturnBinding
    error: ErrorCheck | None = None
    release_gil: bool = False
    #: with :attr:`release_gil`: released only for a call whose :attr:`data` holds at least this
    #: many bytes (0: for every call)
    release_gil_min_bytes: int = 0
    #: dynamic loading with a function table: the C member of the table struct
    #: this function is called through (None: resolved by its symbol name, or
    #: linked at build time)
    table_field: str | None = None
    #: the steps of its wrapper, set by the ``plan-calls`` pass
    call: CallPlan | None = None
    #: it is the deallocator of an ownership rule: an object that owns what it is
    #: given as first argument stops owning it (the call freed it)
    disowns: bool = False
    #: C declares it with ``...``: the name of the wrapper's ``*args``, the extra
    #: arguments after the inputs (:class:`~pegbind.passes.callplan.PassVarargs`); None otherwise
    varargs: str | None = None
    #: a rule for it says whether it releases the GIL.  Otherwise a call that keeps the GIL
    #: releases it all the same once the module has given C a callable: C may call that from a
    #: thread of its own while this call waits for the thread (libuv's ``uv_run`` and its pool)
    release_gil_ruled: bool = False

    @property
    def variadic(self) -> bool:
        return self.varargs is not None

    @property
    def inputs(self) -> tuple[ParamBinding, ...]:
        """The parameters the Python caller passes, in order."""
        return tuple(p for p in self.params if p.passed)

    @property
    def data(self) -> tuple[ParamBinding, ...]:
        """The data a call is given, whose size is known: ``in-array`` arguments and the buffers a
        ``len`` parameter measures (what ``release_gil = { min_bytes = N }`` counts)."""
        return tuple(p for p in self.params if p.role.role == "in-array" or (
            p.role.role == "in" and p.kind in ("buffer", "writable_buffer") and p.length is not None))

    @property
    def outputs(self) -> tuple[ParamBinding, ...]:
        """The parameters whose values follow the return value in the result, in order."""
        return tuple(p for p in self.params if p.role.role in OUTPUT_ROLES)

    @property
    def returns_value(self) -> bool:
        """Whether the C return value is part of the result (not void, not consumed by the error policy)."""
        return self.ret.kind != "void" and self.error is None

    @property
    def result_count(self) -> int:
        """How many values the Python result holds (0: None, 1: the value, more: a tuple)."""
        return int(self.returns_value) + len(self.outputs)

    def callback_key(self, p: ParamBinding) -> str:
        """What a callable passed for ``p`` is kept under: the slot this function sets, which
        only the same function's same parameter replaces (one string, whose hash is kept),
        together with the values of :meth:`callback_selectors` where it has any."""
        return f"{self.function.name} {p.index}"

    def callback_selectors(self, p: ParamBinding) -> tuple[ParamBinding, ...]:
        """The inputs whose values name the slot a callable passed for ``p`` is kept in, beside
        the parameter: the integers and strings of the call.  C may keep one callable for each
        of their values (sqlite3_create_function's name and arity, Tcl_CreateObjCommand's name,
        signal()'s number): another registration must not release one C still holds.  Only
        the same values given again replace it."""
        return tuple(q for q in self.inputs if q is not p and q.role.role == "in"
                     and q.kind in ("int", "bool", "enum", "cstring"))

    @property
    def probe(self) -> bool:
        """Whether the two-call size probe applies (an out buffer whose length is a pointer, and
        whose size the config does not bound with ``at_most``)."""
        return any(
            p.role.role in ("out-bytes", "out-array") and p.length is not None and self.params[p.length].by_pointer
            and p.role.at_most is None
            for p in self.params
        )


@frozen_dataclass()
class FieldBinding:
    """A record member visible from Python, read and assigned by its ``kind``.

    ``path`` is the C member name; members of anonymous struct/union members
    are lifted into their parent (C11 6.7.2.1p13 lets C name them directly).
    A member whose type is an anonymous struct or union is a ``record`` like
    any other: its type has a class of its own (:class:`AnonymousType`).

    ========================= ========================================= ========================================
    kind                      reads as                                  takes
    ========================= ========================================= ========================================
    ``int``/``bool``/``float`` the number                               a number (ints range-checked)
    ``enum``                  the member of its ``IntEnum`` class (an   an int, range-checked
                              ``int`` for a value that is none)
    ``char_array``            ``bytes`` up to the first NUL             a buffer of at most ``length`` bytes
    ``byte_array``            all ``length`` bytes                      a buffer of at most ``length`` bytes
    ``array``                 a list of numbers                         a sequence of at most ``length``
    ``record``                a view of the member's memory             an instance of its class (copied in)
    ``record_array``          a list of views                           a sequence of instances (copied in)
    ``string`` (pointer to    ``bytes`` up to the NUL, never past the   ``str`` (UTF-8), ``bytes``, a buffer
    characters)               end of a buffer the record holds for it;  or None
                              None for NULL (with a :attr:`length_
                              member`: that many bytes)
    ``record_ptr`` (pointer   a view of the memory it points to, or     an instance of its class, or None
    to a complete record)     None
    ``handle`` (pointer to    an instance of the handle class, or None  a handle of that class, a ``void *``
    an opaque type)                                                     ``Pointer``, or None
    ``data_pointer`` (any     a ``Pointer`` typed by :attr:`pointer_    a buffer (see below), a ``Pointer`` of
    other object pointer)     type`, or None                            that type or of ``void *`` (for
                                                                        ``void *``: any Pointer, handle or
                                                                        record), or None
    ``function_pointer``      a ``FunctionPointer``, or None            a callable (:attr:`callback`), one read
                                                                        from a field of the same C type or
                                                                        made by its typedef's class, or None
    ``array_pointer`` (an     a ``Pointer`` to its first element, of    nothing: C assigns no array as a whole
    array of pointers or of   type :attr:`pointer_type`, bounded by     (a TypeError); its elements are read,
    arrays: ``uint8_t         ``length``, as the array decays in C      and numbers written, through the
    *data[8]``, ``int                                                   Pointer
    m[3][4]``)
    ========================= ========================================= ========================================

    What a pointer member is set to is kept alive with the record (the
    buffer, record, handle or Pointer object), under the member, until the
    member is set again; a view, handle or Pointer read from a pointer member
    keeps the record alive, and what the record keeps for that member.
    Buffers for ``string`` members: ``str`` is encoded (one holding a NUL is
    refused), read-only memory is a private copy when the characters are not
    ``const`` (:attr:`copies_readonly`).
    """

    path: str
    py_name: str
    ctype: CType  #: the declared type
    kind: FieldKind
    #: for ``record`` / ``record_array`` / ``record_ptr``: the record's key; ``handle``: the handle
    #: class's (:attr:`HandleBinding.key`); ``enum``: the enum's
    record_key: str | None = None
    length: int | None = None  #: array length
    element: CType | None = None  #: array element type
    element_kind: str | None = None  #: ``int``/``bool``/``float``/``complex`` for arithmetic arrays
    bit_width: int | None = None
    #: inclusive range accepted on assignment for bitfields (None: the C type's range)
    bit_range: tuple[int, int] | None = None
    #: ``int``/``enum``: the inclusive range an assignment takes (the bitfield's, else
    #: the type's); a value outside raises the same OverflowError in every backend
    int_range: tuple[int, int] | None = None
    #: ``data_pointer``: bytes of one pointed-to element (0 for ``void`` or an
    #: incomplete type); a buffer assigned must hold at least one
    pointee_size: int = 0
    #: ``data_pointer``: whether the pointee is a non-const object type, so C
    #: may write through the pointer and a read-only buffer must be refused
    #: (``void *`` is left to the caller: C declares read-only data so too)
    needs_writable: bool = False
    #: ``data_pointer`` to non-const ``void``, ``string`` of non-const characters:
    #: read-only memory is accepted but copied, so C may write into the copy and
    #: never into an immutable object
    copies_readonly: bool = False
    #: ``data_pointer``: the pointer type as C spells it with every typedef resolved
    #: (``"unsigned long *"``): the type of the ``Pointer`` objects it reads as, and
    #: of those it takes (as :attr:`ParamBinding.pointer_type`); ``array_pointer``: the
    #: type of a pointer to its first element (``"int (*)[4]"``).  A ``record_ptr``
    #: carries the data pointer's facts too: it is one where a backend has no class
    #: for the record (one its FFI cannot hold, left out with a warning)
    pointer_type: str = ""
    #: ``function_pointer``: how a Python callable assigned to it is called (None: its
    #: arguments or result cannot cross, and it takes only FunctionPointers); the closure
    #: is kept alive with the record, as a FunctionPointer assigned is
    callback: CallbackBinding | None = None
    #: the C spelling of the member's type with its outer typedefs resolved: tells
    #: function pointer types apart (an assigned value must match), and is what a
    #: pointer stored in the member is cast to
    c_text: str = ""
    #: ``string``: the Python name of the integer member that states how many characters
    #: it points to (gdbm's ``datum { char *dptr; int dsize; }``): it reads as exactly that
    #: many bytes, NULs and all, not up to a NUL ("" for a text C ends with a NUL)
    length_member: str = ""
    #: ``int``: the (C path, Python name) of the pointer-to-characters member whose count it
    #: is (see :attr:`length_member`): set larger than the buffer the record holds there, it
    #: raises ValueError, as a length parameter does; empty for other integers
    counts: tuple[str, ...] = ()
    #: the member shares its bytes with others (a union's, or lifted from an anonymous
    #: union) and reading it follows a pointer to characters (its own, or one of a record
    #: it holds): C gives no way to know which member is in use, so the record's repr
    #: shows ``...`` rather than read through what may be another member's bytes
    elided_in_repr: bool = False


@frozen_dataclass()
class AnonymousType:
    """A struct, union or enum with no name, written inside a record's definition.

    C gives it no name, but a member of a named record reaches it: its class
    is named after that record's class and the member (the naming pass), and
    C code spells it from there (:attr:`c_type`).  An anonymous member (no
    member name, C11 6.7.2.1p13) lends its members to its parent and needs
    no name: :attr:`steps` is then empty.
    """

    key: str  #: its registry key (``"union <anonymous at yaml.h:395:5>"``)
    #: the key of the record whose definition writes it (anonymous or not), or the
    #: name of the typedef that does (``typedef struct { ... } *P``)
    parent: str
    #: where :attr:`steps` start: the nearest enclosing record that has a name in C
    #: (its key), or the typedef
    root: str
    #: from a ``root`` value to a value of this type: member names (as C names them,
    #: lifted members directly), ``"[]"`` for an array's element, ``"*"`` for what a
    #: pointer points to; empty for an anonymous member
    steps: tuple[str, ...] = ()
    #: the type as C can write it in a declaration, a cast or ``sizeof``, by ``__typeof__``
    #: (which gcc and clang accept): ``__typeof__((*(yaml_event_t *)0).data)``; empty
    #: for an anonymous member
    c_type: str = ""

    @property
    def member(self) -> str | None:
        """The member whose type this is, last of :attr:`steps` (None for an anonymous member)."""
        names = [step for step in self.steps if step not in ("[]", "*")]
        return names[-1] if names else None


@frozen_dataclass()
class RecordBinding:
    """A struct/union with a Python class."""

    record: Record
    py_name: str
    aliases: tuple[str, ...]  #: other Python names bound to the same class (typedef or tag)
    #: accessible members (lifted from anonymous members); also what backends declare
    fields: tuple[FieldBinding, ...]
    #: whether the layout holds a pointer anywhere (a member, an array element,
    #: a member of a by-value member record, bound or not): raw bytes must not
    #: be copied into such a record, since they would forge an address
    has_pointers: bool = False
    #: whether a pointer member of a record may be set to an instance of this class
    #: (a pointer to it, or any ``void *``), which that record then keeps alive
    kept_by_records: bool = False
    #: the C type of a pointer to the record, every typedef resolved: the ``Pointer``
    #: objects ``from_pointer`` views the record through (those or ``void *`` ones)
    pointer_type: str = ""


@frozen_dataclass()
class HandleBinding:
    """An opaque type, seen from Python only through pointers to it: an incomplete
    struct/union (``sqlite3``), or a typedef of ``void`` (libcurl's ``CURL``).

    Its class is a subclass of the module's ``Pointer``: it wraps the address,
    ``repr`` shows the class and address, ``int(h)`` is the address, two
    handles are equal when their addresses and classes are; only the library
    makes new ones.
    """

    #: the key parameters and returns name it by (:attr:`ParamBinding.record_key`):
    #: the record's key, or the typedef's name
    key: str
    py_name: str
    aliases: tuple[str, ...] = ()
    doc: str = ""
    record: Record | None = None  #: the incomplete record (None for a typedef of void)


@frozen_dataclass()
class Deallocator:
    """A C function that frees what another function returns (config ``owned(F)``).

    A string is copied into ``bytes`` and freed at once; a record view, a
    handle or a ``Pointer`` frees it once: when the Python object is collected
    or on its ``close()``, whichever comes first; after that the object is
    closed (using it raises ValueError).  Called through the module with an
    object it owns, the deallocator frees it and the object is closed.
    """

    name: str  #: the C function (``json_delete``), or ``free``: the C library's
    #: its binding, whose first parameter takes the pointer; None for ``free``
    function: FunctionBinding | None = None


@frozen_dataclass()
class CellBinding:
    """A cell class: one C object of an arithmetic type, made by Python (``c_ulong(5)``).

    Passed where C takes a pointer to that type (``compress2``'s ``uLongf
    *destLen``), it gives C its address, and ``.value`` reads what C wrote
    there.  The classes are named as ctypes names them; a pointer parameter
    takes every cell of the same :attr:`tag`.
    """

    py_name: str  #: ``c_ulong``
    primitive: str  #: the C type, ``unsigned long``
    kind: Literal["int", "bool", "float", "complex"]
    #: kind, signedness and size (``"u8"``, ``"i4"``, ``"f8"``, ``"b1"``, ``"c16"``): cells of one
    #: tag hold the same bits, so a pointer parameter takes them all
    tag: str
    int_range: tuple[int, int] | None = None  #: the values an ``int`` cell holds
    #: the C type a value of this type is passed as among a variadic function's extra
    #: arguments (C's default argument promotions: ``short`` as ``int``, ``float`` as ``double``)
    promoted: str = ""


@frozen_dataclass()
class PointerElements:
    """What ``p[i]`` and ``p[start:stop]`` read through a ``Pointer`` of one C type.

    ``kind``: ``int``/``bool``/``float``/``complex`` (a number each), ``char`` (a character
    type, or ``void`` read as bytes: ``p[i]`` is its code, 0 to 255, a slice is ``bytes``), ``enum`` (its
    member, an int for a value that is none), ``string`` (a pointer to
    characters: ``bytes`` up to the NUL, None for NULL), ``record`` (a pointer to
    a record with a class: a view of it, None for NULL; libxml2's XPath
    ``nodeTab``), ``handle`` (a pointer to an opaque type: its handle, None for
    NULL), ``pointer`` (a pointer to any of these, ``float **``: a ``Pointer`` of its
    type, None for NULL), ``array`` (an array of any of these, as a record's
    ``int grid[3][4]`` holds: a ``Pointer`` to its first element, bounded by its
    :attr:`count`, as C's ``grid[i]`` decays).  C does not say how many elements there
    are: a slice needs its end, and reading past what C gave is undefined, as in C.  Pointers of other
    types (to records Python has no class for, to function pointers) have no
    elements to read.
    """

    pointer_type: str  #: :attr:`ParamBinding.pointer_type` of the Pointers these are read through
    kind: Literal["int", "bool", "float", "complex", "char", "enum", "string", "record", "handle", "pointer", "array"]
    #: the C type an element is read as, one every backend spells: a cell type
    #: (:data:`CELL_TYPES`), ``unsigned char``, ``char *`` or (records, handles) ``void *``
    primitive: str
    #: for ``enum``: the enum's key; for ``record`` and ``handle``: the class's record key; for
    #: ``pointer`` and ``array``: the type of the Pointers read (a :attr:`pointer_type` of these too)
    key: str | None = None
    #: ``p[i] = v`` and ``p[start:stop] = values`` write the elements (numbers, enums as
    #: ints, characters): they are not ``const``
    writable: bool = False
    #: the range an integer, enum or character element takes (characters: 0 to 255)
    low: int = 0
    high: int = 0
    #: ``array``: the elements of each array (the bound of each Pointer read), and its bytes
    count: int = 0
    step: int = 0


@frozen_dataclass()
class EnumBinding:
    """An enum as the module gives it: its IntEnum class, if any, and its members."""

    enum: Enum
    py_name: str | None  #: the IntEnum class name (None for an untagged, untypedef'd enum)
    members: tuple[tuple[str, int], ...]  #: (Python name, value)


@frozen_dataclass()
class ConstantBinding:
    """A constant as the module gives it, under its Python name.

    An integer cast to a pointer type (an :class:`~pegbind.model.Address`) is the object a
    result of that type is: :attr:`pointer` says which, (kind, C type text, handle class key):
    a ``FunctionPointer`` (``function_pointer``: SQLITE_TRANSIENT), a handle, or a ``Pointer``
    (``pointer``: ``MAP_FAILED``), never read through; ``None`` where the address is 0.
    """

    constant: Constant
    py_name: str
    pointer: tuple[Literal["function_pointer", "handle", "pointer"], str, str | None] | None = None


@frozen_dataclass()
class ErrorClasses:
    """The exceptions of a module with an error policy.

    One base class ``Error(Exception)`` with ``.code`` and ``.function``; one
    subclass per error code, named after its constant, reachable as
    ``errors.<NAME>`` and through the dict ``errors_by_code`` (code -> class).
    The message reads ``C_Login failed: CKR_PIN_INCORRECT (0xa0)``.
    """

    policy: ErrorPolicy
    success: int
    #: (class name, C constant name, value): constants matching ``policy.codes``,
    #: the first of each value, the success value left out, in source order
    codes: tuple[tuple[str, str, int], ...]


@frozen_dataclass()
class FunctionTableBinding:
    """``load(path)`` reaches functions through a table a getter fills (PKCS#11's ``C_GetFunctionList``).

    The getter is looked up by name with ``dlsym``; it is either
    ``R getter(T **table)`` (``returns_table`` False; the error policy applies
    to ``R``) or ``T *getter(void)`` (``returns_table`` True).
    """

    getter: Function
    struct_key: str  #: registry key of the table's struct
    returns_table: bool
    error: ErrorCheck | None = None


@frozen_dataclass()
class BindingModel:
    """The module after the passes, ready for an emitter."""

    name: str  #: Python module name
    module: Module  #: the selected C declarations (plus the types they need)
    target: TargetInfo
    headers: tuple[str, ...]  #: header names as the generated code includes them
    functions: tuple[FunctionBinding, ...]
    records: tuple[RecordBinding, ...]
    enums: tuple[EnumBinding, ...]
    constants: tuple[ConstantBinding, ...]
    #: ("typedef" | "record" | "enum", key) in an order where each comes after what it needs
    type_order: tuple[TypeNode, ...]
    #: record key -> layout from :func:`pegbind.target.record_layout` (empty when unavailable)
    layouts: Mapping[str, Any] = field(default_factory=dict)
    #: functions declared to the C side but given no Python wrapper (variadic ...)
    declared_only: tuple[Function, ...] = ()
    diagnostics: tuple[Diagnostic, ...] = ()
    #: ``"link"``: functions are module attributes, linked at build time;
    #: ``"dynamic"``: ``load(path) -> Library`` (``dlopen`` with RTLD_NOW |
    #: RTLD_LOCAL) and the functions are methods of the Library
    load: Literal["link", "dynamic"] = "link"
    function_table: FunctionTableBinding | None = None
    handles: tuple[HandleBinding, ...] = ()
    errors: ErrorClasses | None = None
    #: (Python name, Python name of the function it names) for each bound function's
    #: other C name (``("gzopen", "gzopen64")``)
    function_aliases: tuple[tuple[str, str], ...] = ()
    #: type names the bound declarations use that no header declares (``__builtin_va_list``)
    undeclared_types: tuple[str, ...] = ()
    #: the functions ownership rules name, in name order
    deallocators: tuple[Deallocator, ...] = ()
    #: record keys a wrapper may make an owning object of (closed ones are refused)
    owned_records: frozenset[str] = frozenset()
    #: the cell classes (every module has them all) and their other names
    #: (``c_int32`` -> ``c_int``, ``c_size_t`` -> ``c_ulong`` on LP64)
    cells: tuple[CellBinding, ...] = ()
    cell_aliases: tuple[tuple[str, str], ...] = ()
    #: whether compiled code refers to the library's functions weakly, so that one the
    #: library at run time lacks fails when called: not when a library is a static
    #: archive, whose members the linker takes only for strong references
    weak_references: bool = True
    #: the anonymous structs, unions and enums written inside records, by key
    anonymous: Mapping[str, AnonymousType] = field(default_factory=dict)
    #: what the elements of each type of Pointer the module makes read as (by pointer type)
    pointer_elements: tuple[PointerElements, ...] = ()
    #: the classes of the function pointer typedefs (see :func:`~pegbind.passes.callback_classes`)
    callback_classes: tuple[CallbackClass, ...] = ()

    def callables(self) -> list[CallbackBinding]:
        """Every function pointer type the module makes closures of Python callables for: those
        of parameters, of the typedef classes and of record fields, in that order."""
        found = [p.callback for f in self.functions for p in f.params if p.callback is not None]
        found += [c.callback for c in self.callback_classes]
        found += [f.callback for r in self.records for f in r.fields if f.callback is not None]
        return found

    def aliases_of(self, wrapped: Iterable[FunctionBinding]) -> tuple[tuple[str, str], ...]:
        """The function aliases of functions a backend wraps (one it left out has no name to alias)."""
        names = {f.py_name for f in wrapped}
        return tuple((alias, target) for alias, target in self.function_aliases if target in names)

    def ordered_records(self) -> list[RecordBinding]:
        """The record bindings in the order their classes are written: each after the records
        it holds by value (:attr:`type_order`), the anonymous records written inside a record
        just before it, innermost first."""
        order = {key: index for index, (kind, key) in enumerate(self.type_order) if kind == "record"}

        def position(binding: RecordBinding) -> tuple[int, int]:
            place = self.anonymous.get(binding.record.key)
            if place is None:
                return order.get(binding.record.key, len(order)), 0
            return order.get(place.root, len(order)), -len(place.steps)

        return sorted(self.records, key=position)

    def record_binding(self, key: str) -> RecordBinding | None:
        for binding in self.records:
            if binding.record.key == key:
                return binding
        return None

    def handle_binding(self, key: str) -> HandleBinding | None:
        for binding in self.handles:
            if binding.key == key:
                return binding
        return None


#: The cell classes of every module (:class:`CellBinding`): C's arithmetic types, by ctypes' names.
#: (A pointer to characters is a buffer of bytes: there is no cell for ``char``; nor for
#: ``long double _Complex``, which cffi cannot hold.)
CELL_TYPES = (
    ("c_bool", "_Bool"), ("c_short", "short"), ("c_ushort", "unsigned short"), ("c_int", "int"),
    ("c_uint", "unsigned int"), ("c_long", "long"), ("c_ulong", "unsigned long"), ("c_longlong", "long long"),
    ("c_ulonglong", "unsigned long long"), ("c_float", "float"), ("c_double", "double"),
    ("c_longdouble", "long double"), ("c_float_complex", "float _Complex"), ("c_double_complex", "double _Complex"),
)
#: Other names of cell classes, by the C type they stand for on the target.
CELL_ALIASES = ("c_int16", "c_uint16", "c_int32", "c_uint32", "c_int64", "c_uint64", "c_size_t", "c_ssize_t")

#: Names every generated module defines itself; C declarations that would take
#: them are renamed by the naming pass (``load`` -> ``load_``).
MODULE_NAMES = frozenset({"load", "Library", "Error", "errors", "errors_by_code", "FunctionPointer", "Pointer",
                          *(name for name, _ in CELL_TYPES), *CELL_ALIASES})
