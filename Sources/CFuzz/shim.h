// libFuzzer's entry for programs with their own main (compiler-rt's FuzzerDriver).
// Only the fuzz build (RIG_FUZZ=1, -sanitize=fuzzer) links it; see fuzz/README.md.
#ifndef RIG_CFUZZ_SHIM_H
#define RIG_CFUZZ_SHIM_H
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*user_callback)(const uint8_t *data, size_t size));

#endif
