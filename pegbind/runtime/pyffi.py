"""Runtime support pasted into the modules pegbind generates: the argument checks of every backend.

This is the Python the backends share.  The ``conversions`` and
``argument_checks`` sections are in every generated module, the Cython one
included: the conversions a wrapper's fast path or a record's field runs, and
the checks a wrapper falls back on when its fast path rejects an argument
(normalising an ``__index__`` object, or naming the argument in the error
every backend raises), with the functions that word those errors.  The
``checks`` section is what only the ctypes and cffi modules need: helpers of
their wrappers and of their record, handle and library classes.  Nothing here
knows ctypes, cffi or Cython.

Generated modules must not import pegbind, so they never import this module:
the lines between ``# pegbind-paste: begin <section>`` and
``# pegbind-paste: end <section>`` are pasted verbatim into them
(:func:`pegbind.resources.runtime_sections`; the templates spell
``{{ ffi_runtime.<section> }}``).  Code outside the sections is what this file
needs to stand alone: the imports each generated module makes itself under
the same names, and settings for the type checker.  The tests import the
module directly (tests/test_runtime.py).
"""
# mypy: check-untyped-defs
# The pasted functions carry no annotations (they would land in every generated
# module), so the checker is told to read the bodies of untyped functions; the
# slots of a class are annotated, which costs nothing at run time.
# Its one blind ``except`` is meant: iter() of an arbitrary object may raise
# any exception (a 2-D memoryview refuses iteration with one of its own, a
# custom __iter__ raises what it likes), and the checks after it give the
# precise error.
# Every generated module imports operator under this name.
import operator as _operator
import sys as _sys
import threading as _threading
from typing import TYPE_CHECKING, Any


def _pb_address(pointer):
    """The address a pointer value holds (each generated module defines its FFI's own)."""
    return pointer or 0


if TYPE_CHECKING:
    # What each generated module defines with its own FFI (templates/*/), and the sections
    # below use: declared here for the type checker only, never defined in this file.
    class FunctionPointer:
        _ptr: object
        _ctype: str

        def __int__(self) -> int: ...

    #: what the elements of each type of Pointer read as, by pointer type
    _pb_elements: dict = {}
    _pb_element_limits: dict = {}

    def _pb_read_elements(pointer: object, element: tuple, start: int, count: int, owner: object) -> Any: ...
    def _pb_write_elements(pointer: object, element: tuple, start: int, data: Any) -> None: ...

    def _pb_keep_record(record: object, name: object, value: object) -> None: ...

    #: what the library's memory keeps alive, by (address, member or parameter)
    _pb_library_kept: dict = {}

    def _pb_record_kept(record: object, name: object) -> object: ...

    def _pb_record_address(record: object) -> int: ...

    # how each FFI passes a variadic function's extra arguments (see the varargs section)
    _PB_VA_BITS = 64

    def _pb_va_signed(value: int) -> object: ...

    def _pb_va_unsigned(value: int) -> object: ...

    def _pb_va_double(value: float) -> object: ...

    def _pb_va_address(address: int) -> object: ...

    def _pb_va_bytes(data: bytes) -> object: ...

    def _pb_va_buffer(value: object, view: memoryview) -> object: ...

    def _pb_va_object(value: object, what: str) -> object: ...

    def _pb_va_cell(cell: object) -> object: ...


# pegbind-paste: begin conversions
# ---- runtime: what the arguments of every backend are converted with ----
# The conversions and tests a wrapper's fast path or a record's field may run
# for an argument it takes: a Cython module compiles these.


def _pb_no_copy(self, protocol=None):
    """``__reduce_ex__`` and ``__reduce__`` of records, handles, function pointers and libraries.

    They hold addresses (and keep the memory behind them alive): a pickled
    address means nothing in another process, and a copy would share memory
    it does not own.  ``bytes(record)`` and ``from_bytes`` copy a record's
    bytes where that is safe.
    """
    raise TypeError(f"cannot pickle or copy {type(self).__name__} objects")


def _pb_no_delete(what):
    """The deleter of every field: a field is C memory, which can be assigned but not removed."""
    raise AttributeError(f"{what} cannot be deleted")


def _pb_no_assign(what):
    """The setter of an array of pointers or of arrays (it reads as a Pointer to its first element)."""
    raise TypeError(f"{what} is an array, which C does not assign as a whole: it reads as a Pointer to "
                    "its first element, through which numbers are written")


def _pb_integer(value, what):
    """``value`` as an int, through ``__index__``; the TypeError names ``what`` otherwise."""
    try:
        return _operator.index(value)
    except TypeError:
        raise TypeError(f"{what} must be an integer, not {type(value).__name__}") from None


def _pb_index(value, what, lo, hi):
    """``value`` as an int in [lo, hi]: TypeError for non-integers, OverflowError outside."""
    number = _pb_integer(value, what)
    if not lo <= number <= hi:
        raise OverflowError(f"{what}: {number} is out of range [{lo}, {hi}]")
    return number


def _pb_stated(value, size, is_signed):
    """The length a cell argument states, for the check against its buffer: a cell's value, or
    the integer of ``size`` bytes (signed or not) at the start of a buffer given in its place, as C
    reads it there; None where it is not known (None, a Pointer, a record; a buffer too short,
    which the cell's own conversion refuses)."""
    if isinstance(value, _pb_Cell):
        return value.value  # type: ignore[attr-defined]  # each cell class has it
    if value is None or isinstance(value, (str, Pointer, _pb_Record)):
        return None
    try:
        data = memoryview(value).cast("B")
    except (TypeError, ValueError):  # no buffer, or not a contiguous one: its conversion refuses it
        return None
    return int.from_bytes(data[:size], _sys.byteorder, signed=is_signed) if len(data) >= size else None


def _pb_bool(value, what):
    """``value`` as C's _Bool takes it: any integer (through __index__), true when not zero."""
    return bool(_pb_integer(value, what))


def _pb_float(value, what):
    # As PyFloat_AsDouble: __float__ or __index__, never a parse of a string.
    kind = type(value)
    if not (hasattr(kind, "__float__") or hasattr(kind, "__index__")):
        raise TypeError(f"{what} must be a real number, not {kind.__name__}")
    try:
        return float(value)
    except OverflowError as error:  # an int past a double's range: say which argument it was
        raise OverflowError(f"{what}: {error}") from None


def _pb_complex(value, what):
    # As PyComplex_AsCComplex: __complex__, __float__ or __index__, never a parse of a string.
    kind = type(value)
    if kind is complex:
        return value
    if not (hasattr(kind, "__complex__") or hasattr(kind, "__float__") or hasattr(kind, "__index__")):
        raise TypeError(f"{what} must be a complex number, not {kind.__name__}")
    try:
        return complex(value)
    except OverflowError as error:
        raise OverflowError(f"{what}: {error}") from None


def _pb_buffer_of(value, what, writable, wanted=None):
    """A contiguous memoryview of ``value`` (writable when asked), or the TypeError Cython raises
    (``wanted``: what else the parameter takes, for its message)."""
    if wanted is None:
        wanted = "a writable contiguous buffer" if writable else "a contiguous buffer"
    try:
        view = memoryview(value)
    except TypeError:
        raise _pb_not_wanted(value, what, wanted) from None
    if not view.contiguous or (writable and view.readonly):
        raise _pb_not_wanted(value, what, wanted)
    return view


