// syncscope-translate: a student's .cu in (stdin), its simulator translation out (stdout), as
// translate/cuda_translator.h describes. A program of its own so that Clang's libraries load only
// when a .cu is translated, and a file that crashes Clang takes down this process, not the app.
//   syncscope-translate --file /abs/path/k.cu [-D BUG_NO_BARRIER]... [--pch FILE] < k.cu
//   syncscope-translate --make-pch FILE   (the shim and common headers, precompiled: cuda_translator.h)
// Output: lines `bug NAME`, `kernel NAME template|plain` and its `param ptr|value TYPE NAME` lines,
// `main yes|no`, then `text BYTES` and the translation.
// Errors: `FILE:LINE:COL: error: MESSAGE` lines on stderr, exit 2.
#include <cstdio>
#include <iostream>
#include <iterator>
#include <string>

#include "translate/cuda_translator.h"

int main(int argc, char** argv) {
  syncscope::translate::TranslateRequest request;
  for (int k = 1; k < argc; ++k) {
    const std::string arg = argv[k];
    if (arg == "--file" && k + 1 < argc) request.file_name = argv[++k];
    else if (arg == "-D" && k + 1 < argc) request.defines.push_back(argv[++k]);
    else if (arg == "--pch" && k + 1 < argc) request.pch = argv[++k];
    else if (arg == "--make-pch" && k + 1 < argc) {
      const std::string why = syncscope::translate::make_translation_pch(argv[++k]);
      if (!why.empty()) std::cerr << "syncscope-translate: " << why << "\n";
      return why.empty() ? 0 : 1;
    }
    else {
      std::cerr << "syncscope-translate: unknown argument '" << arg << "' (usage: --file PATH [-D MACRO]... [--pch FILE] < PATH, or --make-pch FILE)\n";
      return 2;
    }
  }
  if (request.file_name.empty()) {
    std::cerr << "syncscope-translate: --file PATH is required (the name the text on stdin has)\n";
    return 2;
  }
  request.text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  const syncscope::translate::Translation t = syncscope::translate::translate_cuda(request);
  if (!t.ok) {
    for (const auto& e : t.errors)
      std::cerr << (e.file.empty() ? request.file_name : e.file) << ":" << e.line << ":" << e.column << ": error: " << e.message
                << "\n";
    return 2;
  }
  for (const auto& b : t.bugs) std::cout << "bug " << b << "\n";
  // `kernel NAME template|plain` then its `param ptr|value TYPE NAME` lines (TYPE may hold spaces:
  // the name is the last word).
  for (const auto& k : t.kernels) {
    std::cout << "kernel " << k.name << (k.is_template ? " template" : " plain") << "\n";
    for (const auto& p : k.parameters) std::cout << "param " << (p.pointer ? "ptr " : "value ") << p.type << " " << p.name << "\n";
  }
  std::cout << "main " << (t.has_main ? "yes" : "no") << "\n";
  std::cout << "text " << t.text.size() << "\n" << t.text;
  return std::cout.good() ? 0 : 1;
}
