// What a translation of a .cu takes and gives (translate/cuda_translator.h does the work,
// translate/rewrite_rules.h the rewrites).
#pragma once

#include <map>
#include <string>
#include <vector>

namespace syncscope::translate {

struct TranslateRequest {
  std::string file_name;             // the .cu's absolute path: diagnostics and #include "…" use it
  std::string text;                  // its bytes, read once by the caller
  std::vector<std::string> defines;  // "BUG_NO_BARRIER": a bug variant chosen at translation
  std::string pch;                   // make_translation_pch's file, or "": the shim parsed again
};

struct TranslateError {
  std::string file;
  int line = 0;
  int column = 0;
  std::string message;  // what, and what to do instead
};

// A kernel as a launch from the command line needs it (a .cu without main()).
struct KernelParameter {
  bool pointer = false;
  std::string type;  // the element type of a pointer ("float"), else the parameter's type
  std::string name;
};
struct KernelSignature {
  std::string name;
  bool is_template = false;
  std::vector<KernelParameter> parameters;
  int max_threads = 0;  // its __launch_bounds__'s first argument (0: none, or not a constant)
};

// A call of one of the file's __device__ helpers from device code: the reports name a helper's line
// by its call (sim::LineTable::set_calls).
struct CallSite {
  std::string callee;  // its name
  int line = 0;
  int caller_first = 0, caller_last = 0, callee_first = 0, callee_last = 0;  // the lines each spans
  bool operator==(const CallSite&) const = default;
};

struct Translation {
  bool ok = false;
  std::string text;  // the rewritten file, line for line
  std::vector<std::string> bugs;  // BUG_* names the file tests with the preprocessor, sorted
  std::vector<KernelSignature> kernels;
  bool has_main = false;
  // Each assert's expression as the student wrote it, by line (its macro's every line): the
  // translation's own #expr is the rewritten text (core/cuda_in/cu_exit.h).
  std::map<int, std::string> assert_texts;
  std::vector<TranslateError> errors;
  std::vector<CallSite> calls;
};

}  // namespace syncscope::translate