def _pb_not_wanted(value, what, wanted):
    """The TypeError for ``value`` where ``wanted`` (the words for what is taken, ending with
    ``a NAME`` or ``a NAME or NAME ...`` where classes of this module's are taken too) was wanted."""
    head, _, last = wanted.rpartition(" a ")
    if not head:
        return TypeError(f"{what} must be {wanted}, not {type(value).__name__}")
    pairs = [_pb_named_apart(name, __name__, value) for name in last.split(" or ")]
    got = max((named for _, named in pairs), key=len)  # by its module where one name is its
    return TypeError(f"{what} must be {head} a {' or '.join(name for name, _ in pairs)}, not {got}")


def _pb_named_apart(wanted, module, value):
    """The names of the wanted class (``wanted``, of ``module``) and of ``value``'s, each by its
    module where they are one name (libxml2's xmlDoc given to libxslt's, lcms2's c_int to
    mpg123's)."""
    got = type(value).__name__
    if got == wanted:
        return f"{module}.{wanted}", f"{type(value).__module__}.{got}"
    return wanted, got


#: whether a buffer's items are what C reads, by (their format, the cell tag of C's type): see
#: _pb_check_items, which worked it out on every call
_pb_fitting_items: dict = {}


def _pb_check_items(view, tag, ctype, what):
    """Refuse a buffer whose items are numbers of another kind or size than C reads (``tag``,
    a cell's: ``f8`` for double), or of the other byte order: an ``array("i")`` given for a
    ``double *`` had C read the ints' bits as doubles. Bytes of either sign or of chars, and
    what is no single number (a struct's format), are memory of any type, taken as such; so
    is any buffer where C reads bytes (``void *``, characters) or a type of no cell."""
    fits = _pb_fitting_items.get((view.format, tag))
    if fits is None:
        fits = _pb_fitting_items[(view.format, tag)] = _pb_items_match(view.format, view.itemsize, tag)
    if not fits:
        element = (ctype.removesuffix("*").strip().removeprefix("const ") if ctype
                   else "a float" if tag[0] == "f" else "an integer")
        raise TypeError(f"{what} holds items of format {view.format!r} ({view.itemsize} bytes each), where C "
                        f"reads {element} ({tag[1:]} bytes each)")


def _pb_items_match(fmt, itemsize, tag):
    """Whether items of the struct format ``fmt`` are what C reads of the cell tag ``tag`` (see
    _pb_check_items)."""
    if tag[:1] not in ("i", "u", "f") or tag[1:] not in ("2", "4", "8"):
        return True
    order = fmt[:1]
    fmt = fmt.lstrip("@=<>!")
    if len(fmt) != 1 or fmt in "Bbcx":
        return True
    kind = "f" if fmt in "efd" else "i" if fmt in "hHiIlLqQnN?" else ""
    swapped = order in (">", "!") if _sys.byteorder == "little" else order == "<"
    return not kind or kind == tag[0].replace("u", "i") and str(itemsize) == tag[1:] and not swapped


def _pb_check_size(view, size, what):
    if view.nbytes < size:
        raise ValueError(f"{what} needs at least {size} byte{'s' if size != 1 else ''}, got {view.nbytes}")


def _pb_encode(value, what, counted=False):
    """A str as C reads text: UTF-8 bytes, which must hold no NUL (C would stop reading there),
    but where C is told how many to read (``counted``: a length the header states beside it)."""
    try:
        data = value.encode()
    except UnicodeEncodeError as error:  # a lone surrogate ("a\udc80"): UTF-8 spells none
        raise ValueError(f"{what} cannot be encoded as UTF-8: {error.reason} at index {error.start}") from None
    if not counted and 0 in data:  # a byte's value, a memchr: b"\0" in data takes ten times as long
        raise ValueError(f"{what} must not contain a NUL character")
    return data


def _pb_sequence(value, what):
    """The items of a sequence argument as a list (TypeError for anything else, str included)."""
    if isinstance(value, str):
        raise TypeError(f"{what} must be a sequence, not str")
    try:
        return list(value)
    except TypeError:
        raise TypeError(f"{what} must be a sequence, not {type(value).__name__}") from None


def _pb_bytes_like(value, what):
    """The bytes of ``value``, any bytes-like object (a char array's contents, a record's copy).

    TypeError naming ``what`` for anything else (``str`` included).
    """
    if value.__class__ is bytes:
        return value
    try:
        return memoryview(value).tobytes()
    except TypeError:
        raise TypeError(f"{what} must be a bytes-like object, not {type(value).__name__}") from None


def _pb_pointer_type(value):
    """The C pointer type a Pointer or handle object holds (``"CURL *"``, ``"void *"``)."""
    return value._ctype if type(value) is Pointer else f"{type(value).__name__} *"


def _pb_pointer_name(value):
    """How an error names a Pointer or handle: ``a Pointer of type int *``, or its class."""
    return f"a Pointer of type {value._ctype}" if type(value) is Pointer else type(value).__name__


def _pb_takes_pointer(value, ctype):
    """Whether the Pointer ``value`` may be passed where C takes ``ctype``: the same type, or
    one side is ``void *`` (C converts a ``void *`` to and from any object pointer)."""
    have = _pb_pointer_type(value)
    return have == ctype or have == "void *" or ctype == "void *"


def _pb_result_address(value, cls, ctype, what):
    """The address C gets from a callable's result where it takes a pointer back: a handle of the
    class ``cls`` (None: a Pointer of type ``ctype``), a ``void *`` Pointer, or None for NULL.
    Only memory C handed out can be returned: what Python made would not outlive the callback."""
    if value is None:
        return 0
    if cls is not None:
        if isinstance(value, cls) or (type(value) is Pointer and value._ctype == "void *"):
            return int(value)  # a closed one raises ValueError
        raise TypeError(f"{what} must be {cls.__name__} or None, not {type(value).__name__}")
    if isinstance(value, Pointer) and _pb_takes_pointer(value, ctype):
        return int(value)
    raise _pb_pointer_error(what, ctype, value, True)


def _pb_check_object_pointer(value, ctype, what, wanted):
    """Check a Pointer, handle or record passed where C takes the data pointer ``ctype``.

    A record goes only where C takes ``void *``; a Pointer where C takes its
    own type or ``void *``, or any pointer when it is a ``void *`` itself.
    ``wanted`` names what else the parameter takes, for the TypeError.
    """
    if isinstance(value, Pointer):
        if not _pb_takes_pointer(value, ctype):
            raise TypeError(f"{what} must be {wanted} or a Pointer of type {ctype}, not {_pb_pointer_name(value)}")
    elif ctype != "void *":
        raise TypeError(f"{what} must be {wanted}, not {type(value).__name__}")


