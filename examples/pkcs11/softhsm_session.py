"""The hand-written layer around the generated ``pkcs11`` module, for SoftHSM.

What goes in: a built ``pkcs11`` module (any backend) and the SoftHSM module
path.  What comes out: a throw-away token directory, an initialised library,
sessions as context managers and attribute templates whose value buffers stay
alive while the C side points at them.  Everything cryptographic is a call on
the generated module; this file only spares the demo, the tests and the
benchmark from repeating the same set-up.  It imports nothing from pegbind:
a user of the generated module could ship it as it is.
"""
from __future__ import annotations

import importlib
import os
import re
import shutil
import struct
import subprocess
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, Iterator, Mapping, Sequence

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
CONFIG = HERE / "pegbind.toml"
SOFTHSM_MODULE = Path("/usr/lib/softhsm/libsofthsm2.so")

#: header family -> the header given to ``pegbind build`` (None: the config's own, NSS's)
HEADER_FAMILIES: dict[str, Path | None] = {
    "nss": None,
    "softhsm": Path("/usr/include/softhsm/pkcs11.h"),
}
BACKENDS = ("cython", "cffi", "ctypes")

SO_PIN = b"0000"
USER_PIN = b"1234"


class BuildFailed(RuntimeError):
    """``pegbind build`` did not produce a module; the message holds its output."""


# --------------------------------------------------------------------------
# Generating and importing the module
# --------------------------------------------------------------------------


def build_command(out_dir: Path, *, backend: str = "cython", family: str = "nss", name: str = "pkcs11") -> list[str]:
    """The ``pegbind build`` command line for one backend and header family."""
    command = [sys.executable, "-m", "pegbind", "build", "--config", str(CONFIG),
               "--backend", backend, "--name", name, "-o", str(out_dir)]
    header = HEADER_FAMILIES[family]
    if header is not None:
        command.append(str(header))
    return command


def build_module(out_dir: Path, *, backend: str = "cython", family: str = "nss", name: str = "pkcs11",
                 cflags: str | None = None) -> subprocess.CompletedProcess:
    """Generate and compile the binding into ``out_dir``; BuildFailed carries pegbind's own messages.

    ``cflags``: the C compiler's flags after pegbind's own (``-O0`` where only behaviour counts).
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ)
    if cflags is not None:
        env["CFLAGS"] = cflags
    # Run from the source tree as well as from an installed pegbind.
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    result = subprocess.run(build_command(out_dir, backend=backend, family=family, name=name),
                            cwd=ROOT, env=env, capture_output=True, text=True)
    if result.returncode != 0:
        raise BuildFailed(f"pegbind build ({backend}, {family} headers) failed:\n{result.stderr}{result.stdout}")
    return result


def describe_failure(exc: BaseException) -> str:
    """One line saying why a backend is not available: the compiler's first error, else the last line."""
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    located = [line for line in lines if re.search(r":\d+:\d+: error:", line)]
    errors = located or [line for line in lines if "error:" in line or "Error:" in line]
    return f"{type(exc).__name__}: {(errors or lines or [''])[0 if errors else -1]}"


def import_module(out_dir: Path, name: str = "pkcs11") -> ModuleType:
    """Import the module ``build_module`` wrote (each build gets its own name, so several coexist)."""
    folder = str(out_dir)
    if folder not in sys.path:
        sys.path.insert(0, folder)
    return importlib.import_module(name)


# --------------------------------------------------------------------------
# A throw-away SoftHSM
# --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SoftHSMHome:
    """A SoftHSM configuration whose tokens live in ``folder/tokens``."""

    folder: Path

    @property
    def conf(self) -> Path:
        return self.folder / "softhsm2.conf"

    @property
    def env(self) -> dict[str, str]:
        return dict(os.environ, SOFTHSM2_CONF=str(self.conf))

    @classmethod
    def create(cls, folder: Path) -> "SoftHSMHome":
        (folder / "tokens").mkdir(parents=True, exist_ok=True)
        home = cls(folder)
        home.conf.write_text(
            f"directories.tokendir = {folder / 'tokens'}\n"
            "objectstore.backend = file\n"
            "log.level = ERROR\n"
        )
        return home

    def init_token(self, label: str = "demo", so_pin: bytes = SO_PIN, pin: bytes = USER_PIN) -> None:
        """Initialise a token in the first free slot, with softhsm2-util (as an administrator would)."""
        subprocess.run(
            ["softhsm2-util", "--init-token", "--free", "--label", label,
             "--so-pin", so_pin.decode(), "--pin", pin.decode()],
            env=self.env, check=True, capture_output=True, text=True,
        )

    def activate(self) -> None:
        """Point this process at this configuration; SoftHSM reads it in C_Initialize."""
        os.environ["SOFTHSM2_CONF"] = str(self.conf)

    def private_module(self, tag: str = "private") -> Path:
        """A copy of libsofthsm2.so under its own path: dlopen gives each path its own instance."""
        copy = self.folder / f"libsofthsm2-{tag}.so"
        if not copy.exists():
            shutil.copy2(SOFTHSM_MODULE.resolve(), copy)
        return copy


# --------------------------------------------------------------------------
# Library, sessions, templates
# --------------------------------------------------------------------------


