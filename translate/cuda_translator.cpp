#include "translate/cuda_translator.h"

#include <clang/AST/ASTConsumer.h>
#include <clang/AST/ASTContext.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/DiagnosticOptions.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Frontend/FrontendActions.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <clang/Lex/Lexer.h>
#include <clang/Lex/PPCallbacks.h>
#include <clang/Lex/Preprocessor.h>
#include <clang/Rewrite/Core/Rewriter.h>
#include <clang/Tooling/Tooling.h>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <set>
#include <sstream>

#include "translate/rewrite_rules.h"
#include "translate/simt_positions.h"

namespace syncscope::translate {

const char* cuda_parse_shim_text();  // generated from translate/cuda_parse_shim.h

namespace {

// After the file's last line (its lines stay where they are): the asserts' texts as written, which
// core/cuda_in/cu_exit.h declares and names a failed assert by.
std::string assert_texts_function(const std::map<int, std::string>& texts) {
  std::string out = "\nconst char* syncscope_assert_text(const char* file, unsigned line) {\n"
                    "  if (__builtin_strcmp(file, __FILE__) != 0) return nullptr;\n  switch (line) {\n";
  for (const auto& [line, text] : texts) {
    out += "    case " + std::to_string(line) + ": return \"";
    for (const char c : text) {
      if (c == '"' || c == '\\') out += '\\';
      if (c != '\n' && c != '\r') out += c;
    }
    out += "\";\n";
  }
  return out + "  }\n  return nullptr;\n}\n";
}

// Registered when the translation's library loads (cu::note_calls), under the .cu's own name.
std::string call_sites_registration(const std::vector<CallSite>& calls) {
  if (calls.empty()) return "";
  std::string out = "static const bool syncscope_call_sites = ::syncscope::cu::note_calls({";
  for (const CallSite& c : calls)
    out += "{\"\", " + std::to_string(c.line) + ", \"" + c.callee + "\", " + std::to_string(c.caller_first) + ", " +
           std::to_string(c.caller_last) + ", " + std::to_string(c.callee_first) + ", " + std::to_string(c.callee_last) + "}, ";
  return out + "});\n";
}

// Kernels' __launch_bounds__, registered when the library loads: a launch of more threads fails
// as a GPU's does (cu::note_launch_bounds).
std::string launch_bounds_registration(const std::vector<KernelSignature>& kernels) {
  std::string list;
  for (const KernelSignature& k : kernels)
    if (k.max_threads > 0) list += "{\"" + k.name + "\", " + std::to_string(k.max_threads) + "}, ";
  return list.empty() ? "" : "static const bool syncscope_launch_bounds = ::syncscope::cu::note_launch_bounds({" + list + "});\n";
}

using namespace clang;

constexpr const char* kShimPath = "/syncscope-cuda/syncscope_cuda_parse_shim.h";
constexpr const char* kIncludeDir = "/syncscope-cuda/include";

// Headers a .cu includes for the CUDA runtime: here they are empty (the shim declares it all).
const char* const kRuntimeHeaders[] = {"cuda_runtime.h", "cuda.h", "device_launch_parameters.h", "cuda_runtime_api.h",
                                       "device_functions.h", "sm_20_atomic_functions.h", "sm_30_intrinsics.h"};

// Libraries syncscope does not simulate: their headers say so where the file includes them.
constexpr const char* kNoCooperativeGroups =
    "cooperative groups are not simulated yet: use __syncthreads() for a block and the __shfl_*_sync intrinsics for a warp";
constexpr const char* kNoThrust =
    "Thrust is not simulated: write the kernel (a reduction, a scan) yourself, or run the program on a GPU only";
const std::pair<const char*, const char*> kUnsimulatedHeaders[] = {
    {"cooperative_groups.h", kNoCooperativeGroups},
    {"cooperative_groups/reduce.h", kNoCooperativeGroups},
    {"cooperative_groups/scan.h", kNoCooperativeGroups},
    {"cooperative_groups/memcpy_async.h", kNoCooperativeGroups},
    {"thrust/device_vector.h", kNoThrust},
    {"thrust/host_vector.h", kNoThrust},
    {"thrust/reduce.h", kNoThrust},
    {"thrust/scan.h", kNoThrust},
    {"thrust/sort.h", kNoThrust},
    {"thrust/transform.h", kNoThrust},
    {"thrust/sequence.h", kNoThrust},
    {"thrust/fill.h", kNoThrust},
    {"thrust/copy.h", kNoThrust},
    {"thrust/count.h", kNoThrust},
    {"thrust/functional.h", kNoThrust},
    {"thrust/execution_policy.h", kNoThrust},
    {"cub/cub.cuh", "CUB is not simulated: write the block-wide step yourself (a shared-memory scan or reduction)"},
    {"cuda_fp16.h", "half precision (__half, half2) is not simulated: use float"},
    {"cuda_bf16.h", "bfloat16 (__nv_bfloat16) is not simulated: use float"},
    {"curand_kernel.h", "cuRAND is not simulated: compute pseudo-random numbers in the kernel (a hash of the thread index)"},
};

// Every BUG_* macro the file tests, and every comment, as the preprocessor sees them.
class PreprocessorWatch : public PPCallbacks, public CommentHandler {
 public:
  PreprocessorWatch(SourceManager& sm, std::set<std::string>& bugs, std::map<unsigned, std::string>& comments)
      : sm_(sm), bugs_(bugs), comments_(comments) {}
  void Ifdef(SourceLocation, const Token& name, const MacroDefinition&) override { note(name); }
  void Ifndef(SourceLocation, const Token& name, const MacroDefinition&) override { note(name); }
  void Defined(const Token& name, const MacroDefinition&, SourceRange) override { note(name); }
  void If(SourceLocation loc, SourceRange condition, ConditionValueKind) override {
    // `#if BUG_X` names the macro as an identifier of the condition.
    if (!sm_.isInMainFile(loc)) return;
    const std::string text = Lexer::getSourceText(CharSourceRange::getTokenRange(condition), sm_, LangOptions()).str();
    for (size_t at = text.find("BUG_"); at != std::string::npos; at = text.find("BUG_", at + 1)) {
      if (at > 0 && (isalnum(static_cast<unsigned char>(text[at - 1])) || text[at - 1] == '_')) continue;
      size_t end = at;
      while (end < text.size() && (isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_')) ++end;
      bugs_.insert(text.substr(at, end - at));
    }
  }
  bool HandleComment(Preprocessor&, SourceRange range) override {
    if (!sm_.isInMainFile(range.getBegin())) return false;
    const unsigned last_line = sm_.getSpellingLineNumber(range.getEnd());
    std::string text = Lexer::getSourceText(CharSourceRange::getCharRange(range), sm_, LangOptions()).str();
    comments_[last_line] = text;
    return false;
  }

 private:
  void note(const Token& name) {
    if (!sm_.isInMainFile(name.getLocation()) || !name.getIdentifierInfo()) return;
    const std::string n = name.getIdentifierInfo()->getName().str();
    if (n.rfind("BUG_", 0) == 0 && n.size() > 4) bugs_.insert(n);
  }
  SourceManager& sm_;
  std::set<std::string>& bugs_;
  std::map<unsigned, std::string>& comments_;
};

class TranslateConsumer : public ASTConsumer {
 public:
  TranslateConsumer(Translation& out, std::map<unsigned, std::string>& comments, SourceManager& sm)
      : out_(out), comments_(comments), sm_(sm) {}
  // The student's own declarations, as they are parsed: the rules rewrite nothing outside the .cu,
  // and walking the system headers' declarations too (or reading them back from the precompiled
  // header) cost more than the rewrite.
  bool HandleTopLevelDecl(DeclGroupRef group) override {
    for (Decl* d : group)
      if (!instantiated(d) && (in_file(d->getBeginLoc()) || in_file(d->getLocation()) || in_file(d->getEndLoc())))
        students_.push_back(d);
    return true;
  }
  void HandleTranslationUnit(ASTContext& context) override {
    Rewriter rewriter(context.getSourceManager(), context.getLangOpts());
    RewriteRules rules(context, rewriter, comments_, out_);
    for (Decl* d : students_) rules.TraverseDecl(d);
    if (context.getDiagnostics().hasErrorOccurred()) return;
    SimtPositions positions(context, rewriter);
    for (Decl* d : students_) number_positions(d, positions);
    positions.write();
    const FileID main = context.getSourceManager().getMainFileID();
    const RewriteBuffer* buffer = rewriter.getRewriteBufferFor(main);
    out_.text = buffer ? std::string(buffer->begin(), buffer->end())
                       : context.getSourceManager().getBufferData(main).str();
    out_.text += assert_texts_function(out_.assert_texts);
    out_.text += call_sites_registration(out_.calls);
    out_.text += launch_bounds_registration(out_.kernels);
  }

 private:
  // A template's instantiation reaches the consumer too (for code generation); the rules see the
  // template as written, as walking the translation unit did.
  static bool instantiated(const Decl* d) {
    if (const auto* f = dyn_cast<FunctionDecl>(d)) return f->isTemplateInstantiation();
    if (const auto* v = dyn_cast<VarDecl>(d)) return isTemplateInstantiation(v->getTemplateSpecializationKind());
    if (const auto* r = dyn_cast<ClassTemplateSpecializationDecl>(d))
      return r->getSpecializationKind() != TSK_ExplicitSpecialization && r->getSpecializationKind() != TSK_Undeclared;
    return false;
  }
  bool in_file(SourceLocation loc) const { return loc.isValid() && sm_.isInMainFile(sm_.getExpansionLoc(loc)); }
  // The student's kernels and __device__ functions and methods (not __host__ __device__ ones: those
  // get no `_c`), wherever in the file's namespaces and structs they are.
  void number_positions(Decl* d, SimtPositions& positions) {
    if (auto* t = dyn_cast<FunctionTemplateDecl>(d)) d = t->getTemplatedDecl();
    if (auto* scope = dyn_cast<NamespaceDecl>(d)) {
      for (Decl* inner : scope->decls()) number_positions(inner, positions);
      return;
    }
    if (auto* scope = dyn_cast<LinkageSpecDecl>(d)) {
      for (Decl* inner : scope->decls()) number_positions(inner, positions);
      return;
    }
    if (auto* record = dyn_cast<CXXRecordDecl>(d); record && in_file(record->getLocation())) {
      for (Decl* inner : record->decls()) number_positions(inner, positions);  // its __device__ methods
      return;
    }
    auto* f = dyn_cast<FunctionDecl>(d);
    if (!f || (isa<CXXMethodDecl>(f) && !context_method(f)) || !f->doesThisDeclarationHaveABody() || !in_file(f->getLocation()))
      return;
    const bool kernel = f->hasAttr<CUDAGlobalAttr>();
    if (kernel || (f->hasAttr<CUDADeviceAttr>() && !f->hasAttr<CUDAHostAttr>())) positions.add_function(f, kernel);
  }
  Translation& out_;
  std::map<unsigned, std::string>& comments_;
  SourceManager& sm_;
  std::vector<Decl*> students_;
};

// Clang's own diagnostics (syntax, types) become the translation's errors, at the student's line.
class CollectDiagnostics : public DiagnosticConsumer {
 public:
  explicit CollectDiagnostics(Translation& out) : out_(out) {}
  void HandleDiagnostic(DiagnosticsEngine::Level level, const Diagnostic& info) override {
    DiagnosticConsumer::HandleDiagnostic(level, info);
    // After an unsimulated library's #error, what fails is the library's names: said once is enough.
    if (level < DiagnosticsEngine::Error || unsimulated_library_) return;
    SmallString<256> message;
    info.FormatDiagnostic(message);
    TranslateError d;
    d.message = message.str().str();
    if (d.message.size() > 16 && d.message.compare(d.message.size() - 16, 16, "' file not found") == 0)
      d.message += missing_header_hint(d.message);
    if (info.hasSourceManager() && info.getLocation().isValid()) {
      const SourceManager& sm = info.getSourceManager();
      SourceLocation where = sm.getExpansionLoc(info.getLocation());
      // An error in a header of syncscope's own (an unsimulated library's #error) is the student's
      // #include of it.
      unsimulated_library_ = where.isValid() && sm.getFilename(where).startswith(kIncludeDir);
      while (where.isValid() && sm.getFilename(where).startswith(kIncludeDir) && sm.getIncludeLoc(sm.getFileID(where)).isValid())
        where = sm.getExpansionLoc(sm.getIncludeLoc(sm.getFileID(where)));
      const PresumedLoc at = sm.getPresumedLoc(where);
      if (at.isValid()) d.file = at.getFilename(), d.line = static_cast<int>(at.getLine()), d.column = static_cast<int>(at.getColumn());
    }
    out_.errors.push_back(std::move(d));
  }

 private:
  // "'helper_cuda.h' file not found": where syncscope looks, and what to do.
  static std::string missing_header_hint(const std::string& message) {
    const bool samples = message.find("'helper_") != std::string::npos;
    return std::string(": syncscope finds the C and C++ standard headers, CUDA's runtime headers and the files beside the .cu") +
           (samples ? "; the helper_*.h headers come with NVIDIA's CUDA Samples (Common/): copy the ones you use beside "
                      "the .cu, or check errors with a macro of your own (if (err != cudaSuccess) ...)"
                    : "");
  }
  Translation& out_;
  bool unsimulated_library_ = false;
};

class TranslateAction : public ASTFrontendAction {
 public:
  explicit TranslateAction(Translation& out) : out_(out) {}
  bool BeginSourceFileAction(CompilerInstance& ci) override {
    ci.getDiagnostics().setClient(new CollectDiagnostics(out_), /*ShouldOwnClient=*/true);
    auto watch = std::make_unique<PreprocessorWatch>(ci.getSourceManager(), bugs_, comments_);
    ci.getPreprocessor().addCommentHandler(watch.get());
    ci.getPreprocessor().addPPCallbacks(std::move(watch));
    return true;
  }
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance& ci, StringRef) override {
    return std::make_unique<TranslateConsumer>(out_, comments_, ci.getSourceManager());
  }
  void EndSourceFileAction() override { out_.bugs.assign(bugs_.begin(), bugs_.end()); }

 private:
  Translation& out_;
  std::set<std::string> bugs_;
  std::map<unsigned, std::string> comments_;
};

// Clang's arguments for a .cu, before what is included first (the shim or its precompiled header).
std::vector<std::string> cuda_arguments() {
  return {"-x", "cuda", "--cuda-host-only", "-nocudainc", "-nocudalib", "--cuda-gpu-arch=sm_80", "-std=c++17",
          "-Wno-unknown-cuda-version", "-fsyntax-only", "-w", "-ferror-limit=5", "-fno-caret-diagnostics",
          std::string("-I") + kIncludeDir};  // no caret: no "N errors generated" line either
}

// The shim, the runtime headers (empty) and the ones syncscope does not simulate (an #error each),
// where Clang looks for them.
// What make_translation_pch precompiles: it must be where it was whenever the header is read.
constexpr const char* kPchHeaderPath = "/syncscope-cuda/syncscope_translate_pch.h";
std::string pch_header_text() {
  return std::string("#include \"") + kShimPath +
         "\"\n#include <cstdio>\n#include <cstdlib>\n#include <vector>\n#include <cmath>\n#include <cstring>\n";
}

tooling::FileContentMappings virtual_files() {
  tooling::FileContentMappings files = {{kShimPath, cuda_parse_shim_text()}, {kPchHeaderPath, pch_header_text()}};
  for (const char* header : kRuntimeHeaders) files.push_back({std::string(kIncludeDir) + "/" + header, ""});
  for (const auto& [header, why] : kUnsimulatedHeaders)
    files.push_back({std::string(kIncludeDir) + "/" + header, std::string("#error \"") + why + "\"\n"});
  return files;
}

Translation translate_with(const TranslateRequest& request, bool with_pch) {
  Translation out;
  std::vector<std::string> args = cuda_arguments();
  // Without the precompiled header, what it holds is included as it is (the same headers either
  // way: a file is accepted or refused whatever the cache holds).
  if (with_pch) args.insert(args.end(), {"-include-pch", request.pch});
  else args.insert(args.end(), {"-include", kPchHeaderPath});
  for (const std::string& d : request.defines) args.push_back("-D" + d);
  // `#include <helper.h>` of a header beside the .cu, as nvcc -I finds it (core/kernel_file.cpp too).
  if (const size_t slash = request.file_name.rfind('/'); slash != std::string::npos && slash > 0)
    args.push_back("-I" + request.file_name.substr(0, slash));
  const bool parsed = tooling::runToolOnCodeWithArgs(std::make_unique<TranslateAction>(out), request.text, args,
                                                     request.file_name, "syncscope-translate",
                                                     std::make_shared<PCHContainerOperations>(), virtual_files());
  if (!parsed && out.errors.empty())
    out.errors.push_back({request.file_name, 0, 0, "Clang could not parse the file as CUDA"});
  out.ok = parsed && out.errors.empty();
  if (!out.ok) out.text.clear();
  return out;
}

}  // namespace

Translation translate_cuda(const TranslateRequest& request) {
  if (request.pch.empty()) return translate_with(request, false);
  Translation out = translate_with(request, true);
  // A precompiled header Clang will not read (another Clang's, a damaged file) costs the
  // translation its speed only: the shim is parsed as it was.
  for (const TranslateError& e : out.errors)
    if (e.message.find("PCH") != std::string::npos || e.message.find("precompiled") != std::string::npos ||
        e.message.find("AST file") != std::string::npos)
      return translate_with(request, false);
  return out;
}

std::string make_translation_pch(const std::string& path) {
  ::umask(077);  // the cache's files are the user's alone, from their first byte
  const std::string staging = path + ".tmp" + std::to_string(::getpid());
  std::vector<std::string> args = cuda_arguments();
  args.insert(args.end(), {"-Xclang", "-emit-pch", "-Xclang", "-o", "-Xclang", staging});
  const bool made = tooling::runToolOnCodeWithArgs(std::make_unique<GeneratePCHAction>(), pch_header_text(), args,
                                                   kPchHeaderPath, "syncscope-translate",
                                                   std::make_shared<PCHContainerOperations>(), virtual_files());
  if (!made) {
    std::remove(staging.c_str());
    return "Clang could not precompile the CUDA shim";
  }
  if (std::rename(staging.c_str(), path.c_str()) != 0) {
    std::remove(staging.c_str());
    return "cannot move the precompiled shim to " + path;
  }
  return "";
}

}  // namespace syncscope::translate
