// Kernel files loaded at run time (`syncscope run --kernel my_scan.h`): a header in the dialect
// of kernels/*.h that ends in SYNCSCOPE_KERNEL_FILE(MyScan), compiled by the system C++ compiler
// against the simulator headers embedded in this build (unpacked into the cache) into a shared
// library, which a worker process loads and runs (core/worker/kernel_worker.h): the student's code
// never runs in syncscope's own process. Libraries are cached in the user's own folder
// (core/kernel_cache.h), keyed by a hash of the file's bytes, the headers and the compiler
// command, so loading an unchanged file again runs no compiler.
#pragma once

#include <ostream>
#include <string>
#include <variant>

#include "core/kernel_cache.h"
#include "core/registry.h"

namespace syncscope {

struct KernelFile {
  AlgorithmEntry entry;     // its AlgoInfo::sources name the file by its absolute path
  std::string library;      // the shared library it was loaded from
  bool from_cache = false;  // no compiler ran
  double compile_seconds = 0;
};

struct KernelFileError {
  std::string message;  // "my_scan.h:12: error: 'partner' was not declared in this scope"
  std::string file;     // where the first error is ("" when not in a file)
  int line = 0;
  std::string compiler_output;  // all of it
};

// Loads (compiling when the cache has no library for it) the kernel file at `path`. Its first GPU
// run (run_on_gpu with its name) compiles it with nvcc into the cache as well.
std::variant<KernelFile, KernelFileError> load_kernel_file(const std::string& path);

// What is compiled for a loaded file: a kernel file's own text, or a .cu's translation
// (core/cuda_program.h), which defines its own entry and is named by `source`'s lines.
struct KernelBuild {
  KernelText source;     // the file as read once: the Code panel shows this text
  std::string compiled;  // what the compiler gets, under the file's name
  bool cuda_program = false;
};
std::variant<KernelFile, KernelFileError> load_kernel_build(const KernelBuild& build);

// `syncscope prepare-kernel-cache FOLDER`, run by the build once syncscope is linked: makes in FOLDER
// (the build's kernel-pch/, beside the executable) the precompiled headers that a first load would
// otherwise compile, about 5 s each, and removes those of earlier builds. 0, or 1 with why on `err`.
int prepare_kernel_cache(const std::string& folder, std::ostream& err);

// The built-in algorithms and a loaded kernel's; or why it cannot join them (its name is taken).
std::variant<Registry, std::string> registry_with(const AlgorithmEntry& loaded);

// The file a loaded algorithm came from ("" for a built-in one): the GPU child loads it too.
std::string loaded_kernel_path(const std::string& algorithm);

// core/kernel_cache.h's kernel_cache_path().
std::string kernel_cache_dir();

// The nvcc that builds kernels and programs for the GPU: SYNCSCOPE_NVCC, else the one this build
// found ("" if none).
std::string nvcc_command();
// Where `syncscope perf` keeps this machine's results (beside the kernel cache), for the Performance panel.
std::string perf_results_dir();

}  // namespace syncscope
