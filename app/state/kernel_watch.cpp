#include "app/state/kernel_watch.h"

#include "app/state/ui_wake.h"
#include "core/cuda_program.h"

#include <chrono>
#include <cstdio>

namespace syncscope::app {
namespace {

namespace fs = std::filesystem;

double now_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

bool KernelWatch::open(const std::string& path, std::optional<KernelFile> loaded, const ProgramLaunch& launch) {
  launch_ = launch;
  std::error_code ec;
  path_ = fs::absolute(path, ec).string();
  error_.reset();
  if (!loaded) {
    start();
    return false;
  }
  compiled_time_ = fs::last_write_time(path_, ec);
  return take(std::move(*loaded));
}

void KernelWatch::start() {
  std::error_code ec;
  compiled_time_ = fs::last_write_time(path_, ec);
  const std::string path = path_;
  pending_ = std::async(std::launch::async, [path, launch = launch_] {
    auto loaded = load_user_code(path, launch);
    wake_ui();
    return loaded;
  });
}

bool KernelWatch::take(std::variant<KernelFile, KernelFileError> result) {
  if (auto* e = std::get_if<KernelFileError>(&result)) {
    error_ = std::move(*e);
    return false;
  }
  KernelFile& k = std::get<KernelFile>(result);
  auto next = registry_with(k.entry);
  if (auto* taken = std::get_if<std::string>(&next)) {
    error_ = KernelFileError{path_ + ": " + *taken, path_, 0, ""};
    return false;
  }
  error_.reset();
  algorithm_ = k.entry.info.name;
  char when[64];
  std::snprintf(when, sizeof when, "compiled in %.1f s", k.compile_seconds);
  last_load_ = k.from_cache ? "from the cache" : when;
  registries_.push_back(std::move(std::get<Registry>(next)));
  return true;
}

bool KernelWatch::poll() {
  if (pending_.valid()) {
    if (pending_.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return false;
    return take(pending_.get());
  }
  if (path_.empty() || now_seconds() < next_check_) return false;
  next_check_ = now_seconds() + 0.1;  // a file's time, ten times a second (a stat: nothing)
  std::error_code ec;
  const auto time = fs::last_write_time(path_, ec);
  if (!ec && time != compiled_time_) start();  // saved: compile again (the last good run stays)
  return false;
}

bool KernelWatch::wait() {
  if (pending_.valid()) pending_.wait();
  return poll();
}

std::string KernelWatch::status() const {
  const std::string file = fs::path(path_).filename().string();
  if (pending_.valid()) return "compiling " + file + "...";
  if (error_) return error_->message;
  if (algorithm_.empty()) return "";
  return algorithm_ + " from " + file + ": " + last_load_;
}

}  // namespace syncscope::app
