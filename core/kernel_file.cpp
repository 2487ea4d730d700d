#include "core/kernel_file.h"

#include <dlfcn.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <atomic>
#include <chrono>
#include <cstring>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <future>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <regex>
#include <sstream>

#include "core/child_process.h"
#include "core/cuda/gpu_runner.h"
#include "core/kernel_cache.h"
#include "core/worker/kernel_worker.h"
#include "core/sources.h"
#include "core/words.h"

namespace syncscope {

const std::vector<SourceFile>& kernel_file_headers();  // generated: kernels/, sim/, contract/ headers

namespace {

namespace fs = std::filesystem;

// The compiler and the flags the built-in kernels were compiled with (CMake passes them), so a
// loaded kernel and the simulator it calls into agree on every type.
#ifndef SYNCSCOPE_KERNEL_CXX
#define SYNCSCOPE_KERNEL_CXX "c++"
#endif
#ifndef SYNCSCOPE_KERNEL_CXX_FLAGS
#define SYNCSCOPE_KERNEL_CXX_FLAGS "-std=c++20 -O2 -DNDEBUG"
#endif
constexpr const char* kKernelFlags = SYNCSCOPE_KERNEL_CXX_FLAGS;
// The SIMT twin's flags (sim/simt.h), as CMake's syncscope_simt_twins() sets them.
constexpr const char* kTwinFlags = "-fsanitize-coverage=trace-pc -O1 -fno-reorder-blocks -fno-reorder-blocks-and-partition";
// A translated .cu's one unit: its edit-to-trace time is the compile's (3.7 s at -O2, 2.5 s at -O1
// for tests/cuda/reduce_sequential.cu on 2 cores), and a program's kernels are small. Its SIMT twins
// need no coverage: the translator has them report their positions (translate/simt_positions.h).
constexpr const char* kCudaProgramFlags = "-O1";
// Its calls of exit(), _Exit, quick_exit and abort() come to the runtime's (core/cuda_in/cu_exit.h):
// on main()'s thread they end main(), not the worker.
constexpr const char* kCudaProgramLinkFlags = "-Wl,--wrap=exit,--wrap=_Exit,--wrap=quick_exit,--wrap=abort";
// Every unit of a kernel library. -fno-gnu-unique: a library compiled after an edit must get its
// own copies of the template statics its kernel's types instantiate (the SIMT twin's registration
// among them), not be bound to the previous library's, as GNU-unique symbols would be.
// -g1: line tables, so a runaway loop the watchdog interrupts is named by its line (sim/code_address.h).
constexpr const char* kLibraryFlags = "-fPIC -fno-gnu-unique -g1";

// The C++ compiler kernel libraries are built with: SYNCSCOPE_CXX, else this build's.
std::string kernel_compiler() {
  const char* own = std::getenv("SYNCSCOPE_CXX");
  return own && *own ? own : SYNCSCOPE_KERNEL_CXX;
}

// Runs a compiler (no shell), its stdout and stderr into `output`, bounded like every child
// (core/child_process.h): a pathological file gets 300 s of CPU and 8 GiB. The exit status, -1 if
// it did not run or was stopped.
int run_process(const std::vector<std::string>& args, std::string* output, const ChildOptions& bounds = {}) {
  ChildResult r = run_child(args, bounds);
  *output += r.output;
  if (!r.started) *output += r.failure;
  else if (r.exit_code < 0) *output += "\n" + args[0] + " " + describe_end(r, bounds) + "\n";
  return r.exit_code;
}

// The first "FILE:LINE:COL: error: ..." of the compiler's output, preferring one in the kernel file.
// An error inside the simulator's headers, in a template the kernel file instantiated, is headlined
// at the kernel's line that instantiated it (a launch whose arguments do not fit its kernel): the
// innermost "KERNEL:LINE:COL:   required from" of its instantiation chain.
KernelFileError compile_error(const std::string& output, const std::string& kernel_path) {
  KernelFileError e;
  e.compiler_output = output;
  static const std::regex located(R"(^([^:\n]+):(\d+):(?:\d+:)? (?:fatal )?error: (.*)$)");
  // "In file included from k.h:3," / "                 from k.h:3:": the kernel's #include line.
  static const std::regex included(R"(^(?:In file included|\s+) from ([^:\n]+):(\d+)[,:]?$)");
  static const std::regex required(R"(^([^:\n]+):(\d+):\d+:\s+required from .*$)");
  static const std::regex instantiation(R"(^[^:\n]+: In (?:instantiation|substitution) of .*$)");
  std::istringstream lines(output);
  std::optional<KernelFileError> first;
  int kernel_include = 0;   // the kernel's line that included the file of the next error (0: none)
  int kernel_required = 0;  // the kernel's innermost line in the next error's instantiation chain (0: none)
  for (std::string line; std::getline(lines, line);) {
    std::smatch m;
    if (std::regex_match(line, instantiation)) {
      kernel_required = 0;
      continue;
    }
    if (std::regex_match(line, m, required)) {
      if (!kernel_required && fs::path(std::string(m[1])) == fs::path(kernel_path)) kernel_required = std::stoi(m[2]);
      continue;
    }
    if (std::regex_match(line, m, included)) {
      if (fs::path(std::string(m[1])) == fs::path(kernel_path)) kernel_include = std::stoi(m[2]);
      continue;
    }
    if (!std::regex_match(line, m, located)) {
      if (line.rfind("In file included", 0) != 0) kernel_include = 0;
      continue;
    }
    KernelFileError found = e;
    found.file = m[1];
    found.line = std::stoi(m[2]);
    found.message = found.file + ":" + std::string(m[2]) + ": error: " + std::string(m[3]);
    if (fs::path(found.file) == fs::path(kernel_path)) return found;
    if (!first && kernel_required) {
      std::string what = m[3];
      if (what.rfind("static assertion failed: ", 0) == 0) what.erase(0, std::strlen("static assertion failed: "));
      found.message = kernel_path + ":" + std::to_string(kernel_required) + ": error: " + what;
      found.file = kernel_path;
      found.line = kernel_required;
      return found;
    }
    // The first error is in a file the kernel included: headlined at the #include, in the kernel.
    if (!first && kernel_include) {
      found.message = kernel_path + ":" + std::to_string(kernel_include) + ": error: in the file included here, " +
                      found.file + ":" + std::string(m[2]) + ": " + std::string(m[3]);
      found.file = kernel_path;
      found.line = kernel_include;
      return found;
    }
    if (!first) first = found;
  }
  if (first) return *first;
  e.message = "the compiler failed: " + output.substr(0, output.find('\n'));
  return e;
}

// What the compiler reads into every kernel (the unpacked headers, the precompiled header) is code
// that runs as the user, as a library is: made the user's alone whatever the umask (folders 0700,
// files 0600) before it is moved into place ...
void make_private(const fs::path& root) {
  chmod(root.c_str(), 0700);
  std::error_code ec;
  for (const auto& entry : fs::recursive_directory_iterator(root, ec))
    chmod(entry.path().c_str(), entry.is_directory(ec) ? 0700 : 0600);
}

// ... and used only while it and everything in it pass the cache's test (core/kernel_cache.h):
// "" or why not.
std::string untrusted_tree(const fs::path& root) {
  if (std::string why = untrusted_because(root.string()); !why.empty()) return why;
  std::error_code ec;
  for (const auto& entry : fs::recursive_directory_iterator(root, ec))
    if (std::string why = untrusted_because(entry.path().string()); !why.empty()) return why;
  return "";
}

// The embedded headers, unpacked once per set of headers: <cache>/include-<hash>/.
std::string unpack_headers(const fs::path& cache, uint64_t headers_hash, std::string* why) {
  const fs::path dir = cache / ("include-" + hex(headers_hash));
  std::error_code ec;
  if (fs::exists(dir / ".complete", ec)) {
    if (std::string untrusted = untrusted_tree(dir); !untrusted.empty()) {
      *why = "the simulator's headers in the kernel cache cannot be trusted: " + untrusted +
             "; syncscope will not compile against them (remove " + dir.string() + ")";
      return "";
    }
    return dir.string();
  }
  const fs::path staging = cache / ("include-" + hex(headers_hash) + ".tmp" + std::to_string(getpid()));
  fs::remove_all(staging, ec);
  for (const SourceFile& f : kernel_file_headers()) {
    fs::create_directories((staging / f.path).parent_path(), ec);
    std::ofstream out(staging / f.path, std::ios::binary);
    out << f.text;
    if (!out) {
      *why = "cannot write " + (staging / f.path).string();
      return "";
    }
  }
  std::ofstream(staging / ".complete") << "";
  make_private(staging);
  fs::rename(staging, dir, ec);  // another process may have won: then its copy is used
  if (ec) fs::remove_all(staging, ec);
  return dir.string();
}

// What a kernel library's precompiled header holds: the simulator, and for a .cu its CUDA runtime
// too, which compiled_text (core/cuda_program.cpp) includes first (parsing it was 0.5 s of each
// edit's compile).
std::string pch_text(bool cuda_program) {
  return std::string("#pragma once\n#include \"core/registry.h\"\n#include \"core/simt_twins.h\"\n") +
         (cuda_program ? "#include \"core/cuda_in/cu_runtime.h\"\n" : "");
}

// The compiler's arguments for a unit of a kernel library: this build's flags, then `extra`.
std::vector<std::string> compiler_arguments(const std::string& compiler, const std::string& extra) {
  std::vector<std::string> args = {compiler};
  for (const std::string& words : {std::string(kKernelFlags), std::string(kLibraryFlags), extra})
    for (const auto& w : split_words(words)) args.push_back(w);
  return args;
}

// The precompiled headers a library may need: a kernel file's halves (no extra flags) and its SIMT
// twin (kTwinFlags); a .cu's one unit (kCudaProgramFlags, with the CUDA runtime).
struct PchKind {
  const char* extra;
  bool cuda_program;
};
constexpr PchKind kPchKinds[] = {{"", false}, {kTwinFlags, false}, {kCudaProgramFlags, true}};

// The compiler as installed: its path, and its file's size and time, so that an upgraded compiler
// (which would silently ignore a header an older one made, and parse it at every compile) gets
// headers of its own.
std::string compiler_identity(const std::string& compiler) {
  std::error_code ec;
  fs::path found = compiler;
  if (compiler.find('/') == std::string::npos) {  // a bare name: the one PATH finds
    std::istringstream path(std::getenv("PATH") ? std::getenv("PATH") : "");
    for (std::string dir; std::getline(path, dir, ':');)
      if (!dir.empty() && fs::exists(fs::path(dir) / compiler, ec)) {
        found = fs::path(dir) / compiler;
        break;
      }
  }
  const fs::path real = fs::canonical(found, ec);
  struct stat info {};
  if (ec || stat(real.c_str(), &info) != 0) return compiler;
  return compiler + " " + real.string() + " " + std::to_string(info.st_size) + " " + std::to_string(info.st_mtime);
}

// A precompiled header's folder name: the same in every cache and in the build's own kernel-pch/,
// since it names everything the header depends on (the embedded headers by their hash).
std::string pch_name(const std::string& compiler, const PchKind& kind, uint64_t headers_hash) {
  return "pch-" + hex(fnv1a(compiler_identity(compiler) + "\n" + kKernelFlags + "\n" + kLibraryFlags + "\n" + kind.extra +
                                "\n" + pch_text(kind.cuda_program),
                            headers_hash));
}

// A precompiled header in the build's kernel-pch/ may be copied into the cache when nobody but its
// owner (the user, or root for an installed build) can have changed it: no link, not writable by
// group or others, for the file and the folders it is in. "" or why not.
std::string prebuilt_untrusted(const fs::path& file) {
  for (fs::path p = file; !p.empty() && p != p.root_path(); p = p.parent_path()) {
    struct stat info {};
    if (lstat(p.c_str(), &info) != 0) return "cannot inspect " + p.string();
    if (S_ISLNK(info.st_mode) && p == file) return p.string() + " is a symbolic link";
    if (S_ISLNK(info.st_mode)) continue;  // a folder reached through a link: its target was tested below it
    if (info.st_uid != geteuid() && info.st_uid != 0) return p.string() + " belongs to another user";
    if ((info.st_mode & (S_IWGRP | S_IWOTH)) && !(S_ISDIR(info.st_mode) && (info.st_mode & S_ISVTX)))
      return p.string() + " is writable by others";
    if (p == file.parent_path().parent_path()) break;  // kernel-pch/ itself: above it is the install
  }
  return "";
}

// Where `syncscope prepare-kernel-cache` put the precompiled headers when syncscope was built:
// beside the executable. A first load copies its header from there (0.1 s) instead of compiling it
// (about 5 s on 2 cores).
fs::path prebuilt_pch_root() { return fs::path(worker::own_executable_path()).parent_path() / "kernel-pch"; }

// The folder holding the precompiled header of `kind` in `cache`, made if need be: copied from
// `prebuilt` when that has it, else compiled against `include`. "" when it could not be made
// (`out` says why).
std::string precompiled_header(const fs::path& cache, const std::string& include, const std::string& compiler,
                               const PchKind& kind, uint64_t headers_hash, const fs::path& prebuilt, std::string* out) {
  std::error_code ec;
  const std::string name = pch_name(compiler, kind, headers_hash);
  const fs::path dir = cache / name;
  const std::string gch = "syncscope_kernel_file.h.gch";
  if (fs::exists(dir / gch, ec)) return dir.string();  // its trust is build_library's to test
  // Staging of this process and thread alone: two loads at once in one process (a watch's and a
  // bug variant's) must not remove each other's.
  static std::atomic<unsigned> staged{0};
  const fs::path staging = dir.string() + ".tmp" + std::to_string(getpid()) + "-" + std::to_string(staged++);
  fs::remove_all(staging, ec);
  fs::create_directories(staging, ec);
  std::ofstream(staging / "syncscope_kernel_file.h") << pch_text(kind.cuda_program);
  const fs::path source = prebuilt.empty() ? fs::path() : prebuilt / name / gch;
  const bool copied = !source.empty() && fs::exists(source, ec) && prebuilt_untrusted(source).empty() &&
                      fs::copy_file(source, staging / gch, ec) && !ec;
  // Said beside it, for whoever wonders why a first load took 5 s (and for the kernel_files test).
  std::ofstream(staging / "made-by") << (copied ? "copied from " + (prebuilt / name).string() : "compiled here") << "\n";
  if (!copied) {
    std::vector<std::string> args = compiler_arguments(compiler, kind.extra);
    const std::vector<std::string> rest = {"-I" + include, "-x", "c++-header", (staging / "syncscope_kernel_file.h").string(),
                                           "-o", (staging / gch).string()};
    args.insert(args.end(), rest.begin(), rest.end());
    if (run_process(args, out) != 0) {
      fs::remove_all(staging, ec);
      return "";
    }
  }
  make_private(staging);
  fs::rename(staging, dir, ec);  // another process may have won: its copy is as good
  if (ec) fs::remove_all(staging, ec);
  return dir.string();
}

// Compiles the kernel file at `path` into `library`: three translation units, compiled side by side
// (plain.cpp exports the algorithm and runs it with float values, int32.cpp with int32 ones: the
// -O3 code, the slow part of a compile, in two halves; twin.cpp, for SIMT lockstep, gets coverage
// callbacks). Each starts with a precompiled header of the simulator (built once per set of headers
// and flags), then includes the file by its own path, so compiler messages and source locations
// name it. A translated .cu is one unit (below).
std::optional<KernelFileError> build_library(const KernelText& kernel, bool cuda_program, const fs::path& cache,
                                             const std::string& include, uint64_t headers_hash,
                                             const std::string& compiler, const fs::path& library) {
  std::error_code ec;
  const fs::path path = kernel.path;
  const fs::path work = cache / ("build-" + library.stem().string() + "-" + std::to_string(getpid()));
  fs::create_directories(work, ec);
  // The bytes read once (and hashed) are the bytes compiled, under the file's own name: an edit
  // during the compile is the next load's business.
  std::ofstream(work / "snapshot.h", std::ios::binary) << "#line 1 " << c_string_literal(path.string()) << "\n"
                                                       << kernel.text;
  const std::string quoted = "#include \"snapshot.h\"\n";
  // A translated .cu (core/cuda_program.h) defines its own entry, and its main() and host functions
  // are not inline: one unit only, which holds its kernels' SIMT twins too (core/cuda_in/cu_host.h).
  if (cuda_program) std::ofstream(work / "plain.cpp") << "#include \"syncscope_kernel_file.h\"\n" << quoted;
  // After the precompiled header: kernels/algorithm.h defined the macro empty.
  const std::string redefined = "#include \"syncscope_kernel_file.h\"\n#undef SYNCSCOPE_KERNEL_FILE\n";
  // Hidden: the int32 half is this library's own, never bound to another's of the same name.
  const std::string int32_run = "[[gnu::visibility(\"hidden\")]] void syncscope_kernel_file_run_int32("
                                "syncscope::sim::Simulator& s, syncscope::SimOutcome& out, const syncscope::Problem& p, "
                                "const std::vector<double>& in)";
  if (!cuda_program)
  std::ofstream(work / "plain.cpp") << redefined << int32_run << ";\n"
                                    << "#define SYNCSCOPE_KERNEL_FILE(Algorithm) static_assert(syncscope::ChecksProblems<Algorithm>, "
                                       "\"check(const Problem&) returns CheckResult: {} when it can run the problem, "
                                       "else ProblemError{ProblemField::Tpb, \\\"why\\\"} (kernels/README.md)\"); "
                                       "extern \"C\" syncscope::AlgorithmEntry "
                                       "syncscope_kernel_file_entry() { return {Algorithm::info(), &Algorithm::check, "
                                       "&Algorithm::reference, [](const syncscope::Problem& p, const std::vector<double>& in, "
                                       "const syncscope::sim::SimOptions& o) { return syncscope::simulate_typed(p, in, o, "
                                       "p.dtype == syncscope::DType::Float32 ? &syncscope::simulate_as<Algorithm, float> "
                                       ": &syncscope_kernel_file_run_int32); }, "
                                       "&syncscope::first_launch_blocks<Algorithm>}; }\n"
                                    << quoted;
  std::ofstream(work / "int32.cpp") << redefined << "#define SYNCSCOPE_KERNEL_FILE(Algorithm) " << int32_run
                                    << " { syncscope::simulate_as<Algorithm, int32_t>(s, out, p, in); }\n"
                                    << quoted;
  std::ofstream(work / "twin.cpp") << redefined << "template <class... A> struct SyncscopeKernelFileList {};\n"
                                      "#define SYNCSCOPE_KERNEL_FILE(Algorithm) extern \"C\" void syncscope_kernel_file_twins() "
                                      "{ syncscope::instantiate_simt_twins(SyncscopeKernelFileList<Algorithm>{}); }\n"
                                   << quoted;
  // The kinds of precompiled header this library is built with (kPchKinds: the .cu's, or the halves'
  // and the twin's), each tested before any compile starts.
  std::vector<PchKind> kinds;
  for (const PchKind& kind : kPchKinds)
    if (kind.cuda_program == cuda_program) kinds.push_back(kind);
  for (const PchKind& kind : kinds) {
    const fs::path dir = cache / pch_name(compiler, kind, headers_hash);
    if (!fs::exists(dir, ec)) continue;
    if (std::string why = untrusted_tree(dir); !why.empty()) {
      fs::remove_all(work, ec);
      return KernelFileError{"the precompiled header in the kernel cache cannot be trusted: " + why +
                                 "; syncscope will not compile against it (remove " + dir.string() + ")",
                             "", 0, ""};
    }
  }
  auto precompiled = [&](const std::string& extra, std::string* out) -> std::string {
    for (const PchKind& kind : kinds)
      if (kind.extra == extra) return precompiled_header(cache, include, compiler, kind, headers_hash, prebuilt_pch_root(), out);
    *out += "no precompiled header is made for the flags '" + extra + "'";
    return "";
  };
  auto compile = [&](const std::string& unit, const std::string& extra, const std::string& object, std::string* out) {
    const std::string pch = precompiled(extra, out);
    if (pch.empty()) return 1;
    std::vector<std::string> args = compiler_arguments(compiler, extra);
    // -iquote: the file's own `#include "helper.h"` finds its neighbours, as it would uncompiled;
    // -idirafter: `#include <helper.h>` too, after every other place (nvcc's build gets -I there).
    const std::vector<std::string> rest = {"-I" + pch, "-I" + include, "-I" + include + "/core/cuda_in/include", "-iquote",
                                           path.parent_path().string(), "-idirafter", path.parent_path().string(), "-c",
                                           (work / unit).string(), "-o", (work / object).string()};
    args.insert(args.end(), rest.begin(), rest.end());
    return run_process(args, out);
  };
  std::string output, int32_output, twin_output;
  // The twin's precompiled header is another than the two halves' (other flags): it is made, if
  // need be, beside theirs, and theirs once, before both halves start.
  auto twin = std::async(std::launch::async, [&] {
    return cuda_program ? 0 : compile("twin.cpp", kTwinFlags, "twin.o", &twin_output);
  });
  const std::string level = cuda_program ? kCudaProgramFlags : "";
  int status = precompiled(level, &output).empty() ? 1 : 0;
  if (status == 0) {
    auto as_int32 = std::async(std::launch::async, [&] {
      return cuda_program ? 0 : compile("int32.cpp", "", "int32.o", &int32_output);
    });
    status = compile("plain.cpp", level, "plain.o", &output);
    const int int32_status = as_int32.get();
    if (status == 0 && int32_status != 0) status = int32_status, output = int32_output;
  }
  const int twin_status = twin.get();
  if (status == 0 && twin_status != 0) status = twin_status, output = twin_output;
  if (status == 0) {
    const fs::path staged = work / "kernel.so";
    std::vector<std::string> link = {compiler, "-shared", (work / "plain.o").string(), "-o", staged.string()};
    if (cuda_program) link.push_back(kCudaProgramLinkFlags);
    if (!cuda_program) link.insert(link.begin() + 3, {(work / "int32.o").string(), (work / "twin.o").string()});
    status = run_process(link, &output);
    // The compiler's mode follows the umask; a library is code that runs as the user: theirs alone.
    if (status == 0 && chmod(staged.c_str(), 0700) != 0) status = -1, output += "cannot protect the library: " + std::string(std::strerror(errno));
    if (status == 0) fs::rename(staged, library, ec);
    if (ec) status = -1, output += "cannot move the library into the cache: " + ec.message();
  }
  fs::remove_all(work, ec);
  if (status == -1 && output.empty()) output = "could not run the compiler `" + compiler + "`";
  if (status != 0) return compile_error(output, path.string());
  return std::nullopt;
}

// ---- the same file on the GPU ----
// Built on the first GPU run of a loaded kernel, not at load time: nvcc takes tens of seconds, and
// most runs never touch the GPU. The library exports one function that runs the algorithm's host
// code on CudaRuntime (core/cuda/gpu_dispatch.cuh), as the built-in kernels' runner does.
#ifdef SYNCSCOPE_KERNEL_NVCC
constexpr const char* kNvccFlags = "-std=c++20 -O2 --fmad=false -lineinfo -arch=native -shared -Xcompiler -fPIC";
#endif

struct GpuKernelFile {
  std::string path;    // the file, as loaded
  std::string source;  // its text when loaded: an edit is a new load
  using Run = GpuRun (*)(const Problem&, const std::vector<double>&);
  Run run = nullptr;
  std::string error;  // why it cannot run on the GPU (kept: the next run would fail the same way)
};

std::mutex gpu_kernels_mutex;
std::map<std::string, GpuKernelFile>& gpu_kernels() {  // by algorithm name
  static std::map<std::string, GpuKernelFile> kernels;
  return kernels;
}

// Compiles (or finds in the cache) the GPU library of `k` and loads it; sets k.run or k.error.
void load_for_gpu(GpuKernelFile& k, uint64_t headers_hash) {
#ifndef SYNCSCOPE_KERNEL_NVCC
  (void)headers_hash;
  k.error = gpu_status().reason;
#else
  const std::string nvcc = nvcc_command();
  std::error_code ec;
  if (nvcc.empty() || (nvcc.find('/') != std::string::npos && !fs::exists(nvcc, ec))) {
    k.error = "a kernel file runs on the GPU once nvcc compiles it, and nvcc was not found (" +
              (nvcc.empty() ? std::string("none configured") : nvcc) + "; set SYNCSCOPE_NVCC to its path)";
    return;
  }
  const fs::path cache = kernel_cache_dir();
  const uint64_t key = fnv1a(nvcc + "\n" + kNvccFlags + "\n" + k.path + "\n" + k.source, headers_hash);
  const fs::path library = cache / ("gpu-" + hex(key) + ".so");
  if (!fs::exists(library, ec)) {
    std::string why;
    const std::string include = unpack_headers(cache, headers_hash, &why);
    if (include.empty()) {
      k.error = why;
      return;
    }
    const fs::path work = cache / ("gpu-build-" + hex(key) + "-" + std::to_string(getpid()));
    fs::create_directories(work, ec);
    std::ofstream(work / "gpu.cu") << "#include \"core/cuda/gpu_dispatch.cuh\"\n#undef SYNCSCOPE_KERNEL_FILE\n"
                                      "#define SYNCSCOPE_KERNEL_FILE(Algorithm) extern \"C\" syncscope::GpuRun "
                                      "syncscope_kernel_file_gpu_run(const syncscope::Problem& p, "
                                      "const std::vector<double>& in) { return "
                                      "syncscope::cuda::run_algorithm_on_gpu<Algorithm>(p, in); }\n"
                                      "#include \"snapshot.h\"\n";
    std::ofstream(work / "snapshot.h", std::ios::binary) << "#line 1 " << c_string_literal(k.path) << "\n"
                                                         << k.source;
    std::vector<std::string> args = {nvcc};
    for (const auto& w : split_words(kNvccFlags)) args.push_back(w);
    // nvcc's host compiler: the one the CPU side of kernel files uses, where it exists.
    const std::string host_cxx = kernel_compiler();
    if (fs::exists(host_cxx, ec)) args.push_back("-ccbin=" + host_cxx);
    const fs::path staged = work / "gpu.so";
    for (const std::string& a : {"-I" + include, "-Xcompiler=-iquote," + fs::path(k.path).parent_path().string(),
                                 (work / "gpu.cu").string(), std::string("-o"), staged.string()})
      args.push_back(a);
    std::string output;
    // No address-space limit: -arch=native asks the driver, which reserves more than any limit we
    // would set, and under one nvcc silently falls back to its default architecture.
    ChildOptions bounds;
    bounds.address_space = 0;
    const int status = run_process(args, &output, bounds);
    if (status == 0) fs::rename(staged, library, ec);
    fs::remove_all(work, ec);
    if (status != 0) {
      k.error = "nvcc could not compile " + k.path + " for the GPU: " +
                (status == -1 && output.empty() ? "could not run " + nvcc : compile_error(output, k.path).message);
      return;
    }
  }
  void* handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    k.error = std::string("cannot load the kernel's GPU library: ") + dlerror();
    return;
  }
  k.run = reinterpret_cast<GpuKernelFile::Run>(dlsym(handle, "syncscope_kernel_file_gpu_run"));
  if (!k.run) k.error = "the kernel's GPU library has no entry";
#endif
}

uint64_t embedded_headers_hash() {  // fixed for this build
  static const uint64_t hash = [] {
    uint64_t h = kFnv1aOffset;
    for (const SourceFile& f : kernel_file_headers()) h = fnv1a(f.text, fnv1a(f.path, h));
    return h;
  }();
  return hash;
}

std::optional<GpuRun> run_loaded_kernel_on_gpu(const std::string& algorithm, const Problem& problem,
                                               const std::vector<double>& input) {
  GpuKernelFile::Run run = nullptr;
  GpuRun failed;
  {
    std::lock_guard<std::mutex> lock(gpu_kernels_mutex);
    auto it = gpu_kernels().find(algorithm);
    if (it == gpu_kernels().end()) return std::nullopt;
    GpuKernelFile& k = it->second;
    if (!gpu_status().usable) {
      failed.error = gpu_status().reason;
      return failed;
    }
    if (!k.run && k.error.empty()) load_for_gpu(k, embedded_headers_hash());
    run = k.run;
    failed.error = k.error;
  }
  if (!run) return failed;
  return run(problem, input);
}

}  // namespace