def _pb_element_range(key, ctype, bound=None):
    """``(start, count, one)`` of ``p[key]`` for a Pointer of C type ``ctype`` whose elements
    can be read: one element at an index, or those of a slice ``p[start:stop]``.

    C does not say how many elements there are, so a slice needs its end and
    takes no step; indexes count from the pointer as in C (``p[-1]`` is the
    element before it), not from an end.  Where C did say (``bound``: the size a
    callback is given with its buffer), no index is outside those elements.
    """
    if isinstance(key, slice):
        if key.step is not None and _pb_integer(key.step, "a Pointer slice's step") != 1:
            raise ValueError(f"a slice of a Pointer of type {ctype} takes no step")
        if key.stop is None:
            raise ValueError(f"a slice of a Pointer of type {ctype} needs its end: "
                             "C does not say how many elements there are")
        start = 0 if key.start is None else _pb_index(key.start, "a Pointer slice's start", -(1 << 62), 1 << 62)
        stop = _pb_index(key.stop, "a Pointer slice's end", -(1 << 62), 1 << 62)
        start, count, one = start, max(stop - start, 0), False
    else:
        start, count, one = _pb_index(key, "a Pointer index", -(1 << 62), 1 << 62), 1, True
    if bound is not None and count and (start < 0 or start + count > bound):
        raise IndexError(f"index {start if start < 0 else max(start, bound)} is outside the {bound} elements C "
                         f"gave with this Pointer of type {ctype}")
    return start, count, one

def _pb_elements_of(pointer, ctype, bound):
    """The elements of ``for x in p`` (see _pb_element_range): those C said it gave (``bound``),
    else a TypeError. Iterating by index, Python's fallback, read past them until it crashed."""
    if bound is None:
        raise TypeError(f"a Pointer of type {ctype} is not iterable: C does not say how many elements "
                        "there are (p[:n] reads n)")
    return iter(pointer[:bound])


def _pb_element_writes(ctype, limits, key, value, bound=None):
    """``(start, data)`` for ``p[key] = value`` on a Pointer of C type ``ctype`` whose elements are
    ``limits``, ``(kind, writable, low, high)`` (see pegbind.passes.binding.PointerElements):
    ``bytes`` for characters, else the numbers, each checked as an argument of the element's
    type is.  A slice is given as many as it spans, as C has no length to change; ``bound``: as
    :func:`_pb_element_range`'s."""
    kind, writable, low, high = limits
    if kind not in ("int", "enum", "bool", "float", "complex", "char"):
        raise TypeError(f"the elements of a Pointer of type {ctype} cannot be set from Python")
    if not writable:
        raise TypeError(f"a Pointer of type {ctype} points to const elements, which cannot be set")
    start, count, one = _pb_element_range(key, ctype, bound)
    what = "a Pointer element"
    if one:
        items = [value]
    elif kind == "char" and not isinstance(value, (list, tuple)):
        data = _pb_bytes_like(value, "a Pointer slice's value")
        if len(data) != count:
            raise ValueError(f"a slice of {count} elements of a Pointer of type {ctype} takes {count} bytes, "
                             f"not {len(data)}")
        return start, data
    else:
        items = _pb_sequence(value, "a Pointer slice's value")
        if len(items) != count:
            raise ValueError(f"a slice of {count} elements of a Pointer of type {ctype} takes {count} items, "
                             f"not {len(items)}")
    if kind == "float":
        return start, [_pb_float(item, what) for item in items]
    if kind == "complex":
        return start, [_pb_complex(item, what) for item in items]
    if kind == "bool":
        return start, [_pb_bool(item, what) for item in items]
    numbers = [_pb_index(item, what, low, high) for item in items]
    return start, bytes(numbers) if kind == "char" else numbers

# pegbind-paste: end conversions

# pegbind-paste: begin argument_checks
# ---- runtime: the argument checks of every backend, and their messages ---
# A wrapper converts its arguments on a fast path; whatever that path rejects
# comes here (_pb_fix), to be either normalised (an object with __index__,
# None for a pointer) or turned into the error every backend raises for it,
# with the same message: the ctypes and cffi wrappers call _pb_fix before
# running their body again, the Cython ones _pb_fix_value on their error path
# only, for the value their C conversion refused.  Nothing here runs for an
# argument that is taken as it is (but _pb_list_items, below, for the lists of
# pointers a few functions take): a Cython module keeps this section as
# source and compiles it the first time an argument is refused, or a list given.


def _pb_cstring(value, what, counted=False, nullable=True):
    """bytes (or None) for a ``const char *``: a str is encoded as UTF-8, other buffers
    are copied, so the NUL is there (``counted``: C reads as many as a length says, NULs too;
    ``nullable``: None is one of what it takes, as the error says)."""
    if value is None or value.__class__ is bytes:
        return value
    if isinstance(value, str):
        return _pb_encode(value, what, counted)
    try:
        view = memoryview(value)
    except TypeError:
        wanted = "str, bytes, a buffer or None" if nullable else "str, bytes or a buffer"
        raise TypeError(f"{what} must be {wanted}, not {type(value).__name__}") from None
    return view.tobytes()


def _pb_wrong_record(value, cls, what, nullable):
    """The TypeError for ``value`` where an instance of the record or handle class ``cls`` was
    wanted (or None, when ``nullable``); the wrappers raise it when their own check refuses."""
    wanted, got = _pb_named_apart(cls.__name__, cls.__module__, value)
    return TypeError(f"{what} must be {wanted}{' or None' if nullable else ''}, not {got}")


class _pb_Closed:
    """What a closed object holds in place of its C memory: any use of it raises ValueError."""

    __slots__ = ()

    def __getattr__(self, name):
        raise ValueError("the object is closed: the memory it stood for was freed")

    __getitem__ = __getattr__


#: the memory of every closed object (see _pb_Closed)
_PB_CLOSED = _pb_Closed()


def _pb_check_pointed(value, ctype, what):
    """Check the Pointer a record class views a record through (``Record.from_pointer``, C's
    cast ``(T *)p``): one of the record's pointer type ``ctype`` or ``void *``, not closed."""
    if type(value) is not Pointer or _pb_pointer_type(value) not in (ctype, "void *"):
        got = _pb_pointer_name(value) if isinstance(value, Pointer) else type(value).__name__
        raise TypeError(f"{what} must be a Pointer of type {ctype} or void *, not {got}")
    if _pb_is_closed(value):
        raise ValueError(f"{what} is closed")


def _pb_check_recast(source, cls, what):
    """Check a record viewed as one of another class ``cls`` (``Record.from_pointer(record)``, C's
    cast ``(uv_handle_t *)&timer`` of records that begin alike): it holds that class's bytes."""
    if type(source).sizeof < cls.sizeof:
        raise ValueError(f"{what} is a {type(source).__name__} of {type(source).sizeof} bytes, fewer than "
                         f"the {cls.sizeof} of {cls.__name__}")
    if _pb_is_closed(source):
        raise ValueError(f"{what} is closed")


def _pb_cell_fits(tag, wanted):
    """Whether a cell of ``tag`` goes where C takes cells of ``wanted``: the same bits, any cell
    for a ``void *`` ("*"), an integer cell of the size of an enum, signed or not ("e4")."""
    return tag == wanted or wanted == "*" or (wanted[:1] == "e" and tag[:1] in ("i", "u") and tag[1:] == wanted[1:])


def _pb_check_count(count, held, what, held_what):
    """Check a record's count of characters against the ``held`` bytes of the buffer the record
    holds for them (-1: none, or not known): C reads as many as the count says."""
    if count > held >= 0:
        raise ValueError(f"{what}: {count} is more than {held_what} holds ({held} bytes)")


