#include "sim/code_address.h"

#include <dlfcn.h>

#include <algorithm>
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

#ifdef SYNCSCOPE_HAVE_LIBDW
namespace {

bool in_runtime(const std::string& file) {
  return file.find("/sim/") != std::string::npos || file.find("/contract/") != std::string::npos ||
         file.rfind("sim/", 0) == 0 || file.rfind("contract/", 0) == 0 || file.rfind("/usr/", 0) == 0;
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

}  // namespace

std::optional<CodeLine> line_in_object(const std::string& object, uintptr_t offset) {
  static const Dwfl_Callbacks callbacks = {
      .find_elf = dwfl_build_id_find_elf,
      .find_debuginfo = dwfl_standard_find_debuginfo,
      .section_address = dwfl_offline_section_address,
      .debuginfo_path = nullptr,
  };
  Dwfl* dwfl = dwfl_begin(&callbacks);
  if (!dwfl) return std::nullopt;
  std::optional<CodeLine> found;
  if (Dwfl_Module* module = dwfl_report_offline(dwfl, "object", object.c_str(), -1)) {
    dwfl_report_end(dwfl, nullptr, nullptr);
    Dwarf_Addr start = 0;
    dwfl_module_info(module, nullptr, &start, nullptr, nullptr, nullptr, nullptr, nullptr);
    const std::vector<CodeLine> chain = inline_chain(module, start + offset);
    auto kernel = std::find_if(chain.begin(), chain.end(), [](const CodeLine& l) { return !in_runtime(l.file); });
    if (kernel != chain.end()) found = *kernel;
    else if (!chain.empty()) found = chain.front();
  }
  dwfl_end(dwfl);
  return found;
}

#else
std::optional<CodeLine> line_in_object(const std::string&, uintptr_t) { return std::nullopt; }
#endif

std::optional<CodeLine> line_of_code_address(uintptr_t pc) {
  if (pc == 0) return std::nullopt;
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(pc), &info) == 0 || !info.dli_fbase) return std::nullopt;
  const std::string object = info.dli_fname && *info.dli_fname ? info.dli_fname : "/proc/self/exe";
  return line_in_object(object, pc - reinterpret_cast<uintptr_t>(info.dli_fbase));
}

std::string describe_code_address(uintptr_t pc) {
  const auto line = line_of_code_address(pc);
  return line ? line->text() : "";
}

}  // namespace syncscope::sim