std::variant<Registry, std::string> registry_with(const AlgorithmEntry& loaded) {
  Registry registry = builtin_registry();
  if (std::string taken = registry.add(loaded); !taken.empty()) return taken;
  return registry;
}

std::string loaded_kernel_path(const std::string& algorithm) {
  std::lock_guard<std::mutex> lock(gpu_kernels_mutex);
  auto it = gpu_kernels().find(algorithm);
  return it == gpu_kernels().end() ? "" : it->second.path;
}

std::string kernel_cache_dir() { return kernel_cache_path(); }

std::string nvcc_command() {
  if (const char* own = std::getenv("SYNCSCOPE_NVCC"); own && *own) return own;
#ifdef SYNCSCOPE_KERNEL_NVCC
  return SYNCSCOPE_KERNEL_NVCC;
#else
  return "";
#endif
}


std::string perf_results_dir() { return (fs::path(kernel_cache_dir()).parent_path() / "perf").string(); }

std::variant<KernelFile, KernelFileError> load_kernel_file(const std::string& path_text) {
  auto read = read_kernel_text(path_text);
  if (read.index() == 1) return KernelFileError{std::get<1>(read), "", 0, ""};
  const KernelText& kernel = std::get<KernelText>(read);
  if (kernel.text.find("SYNCSCOPE_KERNEL_FILE(") == std::string::npos)
    return KernelFileError{"--kernel " + path_text +
                               ": the file never names its algorithm; end it with SYNCSCOPE_KERNEL_FILE(YourAlgorithm) "
                               "(kernels/README.md, \"Your own kernel, live\"), or give a plain CUDA program as FILE.cu",
                           kernel.path, 0, ""};
  return load_kernel_build({kernel, kernel.text, false});
}