def _pb_check_room(value, count, held, what, count_what):
    """Check the characters a pointer-to-characters member is set to (str, bytes or a buffer)
    against the ``count`` the record states for them, where the record held ``held`` bytes
    of its own for the member (-1: none, or C's memory, whose count may be stale): C reads
    as many as the count says."""
    if held < 0:
        return
    try:
        held = len(value.encode(errors="surrogatepass")) if isinstance(value, str) else memoryview(value).nbytes
    except TypeError:
        return  # no characters: refused where the member is set
    if count > held:
        raise ValueError(f"{what}: holds {held} byte{'s' if held != 1 else ''}, fewer than the {count} "
                         f"{count_what} states (set {count_what} first)")


def _pb_is_closed(value):
    """Whether ``value`` is a Pointer, handle or record that was closed."""
    return any(getattr(value, slot, None) is _PB_CLOSED for slot in ("_h", "_s", "_p"))


def _pb_pointer_error(what, ctype, value, nullable):
    """The TypeError for a value that is not a pointer ``ctype`` takes."""
    wanted = f"a Pointer of type {ctype}" + (" or None" if nullable else "")
    if isinstance(value, Pointer):
        return TypeError(f"{what} must be {wanted}, not {_pb_pointer_name(value)}")
    return TypeError(f"{what} must be {wanted}, not {type(value).__name__}")


def _pb_list_items(value, kind, cls, ctype, what):
    """What keeps each pointer of a list C reads (an ``in-array`` of pointers) valid during
    the call, from the caller's sequence, read once: for a C string (``kind`` "cstring")
    its bytes (a str encoded, another buffer copied); for a buffer C may write into
    ("writable_buffer") a writable memoryview, or a Pointer C may take as ``ctype``; for a
    record ("record_ptr") its object, of class ``cls``; None for NULL.  The backends put
    the addresses in a C array with a NULL after the last, as C reads such lists."""
    if value.__class__ is not list and value.__class__ is not tuple:
        value = _pb_sequence(value, what)
    label = what + " items"
    held: list = []
    for item in value:
        if item is None:
            held.append(None)
        elif kind == "cstring":
            held.append(_pb_cstring(item, label))
        elif kind == "writable_buffer":
            if isinstance(item, Pointer):
                _pb_check_object_pointer(item, ctype, label, "a writable contiguous buffer")
                held.append(item)
            else:
                held.append(_pb_buffer_of(item, label, True))
        elif isinstance(item, cls):
            held.append(item)
        else:
            raise _pb_wrong_record(item, cls, label, True)
    return held


def _pb_fix_value(spec, value, nullable=True):
    """``value`` checked and normalised as ``spec`` says (see pegbind.emit.pywrapper.arg_spec), or its error
    (``nullable``: None may be passed, as the errors that list what may say).

    A Cython wrapper calls it after its own conversion of the value failed,
    for the error every backend raises (the conversion's stands when it
    returns).
    """
    kind, what = spec[0], spec[1]
    if kind == "nonnull":
        if value is None:
            raise TypeError(f"{what} must not be None")
        return _pb_fix_value(spec[2], value, False)
    if _pb_is_closed(value):
        raise ValueError(f"{what} is closed")
    if kind == "int":
        return _pb_index(value, what, spec[2], spec[3])
    if kind == "bool":
        return _pb_bool(value, what)
    if kind == "float":
        return _pb_float(value, what)
    if kind == "complex":
        return _pb_complex(value, what)
    if kind == "cstring":
        return _pb_cstring(value, what, len(spec) > 2 and spec[2], nullable)
    if kind in ("buffer", "writable_buffer"):
        # ("buffer", what, fewest bytes, the C pointer type, whether a str is taken,
        #  the tag of the cells taken and their names ("" for none: see emit.common.cells_taken))
        wanted = "a writable contiguous buffer" if kind == "writable_buffer" else "a contiguous buffer"
        if spec[6]:
            wanted += f" or a {spec[6]}"
        if spec[4]:  # characters: a str is taken too
            wanted = "str or " + wanted
        if isinstance(value, str) and spec[4]:
            value = _pb_encode(value, what, spec[4] == 2)  # 2: C reads as many as a length says
            _pb_check_size(memoryview(value), spec[2], what)
        elif isinstance(value, (Pointer, _pb_Record)) and spec[3]:  # "": a buffer with a length
            _pb_check_object_pointer(value, spec[3], what, wanted)
        elif isinstance(value, _pb_Cell) and spec[5]:
            if not _pb_cell_fits(value._pb_tag, spec[5]):
                raise TypeError(f"{what} must be {wanted}, not {type(value).__name__}")
        elif value is not None:
            view = _pb_buffer_of(value, what, kind == "writable_buffer", wanted)
            _pb_check_items(view, spec[5], spec[3], what)
            _pb_check_size(view, spec[2], what)
        return value
    if kind == "record":
        if not (value is None and spec[3]) and not isinstance(value, spec[2]):
            if issubclass(spec[2], Pointer) and type(value) is Pointer and value._ctype == "void *":
                return spec[2]._pb_from_void(value)  # C converts a void * to any object pointer
            raise _pb_wrong_record(value, spec[2], what, spec[3])
        return value
    if kind == "pointer":
        # ("pointer", what, C type, nullable): a Pointer of that type or of void *
        if value is None and spec[3]:
            return None
        if type(value) is not Pointer or not _pb_takes_pointer(value, spec[2]):
            raise _pb_pointer_error(what, spec[2], value, spec[3])
        return value
    if kind == "callback":
        # ("callback", what, the C function pointer type, nullable): a callable, or a
        # FunctionPointer of that type
        if value is None and spec[3]:
            return None
        if isinstance(value, FunctionPointer):
            if value._ctype != spec[2]:
                raise TypeError(f"{what} must be a {spec[2]}, not a FunctionPointer of type {value._ctype}")
            return value
        if not callable(value):
            raise TypeError(f"{what} must be a callable, a FunctionPointer or None, not {type(value).__name__}")
        return value
    if kind == "count":
        number = _pb_integer(value, what)
        if number < 0:
            raise ValueError(f"{what} must not be negative")
        if number > spec[3]:
            raise OverflowError(f"{what}: {number} is out of range [0, {spec[3]}]")
        return number
    # ("array", what, nullable, item spec or None, buffers accepted)
    if value is None:
        if spec[2]:
            return None
        raise TypeError(f"{what} must not be None")
    if spec[4]:
        try:
            view = memoryview(value)
        except TypeError:
            if spec[3] is None:
                raise TypeError(f"{what} must be a contiguous buffer, not {type(value).__name__}") from None
        else:
            if not view.contiguous:
                raise TypeError(f"{what} must be a contiguous buffer, not {type(value).__name__}")
            return value
    return [_pb_fix_value(spec[3], item) for item in _pb_sequence(value, what)]


def _pb_no_elements(pointer, verb="read"):
    """The error for ``p[...]`` (``verb``: ``read``, or ``write`` for ``p[...] = v``) on a Pointer
    whose elements Python cannot read or write (or a handle)."""
    if type(pointer).__name__ != "Pointer":  # a handle class (Pointer is a name no C declaration takes)
        return TypeError(f"{type(pointer).__name__} is a handle of an opaque type: it has no elements to {verb}")
    return TypeError(f"a Pointer of type {pointer._ctype} has no elements Python can {verb}")


