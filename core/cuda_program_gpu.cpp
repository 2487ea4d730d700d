#include "core/cuda_program_gpu.h"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include "core/child_process.h"
#include "core/cuda/gpu_run.h"
#include "core/cuda_program.h"
#include "core/kernel_cache.h"

namespace syncscope {
namespace {

namespace fs = std::filesystem;

// Float arithmetic as the simulator rounds it: no multiply-add contracted into one FMA (the
// built-in kernels' GPU runner compiles with the same flag), or a correct program's floats would
// differ from the simulator's in the last bit.
constexpr const char* kProgramNvccFlags = "--fmad=false -lineinfo -arch=native";
constexpr int kCompileSeconds = 300;
constexpr int kRunSeconds = 60;

std::string read_all(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// nvcc's first error line ("k.cu(12): error: ..."), else its last words.
std::string first_error(const std::string& output) {
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);)
    if (line.find("error") != std::string::npos) return line;
  return output.size() > 400 ? output.substr(output.size() - 400) : output;
}

// The program's executable in the kernel cache, compiled if need be; or why it cannot be.
std::variant<std::string, std::string> compiled_program(const GpuProgramSource& source) {
  using Result = std::variant<std::string, std::string>;
  const std::string nvcc = nvcc_command();
  std::error_code ec;
  if (nvcc.empty() || (nvcc.find('/') != std::string::npos && !fs::exists(nvcc, ec)))
    return Result(std::in_place_index<1>, "a .cu runs on the GPU once nvcc compiles it, and nvcc was not found (" +
                                              (nvcc.empty() ? std::string("none configured") : nvcc) +
                                              "; set SYNCSCOPE_NVCC to its path)");
  auto cache = trusted_kernel_cache();
  if (cache.index() == 1) return Result(std::in_place_index<1>, std::get<1>(cache));
  const fs::path folder = std::get<0>(cache);
  const uint64_t key = fnv1a(nvcc + "\n" + kProgramNvccFlags + "\n" + host_copy_recorder_header() + "\n" + source.define +
                             "\n" + source.path + "\n" + source.text);
  const fs::path executable = folder / ("gpu-program-" + hex(key));
  if (fs::exists(executable, ec)) {
    if (std::string why = untrusted_because(executable.string()); !why.empty()) return Result(std::in_place_index<1>, why);
    return Result(std::in_place_index<0>, executable.string());
  }
  const fs::path work = folder / ("gpu-build-" + hex(key) + "-" + std::to_string(getpid()));
  fs::create_directories(work, ec);
  std::ofstream(work / "syncscope_host_copies.h") << host_copy_recorder_header();
  // The bytes the simulator ran, under the file's own name and lines (nvcc's errors name them).
  std::ofstream(work / "program.cu", std::ios::binary) << "#line 1 " << c_string_literal(source.path) << "\n"
                                                       << source.text;
  std::vector<std::string> args = {nvcc};
  std::istringstream flags(kProgramNvccFlags);
  for (std::string flag; flags >> flag;) args.push_back(flag);
  if (!source.define.empty()) args.push_back("-D" + source.define + "=1");
  const fs::path staged = work / "program";
  for (const std::string& a : {"-I" + fs::path(source.path).parent_path().string(), std::string("-include"),
                               (work / "syncscope_host_copies.h").string(), (work / "program.cu").string(),
                               std::string("-o"), staged.string()})
    args.push_back(a);
  ChildOptions bounds;
  bounds.cpu_seconds = kCompileSeconds;
  bounds.wall_seconds = kCompileSeconds;
  // -arch=native asks the driver, which reserves more address space than any limit we would set:
  // under one, nvcc silently falls back to its default architecture (and sm_80's intrinsics vanish).
  bounds.address_space = 0;
  const ChildResult built = run_child(args, bounds);
  std::string why;
  if (built.exit_code != 0)
    why = "nvcc could not compile " + source.path + " for the GPU: " +
          (built.exit_code > 0 ? first_error(built.output) : describe_end(built, bounds));
  else if (fs::permissions(staged, fs::perms::owner_all, ec); ec)
    why = "cannot protect the program's executable: " + ec.message();
  else if (fs::rename(staged, executable, ec); ec)
    why = "cannot move the program's executable into the cache: " + ec.message();
  fs::remove_all(work, ec);
  if (!why.empty()) return Result(std::in_place_index<1>, why);
  return Result(std::in_place_index<0>, executable.string());
}

}  // namespace

