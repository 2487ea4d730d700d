// A kernel file the app has opened (`gui --kernel FILE`, File > Open kernel), watched: when it
// changes on disk it is compiled again off the UI thread. A good compile gives a new registry (the
// built-in algorithms and the file's); earlier registries stay alive, since runs on screen point
// into them. A failed compile keeps the last good registry and says why.
#pragma once

#include <filesystem>
#include <future>
#include <list>
#include <optional>
#include <string>
#include <variant>

#include "core/cuda_program.h"
#include "core/kernel_file.h"

namespace syncscope::app {

class KernelWatch {
 public:
  // Starts compiling `path` (a second open replaces the first), or takes `loaded`, that file
  // already compiled and loaded: then true, its registry is ready.
  // `launch`: how a .cu without main() is launched, this time and after every save.
  bool open(const std::string& path, std::optional<KernelFile> loaded = std::nullopt, const ProgramLaunch& launch = {});
  // Once a frame: takes a finished compile and notices a changed file. True when a new registry
  // is ready.
  bool poll();
  // Blocks until the compile in flight is done (the first load, tests), then polls.
  bool wait();

  bool active() const { return !path_.empty(); }
  bool compiling() const { return pending_.valid(); }
  const std::string& path() const { return path_; }
  const Registry* registry() const { return registries_.empty() ? nullptr : &registries_.back(); }
  const std::string& algorithm() const { return algorithm_; }  // the file's algorithm's name
  const std::optional<KernelFileError>& error() const { return error_; }
  // "brent-kung-scan from my.h: compiled in 3.6 s", "compiling my.h...", or the error's first line.
  std::string status() const;

 private:
  void start();
  bool take(std::variant<KernelFile, KernelFileError> result);

  std::string path_;
  ProgramLaunch launch_;
  std::filesystem::file_time_type compiled_time_{};
  std::future<std::variant<KernelFile, KernelFileError>> pending_;
  std::list<Registry> registries_;
  std::string algorithm_;
  std::optional<KernelFileError> error_;
  std::string last_load_;  // "compiled in 3.6 s" / "from the cache"
  double next_check_ = 0;  // seconds (steady clock) of the next look at the file's time
};

}  // namespace syncscope::app