def _pb_fix(specs, args):
    """The inputs checked and normalised, or the precise error for the first wrong one.

    The ctypes and cffi wrappers run their body again with what it returns.
    """
    return [_pb_fix_value(spec, value) for spec, value in zip(specs, args)]
# pegbind-paste: end argument_checks

# pegbind-paste: begin callbacks
# ---- runtime: Python callables C calls through a function pointer ----------
# An exception a callable raises cannot go through C: C is given a zero
# result, and the exception waits in _pb_pending for the thread's call from
# Python into this module to return, which raises it (every wrapper of a
# module that takes callables looks, right after C returns: a handler C calls
# during another function, as expat's during XML_Parse, counts too).  One
# raised with no Python beneath it on its thread (a thread C started) has no
# call to go to: it is reported through sys.unraisablehook.

#: thread ident -> the first exception a callable raised during that thread's call into C
_pb_pending: dict = {}
#: the closures of calls that gave no handle or record to keep them: by (function, parameter),
#: or by what _pb_slot makes of it
_pb_callbacks: dict = {}


def _pb_slot(key, *values):
    """What a callable is kept under where the call's integers and strings name its slot
    (sqlite3_create_function's name and arity, signal()'s number): ``key`` (the function and its
    parameter) and their values, so that only the same values given again replace it.  A
    buffer given for a string counts by its bytes, an ``__index__`` object by its int."""
    slot = (key, *values)
    try:
        hash(slot)
    except (TypeError, ValueError):  # a writable memoryview refuses with a ValueError
        slot = (key, *map(_pb_slot_value, values))
    return slot


def _pb_slot_value(value):
    """``value`` as :func:`_pb_slot` keeps it: itself where it can be hashed."""
    try:
        hash(value)
    except (TypeError, ValueError):
        return _operator.index(value) if hasattr(type(value), "__index__") else bytes(value)
    return value


class _pb_Unraisable:
    """An exception reported through sys.unraisablehook, as one a finalizer raises is."""

    __slots__ = ("error",)

    def __init__(self, error):
        self.error = error

    def __del__(self):
        raise self.error


def _pb_python_beneath():
    """Whether Python code runs beneath the callback on this thread (it called into C)."""
    try:
        frame = _sys._getframe(0)
    except ValueError:  # compiled callers leave no frame: none at all on a thread C started
        return False
    while frame:
        if frame.f_code.co_name not in (
                "_pb_python_beneath", "_pb_callback_failed", "_pb_int_refused", "_pb_trampoline", "_pb_refused"):
            return True
        frame = frame.f_back  # type: ignore[assignment]  # None ends the walk
    return False


def _pb_callback_failed(error):
    """What a closure does with what its callable raised: see above."""
    if _pb_python_beneath():
        _pb_pending.setdefault(_threading.get_ident(), error)
    else:
        _pb_Unraisable(error)  # collected at once, and reported


def _pb_hold():
    """On entering a callable while what another one raised waits on this thread (C goes on
    after a callable raised: sd-event runs its next timer): that exception, set aside until
    the callable returns, so that the module's functions it calls do not raise it."""
    return _pb_pending.pop(_threading.get_ident(), None)


def _pb_restore(held):
    """After the callable: the exception set aside waits again for the call C runs in. It
    was raised first: one the callable raised meanwhile is dropped, as every later one is."""
    _pb_pending[_threading.get_ident()] = held


def _pb_int_refused(value, what, lo, hi, error):
    """What a cffi closure does when cffi refused the exact int ``value`` its trampoline returned
    (cffi checks the range itself): fail with the error every backend gives, or cffi's ``error``."""
    try:
        _pb_index(value, what, lo, hi)
    except OverflowError as ours:
        error = ours
    _pb_callback_failed(error)


#: thread ident -> the exception a ctypes or cffi wrapper's fast path is raising for a callable
_pb_raising: dict = {}


def _pb_raise_kept(retry=None):
    """After C returned: the first exception a callable raised on this thread meanwhile, raised.

    ``retry``: raised inside a ctypes or cffi wrapper's fast path, whose handler takes
    these exceptions for argument errors: one of them is noted for :func:`_pb_not_kept`,
    which that handler calls at once (so nothing stays noted).
    """
    ident = _threading.get_ident()
    error = _pb_pending.pop(ident, None)
    if error is not None:
        if retry is not None and isinstance(error, retry):
            _pb_raising[ident] = error
        raise error


def _pb_not_kept(error):
    """In a ctypes or cffi wrapper, where its fast path hands an argument error over to the
    retry: ``error``, if a callable raised it while C ran, is raised on instead (C ran; to
    run the call again would repeat what it did)."""
    if _pb_raising.pop(_threading.get_ident(), None) is error:
        raise error
# pegbind-paste: end callbacks

# pegbind-paste: begin checks
# ---- runtime: what the ctypes and cffi wrappers and classes share ---------


def _pb_undeletable(what):
    """The deleter of the field ``what``, for its property.

    Not a ``__delattr__`` of the record classes: one written in Python takes
    over every attribute assignment too, and a wrapper filling in a new record
    (an out parameter) would pay for it on every call.
    """

    def deleter(self):
        _pb_no_delete(what)

    return deleter


_MISSING = object()
#: an instance of a record class without its __init__: how wrappers make the
#: record they return around C memory they have just allocated
_pb_new = object.__new__
#: an int argument as an exact int (TypeError for anything without __index__)
_pb_exact_int = _operator.index


def _pb_measure(value, size):
    """Whole elements of ``size`` bytes in a buffer argument (0 for None), for the length measured from it."""
    return 0 if value is None else memoryview(value).nbytes // size


def _pb_capacity(value, item):
    """How many items of ``item`` bytes an argument holds, for a length the header states
    beside it: none for None (NULL); a record, its size; -1 when that is not known (a Pointer
    or a handle: what C gave)."""
    if value is None:
        return 0
    if isinstance(value, Pointer):
        return -1
    if isinstance(value, _pb_Record):
        return type(value).sizeof // item
    if isinstance(value, str):
        return len(value.encode(errors="surrogatepass")) // item  # (what cannot be passed says so later)
    if isinstance(value, _pb_Cell):
        return value._pb_size // item
    return memoryview(value).nbytes // item


def _pb_once(value):
    """``value``, or a list of its items if it is an iterator (a generator, say).

    A wrapper may read an in-array argument twice (the fast path, then the
    run after _pb_fix), and an iterator gives its items only once.
    """
    try:
        single_pass = iter(value) is value
    except Exception:  # not iterable (None, a 2-D memoryview): for the checks to take or refuse
        return value
    return list(value) if single_pass else value


def _pb_rekey(keep, address, size, kept):
    """In a record's ``keep`` dict ((address, member) -> object), the ``size`` bytes at
    ``address`` now hold the pointers of ``kept`` ((offset, member) -> object): what
    was kept for the bytes overwritten goes, ``kept`` comes in at its new addresses."""
    for key in [key for key in keep if address <= key[0] < address + size]:
        del keep[key]
    for (offset, name), value in kept.items():
        keep[(address + offset, name)] = value


