// The calls a translation rewrites (translate/rewrite_rules.h): CUDA's device calls onto the
// simulator's context, a launch onto the simulated runtime, a call of the student's device function
// with its context first, and the arguments a template's deduction or a NULL needs changed.
#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/Lex/Lexer.h>

#include <algorithm>
#include <cctype>
#include <string_view>
#include <vector>

#include "translate/cuda_names.h"
#include "translate/rewrite_rules.h"

namespace syncscope::translate {

using namespace clang;

const FunctionDecl* RewriteRules::dependent_callee(const Expr* callee, int arguments) const {
  const FunctionDecl* found = nullptr;
  if (const auto* lookup = dyn_cast<UnresolvedLookupExpr>(callee->IgnoreImplicit()))
    for (const NamedDecl* d : lookup->decls()) {
      const FunctionDecl* f = d->getAsFunction();
      // CUDA's own intrinsics on a template's values (`__shfl_down_sync(mask, v, k)` with a T v).
      // ... and cudaMalloc of a template's `T *d` (`runCase<T>()`): the array keeps its name.
      const bool allocation = f && (f->getName() == "cudaMalloc" || f->getName() == "cudaMallocManaged" ||
                                    f->getName() == "cudaMallocPitch");
      if (f && !is_students(f) &&
          (kContextCalls.count(f->getNameAsString()) || kRuntimeCalls.count(f->getNameAsString()) || allocation))
        return f;
      if (!f || !is_students(f) || !is_device_only(f)) continue;
      if (arguments >= 0 && (static_cast<unsigned>(arguments) < f->getMinRequiredArguments() ||
                             static_cast<unsigned>(arguments) > f->getNumParams()))
        continue;
      if (found && arguments >= 0) return nullptr;  // overloads Clang chooses between only when instantiating
      found = f;
    }
  return found;
}

const FunctionDecl* RewriteRules::called_pattern(const Expr* callee, const FunctionDecl* resolved, unsigned arguments) const {
  if (!resolved) resolved = dependent_callee(callee, static_cast<int>(arguments));
  if (!resolved || !is_students(resolved)) return nullptr;
  const FunctionDecl* pattern = resolved->getTemplateInstantiationPattern();
  return pattern ? pattern : resolved;
}

// Whether an argument in device code points into device memory: a pointer the translator made the
// simulator's (a kernel's parameter, a local pointer), an element's address there or in a __shared__
// or __device__ array, or such a pointer moved by an offset.
bool RewriteRules::device_memory(const Expr* e) const {
  e = e->IgnoreParenImpCasts();
  if (!e->getType()->isPointerType() && !e->getType()->isArrayType()) return false;
  if (const auto* named = dyn_cast<DeclRefExpr>(e)) {
    const auto* v = dyn_cast<VarDecl>(named->getDecl());
    if (!v) return false;
    if (v->hasAttr<CUDASharedAttr>() || v->hasAttr<CUDADeviceAttr>()) return true;
    return v->getType()->isPointerType() && will_be_rewritten(v);
  }
  if (const auto* address = dyn_cast<UnaryOperator>(e); address && address->getOpcode() == UO_AddrOf) {
    const Expr* of = address->getSubExpr()->IgnoreParenImpCasts();
    if (const auto* element = dyn_cast<ArraySubscriptExpr>(of)) return device_memory(element->getBase());
    if (const auto* named = dyn_cast<DeclRefExpr>(of))
      return named->getDecl()->hasAttr<CUDASharedAttr>() || named->getDecl()->hasAttr<CUDADeviceAttr>();
    return false;
  }
  if (const auto* moved = dyn_cast<BinaryOperator>(e); moved && moved->isAdditiveOp())
    return device_memory(moved->getLHS()) || device_memory(moved->getRHS());
  if (const auto* element = dyn_cast<ArraySubscriptExpr>(e))  // planes[k] of `float *planes[2] = {a, b};`
    if (const auto* named = dyn_cast<DeclRefExpr>(element->getBase()->IgnoreParenImpCasts()))
      if (const auto* v = dyn_cast<DeclaratorDecl>(named->getDecl())) return !pointer_array_element(v).isNull();
  return false;
}

void RewriteRules::null_to_nullptr(const Expr* e) {
  e = e->IgnoreParens();
  if (isa<CXXNullPtrLiteralExpr>(e) || e->isValueDependent() ||
      e->isNullPointerConstant(context_, Expr::NPC_ValueDependentIsNotNull) == Expr::NPCK_NotNull)
    return;
  // `NULL` written as itself (`scan<<<1, 32>>>(d, NULL)`): GNU's __null is a long to a template's
  // `auto... a`, so the token becomes nullptr.
  if (e->getBeginLoc().isMacroID() &&
      Lexer::getImmediateMacroName(e->getBeginLoc(), sm_, context_.getLangOpts()) == "NULL") {
    const CharSourceRange token = sm_.getImmediateExpansionRange(e->getBeginLoc());
    if (token.getBegin().isFileID() && in_main_file(token.getBegin()) &&
        token.getBegin() == sm_.getImmediateExpansionRange(e->getEndLoc()).getBegin()) {
      if (nullptrs_.insert(sm_.getFileOffset(token.getBegin())).second) rewriter_.ReplaceText(token, "nullptr");
      return;
    }
  }
  // A macro that is NULL (`#define NO_OUTPUT NULL`) written as itself: its name becomes nullptr. One
  // whose body holds more than the null (`p == NULL`) is left as written.
  if (e->getBeginLoc().isMacroID()) {
    const CharSourceRange used = sm_.getExpansionRange(e->getSourceRange());
    const std::string name = Lexer::getSourceText(used, sm_, context_.getLangOpts()).str();
    const bool one_name = !name.empty() && std::all_of(name.begin(), name.end(), [](char c) { return isalnum(c) || c == '_'; });
    bool whole = true;  // the expression around it (past casts and parentheses) is not the same macro's
    for (const Expr* inner = e;;) {
      const auto parents = context_.getParents(*inner);
      const Expr* outer = parents.empty() ? nullptr : parents[0].get<Expr>();
      if (!outer) break;
      if (isa<ImplicitCastExpr>(outer) || isa<ParenExpr>(outer)) {
        inner = outer;
        continue;
      }
      whole = sm_.getExpansionRange(outer->getSourceRange()).getAsRange() != used.getAsRange();
      break;
    }
    if (one_name && whole && in_main_file(used.getBegin()) && nullptrs_.insert(sm_.getFileOffset(used.getBegin())).second)
      rewriter_.ReplaceText(used, "nullptr");
    return;
  }
  // In a macro's own definition (`if ((p) == NULL)` in SKIP_IF_NULL) it cannot be edited: the
  // simulator's pointer is compared with it as written (cu::ptr takes a 0 as well).
  if (editable(e->getBeginLoc(), e->getEndLoc(), "nullptr") != Spelling::InFile) return;
  const CharSourceRange where = written(e->getSourceRange());
  if (!in_main_file(where.getBegin()) || !nullptrs_.insert(sm_.getFileOffset(where.getBegin())).second) return;
  replace(e->getSourceRange(), "nullptr");
}

void RewriteRules::pointer_arguments(const FunctionDecl* pattern, llvm::ArrayRef<const Expr*> arguments,
                                     unsigned long long& const_mask, unsigned long long& volatile_mask) {
  const_mask = volatile_mask = 0;
  if (!pattern) return;
  for (unsigned k = 0; k < arguments.size() && k < pattern->getNumParams(); ++k) {
    const QualType type = pattern->getParamDecl(k)->getType();
    const QualType referee = type.getNonReferenceType();
    if (type->isLValueReferenceType() && !referee.isConstQualified() && referee->isRecordType() &&
        in_device_memory(arguments[k], false)) {
      const std::string name = pattern->getParamDecl(k)->getNameAsString();
      error(arguments[k]->getExprLoc(), "a struct in device memory cannot be bound to '" + type_text(referee) + "& " + name +
                                            "' yet: pass its address (a pointer parameter) or copy it into a local and back");
    }
    if (!type->isPointerType() || isa<CXXDefaultArgExpr>(arguments[k])) continue;
    // A helper's `float tile[][33]` takes the tile itself (pass_tile_itself), not a row of it.
    if (context_.getAsConstantArrayType(type->getPointeeType()) && is_students(pattern) && is_device_only(pattern)) {
      const auto* named = dyn_cast<DeclRefExpr>(arguments[k]->IgnoreParenImpCasts());
      const auto* tile = named ? dyn_cast<VarDecl>(named->getDecl()) : nullptr;
      if (!tile || !(tile->getType()->isArrayType() || isa<ParmVarDecl>(tile)))
        error(arguments[k]->getExprLoc(), "the helper's '" + pattern->getParamDecl(k)->getNameAsString() +
                                              "' takes a whole 2D tile: pass the tile itself, not a row of it, and "
                                              "give the helper the row's number to index [r][c]");
      continue;
    }
    null_to_nullptr(arguments[k]);
    const QualType pointee = type->getPointeeType();
    if (!pointee->isDependentType() || k >= 64) continue;
    if (pointee.isConstQualified()) const_mask |= 1ull << k;
    if (pointee.isVolatileQualified()) volatile_mask |= 1ull << k;
  }
}

std::string RewriteRules::caption_before(SourceLocation barrier) const {
  const unsigned line = sm_.getExpansionLineNumber(barrier);
  auto it = comments_.find(line - 1);
  if (it == comments_.end()) return "";
  std::string_view text = it->second;
  if (text.rfind("//", 0) == 0) text.remove_prefix(2);
  else if (text.rfind("/*", 0) == 0 && text.size() >= 4) text = text.substr(2, text.size() - 4);
  while (!text.empty() && isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  if (text.rfind("step:", 0) == 0) text.remove_prefix(5);
  while (!text.empty() && isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  while (!text.empty() && isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  return escaped_caption(text);
}

bool RewriteRules::VisitAsmStmt(AsmStmt* s) {
  // AsmStmt's own getBeginLoc() is empty: its asm keyword's is the place.
  if (in_main_file(s->getAsmLoc()))
    error(s->getAsmLoc(), "inline assembly (asm) is not simulated: write what it does in CUDA C++ (PTX's %laneid is "
                            "threadIdx.x % warpSize; %clock is clock())");
  return true;
}

bool RewriteRules::VisitCallExpr(CallExpr* e) {
  const FunctionDecl* callee = e->getDirectCallee();
  if (!callee) callee = dependent_callee(e->getCallee(), -1);  // a call in a template, by its parameters
  if (!callee || isa<CUDAKernelCallExpr>(e)) return true;
  const std::string name = callee->getNameAsString();
  if (auto refused = kNotSimulated.find(name); refused != kNotSimulated.end() && !is_students(callee)) {
    error(e->getBeginLoc(), std::string(refused->second));
    return true;
  }
  if ((name == "malloc" || name == "free") && in_device_code() && !is_students(callee)) {
    error(e->getBeginLoc(), "'" + name +
                                "' in device code (the device heap) is not simulated: allocate with cudaMalloc in "
                                "main() and pass the pointer, or use a __shared__ array");
    return true;
  }
  if (name == "__assert_fail" && !is_students(callee) && e->getNumArgs() >= 1)  // what assert() calls
    if (const auto* test = dyn_cast<StringLiteral>(e->getArg(0)->IgnoreParenImpCasts())) {
      const CharSourceRange used = sm_.getExpansionRange(e->getSourceRange());
      for (unsigned line = sm_.getPresumedLineNumber(used.getBegin()); line <= sm_.getPresumedLineNumber(used.getEnd()); ++line)
        out_.assert_texts.emplace(static_cast<int>(line), test->getString().str());
    }
  const Expr* target = e->getCallee()->IgnoreImplicit();
  if (!in_device_code()) {
    // cudaMalloc((void **)&d_x, bytes): the array is called d_x in every view, and the cast that
    // would hide its element type from the simulator goes (one edit: the two touch).
    const bool managed = name == "cudaMallocManaged", pitched = name == "cudaMallocPitch";
    if ((name == "cudaMalloc" || managed || pitched) && !is_students(callee) && e->getNumArgs() >= 2) {
      const Expr* where = e->getArg(0)->IgnoreParenCasts();
      std::string array = text_of(where->getSourceRange());
      if (const auto* address = dyn_cast<UnaryOperator>(where); address && address->getOpcode() == UO_AddrOf)
        array = text_of(address->getSubExpr()->getSourceRange());
      if (const QualType cell = where->getType(); cell->isPointerType() && cell->getPointeeType()->isPointerType())
        array += cells_note(cell->getPointeeType()->getPointeeType());
      replace(SourceRange(target->getBeginLoc(), e->getArg(0)->getEndLoc()),
              std::string(managed   ? "syncscope_cuda_malloc_managed_named(\""
                          : pitched ? "syncscope_cuda_malloc_pitch_named(\""
                                    : "syncscope_cuda_malloc_named(\"") +
                  escaped_caption(array) + "\", " + text_of(where->getSourceRange()));
    }
    return true;
  }
  int written_arguments = 0;
  for (const Expr* a : e->arguments())
    if (!isa<CXXDefaultArgExpr>(a)) ++written_arguments;
  if (is_students(callee) && is_device_only(callee) && (!isa<CXXMethodDecl>(callee) || context_method(callee))) {
    if (callee->hasAttr<CUDAGlobalAttr>()) {
      error(e->getBeginLoc(), "a kernel launching a kernel (dynamic parallelism) is not simulated: launch it from main");
      return true;
    }
    const SourceLocation callee_end = written(SourceRange(target->getEndLoc(), target->getEndLoc())).getEnd();
    auto open = Lexer::findNextToken(callee_end, sm_, context_.getLangOpts());
    if (!open || !open->is(tok::l_paren)) {
      error(e->getBeginLoc(), "cannot find the '(' of this call to '" + name + "'");
      return true;
    }
    insert_after_token(open->getLocation(), written_arguments ? "_c, " : "_c");
    note_call_site(e, callee);
    std::vector<const Expr*> arguments(e->arg_begin(), e->arg_end());
    unsigned long long const_mask = 0, volatile_mask = 0;
    pointer_arguments(called_pattern(target, e->getDirectCallee(), e->getNumArgs()), arguments, const_mask, volatile_mask);
    for (unsigned k = 0; k < arguments.size() && k < 64; ++k) {
      const bool is_const = (const_mask >> k) & 1, is_volatile = (volatile_mask >> k) & 1;
      if ((!is_const && !is_volatile) ||
          editable(arguments[k]->getBeginLoc(), arguments[k]->getEndLoc(), "qualified") != Spelling::InFile)
        continue;
      // After the `_c, ` put before the first argument at the same place.
      rewriter_.InsertTextAfter(written(arguments[k]->getBeginLoc()), std::string("::syncscope::cu::qualified_argument<") +
                                                                           (is_const ? "true" : "false") + ", " +
                                                                           (is_volatile ? "true" : "false") + ">(");
      insert_after_token(arguments[k]->getEndLoc(), ")");
    }
    return true;
  }
  if (is_students(callee)) {
    // A __host__ __device__ function stays host code (main() calls it too): given device memory, it
    // would take the simulator's pointer for a host one. (A thread's own variables it can take.)
    if (callee->hasAttr<CUDAHostAttr>() && callee->hasAttr<CUDADeviceAttr>())
      for (unsigned k = 0; k < e->getNumArgs() && k < callee->getNumParams(); ++k)
        if (device_memory(e->getArg(k))) {
          error(e->getArg(k)->getBeginLoc(),
                "'" + name + "' is __host__ __device__ and is given device memory ('" +
                    callee->getParamDecl(k)->getNameAsString() +
                    "'): syncscope translates the device code of __device__ functions only; make it __device__, "
                    "with a __host__ copy for main() if main() calls it too");
          break;
        }
    return true;
  }
  if (auto call = kContextCalls.find(name); call != kContextCalls.end()) {
    std::string replacement(call->second);
    if (name.rfind("__syncthreads", 0) == 0)  // a counting barrier ends its step too
      if (std::string caption = caption_before(e->getBeginLoc()); !caption.empty())
        // `int n = __syncthreads_count(p);`: the counting barriers are values, the caption goes inside.
        replacement = name == "__syncthreads" ? "_c.caption(\"" + caption + "\"), " + replacement
                                              : "(_c.caption(\"" + caption + "\"), _c)" + replacement.substr(2);
    replace(target->getSourceRange(), replacement);
  } else if (auto runtime = kRuntimeCalls.find(name); runtime != kRuntimeCalls.end() || name == "printf") {
    replace(target->getSourceRange(), runtime != kRuntimeCalls.end() ? std::string(runtime->second) : "::syncscope::cu::device_printf");
    const SourceLocation callee_end = written(SourceRange(target->getEndLoc(), target->getEndLoc())).getEnd();
    // printf's place as an argument: a variadic call has no room for a defaulted one after the values
    // (the runtime's other calls default theirs).
    if (auto open = Lexer::findNextToken(callee_end, sm_, context_.getLangOpts()); open && open->is(tok::l_paren))
      insert_after_token(open->getLocation(), name == "printf"   ? "_c, ::syncscope::sim::SourceLocation::current(), "
                                              : e->getNumArgs() ? "_c, "
                                                                : "_c");
  }
  return true;
}

void RewriteRules::keep_device_address(const Expr* value) {
  if (!device_memory(value) || editable(value->getBeginLoc(), value->getEndLoc(), "device_address") != Spelling::InFile)
    return;
  if (insert_before(value->getBeginLoc(), "::syncscope::cu::device_address(")) insert_after_token(value->getEndLoc(), ")");
}

bool RewriteRules::VisitInitListExpr(InitListExpr* e) {
  // Visited in the form written; its fields are the semantic form's.
  if (!in_device_code() || !e->isSyntacticForm() || e->getType()->isDependentType()) return true;
  if (!e->isSemanticForm()) e = e->getSemanticForm();
  const RecordDecl* record = e->getType()->getAsRecordDecl();
  if (!record || !in_main_file(record->getLocation())) return true;
  unsigned k = 0;
  for (const FieldDecl* field : record->fields()) {
    if (k >= e->getNumInits()) break;
    if (field->getType()->isPointerType()) keep_device_address(e->getInit(k));
    ++k;
  }
  return true;
}

bool RewriteRules::VisitCXXConstructExpr(CXXConstructExpr* e) {
  const CXXConstructorDecl* constructor = e->getConstructor();
  if (!in_device_code() || !constructor || constructor->isImplicit() || !is_students(constructor) ||
      !is_device_only(constructor))
    return true;
  for (unsigned k = 0; k < e->getNumArgs() && k < constructor->getNumParams(); ++k)
    if (constructor->getParamDecl(k)->getType()->isPointerType()) keep_device_address(e->getArg(k));
  return true;
}

bool RewriteRules::VisitCUDAKernelCallExpr(CUDAKernelCallExpr* e) {
  if (!in_main_file(e->getBeginLoc())) return true;
  if (const auto* named = dyn_cast<DeclRefExpr>(e->getCallee()->IgnoreParenImpCasts())) launched_kernels_.insert(named);
  if (in_device_code()) {
    error(e->getBeginLoc(), "a kernel launching a kernel (dynamic parallelism) is not simulated: launch it from main");
    return true;
  }
  // The launch's lambda names the kernel (a template of the context): a pointer or parameter
  // holding one would have to be a kernel the lambda can call.
  const Expr* callee = e->getCallee()->IgnoreParenImpCasts();
  if (const auto* star = dyn_cast<UnaryOperator>(callee); star && star->getOpcode() == UO_Deref)
    callee = star->getSubExpr()->IgnoreParenImpCasts();  // (*fp)<<<...>>>
  if (const auto* named = dyn_cast<DeclRefExpr>(callee); named && !isa<FunctionDecl>(named->getDecl())) {
    error(e->getBeginLoc(), "a launch through '" + named->getDecl()->getNameAsString() +
                                "' (a pointer to a kernel, or a parameter or template argument holding one) is not simulated: launch the kernel by its "
                                "name (kernel<<<grid, block>>>(...)), in a helper too");
    return true;
  }
  const CallExpr* config = e->getConfig();
  // `LAUNCH(k, grid, block, x)` whose macro writes `k<<<grid, block>>>(x)`: the launch's `<<<...>>>`
  // is the macro's text, not the file's (a launch passed whole to a macro, `TIMED(k<<<g, b>>>(x))`,
  // is the file's and is translated).
  if (editable(e->getBeginLoc(), config->getRParenLoc(), "launch") == Spelling::NotEditable) {
    const SourceLocation at = e->getBeginLoc().isMacroID() ? e->getBeginLoc() : config->getRParenLoc();
    const std::string macro = Lexer::getImmediateMacroName(at, sm_, context_.getLangOpts()).str();
    const std::string name = e->getDirectCallee() ? e->getDirectCallee()->getNameAsString() : "the kernel";
    error(e->getBeginLoc(), "the launch of '" + name + "' is written inside the macro '" + macro +
                                "': syncscope translates a launch written out where it runs; write " + name +
                                "<<<grid, block>>>(...) at this line");
    return true;
  }
  auto written = [&](unsigned k) -> std::string {
    if (k >= config->getNumArgs() || isa<CXXDefaultArgExpr>(config->getArg(k))) return "";
    return text_of(config->getArg(k)->getSourceRange());
  };
  const std::string stream = written(3);
  const std::string kernel = text_of(e->getCallee()->getSourceRange());
  std::string shared = written(2);
  if (shared.empty()) shared = "0";
  unsigned long long const_mask = 0, volatile_mask = 0;
  pointer_arguments(called_pattern(e->getCallee(), e->getDirectCallee(), e->getNumArgs()), {e->getArgs(), e->getNumArgs()},
                    const_mask, volatile_mask);
  const std::string call =
      const_mask == 0 && volatile_mask == 0
          ? kernel + "(_c, a...);"
          : "::syncscope::cu::call_qualified<" + std::to_string(const_mask) + "ull, " + std::to_string(volatile_mask) +
                "ull>([&](auto... b) { " + kernel + "(_c, b...); }, a...);";
  const std::string launch = "::syncscope::cu::launch([](auto& _c, auto... a) { " + call + " }, \"" + kernel +
                             "\", " + written(0) + ", " + written(1) + ", " + shared + (stream.empty() ? "" : ", " + stream) + ")";
  replace(SourceRange(e->getBeginLoc(), config->getRParenLoc()), launch);
  return true;
}

// `float *p = NULL;`, `if (p != 0)` in device code: the simulator's pointer takes nullptr, not a 0.
bool RewriteRules::VisitImplicitCastExpr(ImplicitCastExpr* e) {
  if (in_device_code() && e->getCastKind() == CK_NullToPointer) null_to_nullptr(e->getSubExpr());
  return true;
}

// A kernel named in host code other than by its launch (`cudaFuncSetAttribute(k, ...)`,
// `cudaOccupancyMaxPotentialBlockSize(&g, &b, k)`): the kernel is a template in the translation, not
// a function with an address, and the runtime's calls use none: it is passed as nullptr.
void RewriteRules::kernel_as_value(const DeclRefExpr* e) {
  const auto* f = dyn_cast<FunctionDecl>(e->getDecl());
  if (!f || !f->hasAttr<CUDAGlobalAttr>() || !is_students(f) || launched_kernels_.count(e)) return;
  const Expr* value = e;
  for (;;) {
    const auto parents = context_.getParents(*value);
    if (parents.empty()) break;
    const auto* address = parents[0].get<UnaryOperator>();
    if (const auto* paren = parents[0].get<ParenExpr>()) value = paren;
    else if (address && address->getOpcode() == UO_AddrOf) value = address;
    else break;
  }
  if (editable(value->getBeginLoc(), value->getEndLoc(), "kernel value") == Spelling::InFile)
    replace(value->getSourceRange(), "nullptr");
}

bool RewriteRules::explicit_instantiations(const FunctionTemplateDecl* t, bool kernel) {
  bool any = false;
  for (const FunctionDecl* s : t->specializations()) {
    const TemplateSpecializationKind kind = s->getTemplateSpecializationKind();
    if (kind != TSK_ExplicitInstantiationDefinition && kind != TSK_ExplicitInstantiationDeclaration) continue;
    any = true;
    if (!kernel || !s->getTemplateSpecializationArgs()) continue;
    std::string arguments;
    llvm::raw_string_ostream written_arguments(arguments);
    printTemplateArgumentList(written_arguments, s->getTemplateSpecializationArgs()->asArray(), context_.getPrintingPolicy());
    KernelSignature k{t->getNameAsString() + written_arguments.str(), false, {}};
    for (const ParmVarDecl* p : s->parameters()) k.parameters.push_back(kernel_parameter(p));
    out_.kernels.push_back(std::move(k));
  }
  // The statements themselves (a specialization keeps where it was first used, not where the
  // instantiation is written): each left blank, its lines kept.
  if (any)
    for (const SourceRange& range : explicit_instantiation_ranges(t->getName())) {
      if (!blanked_instantiations_.insert(sm_.getFileOffset(range.getBegin())).second) continue;
      std::string blank = text_of(range);
      for (char& c : blank)
        if (c != '\n') c = ' ';
      replace(range, blank);
    }
  return any;
}

// Each `[extern] template` not followed by `<` (an explicit instantiation, not a template's head)
// whose statement names `name`, up to its `;`, in the main file as written.
std::vector<SourceRange> RewriteRules::explicit_instantiation_ranges(StringRef name) const {
  const FileID file = sm_.getMainFileID();
  const StringRef buffer = sm_.getBufferData(file);
  Lexer lexer(sm_.getLocForStartOfFile(file), context_.getLangOpts(), buffer.begin(), buffer.begin(), buffer.end());
  std::vector<Token> tokens;
  Token token;
  for (bool at_end = false; !at_end && !token.is(tok::eof);) {
    at_end = lexer.LexFromRawLexer(token);
    tokens.push_back(token);
  }
  auto word = [&](size_t k, const char* w) { return tokens[k].is(tok::raw_identifier) && tokens[k].getRawIdentifier() == w; };
  std::vector<SourceRange> out;
  for (size_t k = 0; k + 1 < tokens.size(); ++k) {
    if (!word(k, "template") || tokens[k + 1].is(tok::less)) continue;
    const SourceLocation begin = k > 0 && word(k - 1, "extern") ? tokens[k - 1].getLocation() : tokens[k].getLocation();
    bool names = false;
    int depth = 0;
    for (size_t m = k + 1; m < tokens.size() && !tokens[m].is(tok::eof); ++m) {
      if (tokens[m].is(tok::l_brace)) break;  // a definition: not an instantiation
      if (tokens[m].isOneOf(tok::l_paren, tok::l_square)) ++depth;
      if (tokens[m].isOneOf(tok::r_paren, tok::r_square)) --depth;
      if (tokens[m].is(tok::raw_identifier) && tokens[m].getRawIdentifier() == name) names = true;
      if (depth == 0 && tokens[m].is(tok::semi)) {
        if (names) out.emplace_back(begin, tokens[m].getLocation());
        break;
      }
    }
  }
  return out;
}

// A helper's call from a device function's body, at the line the call starts on, with the lines
// the caller and the helper (its template's pattern) span.
void RewriteRules::note_call_site(const CallExpr* e, const FunctionDecl* callee) {
  if (!device_function_ || !callee->getIdentifier()) return;
  const FunctionDecl* helper = callee->getTemplateInstantiationPattern() ? callee->getTemplateInstantiationPattern() : callee;
  if (const FunctionDecl* definition = helper->getDefinition()) helper = definition;
  const SourceLocation at = sm_.getExpansionLoc(e->getBeginLoc());
  if (!in_main_file(at) || !in_main_file(sm_.getExpansionLoc(helper->getBeginLoc()))) return;
  auto line = [&](SourceLocation l) { return static_cast<int>(sm_.getPresumedLineNumber(sm_.getExpansionLoc(l))); };
  CallSite site{callee->getNameAsString(), line(at), line(device_function_->getBeginLoc()), line(device_function_->getEndLoc()),
                line(helper->getBeginLoc()), line(helper->getEndLoc())};
  if (std::find(out_.calls.begin(), out_.calls.end(), site) == out_.calls.end()) out_.calls.push_back(std::move(site));
}

}  // namespace syncscope::translate