const char* host_copy_recorder_header() {
  // Forced in before the program: cudaMemcpy becomes a function that calls the real one and, for
  // a copy to the host, appends what the host received to $SYNCSCOPE_HOST_COPIES. Defined before
  // the macro, so its own call is the runtime's.
  return R"(// syncscope: records the program's copies to the host (core/cuda_program_gpu.h)
#pragma once
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
static inline void syncscope_record_host_copy(int line, const void* received, size_t bytes) {
  static FILE* record = [] {
    const char* path = std::getenv("SYNCSCOPE_HOST_COPIES");
    return path ? std::fopen(path, "wb") : nullptr;
  }();
  if (!record) return;
  std::fprintf(record, "copy %d %zu\n", line, bytes);
  std::fwrite(received, 1, bytes, record);
  std::fputc('\n', record);
  std::fflush(record);
}
static inline bool syncscope_is_device_memory(const void* p) {
  cudaPointerAttributes a;
  return cudaPointerGetAttributes(&a, p) == cudaSuccess && a.type == cudaMemoryTypeDevice;
}
static inline cudaError_t syncscope_recorded_cudaMemcpy(void* to, const void* from, size_t bytes, cudaMemcpyKind kind,
                                                        int line = __builtin_LINE()) {
  const cudaError_t result = cudaMemcpy(to, from, bytes, kind);
  bool to_host = kind == cudaMemcpyDeviceToHost;
  if (kind == cudaMemcpyDefault) to_host = syncscope_is_device_memory(from) && !syncscope_is_device_memory(to);
  if (result == cudaSuccess && to_host) syncscope_record_host_copy(line, to, bytes);
  return result;
}
// An asynchronous copy to the host is recorded once its stream has delivered it (the wait moves
// when the host sees the bytes, not which bytes).
static inline cudaError_t syncscope_recorded_cudaMemcpyAsync(void* to, const void* from, size_t bytes, cudaMemcpyKind kind,
                                                             cudaStream_t stream = 0, int line = __builtin_LINE()) {
  cudaError_t result = cudaMemcpyAsync(to, from, bytes, kind, stream);
  bool to_host = kind == cudaMemcpyDeviceToHost;
  if (kind == cudaMemcpyDefault) to_host = syncscope_is_device_memory(from) && !syncscope_is_device_memory(to);
  if (result == cudaSuccess && to_host) {
    result = cudaStreamSynchronize(stream);
    if (result == cudaSuccess) syncscope_record_host_copy(line, to, bytes);
  }
  return result;
}
template <class T>
static inline cudaError_t syncscope_recorded_cudaMemcpyFromSymbol(void* to, const T& symbol, size_t bytes, size_t offset = 0,
                                                                  cudaMemcpyKind kind = cudaMemcpyDeviceToHost,
                                                                  int line = __builtin_LINE()) {
  const cudaError_t result = cudaMemcpyFromSymbol(to, symbol, bytes, offset, kind);
  const bool to_host = kind == cudaMemcpyDeviceToHost || (kind == cudaMemcpyDefault && !syncscope_is_device_memory(to));
  if (result == cudaSuccess && to_host) syncscope_record_host_copy(line, to, bytes);
  return result;
}
// A 2D copy to the host is recorded row by row, as the simulator copies it (cudaMemcpy2D).
static inline cudaError_t syncscope_recorded_cudaMemcpy2D(void* to, size_t to_pitch, const void* from, size_t from_pitch,
                                                          size_t width, size_t height, cudaMemcpyKind kind,
                                                          int line = __builtin_LINE()) {
  const cudaError_t result = cudaMemcpy2D(to, to_pitch, from, from_pitch, width, height, kind);
  bool to_host = kind == cudaMemcpyDeviceToHost;
  if (kind == cudaMemcpyDefault) to_host = syncscope_is_device_memory(from) && !syncscope_is_device_memory(to);
  if (result == cudaSuccess && to_host)
    for (size_t r = 0; r < height; ++r) syncscope_record_host_copy(line, static_cast<const char*>(to) + r * to_pitch, width);
  return result;
}
static inline cudaError_t syncscope_recorded_cudaMemcpy2DAsync(void* to, size_t to_pitch, const void* from,
                                                               size_t from_pitch, size_t width, size_t height,
                                                               cudaMemcpyKind kind, cudaStream_t stream = 0,
                                                               int line = __builtin_LINE()) {
  cudaError_t result = cudaMemcpy2DAsync(to, to_pitch, from, from_pitch, width, height, kind, stream);
  bool to_host = kind == cudaMemcpyDeviceToHost;
  if (kind == cudaMemcpyDefault) to_host = syncscope_is_device_memory(from) && !syncscope_is_device_memory(to);
  if (result == cudaSuccess && to_host) {
    result = cudaStreamSynchronize(stream);
    if (result == cudaSuccess)
      for (size_t r = 0; r < height; ++r) syncscope_record_host_copy(line, static_cast<const char*>(to) + r * to_pitch, width);
  }
  return result;
}
#define cudaMemcpy syncscope_recorded_cudaMemcpy
#define cudaMemcpy2D syncscope_recorded_cudaMemcpy2D
#define cudaMemcpy2DAsync syncscope_recorded_cudaMemcpy2DAsync
#define cudaMemcpyFromSymbol syncscope_recorded_cudaMemcpyFromSymbol
#define cudaMemcpyAsync syncscope_recorded_cudaMemcpyAsync
)";
}