#: address -> what the objects of C at that address keep (the closures of callables given with
#: a handle, see _pb_keep_callback): C keeps its objects past every Python object standing for
#: one, so what they keep goes with the C object, once the module frees it (see _pb_Release,
#: _pb_disown), or with the module
_pb_kept_at: dict = {}


def _pb_forget_kept(address):
    """The C object at ``address`` is freed: what it kept goes, from every Python object for it."""
    kept = _pb_kept_at.pop(address, None)
    if kept:
        kept.clear()


class _pb_Release:
    """Frees C memory once with the library's function: when called (``close()``), or when
    collected, whichever comes first; ``cancel()`` when C freed it already."""

    __slots__ = ("_function", "_pointer")

    def __init__(self, function, pointer):
        self._function = function
        self._pointer = pointer

    def __call__(self):
        function, self._function = self._function, None
        if function is not None:
            function(self._pointer)
            _pb_forget_kept(_pb_address(self._pointer))

    def cancel(self):
        self._function = None

    __del__ = __call__


class _pb_Owner:
    """What Pointers and records share: ``close()`` frees what the object owns (see Pointer)."""

    __slots__ = ()

    def _pb_give_up(self):
        """The guard of what this object owns (None: nothing); the object is closed if it owned.

        Pointer and the record classes that may own memory say where they keep it.
        """
        return None

    def close(self):
        """Free what this object owns, now (once); one the library lends is left alone."""
        guard = self._pb_give_up()
        if guard is not None:
            guard()

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.close()


def _pb_own(obj, function, pointer):
    """``obj`` (a Pointer, handle or record view; None for NULL) now owns ``pointer``: ``function`` frees it."""
    if obj is not None:
        obj._pb_take(_pb_Release(function, pointer))
    return obj


def _pb_disown(obj):
    """C freed what ``obj`` (the first argument of a deallocator) owned, if it owned it: it is closed."""
    if isinstance(obj, Pointer) and obj._h is not _PB_CLOSED:
        _pb_forget_kept(_pb_address(obj._h))  # what C held for it is freed with it
    if isinstance(obj, _pb_Owner):
        guard = obj._pb_give_up()
        if guard is not None:
            guard.cancel()


class Pointer(_pb_Owner):
    """The address of C memory the library handed out, typed by its C type.

    ``int(p)`` is the address; two pointers are equal when their classes and
    addresses are.  Only the library makes them: functions return them and
    take them back where C takes a pointer of that type or ``void *``.  The
    handle classes of opaque types (``sqlite3``, ``CURL``) are subclasses.

    One an ownership rule gives (``returns = "owned(F)"``) frees its memory
    with ``F`` once: when it is collected, or on ``close()`` (also at the end
    of a ``with`` block); after that it is closed, and using it raises
    ValueError.  ``close()`` leaves what the library only lends alone.
    """

    __slots__ = ("_h", "_ctype", "_owner", "_free", "_keep", "_n")
    _h: object  #: the address, as the FFI holds it
    _ctype: str  #: the C pointer type (set on Pointer values; a handle's class says it)
    _owner: object  #: what must outlive the pointer: the argument or Library it came from
    _free: object  #: what frees the memory when this object goes (None: borrowed)
    _keep: dict  #: the closures of callables given with it that C may call later (set when there are)
    #: how many elements C said it points to (a callback's buffer); unset where it did not
    #: say, which costs every Pointer and handle made nothing (see _pb_counted_pointer)
    _n: int
    #: what repr calls a handle class's values (``Pointer`` values name their C type instead)
    _pb_kind = ""

    def __init__(self, *args, **kwargs):
        raise TypeError(f"{type(self).__name__} values are made by the library's functions")

    def __int__(self):
        if self._h is _PB_CLOSED:
            raise ValueError("the object is closed: the memory it stood for was freed")
        return _pb_address(self._h)

    def __eq__(self, other, /):
        # of one class, or one of them a void * Pointer, which C compares with any object pointer
        if type(other) is not type(self) and not (
                isinstance(other, Pointer) and (_pb_is_void(self) or _pb_is_void(other))):
            return NotImplemented
        if self._h is _PB_CLOSED or other._h is _PB_CLOSED:
            return self is other
        return _pb_address(self._h) == _pb_address(other._h)

    def __hash__(self):
        return id(self) if self._h is _PB_CLOSED else hash(_pb_address(self._h))

    def __repr__(self):
        what = self._pb_kind or self._ctype
        if self._h is _PB_CLOSED:
            return f"<{type(self).__name__} {what} (closed)>"
        return f"<{type(self).__name__} {what} at {_pb_address(self._h):#x}>"

    __reduce_ex__ = __reduce__ = _pb_no_copy

    def __getitem__(self, key):
        """``p[i]``: the element at index i; ``p[start:stop]``: a list of them."""
        element = _pb_elements.get(self._ctype) if not self._pb_kind else None
        if element is None:
            raise _pb_no_elements(self)
        if self._h is _PB_CLOSED:
            raise ValueError("the object is closed: the memory it stood for was freed")
        start, count, one = _pb_element_range(key, self._ctype, getattr(self, "_n", None))
        items = _pb_read_elements(self._h, element, start, count, self)  # views and handles keep it
        return items[0] if one else items

    def __iter__(self):
        """``for x in p``: the elements C said it gave (a callback's buffer with its size)."""
        if (_pb_elements.get(self._ctype) if not self._pb_kind else None) is None:
            raise _pb_no_elements(self)
        return _pb_elements_of(self, self._ctype, getattr(self, "_n", None))

    def __bytes__(self):
        """``bytes(p)``: those elements, as ``bytes(list(p))`` (Python's own message named the module)."""
        return bytes(self.__iter__())

    def __contains__(self, value):
        """``x in p``: whether one of those elements equals x."""
        for item in self.__iter__():
            if item == value:
                return True
        return False

    def __setitem__(self, key, value):
        """``p[i] = v``: the element at index i; ``p[start:stop] = values``: as many as it spans
        (``bytes`` for characters), as C writes through the pointer."""
        element = _pb_elements.get(self._ctype) if not self._pb_kind else None
        if element is None:
            raise _pb_no_elements(self, "write")
        if self._h is _PB_CLOSED:
            raise ValueError("the object is closed: the memory it stood for was freed")
        start, data = _pb_element_writes(self._ctype, _pb_element_limits[self._ctype], key, value,
                                          getattr(self, "_n", None))
        _pb_write_elements(self._h, element, start, data)

    @classmethod
    def _pb_from_void(cls, pointer):
        """A handle of this class for a ``void *`` Pointer, where C converts one to it."""
        return _pb_handle(cls, pointer._h, pointer)

    def _pb_take(self, guard):
        self._free = guard

    def _pb_give_up(self):
        """The guard of what this object owns (None: nothing); the object is closed if it owned."""
        guard, self._free = self._free, None
        if guard is not None:
            self._h = _PB_CLOSED
            self._keep = {}  # what C held for the object goes with it
        return guard


