// The text of every kernels/*.h, embedded at build time (cmake/EmbedTextFiles.cmake; the app's
// shaders are embedded the same way).
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace syncscope {

struct SourceFile {
  std::string path;  // "kernels/kogge_stone.h", as source locations name it
  std::string text;
};

const std::vector<SourceFile>& kernel_sources();

// A kernel source by the path source locations name it by: embedded, or a kernel file loaded at
// run time as it was when compiled (nullptr: neither).
std::shared_ptr<const SourceFile> find_source(const std::string& path);
// The loader's record of a kernel file's text (replaces the previous one of that path).
void remember_loaded_source(const std::string& path, std::string text);

}  // namespace syncscope