bool parse_host_copies(const std::string& text, std::vector<HostCopy>* copies) {
  size_t at = 0;
  while (at < text.size()) {
    const size_t end = text.find('\n', at);
    if (end == std::string::npos) return false;
    std::istringstream header(text.substr(at, end - at));
    std::string word;
    long long line = 0;
    unsigned long long bytes = 0;
    if (!(header >> word >> line >> bytes) || word != "copy" || bytes > text.size() - end - 1) return false;
    HostCopy c;
    c.line = static_cast<int32_t>(line);
    c.bytes.assign(text.begin() + static_cast<std::ptrdiff_t>(end + 1),
                   text.begin() + static_cast<std::ptrdiff_t>(end + 1 + bytes));
    at = end + 1 + bytes;
    if (at >= text.size() || text[at] != '\n') return false;
    ++at;
    copies->push_back(std::move(c));
  }
  return true;
}


ProgramGpuRun run_program_on_gpu(const std::string& algorithm, int bug) {
  ProgramGpuRun r;
  if (!gpu_status().usable) {
    r.error = gpu_status().reason;
    return r;
  }
  auto source = gpu_program_source(algorithm, bug);
  if (auto* why = std::get_if<std::string>(&source)) {
    r.error = *why;
    return r;
  }
  auto compiled = compiled_program(std::get<GpuProgramSource>(source));
  if (compiled.index() == 1) {
    r.error = std::get<1>(compiled);
    return r;
  }
  // Its own empty folder, named like a build so that a crash of ours leaves nothing for good.
  static std::atomic<int> runs{0};
  std::error_code ec;
  const fs::path folder = fs::path(kernel_cache_dir()) / ("gpu-build-run" + std::to_string(runs++) + "-" + std::to_string(getpid()));
  fs::remove_all(folder, ec);
  fs::create_directories(folder, ec);
  fs::permissions(folder, fs::perms::owner_all, ec);
  ChildOptions bounds;
  bounds.working_directory = folder.string();
  bounds.environment = {{"SYNCSCOPE_HOST_COPIES", (folder / "copies").string()}};
  bounds.cpu_seconds = kRunSeconds;
  bounds.wall_seconds = kRunSeconds;
  bounds.address_space = 0;  // the CUDA driver reserves far more address space than it uses
  const auto start = std::chrono::steady_clock::now();
  const ChildResult ran = run_child({std::get<0>(compiled)}, bounds);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r.output = ran.output;
  const bool copies_read = parse_host_copies(read_all(folder / "copies"), &r.host_copies);
  fs::remove_all(folder, ec);
  if (ran.exit_code < 0) {
    r.error = "the program on the GPU " + describe_end(ran, bounds);
    return r;
  }
  if (!copies_read) {
    r.error = "the record of the program's copies to the host is damaged";
    return r;
  }
  r.ran = true;
  r.main_returned = ran.exit_code;
  return r;
}

Outcomes program_gpu_outcomes(const RunConfig& config, const std::vector<double>& input, int runs) {
  return gpu_outcomes_of(config, input, runs, [&] {
    const ProgramGpuRun p = run_program_on_gpu(config.algorithm->info.name, config.problem.bug);
    GpuRun g;
    g.ok = p.ran;
    g.error = p.error;
    g.output_bits = {static_cast<uint32_t>(p.main_returned)};
    g.milliseconds = p.seconds * 1000;
    return g;
  });
}

}  // namespace syncscope