std::variant<KernelFile, KernelFileError> load_kernel_build(const KernelBuild& build) {
  const KernelText kernel{build.source.path, build.compiled};
  const fs::path path = kernel.path;

  const uint64_t headers_hash = embedded_headers_hash();
  const std::string compiler = kernel_compiler();
  const uint64_t key = fnv1a(compiler + "\n" + kKernelFlags + "\n" + kLibraryFlags + "\n" + kTwinFlags + "\n" + kCudaProgramFlags + "\n" + kCudaProgramLinkFlags + "\n" + path.string() +
                                 "\n" + kernel.text,
                             headers_hash);

  auto trusted = trusted_kernel_cache();
  if (trusted.index() == 1) return KernelFileError{std::get<1>(trusted), "", 0, ""};
  const fs::path cache = std::get<0>(trusted);
  remove_stale_builds(cache.string());
  const fs::path library = cache / ("kernel-" + hex(key) + ".so");

  KernelFile loaded;
  loaded.library = library.string();
  std::error_code ec;
  loaded.from_cache = fs::exists(library, ec);
  if (loaded.from_cache) {
    if (std::string why = untrusted_because(library.string()); !why.empty())
      return KernelFileError{"the compiled kernel cannot be trusted: " + why + "; syncscope will not run it (remove it)", "", 0, ""};
  } else {
    const auto t0 = std::chrono::steady_clock::now();
    std::string why;
    const std::string include = unpack_headers(cache, headers_hash, &why);
    if (include.empty()) return KernelFileError{why, "", 0, ""};
    if (auto failed = build_library(kernel, build.cuda_program, cache, include, headers_hash, compiler, library)) return *failed;
    loaded.compile_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }

  // The kernel's code runs in a worker process of its own (core/worker/kernel_worker.h).
  const fs::path empty = cache / "empty";
  if (mkdir(empty.c_str(), 0500) != 0 && errno != EEXIST)
    return KernelFileError{"cannot create " + empty.string() + ": " + std::strerror(errno), "", 0, ""};
  auto entry = worker::KernelWorker::load({worker::own_executable_path(), library.string(), path.string(), empty.string()});
  if (entry.index() == 1) return KernelFileError{std::get<1>(entry), path.string(), 0, ""};
  loaded.entry = std::move(std::get<0>(entry));
  remember_loaded_source(path.string(), build.source.text);
  if (build.cuda_program) return loaded;  // on the GPU a .cu runs as nvcc compiles it, not through this library
  {
    std::lock_guard<std::mutex> lock(gpu_kernels_mutex);
    gpu_kernels()[loaded.entry.info.name] = GpuKernelFile{path.string(), kernel.text, nullptr, ""};
  }
  loaded_kernel_gpu_runner = &run_loaded_kernel_on_gpu;
  return loaded;
}

