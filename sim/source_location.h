// Where a kernel's API call is written: std::source_location where the compiler has it; elsewhere
// (clang 14 with libstdc++ 12, the fuzzing build) the same members from __builtin_FILE, _LINE and
// _FUNCTION, which as default arguments also name the caller's line.
#pragma once

#include <version>

#if defined(__cpp_lib_source_location)
#include <source_location>
namespace syncscope::sim {
using SourceLocation = std::source_location;
}  // namespace syncscope::sim
#else
namespace syncscope::sim {
class SourceLocation {
 public:
  static constexpr SourceLocation current(const char* file = __builtin_FILE(), unsigned line = __builtin_LINE(),
                                          const char* function = __builtin_FUNCTION(),
                                          unsigned column = __builtin_COLUMN()) noexcept {
    SourceLocation here;
    here.file_ = file;
    here.line_ = line;
    here.column_ = column;
    here.function_ = function;
    return here;
  }
  constexpr const char* file_name() const noexcept { return file_; }
  constexpr unsigned line() const noexcept { return line_; }
  constexpr unsigned column() const noexcept { return column_; }
  constexpr const char* function_name() const noexcept { return function_; }

 private:
  const char* file_ = "";
  unsigned line_ = 0;
  unsigned column_ = 0;
  const char* function_ = "";
};
}  // namespace syncscope::sim
#endif
