"""jansson from Python in each backend, with the ownership rules of pegbind.toml.

Builds the binding with each backend into a folder of its own, then, in a
fresh interpreter for each, parses a document, walks it, writes it back, and
runs load/dump 200,000 times to show the memory the library hands out is
given back: the process's resident size stays flat.
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROUNDS = int(os.environ.get("PEGBIND_DEMO_ROUNDS", "200000"))

USE = """
import sys
sys.path.insert(0, sys.argv[1])
import jansson as m

doc = m.json_loads('{"a": [1, 2], "b": "text"}', 0, None)  # owned: json_delete frees it
print("json_loads(...)                 ", doc)
print("type of the root                ", doc.type)
print("a[1]                            ", m.json_integer_value(m.json_array_get(m.json_object_get(doc, "a"), 1)))
print("json_dumps(doc, JSON_SORT_KEYS) ", m.json_dumps(doc, m.JSON_SORT_KEYS))  # owned: free()d after the copy

def resident():
    with open("/proc/self/statm") as stats:
        return int(stats.read().split()[1]) * 4096

rounds = int(sys.argv[2])
for _ in range(2000):  # the allocator settles first
    m.json_dumps(m.json_loads('{"a": [1, 2]}', 0, None), 0)
before = resident()
for _ in range(rounds):
    m.json_dumps(m.json_loads('{"a": [1, 2]}', 0, None), 0)
grown = resident() - before
print(f"{rounds} loads and dumps          resident size grew by {grown / 2**20:.2f} MiB")
"""


def main() -> int:
    failed = 0
    for backend in ("cython", "cffi", "ctypes"):
        out = Path(os.environ.get("PEGBIND_DEMO_OUT", tempfile.mkdtemp(prefix="jansson-demo-"))) / backend
        print(f"== {backend}")
        built = subprocess.run(
            [sys.executable, "-m", "pegbind", "build", "-c", str(HERE / "pegbind.toml"), "--backend", backend,
             "-o", str(out)], capture_output=True, text=True, env=dict(os.environ, CFLAGS="-O1"),
        )
        if built.returncode != 0:
            print(built.stderr)
            failed += 1
            continue
        ran = subprocess.run([sys.executable, "-c", USE, str(out), str(ROUNDS)], capture_output=True, text=True)
        print(ran.stdout + ran.stderr, end="")
        failed += ran.returncode != 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