def initialize(p11: ModuleType, module_path: Path | str) -> Any:
    """Load a PKCS#11 module and C_Initialize it for use from several threads.

    Without initialisation arguments SoftHSM assumes a single thread and turns
    its locks off; CKF_OS_LOCKING_OK asks it to use the system's mutexes, which
    the GIL-releasing calls need.
    """
    lib = p11.load(str(module_path))
    args = p11.CK_C_INITIALIZE_ARGS(flags=p11.CKF_OS_LOCKING_OK)
    try:
        lib.C_Initialize(args)
    except TypeError:
        # pInitArgs is a CK_VOID_PTR: a backend may want a plain writable buffer.
        lib.C_Initialize(bytearray(bytes(args)))
    return lib


def token_slots(p11: ModuleType, lib: Any) -> list[int]:
    """Slots that hold an initialised token (C_GetSlotList with tokenPresent)."""
    return [slot for slot in lib.C_GetSlotList(True)
            if lib.C_GetTokenInfo(slot).flags & p11.CKF_TOKEN_INITIALIZED]


@contextmanager
def session(p11: ModuleType, lib: Any, slot: int, pin: bytes | None = USER_PIN, *, rw: bool = True) -> Iterator[int]:
    """An open session (logged in as the user when ``pin`` is given), closed on exit."""
    flags = p11.CKF_SERIAL_SESSION | (p11.CKF_RW_SESSION if rw else 0)
    handle = lib.C_OpenSession(slot, flags)
    try:
        if pin is not None:
            lib.C_Login(handle, p11.CKU_USER, pin)
        yield handle
    finally:
        try:
            lib.C_CloseSession(handle)
        except p11.Error:
            pass  # the session is gone already (e.g. the test closed it on purpose)


def encode_value(value: bool | int | bytes | str) -> bytes:
    """An attribute value as PKCS#11 stores it: CK_BBOOL, CK_ULONG or raw bytes."""
    if isinstance(value, bool):
        return b"\x01" if value else b"\x00"
    if isinstance(value, int):
        return struct.pack("@L", value)  # CK_ULONG is C's unsigned long
    if isinstance(value, str):
        return value.encode("utf-8")
    return bytes(value)


def decode_ulong(data: bytes) -> int:
    return struct.unpack("@L", data)[0]


class Template:
    """A CK_ATTRIBUTE array built from ``{CKA_...: value}``; the value buffers live as long as it does."""

    def __init__(self, p11: ModuleType, attributes: Mapping[int, Any] | Sequence[tuple[int, Any]]):
        items = attributes.items() if isinstance(attributes, Mapping) else attributes
        # bytearrays: the module may write into them (C_GetAttributeValue)
        self.buffers = [bytearray(encode_value(value)) if value is not None else None for _, value in items]
        self.attributes = [
            p11.CK_ATTRIBUTE(type=kind, pValue=buffer, ulValueLen=len(buffer) if buffer is not None else 0)
            for (kind, _), buffer in zip(items, self.buffers)
        ]

    def __iter__(self):
        return iter(self.attributes)

    def __len__(self) -> int:
        return len(self.attributes)


def get_attributes(p11: ModuleType, lib: Any, handle: int, sess: int, kinds: Sequence[int]) -> dict[int, bytes]:
    """Attribute values of an object: ask for the lengths, allocate, ask for the values."""
    probe = Template(p11, [(kind, None) for kind in kinds])
    lib.C_GetAttributeValue(sess, handle, probe.attributes)
    sizes = [attribute.ulValueLen for attribute in probe.attributes]
    filled = Template(p11, [(kind, bytes(size)) for kind, size in zip(kinds, sizes)])
    lib.C_GetAttributeValue(sess, handle, filled.attributes)
    return {kind: bytes(buffer[: attribute.ulValueLen])
            for kind, buffer, attribute in zip(kinds, filled.buffers, filled.attributes)}


# --------------------------------------------------------------------------
# Timing (the demo's speed table and benchmarks/pkcs11_softhsm.py)
# --------------------------------------------------------------------------

#: label -> what benchmarks/pkcs11_floor.c prints for the same call
SPEED_CALLS = {
    "C_GetInfo()": "C_GetInfo",
    "C_GenerateRandom(16)": "C_GenerateRandom",
    "C_DigestInit+C_Digest(64 B)": "C_Digest",
}


def speed_calls(p11: ModuleType, lib: Any, sess: int) -> dict[str, Any]:
    """The timed calls, the same for every backend and for the C floor."""
    sha256 = p11.CK_MECHANISM(mechanism=p11.CKM_SHA256)
    data = bytes(64)

    def digest() -> None:
        lib.C_DigestInit(sess, sha256)
        lib.C_Digest(sess, data)

    return {
        "C_GetInfo()": lib.C_GetInfo,
        "C_GenerateRandom(16)": lambda: lib.C_GenerateRandom(sess, 16),
        "C_DigestInit+C_Digest(64 B)": digest,
    }


def per_call_ns(call: Any, calls: int, rounds: int) -> list[float]:
    """Nanoseconds per call, one figure per round of ``calls`` calls."""
    figures = []
    for _ in range(rounds):
        start = time.perf_counter_ns()
        for _ in range(calls):
            call()
        figures.append((time.perf_counter_ns() - start) / calls)
    return figures
