// A student's plain CUDA program (`syncscope run FILE.cu`): read once, translated by
// syncscope-translate (translate/cuda_translator.h) into C++ on syncscope's CUDA runtime
// (core/cuda_in/cu_runtime.h), then compiled, cached and run in the worker process like a kernel
// file (core/kernel_file.h). Each bug variant (`#ifdef BUG_<NAME>` in the file) is its own
// translation, made the first time a run asks for it.
#pragma once

#include <string>
#include <variant>

#include "core/kernel_file.h"

namespace syncscope {

// The program at `path` (a .cu): its algorithm entry runs main() with every launch simulated.
std::variant<KernelFile, KernelFileError> load_cuda_program(const std::string& path);

// `path` as the user gave it to --kernel, `run FILE` or File > Open: a .cu is a CUDA program,
// anything else a kernel file.
std::variant<KernelFile, KernelFileError> load_user_code(const std::string& path);

bool is_cuda_program_path(const std::string& path);

}  // namespace syncscope
