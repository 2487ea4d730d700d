#include "core/cuda_program.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <vector>

#include "core/atomic_file.h"
#include "core/child_process.h"
#include "core/kernel_cache.h"
#include "core/sources.h"
#include "core/worker/kernel_worker.h"
#include "sim/limits.h"

namespace syncscope {

const std::vector<SourceFile>& translator_sources();  // generated: translate/

namespace {

namespace fs = std::filesystem;

struct Parameter {
  bool pointer = false;
  std::string type, name;
};
struct Kernel {
  std::string name;
  bool is_template = false;
  std::vector<Parameter> parameters;
};
struct Translated {
  std::vector<std::string> bugs;  // BUG_* macros
  std::vector<Kernel> kernels;
  bool has_main = false;
  std::string text;
};

// The translator next to this executable (a build puts them side by side).
std::string translator_path() {
  if (const char* own = std::getenv("SYNCSCOPE_TRANSLATE"); own && *own) return own;
  return (fs::path(worker::own_executable_path()).parent_path() / "syncscope-translate").string();
}

// Runs the translator on the bytes already read: stdin the text, stdout the translation, stderr
// its errors. Bounded like the compiler: a file that makes Clang spin or grow is stopped.
// The translator's sources, hashed: what its output and its precompiled header depend on.
uint64_t translator_hash() {
  static const uint64_t hash = [] {
    uint64_t h = fnv1a("syncscope-translate");
    for (const SourceFile& f : translator_sources()) h = fnv1a(f.text, fnv1a(f.path, h));
    return h;
  }();
  return hash;
}

// A translator run's bounds: a minute, like any child (core/child_process.h).
ChildOptions translator_bounds() {
  ChildOptions bounds;
  bounds.cpu_seconds = 60;
  bounds.wall_seconds = 60;
  return bounds;
}

// The translator's precompiled shim in the cache (translate/cuda_translator.h), made by its first
// translation (0.4 s once; a translation then takes 0.06 s where it took 0.19): "" when there is
// none to trust, and the translator parses the shim as before.
std::string translation_pch(const std::string& translator) {
  auto cache = trusted_kernel_cache();
  if (cache.index() != 0) return "";
  // Keyed by the translator as built too (its Clang reads only headers made by itself).
  struct stat binary {};
  stat(translator.c_str(), &binary);
  const uint64_t key = fnv1a(translator + " " + std::to_string(binary.st_size) + " " + std::to_string(binary.st_mtime),
                             translator_hash());
  const fs::path base = fs::path(std::get<0>(cache)) / ("translate-" + hex(key));
  const std::string pch = base.string() + ".pch";
  std::error_code ec;
  if (!fs::exists(pch, ec)) {
    // A header that could not be made is not tried again at every translation.
    const std::string failed = base.string() + ".failed";
    if (fs::exists(failed, ec)) return "";
    const ChildResult made = run_child({translator, "--make-pch", pch}, translator_bounds());
    if (made.exit_code != 0 || !fs::exists(pch, ec)) {
      (void)write_file_atomically(failed, made.output + made.errors);
      return "";
    }
  }
  return untrusted_because(pch).empty() ? pch : "";
}

std::variant<std::string, KernelFileError> run_translator(const KernelText& file, const std::string& define) {
  const std::string translator = translator_path();
  std::error_code ec;
  if (!fs::exists(translator, ec))
    return KernelFileError{file.path + ": a .cu needs syncscope-translate, which this build lacks (" + translator +
                               "; build with Clang 14's libraries: scripts/install-deps.sh installs them)",
                           file.path, 0, ""};
  std::vector<std::string> args = {translator, "--file", file.path};
  if (!define.empty()) args.insert(args.end(), {"-D", define});
  if (const std::string pch = translation_pch(translator); !pch.empty()) args.insert(args.end(), {"--pch", pch});
  ChildOptions bounds = translator_bounds();
  bounds.input = file.text;
  bounds.merge_stderr = false;
  const ChildResult ran = run_child(args, bounds);
  if (!ran.started) return KernelFileError{"cannot start " + translator + ": " + ran.failure, file.path, 0, ""};
  const std::string& stderr_text = ran.errors;
  if (ran.exit_code != 0) {
    KernelFileError e{"", file.path, 0, stderr_text};
    // The first "FILE:LINE:COL: error: ..." line is the headline.
    std::istringstream lines(stderr_text);
    for (std::string line; std::getline(lines, line);) {
      const size_t at = line.find(": error: ");
      if (at == std::string::npos) continue;
      e.message = line;
      const size_t first = line.find(':'), second = line.find(':', first + 1);
      if (first != std::string::npos && second != std::string::npos) {
        e.file = line.substr(0, first);
        e.line = std::atoi(line.substr(first + 1, second - first - 1).c_str());
      }
      break;
    }
    if (e.message.empty())
      e.message = file.path + ": the translator failed on this file (" + describe_end(ran, bounds) + ")";
    return e;
  }
  return ran.output;
}

// The translator's output: `bug NAME` lines, then `text BYTES` and the translation.
Translated parse_translation(const std::string& stdout_text) {
  Translated t;
  std::istringstream header(stdout_text);
  for (std::string line; std::getline(header, line);) {
    if (line.rfind("bug ", 0) == 0) t.bugs.push_back(line.substr(4));
    else if (line.rfind("kernel ", 0) == 0) {
      const size_t space = line.rfind(' ');
      t.kernels.push_back({line.substr(7, space - 7), line.substr(space + 1) == "template", {}});
    } else if (line.rfind("param ", 0) == 0 && !t.kernels.empty()) {
      const bool pointer = line.rfind("param ptr ", 0) == 0;
      const std::string rest = line.substr(pointer ? 10 : 12);
      const size_t space = rest.rfind(' ');
      t.kernels.back().parameters.push_back({pointer, rest.substr(0, space), rest.substr(space + 1)});
    } else if (line == "main yes") {
      t.has_main = true;
    } else if (line.rfind("text ", 0) == 0) {
      const size_t bytes = std::stoul(line.substr(5));
      const size_t start = static_cast<size_t>(header.tellg());
      t.text = stdout_text.substr(start, bytes);
      break;
    }
  }
  return t;
}

// A translation is cached beside the libraries, keyed by the translator's sources, the variant and
// the bytes read: an unchanged .cu runs no translator (and a build without one, such as the GPU
// machine's, runs the translations made here).
std::string translation_cache_file(const KernelText& file, const std::string& define) {
  auto cache = trusted_kernel_cache();
  if (cache.index() != 0) return "";
  const uint64_t key = fnv1a(define + "\n" + file.path + "\n" + file.text, translator_hash());
  const std::string name = "translation-" + hex(key) + "-" + std::to_string(file.text.size()) + ".txt";
  return (fs::path(std::get<0>(cache)) / name).string();
}

std::variant<Translated, KernelFileError> translate(const KernelText& file, const std::string& define) {
  const std::string cached = translation_cache_file(file, define);
  std::error_code ec;
  if (!cached.empty() && fs::exists(cached, ec) && untrusted_because(cached).empty()) {
    std::ifstream in(cached, std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.good() || in.eof()) return parse_translation(text);
  }
  auto ran = run_translator(file, define);
  if (auto* e = std::get_if<KernelFileError>(&ran)) return *e;
  const std::string& out = std::get<std::string>(ran);
  if (!cached.empty()) (void)write_file_atomically(cached, out);  // a cache: a failed write costs a translation
  return parse_translation(out);
}

// The program's name as `syncscope list` and the app show it: its file's name, which no built-in
// algorithm has (they have no `.cu`).
std::string program_name(const std::string& path) { return fs::path(path).filename().string(); }

// `reduce<float, 4>` as the translator prints an explicit instantiation, `reduce<float,4>` as typed.
bool same_kernel_name(const std::string& a, const std::string& b) {
  auto without_spaces = [](std::string s) {
    s.erase(std::remove(s.begin(), s.end(), ' '), s.end());
    return s;
  };
  return without_spaces(a) == without_spaces(b);
}

// For a .cu without main(): a main() that launches the chosen kernel as ProgramLaunch says and
// copies every array back to the host (what the GPU's run is compared by), or why it cannot (exit 2
// for run). `plain_cuda`: written for nvcc, else for the translation's runtime.
std::string generated_main(const KernelText& file, const Translated& t, const ProgramLaunch& l, bool plain_cuda,
                           std::string* main) {
  const std::string where = file.path + ": ";
  if (!l.given)
    return where + "the file has no main(): give --grid X[,Y[,Z]] --block X[,Y[,Z]] to launch " +
           (t.kernels.size() == 1 ? "its kernel " + t.kernels[0].name : std::string("one of its kernels (--kernel-name K)")) +
           " (in the app: File > Open's grid and block)";
  if (t.kernels.empty()) return where + "the file has no __global__ kernel to launch";
  const Kernel* k = nullptr;
  std::string names;
  for (const Kernel& candidate : t.kernels) {
    names += (names.empty() ? "" : ", ") + candidate.name;
    if (same_kernel_name(candidate.name, l.kernel) || (l.kernel.empty() && t.kernels.size() == 1)) k = &candidate;
  }
  if (!k)
    return where + (l.kernel.empty() ? "--kernel-name is needed: the file has kernels " + names
                                     : "--kernel-name " + l.kernel + ": no such kernel; the file has " + names);
  if (k->is_template) return where + "kernel " + k->name + " is a template: launch it from a main() that names its arguments";
  // A scalar's value, or a pointer's array's element count (grid × block unless given).
  constexpr long long kMaxElements = 1 << 24;
  for (const auto& [name, value] : l.arguments) {
    const std::string& named = name;  // Clang 14 captures no structured binding
    const auto p = std::find_if(k->parameters.begin(), k->parameters.end(), [&](const Parameter& q) { return q.name == named; });
    if (p == k->parameters.end()) return "--arg " + name + "=" + value + ": " + k->name + " has no parameter " + name;
    if (p->pointer) {
      const bool digits = !value.empty() && value.size() <= 9 && value.find_first_not_of("0123456789") == std::string::npos;
      if (!digits || std::stoll(value) < 1 || std::stoll(value) > kMaxElements)
        return "--arg " + name + "=" + value + ": " + name + " is a pointer: give its array's element count, 1.." +
               std::to_string(kMaxElements);
    } else if (value.empty() || value.find_first_not_of("0123456789+-.eE") != std::string::npos) {
      return "--arg " + name + "=" + value + ": expected a number";
    }
  }
  std::ostringstream m;
  // Its own includes: the file may not have them (a kernel-only listing includes nothing).
  m << "\n#include <type_traits>\n#include <vector>\n";
  // 0, 1, 2, ... for numbers; a struct element starts value-initialised.
  m << "template <class T> T syncscope_element(size_t k) {\n"
    << "  if constexpr (std::is_arithmetic_v<T>) return static_cast<T>(k); else return T{};\n}\n"
    << "template <class T> T syncscope_zero() { return T{}; }\n";  // `unsigned int{}` is no expression
  m << "int " << (plain_cuda ? "main" : "syncscope_cuda_main") << "() {\n"
    << "  const dim3 syncscope_grid(" << l.grid.x << ", " << l.grid.y << ", " << l.grid.z << "), syncscope_block("
    << l.block.x << ", " << l.block.y << ", " << l.block.z << ");\n"
    << "  const size_t syncscope_count = size_t(syncscope_grid.x) * syncscope_grid.y * syncscope_grid.z *\n"
    << "      syncscope_block.x * syncscope_block.y * syncscope_block.z;\n";
  bool first_pointer = true;
  std::string arguments, copies_back;
  for (const Parameter& p : k->parameters) {
    arguments += (arguments.empty() ? "" : ", ") + p.name;
    if (p.pointer) {
      std::string elements = "syncscope_count";
      for (const auto& [name, given] : l.arguments)
        if (name == p.name) elements = "size_t(" + given + ")";
      m << "  " << p.type << "* " << p.name << " = nullptr;\n"
        << "  { const size_t syncscope_elements = " << elements << ";\n";
      if (plain_cuda) m << "  cudaMalloc(&" << p.name << ", syncscope_elements * sizeof(" << p.type << "));\n";
      else m << "  syncscope_cuda_malloc_named(" << c_string_literal(p.name) << ", &" << p.name << ", syncscope_elements * sizeof(" << p.type << "));\n";
      m << "    std::vector<" << p.type << "> syncscope_host(syncscope_elements);\n"
        << "    for (size_t syncscope_k = 0; syncscope_k < syncscope_elements; ++syncscope_k)\n"
        << "      syncscope_host[syncscope_k] = "
        << (first_pointer ? "syncscope_element<" + p.type + ">(syncscope_k)" : "syncscope_zero<" + p.type + ">()") << ";\n"
        << "    cudaMemcpy(" << p.name << ", syncscope_host.data(), syncscope_elements * sizeof(" << p.type << "), cudaMemcpyHostToDevice); }\n";
      copies_back += "  { const size_t syncscope_elements = " + elements + ";\n    std::vector<" + p.type +
                     "> syncscope_host(syncscope_elements);\n    cudaMemcpy(syncscope_host.data(), " + p.name +
                     ", syncscope_elements * sizeof(" + p.type + "), cudaMemcpyDeviceToHost); }\n";
      first_pointer = false;
    } else {
      std::string value = "0";
      for (const auto& [name, given] : l.arguments)
        if (name == p.name) value = given;
      m << "  " << p.type << " " << p.name << " = static_cast<" << p.type << ">(" << value << ");\n";
    }
  }
  if (plain_cuda) m << "  " << k->name << "<<<syncscope_grid, syncscope_block, " << l.shared_bytes << ">>>(" << arguments << ");\n";
  else
    m << "  ::syncscope::cu::launch([](auto& _c, auto... a) { " << k->name << "(_c, a...); }, " << c_string_literal(k->name)
      << ", syncscope_grid, syncscope_block, " << l.shared_bytes << ")(" << arguments << ");\n";
  m << "  const bool syncscope_launched = cudaGetLastError() == cudaSuccess;\n" << copies_back
    << "  return syncscope_launched ? 0 : 1;\n}\n";
  *main = m.str();
  return "";
}

// What the compiler gets: the runtime, the program's name and bugs, the variant's macro, then the
// translation under the .cu's own name and lines, then the program's entry.
std::string compiled_text(const KernelText& file, const Translated& t, const std::string& define, const std::string& main) {
  std::string bugs;
  for (const auto& b : t.bugs) bugs += (bugs.empty() ? "" : ",") + b;
  std::ostringstream text;
  text << "#include \"core/cuda_in/cu_runtime.h\"\n"
       << "#include \"core/cuda_in/cu_exit.h\"\n"
       << "#define SYNCSCOPE_CUDA_NAME " << c_string_literal(program_name(file.path)) << "\n"
       << "#define SYNCSCOPE_CUDA_FILE " << c_string_literal(file.path) << "\n"
       << "#define SYNCSCOPE_CUDA_BUGS " << c_string_literal(bugs) << "\n"
       << "#define SYNCSCOPE_CUDA_KERNELS_ONLY " << (t.has_main ? "false" : "true") << "\n";
  if (!define.empty()) text << "#define " << define << " 1\n";
  text << "#line 1 " << c_string_literal(file.path) << "\n" << t.text << main << "\nSYNCSCOPE_CUDA_PROGRAM\n";
  return text.str();
}

std::variant<KernelFile, KernelFileError> build_variant(const KernelText& file, const std::string& define,
                                                        const ProgramLaunch& launch, std::vector<std::string>* bugs) {
  auto translated = translate(file, define);
  if (auto* e = std::get_if<KernelFileError>(&translated)) return *e;
  const Translated& t = std::get<Translated>(translated);
  if (bugs) *bugs = t.bugs;
  std::string main;
  if (!t.has_main) {
    if (std::string why = generated_main(file, t, launch, false, &main); !why.empty()) return KernelFileError{why, file.path, 0, ""};
  } else if (launch.given) {
    return KernelFileError{file.path + ": the file has its own main(), which chooses its launches: --grid and --block "
                           "(in the app: File > Open's grid and block) are for a .cu without one",
                           file.path, 0, ""};
  }
  return load_kernel_build({file, compiled_text(file, t, define, main), true});
}

// The variants of one program, each built on first use.
struct Variants {
  KernelText file;
  ProgramLaunch launch;
  std::vector<std::string> bugs;
  std::mutex mutex;
  std::map<int, AlgorithmEntry> built;  // by Problem::bug

