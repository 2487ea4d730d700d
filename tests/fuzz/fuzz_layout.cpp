// libFuzzer target: the window layout file (layout.ini). What read_layout_file accepts is handed to
// Dear ImGui exactly as the app does at start-up, and written back as at exit; a refusal names the
// file. Nothing may crash.
#include <imgui.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>

#include "app/state/text_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > (1 << 20)) return -1;
  static const std::string path = "/tmp/syncscope-fuzz-layout-" + std::to_string(::getpid()) + ".ini";
  std::ofstream(path, std::ios::binary | std::ios::trunc).write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  auto read = syncscope::app::read_layout_file(path);
  if (read.index() == 1) {
    if (std::get<1>(read).rfind(path + ": ", 0) != 0) std::abort();
    return 0;
  }
  ImGuiContext* context = ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;
  const std::string& text = std::get<0>(read);
  ImGui::LoadIniSettingsFromMemory(text.c_str(), text.size());
  size_t written = 0;
  (void)ImGui::SaveIniSettingsToMemory(&written);
  ImGui::DestroyContext(context);
  return 0;
}
