"""The PKCS#11 demo: a module generated from the Debian PKCS#11 headers drives a SoftHSM token.

1. creates a throw-away SoftHSM token (``SOFTHSM2_CONF`` in a temporary folder);
2. runs ``pegbind build`` on ``pegbind.toml``: pegbind reads the PKCS#11
   headers itself and compiles a Python module named ``pkcs11``;
3. uses it as a Python programmer would: slots and tokens, log in, an AES-256
   key and a round trip through AES-CBC, a SHA-256 digest checked against
   hashlib, an RSA-2048 key pair signing and verifying;
4. times a few calls through every backend that builds.

Run it with the project's Python: ``.venv/bin/python examples/pkcs11/run_demo.py``.
``PEGBIND_DEMO_OUT`` chooses where the generated module goes (default: a
temporary folder); by default it reads NSS's RSA-style header (``pkcs11f.h``
included four times under redefined macros); ``--headers softhsm`` reads
SoftHSM's own p11-kit-style header instead.
"""
from __future__ import annotations

import argparse
import hashlib
import os
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from softhsm_session import (  # noqa: E402  (this folder, added just above)
    BACKENDS, SOFTHSM_MODULE, SPEED_CALLS, USER_PIN, BuildFailed, SoftHSMHome, Template, build_command, build_module, describe_failure,
    decode_ulong, get_attributes, import_module, initialize, per_call_ns, session, speed_calls, token_slots,
)

WIDTH = 62


def step(text: str, detail: str = "") -> None:
    """One line per step: what it does in plain words, then (indented) what came back."""
    print(f"\n* {text}")
    if detail:
        print(f"  {detail}")


def show(label: str, value: object) -> None:
    print(f"    {label:<30} {value}")


def text(field: bytes) -> str:
    """PKCS#11 pads its fixed-size strings with blanks."""
    return field.decode("utf-8", "replace").rstrip()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--headers", choices=("nss", "softhsm"), default="nss",
                        help="which installed pkcs11.h to read: NSS's RSA style (default) or SoftHSM's p11-kit style")
    parser.add_argument("--rounds", type=int, default=5, help="rounds per timing in the speed table")
    args = parser.parse_args(argv)
    if not SOFTHSM_MODULE.exists():
        print(f"SoftHSM is not installed ({SOFTHSM_MODULE} is missing): apt-get install softhsm2")
        return 1

    with tempfile.TemporaryDirectory(prefix="pkcs11-demo-") as scratch:
        out = Path(os.environ.get("PEGBIND_DEMO_OUT") or Path(scratch) / "out")
        try:
            return run(Path(scratch), out, args.headers, args.rounds)
        except BuildFailed as exc:
            print(f"\n{exc}")
            return 1


def run(scratch: Path, out: Path, family: str, rounds: int) -> int:
    step("Create a throw-away software token with SoftHSM.",
         "A token is a safe for keys: programs ask it to encrypt or sign, the keys never leave it.")
    home = SoftHSMHome.create(scratch / "softhsm")
    home.init_token(label="demo")
    home.activate()
    show("SOFTHSM2_CONF", home.conf)
    show("token label / user PIN", f"demo / {USER_PIN.decode()}")

    step("Generate and compile the Python module `pkcs11` from the PKCS#11 headers.",
         "pegbind reads pkcs11.h with its own preprocessor and parser; no hand-written C.")
    print("    $ " + " ".join(build_command(out / "cython", family=family)))
    build_module(out / "cython", family=family)
    p11 = import_module(out / "cython")
    show("module", p11.__file__)

    step("Load SoftHSM's shared library and initialise it (C_GetFunctionList, C_Initialize).")
    lib = initialize(p11, SOFTHSM_MODULE)
    info = lib.C_GetInfo()
    show("library", f"{text(info.libraryDescription)} {info.libraryVersion.major}.{info.libraryVersion.minor}")
    show("made by", text(info.manufacturerID))
    show("speaks PKCS#11", f"{info.cryptokiVersion.major}.{info.cryptokiVersion.minor}")

    step("List the slots (token readers) that hold a token: lib.C_GetSlotList(True).")
    slots = token_slots(p11, lib)
    for slot in slots:
        token = lib.C_GetTokenInfo(slot)
        show(f"slot {slot}", f"token {text(token.label)!r}, model {text(token.model)!r}")
    slot = slots[0]

    step("Open a session and try to log in with a wrong PIN: the error is a Python exception.")
    with session(p11, lib, slot, pin=None) as sess:
        try:
            lib.C_Login(sess, p11.CKU_USER, b"9999")
        except p11.Error as exc:
            show("C_Login(..., b'9999')", f"raises {type(exc).__name__} (code {exc.code:#x})")
        else:
            raise SystemExit("a wrong PIN was accepted")

        step("Log in with the right PIN: lib.C_Login(session, CKU_USER, b'1234').")
        lib.C_Login(sess, p11.CKU_USER, USER_PIN)
        show("logged in as", "the token's user")
        scenario(p11, lib, sess)
        lib.C_Logout(sess)

    step("Close the library (C_Finalize).")
    lib.C_Finalize()
    speed_table(scratch, out, family, rounds)
    return 0


