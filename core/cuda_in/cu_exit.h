// How a translated .cu's code stops early, as nvcc builds it: exit() and a failed assert(). Nothing
// of the program's text changes for them (a field or a method named exit stays one):
//  - The program's library is linked with --wrap=exit (and abort, _Exit, quick_exit: 134 for
//    abort, as a shell says) (core/kernel_file.cpp): its calls of the C library's exit come to
//    __wrap_exit below. On main()'s thread that ends main() there with the status, as exit does: no exception goes through the program (a `catch (...)` of its own, a
//    destructor that calls exit) and none of main's destructors runs. The launches so far stay in
//    the run. Elsewhere (a thread of the program's, a kernel: nvcc refuses exit in device code) it
//    is the C library's exit, which the worker reports as the program's.
//  - <assert.h>'s assert() calls __assert_fail, which the macro at the end makes assert_failed.
//    nvcc defines no NDEBUG, so asserts are checked; a `#define NDEBUG` of the program's own before
//    <cassert> turns them off, as there. In a kernel (a __device__ or __host__ __device__
//    function's) a failed assert is a GPU's: the thread stops, the block fails with the test and
//    its line, the launch fails with cudaErrorAssert ("device-side assert triggered"), and so does
//    every CUDA call after it. On main()'s thread it prints the C library's message and ends main()
//    with 134, as abort() does.
// The loader includes this after the runtime, before the student's text (core/cuda_program.cpp).
#pragma once

#undef NDEBUG
#include <assert.h>  // declares __assert_fail (only where NDEBUG is not defined, and only once)
#include <setjmp.h>
#include <stdlib.h>

#include <cxxabi.h>

#include <cstdio>
#include <exception>
#include <string>

#include "core/cuda_in/cu_host.h"

// The expression of the assert at `file`:`line` as the student wrote it (nullptr: none there),
// defined after the translation (translate/cuda_translator.cpp): the #expr the assert itself has
// is the rewritten text.
const char* syncscope_assert_text(const char* file, unsigned line);

namespace syncscope::cu {

// Where exit() on main()'s thread lands (nullptr: main() is not running on this thread).
inline thread_local jmp_buf* main_exit_landing = nullptr;
inline thread_local int main_exit_status = 0;

[[noreturn]] inline void end_main(int status) {
  std::fflush(stdout);
  main_exit_status = status;
  longjmp(*main_exit_landing, 1);
}

template <class Main>
int call_main_until_exit(Main main) {
  jmp_buf landing;
  main_exit_landing = &landing;
  if (setjmp(landing) != 0) {
    main_exit_landing = nullptr;
    // exit() inside a catch: the handlers it left end as the C++ runtime would have ended them,
    // so that the next run of main() in this worker has no exception of this one's.
    while (std::current_exception()) abi::__cxa_end_catch();
    return main_exit_status;
  }
  const int status = main();
  main_exit_landing = nullptr;
  return status;
}
inline int call_main(int (*main)()) { return call_main_until_exit(main); }
inline int call_main(int (*main)(int, char**)) {
  return call_main_until_exit([main] {
    static char name[] = "program";
    static char* argv[] = {name, nullptr};
    return main(1, argv);
  });
}

[[noreturn]] inline void assert_failed(const char* rewritten, const char* file, unsigned line, const char* function) {
  const char* written = syncscope_assert_text(file, line);
  const char* test = written ? written : rewritten;
  if (sim::BlockRunner* block = sim::tls_running_block) {
    current_device->note_failed_assert();
    block->assert_failed(file, line, "assertion `" + std::string(test) + "` failed");
  }
  if (main_exit_landing) {
    std::string named = function;  // the translation's main is the program's
    if (const size_t at = named.find("syncscope_cuda_main"); at != std::string::npos) named.replace(at, 19, "main");
    std::fflush(stdout);
    std::fprintf(stderr, "%s:%u: %s: Assertion `%s' failed.\n", file, line, named.c_str(), test);
    end_main(134);
  }
  (__assert_fail)(test, file, line, function);  // in parentheses: the C library's, not the macro
}

}  // namespace syncscope::cu

// On main()'s thread, outside a kernel: the way main() ends. Elsewhere: the C library's.
extern "C" [[noreturn]] void __real_exit(int status);
extern "C" [[noreturn]] void __real__Exit(int status);
extern "C" [[noreturn]] void __real_quick_exit(int status);
extern "C" [[noreturn]] void __real_abort();
inline bool syncscope_ends_main() { return !syncscope::sim::tls_running_block && syncscope::cu::main_exit_landing; }
extern "C" [[noreturn]] void __wrap_exit(int status) {
  if (syncscope_ends_main()) syncscope::cu::end_main(status);
  __real_exit(status);
}
extern "C" [[noreturn]] void __wrap__Exit(int status) {
  if (syncscope_ends_main()) syncscope::cu::end_main(status);
  __real__Exit(status);
}
extern "C" [[noreturn]] void __wrap_quick_exit(int status) {
  if (syncscope_ends_main()) syncscope::cu::end_main(status);
  __real_quick_exit(status);
}
extern "C" [[noreturn]] void __wrap_abort() {
  if (syncscope_ends_main()) syncscope::cu::end_main(134);  // a shell's status for SIGABRT
  __real_abort();
}

#define __assert_fail(test, file, line, function) ::syncscope::cu::assert_failed(test, file, line, function)
