/* SPDX-License-Identifier: MIT */
/* The processor's vector extensions, asked once per call that uses them:
 * the one place the library tests the processor, so every kernel that
 * picks a vector path agrees on what this machine has. */
#include "util.h"

unsigned kti_cpu_vec(void)
{
#if KTI_X86_VEC
    if (__builtin_cpu_supports("avx2")) return KTI_CPU_AVX2;
    if (__builtin_cpu_supports("ssse3")) return KTI_CPU_SSSE3;
#endif
    return KTI_CPU_NONE;
}
