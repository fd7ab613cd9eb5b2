"""The flagship: the `pkcs11` module generated from the Debian PKCS#11 headers drives a real SoftHSM.

One module is built per backend and header family per session (named
``pkcs11_<family>_<backend>`` so they coexist in this process), each loading
its own copy of libsofthsm2.so so each has its own library state.  The token
lives in a throw-away SOFTHSM2_CONF folder.  A backend that pegbind does not
offer at all is skipped with that reason; one it offers must build and pass.
"""
from __future__ import annotations

import array
import gc
import hashlib
import os
import sys
import threading
import time

import pytest

from conftest import EXAMPLES, first_to_make, session_folder

sys.path.insert(0, str(EXAMPLES / "pkcs11"))
from softhsm_session import (  # noqa: E402  (examples/pkcs11, added just above)
    SOFTHSM_MODULE, USER_PIN, SoftHSMHome, Template, build_module, decode_ulong, get_attributes,
    import_module, initialize, session, token_slots,
)

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not SOFTHSM_MODULE.exists(), reason="SoftHSM (Debian softhsm2) is not installed"),
]

FAMILIES = ("nss", "softhsm")
BACKENDS = ("cython", "cffi", "ctypes")
COMBINATIONS = [(family, backend) for backend in BACKENDS for family in FAMILIES]
IDS = [f"{family}-{backend}" for family, backend in COMBINATIONS]


def _one_worker(family: str, backend: str) -> pytest.MarkDecorator:
    """The tests of one built module run on one pytest-xdist worker (``--dist loadgroup``): the
    others then neither build it nor wait for it."""
    return pytest.mark.xdist_group(f"pkcs11-{family}-{backend}")


PAIRS = [pytest.param(family, backend, id=f"{family}-{backend}", marks=_one_worker(family, backend))
         for family, backend in COMBINATIONS]


def _backend_offered(backend: str) -> bool:
    from pegbind.backends import backend_names

    return backend in backend_names()


@pytest.fixture(scope="session")
def softhsm(tmp_path_factory) -> SoftHSMHome:
    """One token, label 'test', shared by every library instance of the session."""
    home = SoftHSMHome.create(tmp_path_factory.mktemp("softhsm"))
    home.init_token(label="test")
    home.activate()
    return home


@pytest.fixture(scope="session")
def built(tmp_path_factory):
    """(family, backend) -> the imported generated module, built on first use.

    Once for the whole session, not per worker: the pytest-xdist workers share the folders, and
    a lock lets the first build while another that needs the same module waits and imports it."""
    cache: dict[tuple[str, str], object] = {}
    shared = session_folder(tmp_path_factory, "pkcs11-builds")

    def get(family: str, backend: str):
        if not _backend_offered(backend):
            pytest.skip(f"pegbind has no {backend!r} backend yet")
        if (family, backend) not in cache:
            name = f"pkcs11_{family}_{backend}"
            out = shared / name
            try:
                with first_to_make(out) as needed:
                    if needed:
                        # -O0: the tests check behaviour; gcc -O2 takes 90 s on the Cython module alone
                        build_module(out, backend=backend, family=family, name=name, cflags="-O0")
                cache[family, backend] = import_module(out, name)
            except Exception as exc:  # remembered: every test of this pair reports the same build error
                cache[family, backend] = exc
        found = cache[family, backend]
        if isinstance(found, Exception):
            raise found
        return found

    return get


@pytest.fixture(scope="session")
def libraries(built, softhsm):
    """(family, backend) -> (module, initialised library, slot); each on its own copy of SoftHSM."""
    cache: dict[tuple[str, str], tuple] = {}

    def get(family: str, backend: str):
        if (family, backend) not in cache:
            p11 = built(family, backend)
            softhsm.activate()
            lib = initialize(p11, softhsm.private_module(f"{family}-{backend}"))
            cache[family, backend] = (p11, lib, token_slots(p11, lib)[0])
        return cache[family, backend]

    yield get
    for p11, lib, _slot in cache.values():
        lib.C_Finalize()


@pytest.fixture(params=[pytest.param(pair, id=name, marks=_one_worker(*pair)) for pair, name in zip(COMBINATIONS, IDS)])
def loaded(request, libraries):
    return libraries(*request.param)


def text(field: bytes) -> str:
    return field.decode().rstrip()


# ---- 1. the scenario ----------------------------------------------------------