def _pb_callback(value, factory, ctype, keeper, key, selectors=None):
    """What C is given for a function pointer parameter: NULL for None, a FunctionPointer's
    address, or the address of a new closure (``factory``) calling ``value``; what is not NULL
    is kept alive with ``keeper`` (see :func:`_pb_keep_callback`). A TypeError for anything
    else (the wrapper's retry says what precisely)."""
    if value is None:
        return None
    if isinstance(value, FunctionPointer):
        if value._ctype != ctype:
            raise TypeError("a FunctionPointer of another type")
        _pb_keep_callback(keeper, key, value, selectors)  # it may hold a closure
        return value._ptr
    if not callable(value):
        raise TypeError("not a callable")
    closure, pointer = factory(value)
    _pb_keep_callback(keeper, key, closure, selectors)
    return pointer


def _pb_keep_callback(keeper, key, closure, selectors=None):
    """Keep ``closure`` alive with ``keeper`` (a handle or record; None: the module) under ``key``
    (the function and its parameter), in the place of what the same key kept before.

    ``selectors``: the values of the call's integers and strings, which may name one of many
    slots C keeps (see :func:`_pb_slot`): kept under those too, in the place of what the same
    values kept.  The last one given stays under ``key``, followed by its values, so that the
    same again, as a loop gives it, costs a wrapper a lookup and a comparison of identities."""
    if selectors is not None:
        _pb_keep_callback(keeper, _pb_slot(key, *selectors), closure)
        closure = (closure, *selectors)
    if keeper is None:
        _pb_callbacks[key] = closure
    elif isinstance(keeper, Pointer):
        kept = getattr(keeper, "_keep", None)
        if kept is None:
            # one the module owns keeps it with itself, freed together (a cycle through the
            # callable, expat's handler calling XML_GetCurrentLineNumber(p), is collected);
            # another by its address, not with the object: C keeps the callable with its own
            # object, which outlives the Python one (HarfBuzz's font funcs, set on a font, then
            # dropped: C called a released closure)
            keeper._keep = kept = {} if getattr(keeper, "_free", None) is not None else \
                _pb_kept_at.setdefault(_pb_address(keeper._h), {})
        elif kept is _pb_library_kept:  # a handle lent to a callback (see _pb_lent)
            key = (_pb_address(keeper._h), key)
        kept[key] = closure
    else:
        _pb_keep_record(keeper, key, closure)  # with what the record keeps for its members


def _pb_lent(handle):
    """``handle``, made for a callback's argument, keeping what is given with it as the
    library's memory keeps what its members are set to: by its address, for the module's life.

    The object is made for the callback and gone when it returns, while C keeps a callable
    registered on it with what it points to (Lua's ``lua_pushcclosure(L, f, 0)`` in a C
    function given ``L``); kept with the object, the callable was released, and C crashed
    calling it."""
    handle._keep = _pb_library_kept
    return handle


#: whether one of the module's closures was called since a call giving C a callable cleared it:
#: one that finds it clear when C returns gave a callable C did not call meanwhile, which C
#: keeps (see _pb_retain). A list's item, as a global rebound on every callback cost a tenth
#: of a ctypes round trip; another thread's callback may set it, or a call the callback makes
#: clear it: the one then keeps its callable as before, the other keeps it for longer.
_pb_called = [False]


def _pb_retain(keeper, key):
    """Keep what a call kept under ``key`` (see :func:`_pb_keep_callback`) for as long as
    ``keeper`` (None: the module), whatever the same key keeps next.

    The wrapper calls it when no closure of the module ran while C did: C did not call the
    callable given, so it keeps it to call later.  C may set it in the place of the one before
    (expat's handlers) or add it to those it holds (``lua_pushcclosure``, ``atexit``, GLib's
    ``g_idle_add``); which, the header does not say, and releasing a callable C still holds is a
    crash when C calls it.  So it is never released before its keeper: a callable given anew on
    every such call stays until then.  A callable C calls during the call (``qsort``'s
    comparator, ``sqlite3_exec``'s) is replaced as before."""
    if keeper is None:
        kept = _pb_callbacks.get(key)
    elif isinstance(keeper, Pointer):
        held = getattr(keeper, "_keep", None)
        kept = None if held is None else held.get(
            (_pb_address(keeper._h), key) if held is _pb_library_kept else key)
    else:
        kept = _pb_record_kept(keeper, key)
    if kept is not None:
        closure = kept[0] if kept.__class__ is tuple else kept
        _pb_keep_callback(keeper, f"{key} kept {id(closure)}", closure)


def _pb_is_void(value):
    """Whether ``value`` is a ``void *`` Pointer (not a handle)."""
    return type(value) is Pointer and value._ctype == "void *"


def _pb_handle(cls, pointer, owner):
    """A handle object for ``pointer`` (None for NULL), keeping ``owner`` alive."""
    if not pointer:
        return None
    obj = cls.__new__(cls)
    obj._h = pointer
    obj._owner = owner
    obj._free = None
    return obj


def _pb_pointer(pointer, ctype, owner):
    """A :class:`Pointer` of C type ``ctype`` for ``pointer`` (None for NULL), keeping ``owner`` alive."""
    obj = _pb_handle(Pointer, pointer, owner)
    if obj is not None:
        obj._ctype = ctype
    return obj


def _pb_counted_pointer(pointer, ctype, count, owner=None):
    """A :class:`Pointer` (None for NULL) a callback is given with ``count`` elements: C said so
    (a negative count says nothing: not bounded); also the first element of an array a record
    holds, bounded by its length, keeping ``owner`` alive."""
    obj = _pb_pointer(pointer, ctype, owner)
    if obj is not None and count >= 0:
        obj._n = count
    return obj


class _pb_Cell:
    """One C object of an arithmetic type, made by Python (``c_ulong(5)``).

    Passed where C takes a pointer to its type, it gives C its address;
    ``.value`` reads and sets the object (range-checked as arguments are).
    Each module's cell classes subclass it with the FFI's storage.
    """

    __slots__ = ("_c",)
    _c: object  #: the C object, as the FFI holds it
    #: kind, signedness and size (``"u8"``): a pointer parameter takes the cells of its tag
    _pb_tag = ""
    #: bytes of the C object
    _pb_size = 0

    def __repr__(self):
        return f"{type(self).__name__}({self.value!r})"  # type: ignore[attr-defined]  # each subclass has one

    __reduce_ex__ = __reduce__ = _pb_no_copy


class _pb_Record(_pb_Owner):
    """The base of every record class: what a ``void *`` parameter takes as the record's address,
    and ``close()`` (each record class says where its FFI keeps what it owns)."""

    #: the hash, worked out the first time it is asked (see __hash__)
    __slots__ = ("_pb_hash",)
    _pb_hash: int
    sizeof: int  #: each record class's own: the bytes of its C type

    def _pb_take(self, guard):
        raise TypeError(f"{type(self).__name__} records cannot own memory")  # each record class says how

    def __eq__(self, other, /):
        # the same C object, as C's == of two pointers to it: of one class, at one address (a
        # view of a record's memory is equal to the record; two records of equal bytes are not)
        if type(other) is not type(self):
            return NotImplemented
        if _pb_is_closed(self) or _pb_is_closed(other):
            return self is other
        return _pb_record_address(self) == _pb_record_address(other)

    def __hash__(self):
        # by address, kept from the first time it is asked: closing a record (its memory freed)
        # changes no hash, as a set or dict holding it needs
        try:
            return self._pb_hash
        except AttributeError:
            self._pb_hash = id(self) if _pb_is_closed(self) else hash(_pb_record_address(self))
            return self._pb_hash


