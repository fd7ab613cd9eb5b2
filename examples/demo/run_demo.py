"""The demo behind ``make demo``: a C library, its header, and the binding pegbind makes of it.

1. compiles ``vecmath.c`` into ``demo-out/lib/libvecmath.so`` (the C library a user already has);
2. runs ``pegbind build`` with ``pegbind.toml`` — reads ``vecmath.h`` itself, generates a Cython
   ``.pxd``/``.pyx``/``.pyi`` and compiles them into an extension module;
3. imports the extension and calls into the C library, showing results and how bad arguments
   are refused with Python exceptions instead of crashes.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
# make demo writes to demo-out/; the test suite points this elsewhere.
OUT = Path(os.environ.get("PEGBIND_DEMO_OUT", ROOT / "demo-out"))


def step(text: str) -> None:
    print(f"\n== {text}")


def run(command: list[str]) -> None:
    print("$ " + " ".join(str(c) for c in command))
    subprocess.run(command, check=True, cwd=ROOT)


def show(expression: str, namespace: dict) -> None:
    """Evaluate ``expression`` the way a user would type it, and print what happens."""
    try:
        result = eval(expression, namespace)
    except Exception as exc:  # the demo shows the exception a caller would see
        print(f"  {expression:<48} raises {type(exc).__name__}: {exc}")
    else:
        print(f"  {expression:<48} -> {result!r}")


def main() -> int:
    step("1. Build the C library that we want to call from Python")
    (OUT / "lib").mkdir(parents=True, exist_ok=True)
    run(["gcc", "-shared", "-fPIC", "-O2", str(HERE / "vecmath.c"), "-o", str(OUT / "lib" / "libvecmath.so"), "-lm"])

    step("2. pegbind reads vecmath.h and builds a Cython extension")
    run([sys.executable, "-m", "pegbind", "build", "--config", str(HERE / "pegbind.toml"),
         "-o", str(OUT), "-L", str(OUT / "lib")])
    for path in sorted(OUT.glob("vecmath.*")):
        print(f"  generated {path.name}")

    step("3. Import the generated module and call the C library")
    sys.path.insert(0, str(OUT))
    import vecmath  # noqa: E402  (built just above)

    namespace = {"vecmath": vecmath}
    print("  Constants from #define and enum:")
    for name in ("VECMATH_VERSION", "VECMATH_VERSION_MAJOR", "VECMATH_ALL_FLAGS", "VECMATH_MAX_POINTS", "VM_ERR_RANGE"):
        show(f"vecmath.{name}", namespace)
    print("  Function calls:")
    show("vecmath.vm_add(2, 40)", namespace)
    show("vecmath.vm_add(2**31 - 1, 1)", namespace)
    show("vecmath.vm_scale(2**40, 3)", namespace)
    show("vecmath.vm_checksum(b'Wikipedia', 9)", namespace)
    show("vecmath.vm_version()", namespace)
    namespace["buf"] = bytearray(4)
    show("vecmath.vm_fill(buf, 4, 0x2a)", namespace)
    show("buf", namespace)
    print("  Structs are classes with keyword constructors:")
    show("vecmath.vm_point(x=3.0, y=4.0)", namespace)
    show("vecmath.vm_distance(vecmath.vm_point(x=0.0, y=0.0), vecmath.vm_point(x=3.0, y=4.0))", namespace)
    namespace["mid"] = vecmath.vm_point()
    show("vecmath.vm_midpoint(vecmath.vm_point(x=0.0, y=0.0), vecmath.vm_point(x=2.0, y=6.0), mid)", namespace)
    show("mid", namespace)
    print("  Bad arguments raise Python exceptions, never crash:")
    show("vecmath.vm_add(2**40, 1)", namespace)
    show("vecmath.vm_add('two', 1)", namespace)
    show("vecmath.vm_scale(-1, 2)", namespace)
    show("vecmath.vm_fill(b'read-only', 4, 0)", namespace)
    print("  None is passed as NULL; this library checks for it and says so:")
    show("vecmath.vm_midpoint(None, None, mid)", namespace)
    print("\nhelp(vecmath.vm_checksum) shows the header's comment:")
    print("  " + (vecmath.vm_checksum.__doc__ or "").strip().replace("\n", "\n  "))
    return 0


if __name__ == "__main__":
    sys.exit(main())