def test_library_slot_and_token_information(loaded):
    p11, lib, slot = loaded
    info = lib.C_GetInfo()
    assert text(info.manufacturerID) == "SoftHSM"
    assert (info.cryptokiVersion.major, info.cryptokiVersion.minor) == (2, 40)
    slots = lib.C_GetSlotList(True)
    assert isinstance(slots, list) and all(isinstance(s, int) for s in slots)
    # SoftHSM shows the initialised token plus one free slot (its token not yet initialised):
    # the size probe found both.
    assert len(slots) == 2 and slot in slots
    (free,) = set(slots) - {slot}
    assert not lib.C_GetTokenInfo(free).flags & p11.CKF_TOKEN_INITIALIZED
    assert sorted(lib.C_GetSlotList(False)) == sorted(slots)
    token = lib.C_GetTokenInfo(slot)
    assert text(token.label) == "test"
    assert token.flags & p11.CKF_TOKEN_INITIALIZED and token.flags & p11.CKF_USER_PIN_INITIALIZED
    mechanisms = lib.C_GetMechanismList(slot)
    assert {p11.CKM_AES_CBC_PAD, p11.CKM_SHA256, p11.CKM_SHA256_RSA_PKCS} <= set(mechanisms)


def test_aes_digest_rsa_scenario(loaded):
    p11, lib, slot = loaded
    with session(p11, lib, slot) as sess:
        assert lib.C_GetSessionInfo(sess).state == p11.CKS_RW_USER_FUNCTIONS

        # AES-256 key on the token; a CBC round trip with a random IV
        template = Template(p11, {
            p11.CKA_CLASS: p11.CKO_SECRET_KEY, p11.CKA_KEY_TYPE: p11.CKK_AES, p11.CKA_VALUE_LEN: 32,
            p11.CKA_ENCRYPT: True, p11.CKA_DECRYPT: True, p11.CKA_TOKEN: False,
        })
        key = lib.C_GenerateKey(sess, p11.CK_MECHANISM(mechanism=p11.CKM_AES_KEY_GEN), template.attributes)
        assert decode_ulong(get_attributes(p11, lib, key, sess, [p11.CKA_VALUE_LEN])[p11.CKA_VALUE_LEN]) == 32
        iv = lib.C_GenerateRandom(sess, 16)
        assert isinstance(iv, bytes) and len(iv) == 16 and iv != lib.C_GenerateRandom(sess, 16)
        message = b"attack at dawn, " * 5 + b"odd tail"
        mechanism = p11.CK_MECHANISM(mechanism=p11.CKM_AES_CBC_PAD, pParameter=iv, ulParameterLen=16)
        lib.C_EncryptInit(sess, mechanism, key)
        ciphertext = lib.C_Encrypt(sess, message)
        assert len(ciphertext) == (len(message) // 16 + 1) * 16 and message[:16] not in ciphertext
        lib.C_DecryptInit(sess, mechanism, key)
        assert lib.C_Decrypt(sess, ciphertext) == message
        # the multi-part form gives the same ciphertext
        lib.C_EncryptInit(sess, mechanism, key)
        parts = lib.C_EncryptUpdate(sess, message[:40]) + lib.C_EncryptUpdate(sess, message[40:])
        assert parts + lib.C_EncryptFinal(sess) == ciphertext

        # SHA-256, single and multi-part, against hashlib
        data = bytes(range(256)) * 33
        lib.C_DigestInit(sess, p11.CK_MECHANISM(mechanism=p11.CKM_SHA256))
        assert lib.C_Digest(sess, data) == hashlib.sha256(data).digest()
        lib.C_DigestInit(sess, p11.CK_MECHANISM(mechanism=p11.CKM_SHA256))
        lib.C_DigestUpdate(sess, data[:1000])
        lib.C_DigestUpdate(sess, memoryview(data)[1000:])
        assert lib.C_DigestFinal(sess) == hashlib.sha256(data).digest()

        # RSA-2048 pair; sign with SHA256-RSA-PKCS, verify, reject an altered message
        public, private = lib.C_GenerateKeyPair(
            sess, p11.CK_MECHANISM(mechanism=p11.CKM_RSA_PKCS_KEY_PAIR_GEN),
            Template(p11, {p11.CKA_MODULUS_BITS: 2048, p11.CKA_PUBLIC_EXPONENT: b"\x01\x00\x01",
                           p11.CKA_VERIFY: True, p11.CKA_TOKEN: False}).attributes,
            Template(p11, {p11.CKA_SIGN: True, p11.CKA_PRIVATE: True, p11.CKA_SENSITIVE: True,
                           p11.CKA_TOKEN: False}).attributes,
        )
        assert public != private
        values = get_attributes(p11, lib, public, sess, [p11.CKA_MODULUS, p11.CKA_PUBLIC_EXPONENT])
        assert len(values[p11.CKA_MODULUS]) == 256 and values[p11.CKA_PUBLIC_EXPONENT] == b"\x01\x00\x01"
        sha256_rsa = p11.CK_MECHANISM(mechanism=p11.CKM_SHA256_RSA_PKCS)
        lib.C_SignInit(sess, sha256_rsa, private)
        signature = lib.C_Sign(sess, message)
        assert len(signature) == 256
        lib.C_VerifyInit(sess, sha256_rsa, public)
        assert lib.C_Verify(sess, message, signature) is None
        lib.C_VerifyInit(sess, sha256_rsa, public)
        with pytest.raises(p11.errors.CKR_SIGNATURE_INVALID):
            lib.C_Verify(sess, message + b".", signature)

        # the private key stays in the token: its value cannot be read
        with pytest.raises(p11.errors.CKR_ATTRIBUTE_SENSITIVE):
            get_attributes(p11, lib, private, sess, [p11.CKA_PRIVATE_EXPONENT])
        lib.C_Logout(sess)


def test_ecdh_derive_reads_its_parameters_through_record_pointer_members(loaded):
    # CK_ECDH1_DERIVE_PARAMS holds the peer's point in pPublicData, an unsigned char *
    # set from a buffer; CK_MECHANISM.pParameter, a void *, takes the record itself.
    # Each keeps what it points to alive: only the mechanism is left when C reads them.
    p11, lib, slot = loaded
    p256 = bytes.fromhex("06082a8648ce3d030107")  # the DER of the curve's OID, 1.2.840.10045.3.1.7
    with session(p11, lib, slot) as sess:
        def key_pair():
            return lib.C_GenerateKeyPair(
                sess, p11.CK_MECHANISM(mechanism=p11.CKM_EC_KEY_PAIR_GEN),
                Template(p11, {p11.CKA_EC_PARAMS: p256, p11.CKA_TOKEN: False}).attributes,
                Template(p11, {p11.CKA_DERIVE: True, p11.CKA_PRIVATE: True, p11.CKA_TOKEN: False}).attributes,
            )

        def shared_secret(private, peer_public):
            point = get_attributes(p11, lib, peer_public, sess, [p11.CKA_EC_POINT])[p11.CKA_EC_POINT]
            params = p11.CK_ECDH1_DERIVE_PARAMS(kdf=p11.CKD_NULL, pPublicData=bytearray(point),
                                                ulPublicDataLen=len(point), pSharedData=None)
            mechanism = p11.CK_MECHANISM(mechanism=p11.CKM_ECDH1_DERIVE, pParameter=params,
                                         ulParameterLen=p11.CK_ECDH1_DERIVE_PARAMS.sizeof)
            assert type(mechanism.pParameter) is p11.Pointer and params.pSharedData is None
            del params, point
            gc.collect()
            secret = lib.C_DeriveKey(sess, mechanism, private, Template(p11, {
                p11.CKA_CLASS: p11.CKO_SECRET_KEY, p11.CKA_KEY_TYPE: p11.CKK_GENERIC_SECRET, p11.CKA_VALUE_LEN: 32,
                p11.CKA_SENSITIVE: False, p11.CKA_EXTRACTABLE: True, p11.CKA_TOKEN: False,
            }).attributes)
            return get_attributes(p11, lib, secret, sess, [p11.CKA_VALUE])[p11.CKA_VALUE]

        (public_a, private_a), (public_b, private_b) = key_pair(), key_pair()
        secret = shared_secret(private_a, public_b)
        assert len(secret) == 32 and secret == shared_secret(private_b, public_a)


# ---- 2. errors as exceptions ------------------------------------------------------


def test_wrong_pin_raises_its_own_exception_class(loaded):
    p11, lib, slot = loaded
    with session(p11, lib, slot, pin=None) as sess:
        with pytest.raises(p11.errors.CKR_PIN_INCORRECT) as caught:
            lib.C_Login(sess, p11.CKU_USER, b"9999")
        error = caught.value
        assert isinstance(error, p11.Error) and type(error) is not p11.Error
        assert error.code == p11.CKR_PIN_INCORRECT == 0xA0
        assert error.function == "C_Login"
        assert "CKR_PIN_INCORRECT" in str(error)
        # the right PIN still works afterwards (SoftHSM counts failures but does not lock after one)
        lib.C_Login(sess, p11.CKU_USER, USER_PIN)
        lib.C_Logout(sess)


def test_invalid_session_handle_raises(loaded):
    p11, lib, slot = loaded
    sess = lib.C_OpenSession(slot, p11.CKF_SERIAL_SESSION)
    lib.C_CloseSession(sess)
    with pytest.raises(p11.errors.CKR_SESSION_HANDLE_INVALID) as caught:
        lib.C_GetSessionInfo(sess)
    assert caught.value.code == p11.CKR_SESSION_HANDLE_INVALID and caught.value.function == "C_GetSessionInfo"
    with pytest.raises(p11.errors.CKR_SESSION_HANDLE_INVALID):
        lib.C_GenerateRandom(sess, 8)


def test_bad_python_arguments_raise_before_reaching_c(loaded):
    p11, lib, slot = loaded
    with pytest.raises(OverflowError):
        lib.C_GetTokenInfo(-1)
    with pytest.raises(TypeError):
        lib.C_GetTokenInfo("slot")
    with session(p11, lib, slot, pin=None) as sess:
        with pytest.raises(TypeError):
            lib.C_Login(sess, p11.CKU_USER, "1234")  # text, not bytes


# ---- 3. two SoftHSM instances at once ---------------------------------------------


@pytest.mark.parametrize("family, backend", PAIRS)
def test_two_softhsm_instances_keep_separate_state(built, softhsm, tmp_path, family, backend):
    p11 = built(family, backend)
    homes = {label: SoftHSMHome.create(tmp_path / label) for label in ("alpha", "beta")}
    libs = {}
    try:
        for label, home in homes.items():
            home.init_token(label=label)
            home.activate()  # SoftHSM reads SOFTHSM2_CONF in C_Initialize
            libs[label] = initialize(p11, home.private_module(label))
    finally:
        softhsm.activate()
    labels = {
        label: {text(lib.C_GetTokenInfo(slot).label) for slot in token_slots(p11, lib)} for label, lib in libs.items()
    }
    assert labels == {"alpha": {"alpha"}, "beta": {"beta"}}
    # Finalising one leaves the other running.
    libs["alpha"].C_Finalize()
    with pytest.raises(p11.errors.CKR_CRYPTOKI_NOT_INITIALIZED):
        libs["alpha"].C_GetInfo()
    assert text(libs["beta"].C_GetInfo().manufacturerID) == "SoftHSM"
    libs["beta"].C_Finalize()


# ---- 4. the GIL is released around cryptographic calls ----------------------------


def _longest_pause_while(work) -> tuple[float, float]:
    """Run ``work`` in a thread; meanwhile count in this one.

    Returns (duration of ``work``, longest gap between two consecutive
    iterations of the counting loop).  If ``work`` holds the GIL, the counting
    loop cannot run at all until it returns: the gap is at least the duration.
    """
    timing: dict[str, float] = {}

    def worker() -> None:
        start = time.perf_counter()
        work()
        timing["duration"] = time.perf_counter() - start

    thread = threading.Thread(target=worker)
    last = time.perf_counter()
    longest = 0.0
    thread.start()
    while thread.is_alive():
        now = time.perf_counter()
        longest = max(longest, now - last)
        last = now
    thread.join()
    return timing["duration"], longest


def test_long_digest_lets_other_threads_run(loaded):
    p11, lib, slot = loaded
    data = bytes(96 << 20)  # long enough (hundreds of ms) to dwarf scheduler noise
    expected = hashlib.sha256(data).digest()
    results = []

    def digest() -> None:
        lib.C_DigestInit(sess, p11.CK_MECHANISM(mechanism=p11.CKM_SHA256))
        results.append(lib.C_Digest(sess, data))

    old_interval = sys.getswitchinterval()
    sys.setswitchinterval(0.001)
    try:
        with session(p11, lib, slot, pin=None) as sess:
            # A GIL-holding call can never pass; a loaded machine may pause us once, so retry.
            attempts = []
            for _ in range(3):
                duration, longest = _longest_pause_while(digest)
                attempts.append((duration, longest))
                if longest < duration / 3:
                    break
    finally:
        sys.setswitchinterval(old_interval)
    assert all(result == expected for result in results)
    assert any(longest < duration / 3 for duration, longest in attempts), (
        f"the counting thread stalled for as long as the digest ran: (duration, longest pause) = {attempts}"
    )


def test_threads_digest_concurrently_with_separate_sessions(loaded):
    p11, lib, slot = loaded
    chunks = [os.urandom(4096) for _ in range(8)]
    errors: list[BaseException] = []

    def worker() -> None:
        try:
            with session(p11, lib, slot, pin=None, rw=False) as sess:
                for _ in range(50):
                    for chunk in chunks:
                        lib.C_DigestInit(sess, p11.CK_MECHANISM(mechanism=p11.CKM_SHA256))
                        assert lib.C_Digest(sess, chunk) == hashlib.sha256(chunk).digest()
        except BaseException as exc:  # reported by the main thread
            errors.append(exc)

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []


# ---- the configuration covers the whole standard ------------------------------------


@pytest.mark.parametrize("family", [pytest.param(f, id=f, marks=_one_worker(f, "cython")) for f in FAMILIES])
def test_every_standard_function_is_wrapped(built, family):
    p11 = built(family, "cython")
    lib_class = p11.Library if hasattr(p11, "Library") else None
    names = set(dir(lib_class)) if lib_class is not None else set(dir(p11))
    standard = {
        "C_Initialize", "C_Finalize", "C_GetInfo", "C_GetSlotList", "C_GetSlotInfo", "C_GetTokenInfo",
        "C_GetMechanismList", "C_GetMechanismInfo", "C_InitToken", "C_InitPIN", "C_SetPIN", "C_OpenSession",
        "C_CloseSession", "C_CloseAllSessions", "C_GetSessionInfo", "C_GetOperationState", "C_SetOperationState",
        "C_Login", "C_Logout", "C_CreateObject", "C_CopyObject", "C_DestroyObject", "C_GetObjectSize",
        "C_GetAttributeValue", "C_SetAttributeValue", "C_FindObjectsInit", "C_FindObjects", "C_FindObjectsFinal",
        "C_EncryptInit", "C_Encrypt", "C_EncryptUpdate", "C_EncryptFinal", "C_DecryptInit", "C_Decrypt",
        "C_DecryptUpdate", "C_DecryptFinal", "C_DigestInit", "C_Digest", "C_DigestUpdate", "C_DigestKey",
        "C_DigestFinal", "C_SignInit", "C_Sign", "C_SignUpdate", "C_SignFinal", "C_SignRecoverInit",
        "C_SignRecover", "C_VerifyInit", "C_Verify", "C_VerifyUpdate", "C_VerifyFinal", "C_VerifyRecoverInit",
        "C_VerifyRecover", "C_DigestEncryptUpdate", "C_DecryptDigestUpdate", "C_SignEncryptUpdate",
        "C_DecryptVerifyUpdate", "C_GenerateKey", "C_GenerateKeyPair", "C_WrapKey", "C_UnwrapKey",
        "C_DeriveKey", "C_SeedRandom", "C_GenerateRandom", "C_GetFunctionStatus", "C_CancelFunction",
        "C_WaitForSlotEvent",
    }
    assert standard - names == set()


def test_find_objects_and_token_object_lifecycle(libraries):
    p11, lib, slot = libraries("nss", "cython")
    with session(p11, lib, slot) as sess:
        label = b"lifecycle-%d" % os.getpid()
        template = Template(p11, {
            p11.CKA_CLASS: p11.CKO_DATA, p11.CKA_TOKEN: False, p11.CKA_LABEL: label, p11.CKA_VALUE: b"payload",
        })
        handle = lib.C_CreateObject(sess, template.attributes)
        lib.C_FindObjectsInit(sess, Template(p11, {p11.CKA_LABEL: label}).attributes)
        # the caller owns the handle buffer: CK_OBJECT_HANDLE is an unsigned long
        buffer = array.array("L", [0] * 4)
        count = lib.C_FindObjects(sess, buffer, len(buffer))
        lib.C_FindObjectsFinal(sess)
        assert list(buffer[:count]) == [handle]
        assert get_attributes(p11, lib, handle, sess, [p11.CKA_VALUE])[p11.CKA_VALUE] == b"payload"
        lib.C_DestroyObject(sess, handle)
        with pytest.raises(p11.errors.CKR_OBJECT_HANDLE_INVALID):
            lib.C_GetObjectSize(sess, handle)
