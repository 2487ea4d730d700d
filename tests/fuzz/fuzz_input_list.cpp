// libFuzzer target: --input's value, typed (v1,v2,...) or read from a file (@FILE: numbers
// separated by commas, spaces or newlines), then checked against a configuration as --input is.
// The first byte chooses which; a refusal must say why, and every accepted value is finite.
#include <unistd.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>

#include "core/registry.h"
#include "core/run.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1 || size > (1 << 20)) return -1;
  const bool from_file = data[0] & 1;
  const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  std::string error;
  std::optional<syncscope::InputSpec> spec;
  if (from_file) {
    static const std::string path = "/tmp/syncscope-fuzz-input-" + std::to_string(::getpid()) + ".txt";
    std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
    spec = syncscope::InputSpec::parse("@" + path, &error);
  } else {
    if (text.starts_with("@")) return -1;  // a path: the file branch covers reading
    spec = syncscope::InputSpec::parse(text, &error);
  }
  if (!spec) {
    if (error.empty()) std::abort();
    return 0;
  }
  for (double v : spec->values)
    if (!std::isfinite(v)) std::abort();
  // As --input of a run: resolve() checks the count and each value against the type.
  syncscope::RunOptions o;
  o.algorithm = "kogge-stone";
  o.dtype = (data[0] & 2) ? "int32" : "float32";
  o.input = spec->text();
  if (o.input->size() > (1 << 20)) return 0;
  (void)syncscope::resolve(syncscope::builtin_registry(), o);
  return 0;
}
