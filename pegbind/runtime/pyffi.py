"""Runtime support pasted into the modules pegbind generates: the argument checks of every backend.

This is the Python the backends share.  The ``argument_checks`` section is in
every generated module, the Cython one included: the checks a wrapper falls
back on when its fast path rejects an argument (normalising an ``__index__``
object, or naming the argument in the error every backend raises), and the
functions that word those errors.  The ``checks`` section is what only the
ctypes and cffi modules need: helpers of their wrappers and of their record,
handle and library classes.  Nothing here knows ctypes, cffi or Cython.

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
# The pasted code carries no annotations (they would land in every generated
# module), so the checker is told to read the bodies of untyped functions.
# Its one blind ``except`` is meant: iter() of an arbitrary object may raise
# any exception (a 2-D memoryview refuses iteration with one of its own, a
# custom __iter__ raises what it likes), and the checks after it give the
# precise error.
# Every generated module imports operator under this name.
import operator as _operator

# pegbind-paste: begin argument_checks
# ---- runtime: the argument checks of every backend, and their messages ---
# A wrapper converts its arguments on a fast path; whatever that path rejects
# comes here (_pb_fix), to be either normalised (an object with __index__,
# None for a pointer) or turned into the error every backend raises for it,
# with the same message: the ctypes and cffi wrappers call _pb_fix before
# running their body again, the Cython ones _pb_fix_value on their error path
# only, for the value their C conversion refused.


def _pb_no_copy(self, protocol=None):
    """``__reduce_ex__`` and ``__reduce__`` of records, handles, function pointers and libraries.

    They hold addresses (and keep the memory behind them alive): a pickled
    address means nothing in another process, and a copy would share memory
    it does not own.  ``bytes(record)`` and ``from_bytes`` copy a record's
    bytes where that is safe.
    """
    raise TypeError(f"cannot pickle or copy {type(self).__name__} objects")


def _pb_read_only(what):
    """The setter of a field C alone writes (a ``char *`` it owns, an address of no known type)."""
    raise AttributeError(f"{what} is read-only")


def _pb_no_delete(what):
    """The deleter of every field: a field is C memory, which can be assigned but not removed."""
    raise AttributeError(f"{what} cannot be deleted")


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


def _pb_bool(value, what):
    """``value`` as C's _Bool takes it: any integer (through __index__), true when not zero."""
    return bool(_pb_integer(value, what))


def _pb_float(value, what):
    # As PyFloat_AsDouble: __float__ or __index__, never a parse of a string.
    kind = type(value)
    if not (hasattr(kind, "__float__") or hasattr(kind, "__index__")):
        raise TypeError(f"{what} must be a real number, not {kind.__name__}")
    return float(value)


def _pb_view_of(value, what, writable):
    """A contiguous memoryview of ``value`` (writable when asked), or the TypeError Cython raises."""
    wanted = "a writable contiguous buffer" if writable else "a contiguous buffer"
    try:
        view = memoryview(value)
    except TypeError:
        raise TypeError(f"{what} must be {wanted}, not {type(value).__name__}") from None
    if not view.contiguous or (writable and view.readonly):
        raise TypeError(f"{what} must be {wanted}, not {type(value).__name__}")
    return view


def _pb_check_size(view, size, what):
    if view.nbytes < size:
        raise ValueError(f"{what} needs at least {size} bytes, got {view.nbytes}")


def _pb_cstring(value, what):
    """bytes (or None) for a ``const char *``: other buffers are copied, so the NUL is there."""
    if value is None or value.__class__ is bytes:
        return value
    try:
        view = memoryview(value)
    except TypeError:
        raise TypeError(f"{what} must be bytes, a buffer or None, not {type(value).__name__}") from None
    return view.tobytes()


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


def _pb_wrong_record(value, cls, what, nullable):
    """The TypeError for ``value`` where an instance of the record or handle class ``cls`` was
    wanted (or None, when ``nullable``); the wrappers raise it when their own check refuses."""
    wanted = cls.__name__ + (" or None" if nullable else "")
    return TypeError(f"{what} must be {wanted}, not {type(value).__name__}")


def _pb_fix_value(spec, value):
    """``value`` checked and normalised as ``spec`` says (see pegbind.emit.pywrapper.arg_spec), or its error.

    A Cython wrapper calls it after its own conversion of the value failed,
    for the error every backend raises (the conversion's stands when it
    returns).
    """
    kind, what = spec[0], spec[1]
    if kind == "nonnull":
        if value is None:
            raise TypeError(f"{what} must not be None")
        return _pb_fix_value(spec[2], value)
    if kind == "int":
        return _pb_index(value, what, spec[2], spec[3])
    if kind == "bool":
        return _pb_bool(value, what)
    if kind == "float":
        return _pb_float(value, what)
    if kind == "cstring":
        return _pb_cstring(value, what)
    if kind in ("buffer", "writable_buffer"):
        if value is not None:
            _pb_check_size(_pb_view_of(value, what, kind == "writable_buffer"), spec[2], what)
        return value
    if kind == "record":
        if not (value is None and spec[3]) and not isinstance(value, spec[2]):
            raise _pb_wrong_record(value, spec[2], what, spec[3])
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


def _pb_fix(specs, args):
    """The inputs checked and normalised, or the precise error for the first wrong one.

    The ctypes and cffi wrappers run their body again with what it returns.
    """
    return [_pb_fix_value(spec, value) for spec, value in zip(specs, args)]
# pegbind-paste: end argument_checks

# pegbind-paste: begin checks
# ---- runtime: what the ctypes and cffi wrappers and classes share ---------

_MISSING = object()
#: an instance of a record class without its __init__: how wrappers make the
#: record they return around C memory they have just allocated
_pb_new = object.__new__
#: an int argument as an exact int (TypeError for anything without __index__)
_pb_exact_int = _operator.index


def _pb_measure(value, size):
    """Whole elements of ``size`` bytes in a buffer argument (0 for None), for the length measured from it."""
    return 0 if value is None else memoryview(value).nbytes // size


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


def _pb_handle(cls, pointer, owner):
    """A handle object for ``pointer`` (None for NULL), keeping ``owner`` (the Library) alive."""
    if not pointer:
        return None
    obj = cls.__new__(cls)
    obj._h = pointer
    obj._owner = owner
    return obj


def _pb_missing(message):
    """What a Library holds for a function its library lacks: calling it raises AttributeError."""
    def missing(*args, **kwargs):
        raise AttributeError(message)
    return missing


def _pb_unlinked(name):
    """In the place of the wrapper of a function no loaded library defines: raises when called."""
    return _pb_missing(f"no loaded library defines {name!r}")
# pegbind-paste: end checks
