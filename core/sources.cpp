#include "core/sources.h"

#include <map>
#include <mutex>

namespace syncscope {
namespace {

struct LoadedSources {
  std::mutex mutex;
  std::map<std::string, std::shared_ptr<const SourceFile>> files;
};

LoadedSources& loaded() {
  static LoadedSources sources;
  return sources;
}

}  // namespace

std::shared_ptr<const SourceFile> find_source(const std::string& path) {
  for (const SourceFile& f : kernel_sources())
    if (f.path == path) return std::shared_ptr<const SourceFile>(std::shared_ptr<const SourceFile>{}, &f);  // static: not owned
  LoadedSources& l = loaded();
  std::lock_guard<std::mutex> lock(l.mutex);
  auto it = l.files.find(path);
  return it == l.files.end() ? nullptr : it->second;
}

void remember_loaded_source(const std::string& path, std::string text) {
  LoadedSources& l = loaded();
  std::lock_guard<std::mutex> lock(l.mutex);
  l.files[path] = std::make_shared<const SourceFile>(SourceFile{path, std::move(text)});
}

}  // namespace syncscope