def scenario(p11, lib, sess: int) -> None:
    step("Ask the token to generate an AES-256 key; only a handle comes back, never the key.")
    aes_template = Template(p11, {
        p11.CKA_CLASS: p11.CKO_SECRET_KEY, p11.CKA_KEY_TYPE: p11.CKK_AES, p11.CKA_VALUE_LEN: 32,
        p11.CKA_ENCRYPT: True, p11.CKA_DECRYPT: True, p11.CKA_TOKEN: False,
    })
    key = lib.C_GenerateKey(sess, p11.CK_MECHANISM(mechanism=p11.CKM_AES_KEY_GEN), aes_template.attributes)
    show("key handle", key)
    show("key length (CKA_VALUE_LEN)", decode_ulong(get_attributes(p11, lib, key, sess, [p11.CKA_VALUE_LEN])[p11.CKA_VALUE_LEN]))

    step("Encrypt a message with AES-CBC (random IV from the token), then decrypt it again.")
    iv = lib.C_GenerateRandom(sess, 16)
    message = b"PKCS#11 from Python, generated from the C headers."
    mechanism = p11.CK_MECHANISM(mechanism=p11.CKM_AES_CBC_PAD, pParameter=iv, ulParameterLen=len(iv))
    lib.C_EncryptInit(sess, mechanism, key)
    ciphertext = lib.C_Encrypt(sess, message)
    lib.C_DecryptInit(sess, mechanism, key)
    plaintext = lib.C_Decrypt(sess, ciphertext)
    show("IV", iv.hex())
    show("ciphertext", f"{len(ciphertext)} bytes: {ciphertext[:16].hex()}...")
    show("decrypted", plaintext.decode())
    if plaintext != message:
        raise SystemExit("the AES round trip changed the message")

    step("Hash a message with SHA-256 on the token and compare with Python's hashlib.")
    lib.C_DigestInit(sess, p11.CK_MECHANISM(mechanism=p11.CKM_SHA256))
    digest = lib.C_Digest(sess, message)
    show("token SHA-256", digest.hex())
    show("same as hashlib.sha256", digest == hashlib.sha256(message).digest())
    if digest != hashlib.sha256(message).digest():
        raise SystemExit("SHA-256 differs from hashlib")

    step("Generate an RSA-2048 key pair on the token (a public and a private key handle).")
    public_template = Template(p11, {
        p11.CKA_MODULUS_BITS: 2048, p11.CKA_PUBLIC_EXPONENT: b"\x01\x00\x01",
        p11.CKA_VERIFY: True, p11.CKA_TOKEN: False,
    })
    private_template = Template(p11, {
        p11.CKA_SIGN: True, p11.CKA_PRIVATE: True, p11.CKA_SENSITIVE: True, p11.CKA_TOKEN: False,
    })
    public, private = lib.C_GenerateKeyPair(
        sess, p11.CK_MECHANISM(mechanism=p11.CKM_RSA_PKCS_KEY_PAIR_GEN),
        public_template.attributes, private_template.attributes,
    )
    modulus = get_attributes(p11, lib, public, sess, [p11.CKA_MODULUS])[p11.CKA_MODULUS]
    show("public / private handle", f"{public} / {private}")
    show("modulus (from the public key)", f"{len(modulus) * 8} bits")

    step("Sign a message with the private key (SHA-256 with RSA), verify with the public key.")
    lib.C_SignInit(sess, p11.CK_MECHANISM(mechanism=p11.CKM_SHA256_RSA_PKCS), private)
    signature = lib.C_Sign(sess, message)
    show("signature", f"{len(signature)} bytes: {signature[:16].hex()}...")
    lib.C_VerifyInit(sess, p11.CK_MECHANISM(mechanism=p11.CKM_SHA256_RSA_PKCS), public)
    lib.C_Verify(sess, message, signature)
    show("verify(message)", "valid")
    lib.C_VerifyInit(sess, p11.CK_MECHANISM(mechanism=p11.CKM_SHA256_RSA_PKCS), public)
    try:
        lib.C_Verify(sess, message + b"!", signature)
    except p11.Error as exc:
        show("verify(altered message)", f"raises {type(exc).__name__}")
    else:
        raise SystemExit("a signature over another message verified")


# --------------------------------------------------------------------------
# Speed per backend
# --------------------------------------------------------------------------


def speed_table(scratch: Path, out: Path, family: str, rounds: int) -> None:
    step("Time a few calls through each backend pegbind offers (median of rounds, microseconds per call).",
         "Each backend gets its own copy of SoftHSM, so each has its own library state.")
    results: dict[str, dict[str, float] | str] = {}
    for backend in BACKENDS:
        name = "pkcs11" if backend == "cython" else f"pkcs11_{backend}"
        try:
            if backend != "cython":
                build_module(out / backend, backend=backend, family=family, name=name)
            p11 = import_module(out / backend, name)
            lib = initialize(p11, SoftHSMHome(scratch / "softhsm").private_module(backend))
        except Exception as exc:  # any failure to build, import or load: say which, time the rest
            results[backend] = "not available: " + describe_failure(exc)
            continue
        slot = token_slots(p11, lib)[0]
        with session(p11, lib, slot, pin=None, rw=False) as sess:
            results[backend] = {
                label: statistics.median(per_call_ns(call, 2000, rounds)) / 1000
                for label, call in speed_calls(p11, lib, sess).items()
            }
        lib.C_Finalize()
    labels = list(SPEED_CALLS)
    print(f"    {'backend':<10}" + "".join(f"{label:>30}" for label in labels))
    for backend, figures in results.items():
        if isinstance(figures, str):
            print(f"    {backend:<10}  {figures}")
        else:
            print(f"    {backend:<10}" + "".join(f"{figures[label]:>28.2f}us" for label in labels))


if __name__ == "__main__":
    sys.exit(main())