  std::variant<AlgorithmEntry, std::string> entry(int bug) {
    std::lock_guard<std::mutex> lock(mutex);
    if (auto it = built.find(bug); it != built.end()) return it->second;
    if (bug < 0 || bug > static_cast<int>(bugs.size())) return "no bug variant " + std::to_string(bug);
    auto loaded = build_variant(file, bugs[bug - 1], launch, nullptr);
    if (auto* e = std::get_if<KernelFileError>(&loaded)) return e->message;
    return built[bug] = std::get<KernelFile>(loaded).entry;
  }
};

std::mutex loaded_programs_mutex;
std::map<std::string, std::shared_ptr<Variants>>& loaded_programs() {  // by program name
  static std::map<std::string, std::shared_ptr<Variants>> programs;
  return programs;
}

}  // namespace

std::string build_program_variant(const std::string& algorithm, int bug) {
  std::shared_ptr<Variants> program;
  {
    std::lock_guard<std::mutex> lock(loaded_programs_mutex);
    auto it = loaded_programs().find(algorithm);
    if (it == loaded_programs().end()) return algorithm + " is not a loaded .cu program";
    program = it->second;
  }
  auto entry = program->entry(bug);
  return entry.index() == 1 ? std::get<std::string>(entry) : "";
}

std::variant<GpuProgramSource, std::string> gpu_program_source(const std::string& algorithm, int bug) {
  std::shared_ptr<Variants> program;
  {
    std::lock_guard<std::mutex> lock(loaded_programs_mutex);
    auto it = loaded_programs().find(algorithm);
    if (it == loaded_programs().end()) return algorithm + " is not a loaded .cu program";
    program = it->second;
  }
  if (bug < 0 || bug > static_cast<int>(program->bugs.size())) return "no bug variant " + std::to_string(bug);
  GpuProgramSource source{program->file.path, program->file.text, bug == 0 ? "" : program->bugs[bug - 1]};
  if (!program->launch.given) return source;
  // A file without main(): the generated main(), in plain CUDA, after the file's own bytes.
  auto translated = translate(program->file, source.define);
  if (auto* e = std::get_if<KernelFileError>(&translated)) return e->message;
  std::string main;
  if (std::string why = generated_main(program->file, std::get<Translated>(translated), program->launch, true, &main); !why.empty())
    return why;
  source.text += main;
  return source;
}

bool is_cuda_program_path(const std::string& path) {
  const std::string ext = fs::path(path).extension().string();
  return ext == ".cu";
}

std::string parse_dims(const std::string& option, const std::string& text, Dim3& out) {
  int values[3] = {1, 1, 1};
  std::istringstream in(text);
  int count = 0;
  for (std::string part; std::getline(in, part, ',');) {
    if (count == 3) return option + " " + text + ": at most three sizes (X,Y,Z)";
    if (part.empty() || part.size() > 7 || part.find_first_not_of("0123456789") != std::string::npos)
      return option + " " + text + ": expected X[,Y[,Z]], whole numbers of at least 1";
    values[count++] = std::stoi(part);
    if (values[count - 1] < 1) return option + " " + text + ": every size is at least 1";
  }
  if (count == 0) return option + " '" + text + "': expected X[,Y[,Z]]";
  out = {values[0], values[1], values[2]};
  return "";
}

std::string parse_launch(const LaunchText& text, const LaunchNames& names, const std::string& file, ProgramLaunch& launch) {
  const std::string grid = names.grid, block = names.block;
  launch = ProgramLaunch{};
  launch.given = !text.grid.empty() || !text.block.empty();
  if (!launch.given && (!text.kernel.empty() || !text.arguments.empty() || !text.shared_bytes.empty()))
    return std::string(names.kernel) + ", " + names.argument + " and " + names.shared_bytes + " need " + grid + " and " +
           block + " (they launch a .cu that has no main())";
  if (!launch.given) return "";
  if (text.grid.empty() || text.block.empty()) return grid + " and " + block + " go together";
  if (!is_cuda_program_path(file))
    return grid + " and " + block + " launch a .cu that has no main(); " +
           (file.empty() ? std::string("no .cu was given") : file + " is not one");
  if (std::string why = parse_dims(grid, text.grid, launch.grid); !why.empty()) return why;
  if (std::string why = parse_dims(block, text.block, launch.block); !why.empty()) return why;
  launch.kernel = text.kernel;
  if (!text.shared_bytes.empty()) {
    const std::string said = std::string(names.shared_bytes) + " " + text.shared_bytes;
    if (text.shared_bytes.size() > 6 || text.shared_bytes.find_first_not_of("0123456789") != std::string::npos)
      return said + ": expected a number of bytes";
    launch.shared_bytes = std::stoul(text.shared_bytes);
    if (launch.shared_bytes > static_cast<size_t>(sim::kMaxSharedBytesPerBlock))
      return said + ": a block has at most " + std::to_string(sim::kMaxSharedBytesPerBlock) + " bytes of shared memory";
  }
  for (const std::string& a : text.arguments) {
    const size_t equals = a.find('=');
    if (equals == std::string::npos || equals == 0) return names.argument + (" " + a) + ": expected NAME=VALUE";
    launch.arguments.push_back({a.substr(0, equals), a.substr(equals + 1)});
  }
  return "";
}

std::variant<KernelFile, KernelFileError> load_cuda_program(const std::string& path_text, const ProgramLaunch& launch) {
  auto read = read_kernel_text(path_text);
  if (read.index() == 1) return KernelFileError{std::get<1>(read), "", 0, ""};
  auto variants = std::make_shared<Variants>();
  variants->file = std::get<KernelText>(read);
  variants->launch = launch;
  auto loaded = build_variant(variants->file, "", launch, &variants->bugs);
  if (auto* e = std::get_if<KernelFileError>(&loaded)) return *e;
  KernelFile program = std::get<KernelFile>(std::move(loaded));
  variants->built[0] = program.entry;
  {
    std::lock_guard<std::mutex> lock(loaded_programs_mutex);
    loaded_programs()[program.entry.info.name] = variants;
  }
  // A run with --bug builds that variant's translation (once) and simulates it.
  program.entry.simulate = [variants](const Problem& p, const std::vector<double>& input, const sim::SimOptions& options) {
    auto entry = variants->entry(p.bug);
    if (auto* why = std::get_if<std::string>(&entry)) {
      SimOutcome failed;
      failed.trace.error = sim::SimError{sim::SimErrorKind::Kernel, *why, 0, 0, 0, {}};
      return failed;
    }
    return std::get<AlgorithmEntry>(entry).simulate(p, input, options);
  };
  return program;
}

std::variant<KernelFile, KernelFileError> load_user_code(const std::string& path, const ProgramLaunch& launch) {
  return is_cuda_program_path(path) ? load_cuda_program(path, launch) : load_kernel_file(path);
}

}  // namespace syncscope
