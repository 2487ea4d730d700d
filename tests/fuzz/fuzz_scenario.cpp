// libFuzzer target: a scenario file, read as the app reads one (app/state/scenario.h: the file
// checks of text_file.h, JSON, every field) and resolved into a run configuration as opening it
// would. A refusal must name the file; nothing may crash or throw.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>

#include "app/state/scenario.h"
#include "core/registry.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > (1 << 20)) return -1;
  static const std::string path = "/tmp/syncscope-fuzz-scenario-" + std::to_string(::getpid()) + ".json";
  std::ofstream(path, std::ios::binary | std::ios::trunc).write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  auto loaded = syncscope::app::load_scenario(path);
  if (auto* why = std::get_if<std::string>(&loaded)) {
    if (why->rfind(path + ": ", 0) != 0) std::abort();
    return 0;
  }
  const auto& s = std::get<syncscope::app::Scenario>(loaded);
  if (s.launch < 0 || s.step < 0) std::abort();
  // Input files named by a fuzzed scenario are not read (they could be any file on the machine).
  if (s.options.input && s.options.input->find('@') != std::string::npos) return 0;
  (void)syncscope::resolve(syncscope::builtin_registry(), s.options);
  (void)syncscope::app::scenario_to_json(s).dump();
  return 0;
}
