// What a translation of a .cu takes and gives (translate/cuda_translator.h does the work,
// translate/rewrite_rules.h the rewrites).
#pragma once

#include <string>
#include <vector>

namespace syncscope::translate {

struct TranslateRequest {
  std::string file_name;             // the .cu's absolute path: diagnostics and #include "…" use it
  std::string text;                  // its bytes, read once by the caller
  std::vector<std::string> defines;  // "BUG_NO_BARRIER": a bug variant chosen at translation
};

struct TranslateError {
  std::string file;
  int line = 0;
  int column = 0;
  std::string message;  // what, and what to do instead
};

struct Translation {
  bool ok = false;
  std::string text;  // the rewritten file, line for line, with one trailer line appended
  std::vector<std::string> bugs;  // BUG_* names the file tests with the preprocessor, sorted
  std::vector<std::string> kernels;
  bool has_main = false;
  std::vector<TranslateError> errors;
};

}  // namespace syncscope::translate
