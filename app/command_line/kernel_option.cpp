#include "app/command_line/kernel_option.h"

#include <sstream>

namespace syncscope::command_line {
namespace {

void print_kernel_error(std::ostream& err, const KernelFileError& e) {
  err << "syncscope: " << e.message << "\n";
  std::istringstream lines(e.compiler_output);
  int shown = 0;
  bool headline_seen = false;
  for (std::string line; std::getline(lines, line) && shown < 30;) {
    // The headline is the output's first error, already said above; the lines around it stay.
    if (!headline_seen && line == e.message) {
      headline_seen = true;
      continue;
    }
    err << "  " << line << "\n";
    ++shown;
  }
}

}  // namespace

std::optional<std::string> take_launch_block(ConfigArgs& args, LaunchWords& words) {
  if (words.grid.empty()) return std::nullopt;
  auto& blocks = args.whole_lists[ConfigField::Blocks];
  if (blocks.size() > 1) return "--grid takes one --block X[,Y[,Z]] (the launch's block size)";
  if (!blocks.empty()) words.block = blocks.front();
  blocks.clear();
  return std::nullopt;
}

std::string program_launch(const LaunchWords& words, const std::string& file, ProgramLaunch& launch) {
  return parse_launch({words.grid, words.block, words.kernel_name, words.arguments, words.shared_bytes}, kLaunchOptions, file, launch);
}

std::optional<KernelFile> load_kernel_option(const std::string& path, Registry& registry, RunOptions& options,
                                             std::ostream& err, const ProgramLaunch& launch) {
  auto loaded = load_user_code(path, launch);
  if (auto* e = std::get_if<KernelFileError>(&loaded)) {
    print_kernel_error(err, *e);
    return std::nullopt;
  }
  KernelFile kernel = std::get<KernelFile>(std::move(loaded));
  auto with_kernel = registry_with(kernel.entry);
  if (auto* taken = std::get_if<std::string>(&with_kernel)) {
    err << "syncscope: --kernel " << path << ": " << *taken << "\n";
    return std::nullopt;
  }
  registry = std::move(std::get<Registry>(with_kernel));
  if (options.algorithm.empty()) options.algorithm = kernel.entry.info.name;
  return kernel;
}

}  // namespace syncscope::command_line