def _pb_missing(message):
    """What a Library holds for a function its library lacks: calling it raises AttributeError."""
    def missing(*args, **kwargs):
        raise AttributeError(message)
    return missing


def _pb_unlinked(name):
    """In the place of the wrapper of a function no loaded library defines: raises when called."""
    return _pb_missing(f"no loaded library defines {name!r}")
# pegbind-paste: end checks


# pegbind-paste: begin records
# ---- runtime: what record classes check and keep for their pointer members --
# A pointer member keeps what it was set to alive with the record, under the
# member (each FFI's _pb_keep); a value read from it (a view, a handle, a
# Pointer) keeps alive the record and that object, so that setting the member
# again cannot free memory the value still points into.


def _pb_field_owner(root, kept):
    """What a value read from a pointer member keeps alive: the record owning the memory (``root``),
    and ``kept``, what the record holds for that member (None: nothing)."""
    return root if kept is None else (root, kept)


def _pb_held(kept):
    """The bytes of what a record holds for a pointer-to-characters member (-1: nothing)."""
    return -1 if kept is None else len(kept)


def _pb_until_nul(data):
    """``data`` (bytes) up to its first NUL: what C reads as a string from a buffer of known size."""
    end = data.find(b"\0")
    return data if end < 0 else data[:end]


def _pb_text_value(value, what, private):
    """The object a pointer-to-characters member is set to point into (not None).

    A str is its UTF-8 bytes, which must hold no NUL; bytes and other buffers
    are taken as they are, except that read-only memory becomes a private
    (writable) copy when ``private``: C may write through a pointer to
    non-const characters, and never into an immutable object.
    """
    if isinstance(value, str):
        value = _pb_encode(value, what)
    try:
        view = memoryview(value)
    except TypeError:
        raise TypeError(f"{what} must be str, bytes, a buffer or None, not {type(value).__name__}") from None
    if not view.contiguous:
        raise TypeError(f"{what} must be str, bytes, a buffer or None, not {type(value).__name__}")
    if private and view.readonly:
        return bytearray(view)
    return value


def _pb_record_value(value, cls, what):
    """Check what a pointer-to-record member is set to: an instance of ``cls``, or None."""
    if value is not None and not isinstance(value, cls):
        raise TypeError(f"{what} must be a {cls.__name__} or None, not {type(value).__name__}")


def _pb_handle_value(value, cls, what):
    """Check what a handle member is set to: a handle of ``cls``, a ``void *`` Pointer (C converts
    it to any object pointer), or None."""
    if value is None or isinstance(value, cls) or type(value) is Pointer and value._ctype == "void *":
        return
    raise TypeError(f"{what} must be a {cls.__name__} or None, not {type(value).__name__}")
# pegbind-paste: end records


# pegbind-paste: begin varargs
# ---- runtime: the extra arguments of a variadic function ------------------
# C states no type for what follows a "...": the caller's own types, after C's
# default argument promotions, are what the callee reads.  So an int goes as
# an integer as wide as a pointer (the widest C reads by va_arg but for long
# double), a float as a double, text and buffers as pointers to their bytes,
# records, Pointers and FunctionPointers as their addresses, a cell as its
# address (an out-parameter: curl_easy_getinfo), None as NULL; a cell class's
# arg() gives a value of exactly its type where a promotion is not what C reads
# (a long double).  Each module spells the values for its FFI: _pb_va_signed,
# _pb_va_unsigned, _pb_va_double, _pb_va_address, _pb_va_bytes, _pb_va_buffer,
# _pb_va_object and _pb_va_cell.


class _pb_Arg:
    """A value of one exact C type for a variadic function's extra arguments (``c_long.arg(1)``),
    passed as that type (promoted as C promotes it: a short as an int, a float as a double)."""

    __slots__ = ("_c", "_cell", "value")
    _c: object  #: the value as the FFI passes it
    _cell: str  #: the name of the cell class that made it
    value: object  #: its Python value

    def __init__(self, *args, **kwargs):
        raise TypeError("typed arguments are made by a cell class's arg(), as c_int.arg(5)")

    def __repr__(self):
        return f"{self._cell}.arg({self.value!r})"

    __reduce_ex__ = __reduce__ = _pb_no_copy


def _pb_arg(cls, value, passed):
    """The typed argument of the cell class ``cls`` holding ``value``, passed to C as ``passed``."""
    arg = object.__new__(_pb_Arg)
    arg._c = passed
    arg._cell = cls.__name__
    arg.value = value
    return arg


def _pb_vararg_error(value, what):
    if callable(value) and not isinstance(value, type):
        return TypeError(f"{what} must be a FunctionPointer, not a callable: C states no type for a variable "
                         "argument to call it by (make one with the class of its function pointer type)")
    return TypeError(f"{what} must be an int, float, str, bytes, buffer, record, Pointer, FunctionPointer, "
                     f"cell, typed argument (c_int.arg(5)) or None, not {type(value).__name__}")


def _pb_varargs(args, first, keeper, slot):
    """What C is given for the extra arguments ``args`` of a variadic call, numbered from ``first``
    in messages.  A FunctionPointer among them lives with ``keeper`` (as a callable given for a
    parameter does) under ``slot`` and its position."""
    passed = []
    kept = []
    bits = _PB_VA_BITS  # how wide an int goes
    lo, hi, top = -(1 << (bits - 1)), (1 << (bits - 1)) - 1, (1 << bits) - 1
    for number, value in enumerate(args, first):
        what = f"argument {number} (...)"
        cls = value.__class__
        integer = value if cls is int else None
        if integer is None and hasattr(cls, "__index__") and not isinstance(value, (Pointer, _pb_Cell)):
            try:
                integer = _operator.index(value)  # an int, an IntEnum member, a numpy integer
            except TypeError:  # an __index__ that refuses (a numpy array): maybe a buffer
                pass
        if integer is not None:
            if lo <= integer <= hi:
                passed.append(_pb_va_signed(integer))
            else:
                passed.append(_pb_va_unsigned(_pb_index(integer, what, lo, top)))
        elif value is None:
            passed.append(_pb_va_address(0))
        elif cls is float or isinstance(value, float):
            passed.append(_pb_va_double(float(value)))
        elif cls is str:
            passed.append(_pb_va_bytes(_pb_encode(value, what)))
        elif cls is bytes:
            passed.append(_pb_va_bytes(value))
        elif cls is _pb_Arg:
            passed.append(value._c)
        elif isinstance(value, FunctionPointer):
            passed.append(_pb_va_address(int(value)))
            kept.append((number - first, value))
        elif isinstance(value, (Pointer, _pb_Record)):
            passed.append(_pb_va_object(value, what))  # a closed one raises ValueError
        elif isinstance(value, _pb_Cell):
            passed.append(_pb_va_cell(value))
        else:
            try:
                view = memoryview(value)
            except TypeError:
                raise _pb_vararg_error(value, what) from None
            if not view.contiguous:
                raise TypeError(f"{what} must be a contiguous buffer, not {type(value).__name__}")
            passed.append(_pb_va_buffer(value, view))
    if kept and (keeper is None or isinstance(keeper, (Pointer, _pb_Record))):
        for position, pointer in kept:
            _pb_keep_callback(keeper, (*slot, position), pointer)
    return passed
# pegbind-paste: end varargs
