// A student's plain CUDA program (`syncscope run FILE.cu`): read once, translated by
// syncscope-translate (translate/cuda_translator.h) into C++ on syncscope's CUDA runtime
// (core/cuda_in/cu_runtime.h), then compiled, cached and run in the worker process like a kernel
// file (core/kernel_file.h). Each bug variant (`#ifdef BUG_<NAME>` in the file) is its own
// translation, made the first time a run asks for it.
#pragma once

#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "core/kernel_file.h"

namespace syncscope {

// How to launch a .cu that has kernels and no main() (a textbook listing, a verifier's test case):
// `--grid X[,Y[,Z]] --block X[,Y[,Z]] [--kernel-name K] [--arg NAME=VALUE]...`. Every pointer
// parameter gets a global array of grid x block elements, the first holding 0, 1, 2, ... and the
// others 0; a scalar is 0 unless an --arg names it.
struct ProgramLaunch {
  Dim3 grid, block;
  std::string kernel;  // "": the file's only kernel
  std::vector<std::pair<std::string, std::string>> arguments;  // NAME, VALUE as typed
  size_t shared_bytes = 0;  // its dynamic shared memory (<<<grid, block, BYTES>>>): extern __shared__
  bool given = false;  // --grid or --block was given
};

// The program at `path` (a .cu): its algorithm entry runs main() with every launch simulated.
std::variant<KernelFile, KernelFileError> load_cuda_program(const std::string& path, const ProgramLaunch& launch = {});

// `path` as the user gave it to --kernel, `run FILE` or File > Open: a .cu is a CUDA program,
// anything else a kernel file.
std::variant<KernelFile, KernelFileError> load_user_code(const std::string& path, const ProgramLaunch& launch = {});

// "4", "4,2", "4,2,1": a --grid or --block value; "" or why not (naming the option).
std::string parse_dims(const std::string& option, const std::string& text, Dim3& out);

// A launch as typed, for a .cu without main(): `run`'s and `gui`'s options, or File > Open's fields.
struct LaunchText {
  std::string grid, block, kernel;
  std::vector<std::string> arguments;  // NAME=VALUE
  std::string shared_bytes;
};
// How the words are named in messages: the options ("--grid") or the fields ("grid").
struct LaunchNames {
  const char* grid;
  const char* block;
  const char* kernel;
  const char* argument;
  const char* shared_bytes;
};
inline constexpr LaunchNames kLaunchOptions{"--grid", "--block", "--kernel-name", "--arg", "--shared-bytes"};
inline constexpr LaunchNames kLaunchFields{"grid", "block", "kernel", "arguments", "shared bytes"};
// `text` as the launch of `file`; "" or why not. Nothing typed is no launch (`given` false).
std::string parse_launch(const LaunchText& text, const LaunchNames& names, const std::string& file, ProgramLaunch& launch);

bool is_cuda_program_path(const std::string& path);

// What nvcc compiles for variant `bug` of the loaded program named `algorithm`: the bytes the
// simulator's translation was made from (for a file without main(), followed by the generated
// main() in plain CUDA) and the BUG_ macro to define ("": none). Index 1: why not.
struct GpuProgramSource {
  std::string path, text, define;
};
std::variant<GpuProgramSource, std::string> gpu_program_source(const std::string& algorithm, int bug);

// Builds variant `bug` of the loaded program named `algorithm` now (once; its run would at its start):
// "" or why it cannot be (the translator's message at the student's line), so that `run --bug` refuses
// a variant that does not translate as it refuses the file (exit 2), not as a run that stopped.
std::string build_program_variant(const std::string& algorithm, int bug);

}  // namespace syncscope