int prepare_kernel_cache(const std::string& folder, std::ostream& err) {
  const uint64_t headers_hash = embedded_headers_hash();
  const std::string compiler = kernel_compiler();
  const fs::path root = folder;
  std::error_code ec;
  fs::create_directories(root, ec);
  std::set<std::string> current;
  for (const PchKind& kind : kPchKinds) current.insert(pch_name(compiler, kind, headers_hash));
  // Those of earlier headers go (each is 100 MB), and nothing else: only what this command makes
  // (pch-HEX, include-HEX and their staging folders) is ever removed from FOLDER.
  static const std::regex ours(R"((pch|include)-[0-9a-f]+(\.tmp[0-9-]+)?)");
  for (const auto& entry : fs::directory_iterator(root, ec))
    if (const std::string name = entry.path().filename().string(); std::regex_match(name, ours) && !current.count(name))
      fs::remove_all(entry.path(), ec);
  bool missing = false;
  for (const std::string& name : current) missing = missing || !fs::exists(root / name / "syncscope_kernel_file.h.gch", ec);
  if (!missing) return 0;
  std::string why;
  const std::string include = unpack_headers(root, headers_hash, &why);
  if (include.empty()) {
    err << "syncscope prepare-kernel-cache: " << why << "\n";
    return 1;
  }
  std::vector<std::future<std::string>> made;
  for (const PchKind& kind : kPchKinds)
    made.push_back(std::async(std::launch::async, [&, kind] {
      std::string out;
      return precompiled_header(root, include, compiler, kind, headers_hash, {}, &out).empty() ? out : std::string();
    }));
  int status = 0;
  for (auto& m : made)
    if (std::string failed = m.get(); !failed.empty()) {
      err << "syncscope prepare-kernel-cache: a precompiled header could not be made (a first kernel load will "
             "make it): "
          << failed.substr(0, 2000) << "\n";
      status = 1;
    }
  fs::remove_all(include, ec);
  // Made private like the cache's; the build's are for every user of this build to copy (read-only).
  chmod(root.c_str(), 0755);
  for (const std::string& name : current) {
    chmod((root / name).c_str(), 0755);
    for (const auto& entry : fs::directory_iterator(root / name, ec)) chmod(entry.path().c_str(), 0644);
  }
  return status;
}

}  // namespace syncscope
