// How a translated .cu's code stops early, as nvcc builds it: exit() and a failed assert().
//  - exit(status) in host code ends main() there with that status: the launches so far stay in the
//    run (the worker would otherwise end with the program, and the run with it).
//  - A failed assert() in host code prints the C library's message and ends main() as abort()
//    does (status 134). nvcc defines no NDEBUG, so asserts are checked; a `#define NDEBUG` of the
//    program's own before <cassert> turns them off, as it does there.
//  - A failed assert() in device code is a GPU's: the thread stops, the block fails with the test
//    and its line, the launch fails with cudaErrorAssert ("device-side assert triggered"), and so
//    does every CUDA call after it.
// The loader includes this after the runtime, before the student's text (core/cuda_program.cpp).
// exit and __assert_fail (what <assert.h>'s assert() calls) become macros here. An assert calls
// with `_c`: in device code the kernel's context (the translator gives every device function one),
// elsewhere the HostCode below, which device code's parameter hides. A __host__ __device__
// function has no context: run by a kernel, its assert reaches the block through
// sim::tls_running_block.
#pragma once

#undef NDEBUG
#include <assert.h>  // declares __assert_fail (only where NDEBUG is not defined, and only once)
#include <stdlib.h>  // declares exit before the macro below renames it

#include <cstdio>

#include "core/cuda_in/cu_host.h"

namespace syncscope::cu {

struct HostCode {};

[[noreturn]] inline void assert_failed(const HostCode&, const char* test, const char* file, unsigned line,
                                       const char* function) {
  if (sim::BlockRunner* block = sim::tls_running_block) {  // a __host__ __device__ function's, in a kernel
    current_device->note_failed_assert();
    block->assert_failed(file, line, test);
  }
  std::fflush(stdout);
  const bool in_main = std::string_view(function).find("syncscope_cuda_main") != std::string_view::npos;
  std::fprintf(stderr, "%s:%u: %s: Assertion `%s' failed.\n", file, line, in_main ? "int main()" : function, test);
  throw ProgramExit{134};
}

template <class Ctx>
[[noreturn]] void assert_failed(Ctx& c, const char* test, const char* file, unsigned line, const char*) {
  current_device->note_failed_assert();
  c.runner().assert_failed(file, line, test);
}

}  // namespace syncscope::cu

inline constexpr syncscope::cu::HostCode _c{};

[[noreturn]] inline void syncscope_program_exit(int status) {
  std::fflush(stdout);
  throw syncscope::cu::ProgramExit{status};
}
namespace std {
using ::syncscope_program_exit;  // std::exit(1) too
}

#define __assert_fail(test, file, line, function) ::syncscope::cu::assert_failed(_c, test, file, line, function)
#define exit(status) syncscope_program_exit(status)
