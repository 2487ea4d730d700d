#include "sim/code_address.h"

#include <dlfcn.h>

#include <algorithm>
#include <cctype>
#include <vector>

#ifdef SYNCSCOPE_HAVE_LIBDW
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#endif

namespace syncscope::sim {

std::string CodeLine::text() const {
  const size_t slash = file.rfind('/');
  return (slash == std::string::npos ? file : file.substr(slash + 1)) + ":" + std::to_string(line);
}

namespace {
#ifdef SYNCSCOPE_HAVE_LIBDW

// Where the simulator's own code is: its headers as a kernel library is compiled against them
// (unpacked into the cache's `include-<hash>/`), and its sources in this build's tree (a build with
// line tables). Not any folder named `sim/`: a student's `.cu` may be kept in one.
bool under_runtime_root(const std::string& file, size_t root_end) {
  for (const char* folder : {"sim/", "contract/", "core/cuda_in/"})  // the last: a CUDA program's runtime
    if (file.compare(root_end, std::char_traits<char>::length(folder), folder) == 0) return true;
  return false;
}

bool in_runtime(const std::string& file) {
  if (file.rfind("/usr/", 0) == 0 || under_runtime_root(file, 0)) return true;
  static const std::string source_dir = std::string(SYNCSCOPE_SOURCE_DIR) + "/";
  if (file.rfind(source_dir, 0) == 0 && under_runtime_root(file, source_dir.size())) return true;
  for (size_t at = file.find("/include-"); at != std::string::npos; at = file.find("/include-", at + 1)) {
    size_t end = at + 9;
    while (end < file.size() && isxdigit(static_cast<unsigned char>(file[end]))) ++end;
    if (end > at + 9 && end < file.size() && file[end] == '/' && under_runtime_root(file, end + 1)) return true;
  }
  return false;
}

// The chain of source locations at `address`, innermost first: the line table's entry, then the
// call site of each inlined function around it.
std::vector<CodeLine> inline_chain(Dwfl_Module* module, Dwarf_Addr address) {
  std::vector<CodeLine> chain;
  if (Dwfl_Line* at = dwfl_module_getsrc(module, address)) {
    int line = 0;
    if (const char* file = dwfl_lineinfo(at, nullptr, &line, nullptr, nullptr, nullptr); file && line > 0)
      chain.push_back({file, static_cast<uint32_t>(line)});
  }
  Dwarf_Addr bias = 0;
  Dwarf_Die* unit = dwfl_module_addrdie(module, address, &bias);
  if (!unit) return chain;
  Dwarf_Files* files = nullptr;
  if (dwarf_getsrcfiles(unit, &files, nullptr) != 0) files = nullptr;
  Dwarf_Die* scopes = nullptr;
  const int count = dwarf_getscopes(unit, address - bias, &scopes);
  for (int k = 0; k < count; ++k) {
    if (dwarf_tag(&scopes[k]) != DW_TAG_inlined_subroutine || !files) continue;
    Dwarf_Attribute attribute;
    Dwarf_Word file_index = 0, line = 0;
    if (!dwarf_attr(&scopes[k], DW_AT_call_file, &attribute) || dwarf_formudata(&attribute, &file_index) != 0) continue;
    if (!dwarf_attr(&scopes[k], DW_AT_call_line, &attribute) || dwarf_formudata(&attribute, &line) != 0) continue;
    if (const char* file = dwarf_filesrc(files, file_index, nullptr, nullptr); file && line > 0)
      chain.push_back({file, static_cast<uint32_t>(line)});
  }
  free(scopes);
  return chain;
}

// An object's line table is in the object itself (kernel libraries are built with -g) or nowhere:
// the standard lookup goes on to a debuginfod server, whose client opens a socket even with no
// server named, and the worker's sandbox kills a process that opens one (a stack overflow in the
// runner's code was reported as "the kernel tried to open a network socket").
int no_separate_debuginfo(Dwfl_Module*, void**, const char*, Dwarf_Addr, const char*, const char*, GElf_Word,
                          char**) {
  return -1;
}

// The chain at `offset` in `object`, innermost first (empty without debug information).
std::vector<CodeLine> chain_in_object(const std::string& object, uintptr_t offset) {
  static const Dwfl_Callbacks callbacks = {
      .find_elf = dwfl_build_id_find_elf,
      .find_debuginfo = no_separate_debuginfo,
      .section_address = dwfl_offline_section_address,
      .debuginfo_path = nullptr,
  };
  Dwfl* dwfl = dwfl_begin(&callbacks);
  if (!dwfl) return {};
  std::vector<CodeLine> chain;
  if (Dwfl_Module* module = dwfl_report_offline(dwfl, "object", object.c_str(), -1)) {
    dwfl_report_end(dwfl, nullptr, nullptr);
    Dwarf_Addr start = 0;
    dwfl_module_info(module, nullptr, &start, nullptr, nullptr, nullptr, nullptr, nullptr);
    chain = inline_chain(module, start + offset);
  }
  dwfl_end(dwfl);
  return chain;
}

#else
bool in_runtime(const std::string&) { return false; }
std::vector<CodeLine> chain_in_object(const std::string&, uintptr_t) { return {}; }
#endif

std::vector<CodeLine> chain_at(uintptr_t pc) {
  if (pc == 0) return {};
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(pc), &info) == 0 || !info.dli_fbase) return {};
  const std::string object = info.dli_fname && *info.dli_fname ? info.dli_fname : "/proc/self/exe";
  return chain_in_object(object, pc - reinterpret_cast<uintptr_t>(info.dli_fbase));
}

std::optional<CodeLine> kernel_line_in(const std::vector<CodeLine>& chain) {
  auto kernel = std::find_if(chain.begin(), chain.end(), [](const CodeLine& l) { return !in_runtime(l.file); });
  if (kernel == chain.end()) return std::nullopt;
  return *kernel;
}

}  // namespace

std::optional<CodeLine> line_in_object(const std::string& object, uintptr_t offset) {
  const std::vector<CodeLine> chain = chain_in_object(object, offset);
  if (std::optional<CodeLine> kernel = kernel_line_in(chain)) return kernel;
  if (!chain.empty()) return chain.front();
  return std::nullopt;
}

std::optional<CodeLine> line_of_code_address(uintptr_t pc) {
  return line_of_interrupted_code(InterruptedCode{pc});
}

std::optional<CodeLine> line_of_interrupted_code(const InterruptedCode& code) {
  const std::vector<CodeLine> own = chain_at(code.pc);
  if (std::optional<CodeLine> kernel = kernel_line_in(own)) return kernel;
  for (const uintptr_t back : code.return_addresses) {
    if (back == 0) break;
    // A return address is the instruction after the call: one byte back is the call's line.
    if (std::optional<CodeLine> kernel = kernel_line_in(chain_at(back - 1))) return kernel;
  }
  if (!own.empty()) return own.front();
  return std::nullopt;
}

std::optional<CodeLine> kernel_line_among_returns(const uintptr_t* words, int count) {
  for (int k = 0; k < count; ++k)
    if (words[k] > 4096)
      if (std::optional<CodeLine> kernel = kernel_line_in(chain_at(words[k] - 1))) return kernel;
  return std::nullopt;
}

std::string describe_interrupted_code(const InterruptedCode& code) {
  const auto line = line_of_interrupted_code(code);
  return line ? line->text() : "";
}

std::string describe_code_address(uintptr_t pc) {
  const auto line = line_of_code_address(pc);
  return line ? line->text() : "";
}

}  // namespace syncscope::sim
