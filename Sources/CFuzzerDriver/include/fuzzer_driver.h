#ifndef RESWATCH_FUZZER_DRIVER_H
#define RESWATCH_FUZZER_DRIVER_H

#include <stddef.h>
#include <stdint.h>

/// libFuzzer's entry for programs that have their own main() (from libclang_rt.fuzzer_no_main,
/// linked only when RESWATCH_FUZZ=1). Declared weak so a plain build links without it.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size))
    __attribute__((weak));

#endif
