// The text of every kernels/*.h, embedded at build time (cmake/EmbedTextFiles.cmake; the app's
// shaders are embedded the same way).
#pragma once

#include <string>
#include <vector>

namespace syncscope {

struct SourceFile {
  std::string path;  // "kernels/kogge_stone.h", as source locations name it
  std::string text;
};

const std::vector<SourceFile>& kernel_sources();

}  // namespace syncscope
