"""Every example under examples/ has a README and runs to completion."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from conftest import EXAMPLES, ROOT

EXAMPLE_DIRS = sorted(p for p in EXAMPLES.iterdir() if p.is_dir())


@pytest.mark.parametrize("example", EXAMPLE_DIRS, ids=lambda p: p.name)
def test_example_has_readme(example):
    assert (example / "README.md").is_file()


@pytest.mark.slow
def test_demo_runs_end_to_end(tmp_path):
    env = dict(os.environ, PEGBIND_DEMO_OUT=str(tmp_path / "demo-out"), PYTHONPATH=str(ROOT))
    result = subprocess.run(
        [sys.executable, str(EXAMPLES / "demo" / "run_demo.py")], env=env, capture_output=True, text=True, timeout=600
    )
    assert result.returncode == 0, result.stdout + result.stderr
    out = result.stdout
    assert "vecmath.vm_add(2, 40)" in out and "-> 42" in out
    assert "vecmath.vm_add(2**40, 1)" in out and "raises OverflowError" in out
    assert "Traceback" not in out + result.stderr


@pytest.mark.slow
def test_pkcs11_demo_runs_end_to_end(tmp_path):
    # -O0: what is tested is that the demo runs; gcc -O2 takes 90 s on the Cython module alone
    env = dict(os.environ, PEGBIND_DEMO_OUT=str(tmp_path / "pkcs11-out"), PYTHONPATH=str(ROOT), CFLAGS="-O0")
    result = subprocess.run(
        [sys.executable, str(EXAMPLES / "pkcs11" / "run_demo.py"), "--rounds", "1"],
        env=env, capture_output=True, text=True, timeout=900,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    out = result.stdout
    assert "raises CKR_PIN_INCORRECT (code 0xa0)" in out
    assert "same as hashlib.sha256         True" in out
    assert "verify(altered message)        raises CKR_SIGNATURE_INVALID" in out
    assert "Traceback" not in out + result.stderr


@pytest.mark.slow
def test_jansson_example_frees_what_its_rules_say(tmp_path):
    env = dict(os.environ, PEGBIND_DEMO_OUT=str(tmp_path / "jansson-out"), PYTHONPATH=str(ROOT),
               PEGBIND_DEMO_ROUNDS="20000")
    result = subprocess.run(
        [sys.executable, str(EXAMPLES / "jansson" / "run_demo.py")], env=env, capture_output=True, text=True,
        timeout=900,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    out = result.stdout
    assert out.count("a[1]                             2") == 3
    assert out.count("""json_dumps(doc, JSON_SORT_KEYS)  b'{"a": [1, 2], "b": "text"}'""") == 3
    assert "Traceback" not in out + result.stderr
