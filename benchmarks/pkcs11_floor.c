/* The C floor for benchmarks/pkcs11_softhsm.py: the same PKCS#11 calls the
 * Python benchmark makes, made from C through the module's function list.
 *
 * Usage: pkcs11_floor MODULE.so ROUNDS CALLS_PER_ROUND
 * The token must already be initialised (SOFTHSM2_CONF set by the caller).
 * Output: one line per round and operation, "OP NANOSECONDS_PER_CALL", so the
 * Python side computes median and p99 over rounds exactly as it does for the
 * generated bindings.  Built by the benchmark script with
 *   gcc -O2 -I/usr/include/softhsm pkcs11_floor.c -o pkcs11_floor -ldl
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <pkcs11.h>

static CK_FUNCTION_LIST_PTR p11;

static void check(CK_RV rv, const char *what)
{
    if (rv != CKR_OK) {
        fprintf(stderr, "pkcs11_floor: %s failed: 0x%lx\n", what, (unsigned long)rv);
        exit(1);
    }
}

static long long now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s MODULE.so ROUNDS CALLS_PER_ROUND\n", argv[0]);
        return 2;
    }
    int rounds = atoi(argv[2]), calls = atoi(argv[3]);
    void *handle = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        fprintf(stderr, "pkcs11_floor: %s\n", dlerror());
        return 1;
    }
    CK_C_GetFunctionList get_list = (CK_C_GetFunctionList)dlsym(handle, "C_GetFunctionList");
    if (get_list == NULL) {
        fprintf(stderr, "pkcs11_floor: no C_GetFunctionList in %s\n", argv[1]);
        return 1;
    }
    check(get_list(&p11), "C_GetFunctionList");
    check(p11->C_Initialize(NULL), "C_Initialize");

    /* The first slot holding a token: the one the script initialised. */
    CK_SLOT_ID slots[16];
    CK_ULONG count = 16;
    check(p11->C_GetSlotList(CK_TRUE, slots, &count), "C_GetSlotList");
    if (count == 0) {
        fprintf(stderr, "pkcs11_floor: no initialised token\n");
        return 1;
    }
    CK_SESSION_HANDLE session;
    check(p11->C_OpenSession(slots[0], CKF_SERIAL_SESSION, NULL, NULL, &session), "C_OpenSession");

    CK_INFO info;
    CK_BYTE random[16];
    CK_BYTE data[64] = {0};
    CK_BYTE digest[64];
    CK_MECHANISM sha256 = {CKM_SHA256, NULL, 0};

    /* Each loop runs once untimed first: this process is new in every round, and its first
       calls run from cold caches, where the Python side is timed in a process that has made
       the same calls round after round. */
    for (int round = 0; round < rounds; round++) {
        long long start = 0;
        for (int timed = 0; timed < 2; timed++) {
            start = now_ns();
            for (int i = 0; i < calls; i++)
                check(p11->C_GetInfo(&info), "C_GetInfo");
        }
        printf("C_GetInfo %.1f\n", (double)(now_ns() - start) / calls);

        for (int timed = 0; timed < 2; timed++) {
            start = now_ns();
            for (int i = 0; i < calls; i++)
                check(p11->C_GenerateRandom(session, random, sizeof random), "C_GenerateRandom");
        }
        printf("C_GenerateRandom %.1f\n", (double)(now_ns() - start) / calls);

        /* As the bindings do it (the example bounds a digest by 64 bytes): one call into a
           buffer that holds any digest, no size probe. */
        for (int timed = 0; timed < 2; timed++) {
            start = now_ns();
            for (int i = 0; i < calls; i++) {
                CK_ULONG length = sizeof digest;
                check(p11->C_DigestInit(session, &sha256), "C_DigestInit");
                check(p11->C_Digest(session, data, sizeof data, digest, &length), "C_Digest");
            }
        }
        printf("C_Digest %.1f\n", (double)(now_ns() - start) / calls);
    }
    check(p11->C_CloseSession(session), "C_CloseSession");
    check(p11->C_Finalize(NULL), "C_Finalize");
    return 0;
}
