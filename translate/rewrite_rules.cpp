#include "translate/rewrite_rules.h"

#include <clang/AST/Attr.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecordLayout.h>
#include <clang/Lex/Lexer.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <string_view>

#include "translate/cuda_names.h"

namespace syncscope::translate {

using namespace clang;

bool simulated_scalar(QualType t) {
  const auto* b = t->getAs<BuiltinType>();
  if (!b) return false;
  switch (b->getKind()) {
    case BuiltinType::Float:
    case BuiltinType::Int:
    case BuiltinType::UInt:
    case BuiltinType::Short:
    case BuiltinType::UShort:
    case BuiltinType::Char_S:
    case BuiltinType::Char_U:
    case BuiltinType::SChar:
    case BuiltinType::UChar:
    case BuiltinType::Bool:
    case BuiltinType::Double:
    case BuiltinType::Long:
    case BuiltinType::ULong:
    case BuiltinType::LongLong:
    case BuiltinType::ULongLong:
      return true;
    default:
      return false;
  }
}

namespace {

// What a __constant__ variable may be: a number, a struct of plain data (the CUDA samples' SimParams),
// or an array (of arrays) of them. It lives in host memory in the simulation, read-only to device
// code (cu::constant_memory), so a struct's fields are read as C++ reads them.
bool simulated_constant(QualType t) {
  while (const auto* array = dyn_cast<ConstantArrayType>(t.getCanonicalType().getTypePtr())) t = array->getElementType();
  if (const auto* record = t->getAsCXXRecordDecl()) return record->hasDefinition() && record->isPOD();
  return simulated_scalar(t.getUnqualifiedType());
}

constexpr const char* kStructRule =
    "syncscope lays out structs in device memory whose fields are 4- and 8-byte numbers "
    "(int, unsigned, float, double, long long) with no padding";

}  // namespace

bool context_method(const FunctionDecl* f) {
  const auto* m = dyn_cast<CXXMethodDecl>(f);
  // Not yet a class template's: their out-of-line definitions and dependent bodies are not translated.
  return m && f->hasAttr<CUDADeviceAttr>() && !f->hasAttr<CUDAHostAttr>() && !isa<CXXConstructorDecl>(m) &&
         !isa<CXXDestructorDecl>(m) && !isa<CXXConversionDecl>(m) && !m->isOverloadedOperator() && !m->isVirtual() &&
         !m->getParent()->isDependentContext() && !isa<ClassTemplateSpecializationDecl>(m->getParent());
}

std::string escaped_caption(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '%') out += '%';
    if (c == '\n' || c == '\r') continue;
    out += c;
  }
  return out;
}

RewriteRules::RewriteRules(ASTContext& context, Rewriter& rewriter, const std::map<unsigned, std::string>& comments,
                           Translation& out)
    : context_(context), sm_(context.getSourceManager()), rewriter_(rewriter), comments_(comments), out_(out) {}

bool RewriteRules::in_main_file(SourceLocation loc) const {
  return loc.isValid() && sm_.isInMainFile(sm_.getExpansionLoc(loc));
}

void RewriteRules::error(SourceLocation loc, const std::string& message) {
  TranslateError d;
  const PresumedLoc at = sm_.getPresumedLoc(sm_.getExpansionLoc(loc));
  if (at.isValid()) d.file = at.getFilename(), d.line = static_cast<int>(at.getLine()), d.column = static_cast<int>(at.getColumn());
  d.message = message;
  // A macro's argument expanded twice is refused twice at one place: say it once.
  for (const TranslateError& said : out_.errors)
    if (said.file == d.file && said.line == d.line && said.column == d.column && said.message == d.message) return;
  out_.errors.push_back(std::move(d));
}

RewriteRules::Spelling RewriteRules::editable(SourceLocation first, SourceLocation last, const char* rule) {
  if (first.isFileID() && last.isFileID()) return Spelling::InFile;
  if (!first.isMacroID() || !last.isMacroID() || !sm_.isMacroArgExpansion(first) || !sm_.isMacroArgExpansion(last))
    return Spelling::NotEditable;
  const SourceLocation begin = sm_.getSpellingLoc(first), end = sm_.getSpellingLoc(last);
  if (!sm_.isInMainFile(begin) || sm_.getFileID(begin) != sm_.getFileID(end) || sm_.isBeforeInTranslationUnit(end, begin))
    return Spelling::NotEditable;
  // Both ends in the same argument of the same expansion: not `M(*p, q)` joined across a comma by the macro.
  if (sm_.getImmediateExpansionRange(first).getBegin() != sm_.getImmediateExpansionRange(last).getBegin())
    return Spelling::NotEditable;
  return macro_argument_edits_.emplace(rule, sm_.getFileOffset(begin), sm_.getFileOffset(end)).second ? Spelling::InFile
                                                                                                       : Spelling::AlreadyEdited;
}

// Where a location's text is written in the file: a macro argument's tokens where the argument is
// (`CUDA_CHECK(cudaMalloc(&d, n))`), anything else from a macro where the macro is used.
SourceLocation RewriteRules::written(SourceLocation loc) const {
  if (loc.isMacroID() && sm_.isMacroArgExpansion(loc)) {
    const SourceLocation spelled = sm_.getSpellingLoc(loc);
    if (sm_.isInMainFile(spelled)) return spelled;
  }
  return sm_.getExpansionLoc(loc);
}

CharSourceRange RewriteRules::written(SourceRange range) const {
  const SourceLocation begin = written(range.getBegin()), end = written(range.getEnd());
  if (begin.isFileID() && end.isFileID() && sm_.getFileID(begin) == sm_.getFileID(end) &&
      !sm_.isBeforeInTranslationUnit(end, begin))
    return CharSourceRange::getTokenRange(begin, end);
  return sm_.getExpansionRange(range);
}

std::string RewriteRules::text_of(SourceRange range) const {
  return Lexer::getSourceText(written(range), sm_, context_.getLangOpts()).str();
}

std::string RewriteRules::type_text(QualType type) const {
  PrintingPolicy policy(context_.getLangOpts());
  policy.SuppressTagKeyword = true;
  policy.Bool = true;
  return type.getAsString(policy);
}

bool RewriteRules::is_device_only(const FunctionDecl* f) const {
  return f->hasAttr<CUDAGlobalAttr>() || (f->hasAttr<CUDADeviceAttr>() && !f->hasAttr<CUDAHostAttr>());
}

bool RewriteRules::is_students(const FunctionDecl* f) const { return in_main_file(f->getLocation()); }

SourceLocation RewriteRules::declaration_start(const Decl* d) const {
  SourceLocation start = sm_.getExpansionLoc(d->getBeginLoc());
  for (const Attr* a : d->attrs()) {
    if (a->isImplicit()) continue;
    const SourceLocation at = sm_.getExpansionLoc(a->getLocation());
    if (at.isValid() && sm_.isBeforeInTranslationUnit(at, start)) start = at;
  }
  return start;
}

bool RewriteRules::replace(SourceRange range, const std::string& text) {
  const CharSourceRange where = written(range);
  if (!in_main_file(where.getBegin())) return false;
  // By the original text's length: replacing a CharSourceRange counts text inserted at its start
  // (`_c, ` after a call's `(`) as part of it, and takes as many characters more of what follows.
  SourceLocation end = where.getEnd();
  if (where.isTokenRange()) end = Lexer::getLocForEndOfToken(end, 0, sm_, context_.getLangOpts());
  const unsigned begin_offset = sm_.getFileOffset(where.getBegin()), end_offset = sm_.getFileOffset(end);
  if (end_offset < begin_offset) return false;
  return !rewriter_.ReplaceText(where.getBegin(), end_offset - begin_offset, text);
}

bool RewriteRules::insert_before(SourceLocation loc, const std::string& text) {
  loc = written(loc);
  if (!in_main_file(loc)) return false;
  return !rewriter_.InsertTextBefore(loc, text);
}

bool RewriteRules::insert_opening(SourceLocation loc, const std::string& text) {
  loc = written(loc);
  if (!in_main_file(loc)) return false;
  return !rewriter_.InsertTextAfter(loc, text);
}

bool RewriteRules::insert_after_token(SourceLocation loc, const std::string& text) {
  loc = written(SourceRange(loc, loc)).getEnd();
  if (!in_main_file(loc)) return false;
  const SourceLocation end = Lexer::getLocForEndOfToken(loc, 0, sm_, context_.getLangOpts());
  return !rewriter_.InsertTextAfter(end, text);
}

bool RewriteRules::TraverseFunctionDecl(FunctionDecl* f) {
  const bool device = is_device_only(f) && is_students(f);
  if (device) ++device_depth_;
  const bool was_in_kernel = in_kernel_body_;
  const FunctionDecl* was_in_function = device_function_;
  in_kernel_body_ = device && f->hasAttr<CUDAGlobalAttr>();
  if (device) device_function_ = f;
  const bool go_on = RecursiveASTVisitor::TraverseFunctionDecl(f);
  in_kernel_body_ = was_in_kernel;
  device_function_ = was_in_function;
  if (device) --device_depth_;
  return go_on;
}

bool RewriteRules::TraverseCXXMethodDecl(CXXMethodDecl* m) {
  const bool device = context_method(m) && is_students(m);
  if (device) ++device_depth_;
  const bool was_in_kernel = in_kernel_body_;
  const FunctionDecl* was_in_function = device_function_;
  in_kernel_body_ = false;
  if (device) device_function_ = m;
  const bool go_on = RecursiveASTVisitor::TraverseCXXMethodDecl(m);
  in_kernel_body_ = was_in_kernel;
  device_function_ = was_in_function;
  if (device) --device_depth_;
  return go_on;
}

bool RewriteRules::TraverseLambdaExpr(LambdaExpr* e) {
  const bool was_in_kernel = in_kernel_body_;
  in_kernel_body_ = false;
  const bool go_on = RecursiveASTVisitor::TraverseLambdaExpr(e);
  in_kernel_body_ = was_in_kernel;
  return go_on;
}

// `return;` in a kernel ends the thread: the simulator is told the line, so that a warp operation
// the lane then misses can say which `return` it was ("T20 returned at x.cu:4").
bool RewriteRules::VisitReturnStmt(ReturnStmt* s) {
  if (!in_kernel_body_ || s->getRetValue() || s->getReturnLoc().isMacroID()) return true;
  insert_after_token(s->getReturnLoc(), " ::syncscope::cu::kernel_return(_c)");
  return true;
}

bool RewriteRules::VisitNamedDecl(NamedDecl* d) {
  if (!d->getIdentifier() || !in_main_file(d->getLocation()) || d->getLocation().isMacroID()) return true;
  const StringRef name = d->getName();
  // `_c` is each device function's context parameter; host code may have its own.
  if ((name == "_c" && in_device_code()) || name.startswith("syncscope_") || name.startswith("Syncscope"))
    error(d->getLocation(), "the name '" + name.str() + "' is one syncscope's translation of the file uses itself (" +
                                (name == "_c" ? "_c in device code" : "syncscope_..., Syncscope...") + "): rename it");
  return true;
}

bool RewriteRules::VisitFunctionDecl(FunctionDecl* f) {
  if (!is_students(f)) return true;
  if (const auto* m = dyn_cast<CXXMethodDecl>(f); m && !context_method(m)) {
    refuse_untranslated_device_code(m);
    return true;
  }
  if (f->isMain()) {
    out_.has_main = true;
    replace(SourceRange(f->getLocation()), "syncscope_cuda_main");
    // main() may end without a return (it returns 0); syncscope_cuda_main() may not: it would run on
    // into whatever code follows it.
    if (const auto* body = dyn_cast_or_null<CompoundStmt>(f->getBody())) insert_before(body->getRBracLoc(), " return 0; ");
    return true;
  }
  if (!is_device_only(f)) return true;
  const FunctionTemplateDecl* pattern_of = f->isThisDeclarationADefinition() ? f->getDescribedFunctionTemplate() : nullptr;
  const bool instantiated = pattern_of && explicit_instantiations(pattern_of, f->hasAttr<CUDAGlobalAttr>());
  if (f->hasAttr<CUDAGlobalAttr>() && f->isThisDeclarationADefinition() && !instantiated) {
    KernelSignature k{f->getNameAsString(), pattern_of != nullptr, {}};
    for (const ParmVarDecl* p : f->parameters()) k.parameters.push_back(kernel_parameter(p));
    if (const auto* bounds = f->getAttr<CUDALaunchBoundsAttr>(); bounds && bounds->getMaxThreads())
      if (Expr::EvalResult r; !bounds->getMaxThreads()->isValueDependent() &&
                              bounds->getMaxThreads()->EvaluateAsInt(r, context_))
        k.max_threads = static_cast<int>(r.Val.getInt().getExtValue());
    out_.kernels.push_back(std::move(k));
  }
  rewrite_device_signature(f);
  return true;
}

KernelParameter RewriteRules::kernel_parameter(const ParmVarDecl* p) const {
  const QualType t = p->getType();
  return t->isPointerType() ? KernelParameter{true, type_text(t->getPointeeType().getUnqualifiedType()), p->getNameAsString()}
                            : KernelParameter{false, type_text(t.getUnqualifiedType()), p->getNameAsString()};
}

void RewriteRules::rewrite_device_signature(FunctionDecl* f) {
  if (f->getLocation().isMacroID()) {
    error(f->getLocation(), "a device function declared by a macro cannot be translated: write it out");
    return;
  }
  if (FunctionTemplateDecl* t = f->getDescribedFunctionTemplate()) {
    insert_before(t->getTemplateParameters()->getRAngleLoc(), ", class SyncscopeCtx");
    deduce_through_references(f, t);
  } else if (f->getTemplatedKind() != FunctionDecl::TK_NonTemplate) {
    error(f->getLocation(), "an explicit specialization of a device function cannot be translated yet: use a template parameter");
    return;
  } else {
    insert_before(declaration_start(f), "template <class SyncscopeCtx> ");
  }
  const FunctionTypeLoc signature = f->getFunctionTypeLoc();
  if (!signature) {
    error(f->getLocation(), "cannot find the parameter list of '" + f->getNameAsString() + "'");
    return;
  }
  rewrite_pointer_return(f);
  rewrite_reference_return(f);
  const SourceLocation open = sm_.getExpansionLoc(signature.getLParenLoc());
  const SourceLocation close = sm_.getExpansionLoc(signature.getRParenLoc());
  if (f->getNumParams() == 0) {
    const unsigned length = sm_.getFileOffset(close) - sm_.getFileOffset(open) - 1;
    rewriter_.ReplaceText(open.getLocWithOffset(1), length, "SyncscopeCtx& _c");
  } else if (will_be_rewritten(f->getParamDecl(0))) {
    // One edit where two would touch (the Rewriter mishandles an insert and a replace at one offset).
    context_first_.insert(f->getParamDecl(0));
  } else {
    rewriter_.InsertTextAfter(open.getLocWithOffset(1), "SyncscopeCtx& _c, ");
  }
}

QualType RewriteRules::pointer_array_element(const DeclaratorDecl* d) const {
  const auto* array = isa<VarDecl>(d) ? context_.getAsConstantArrayType(d->getType()) : nullptr;
  return array && array->getElementType()->isPointerType() ? array->getElementType() : QualType();
}

bool RewriteRules::will_be_rewritten(const DeclaratorDecl* d) const {
  const QualType type = pointer_array_element(d).isNull() ? d->getType() : pointer_array_element(d);
  if (type->getContainedAutoType() || !d->getTypeSourceInfo()) return false;
  if (type->isPointerType()) return element_refusal(type->getPointeeType()).empty();
  return !reference_type(d).empty();
}

std::string RewriteRules::element_refusal(QualType t) const {
  t = t.getCanonicalType().getUnqualifiedType();
  if (t->isDependentType() || simulated_scalar(t)) return "";
  if (const RecordDecl* r = t->getAsRecordDecl()) return struct_refusal(r);
  return type_text(t) + ": syncscope simulates arrays of int, unsigned, float, double, long long, char, short and bool "
                        "elements, and of structs of 4- and 8-byte numbers (not yet pointers, unions or other types)";
}

bool RewriteRules::cuda_byte_vector(const RecordDecl* r) const {
  static constexpr std::array<std::string_view, 5> kNames = {"uchar2", "uchar3", "uchar4", "char2", "char4"};
  const std::string name = r->getNameAsString();
  return !in_main_file(r->getLocation()) && std::find(kNames.begin(), kNames.end(), name) != kNames.end();
}

std::string RewriteRules::struct_refusal(const RecordDecl* r) const {
  const std::string name = type_text(context_.getRecordType(r));
  if (cuda_byte_vector(r)) return "";  // a cell a byte (cu_device.h's byte_fields)
  if (r->isUnion()) return name + ", a union: " + kStructRule + "; use a struct";
  const RecordDecl* d = r->getDefinition();
  if (!d) return name + ", a struct the file does not define";
  if (const auto* c = dyn_cast<CXXRecordDecl>(d)) {
    if (c->getNumBases() > 0) return name + ", a struct with a base struct: " + kStructRule + "; write the fields out";
    if (!c->isTriviallyCopyable()) return name + ", a struct with its own copy operations or virtual functions: " + kStructRule;
  }
  const ASTRecordLayout& layout = context_.getASTRecordLayout(d);
  uint64_t end = 0;  // of the fields so far, in bytes
  for (const FieldDecl* f : d->fields()) {
    const std::string field = name + ", whose field '" + f->getNameAsString() + "' ";
    const QualType type = f->getType().getCanonicalType();
    if (f->isBitField()) return field + "is a bit-field: " + kStructRule + "; make it a whole int";
    if (type->isPointerType()) return field + "is a pointer: " + kStructRule + "; keep an index instead";
    if (type->isArrayType()) return field + "is an array: " + kStructRule + "; give each element a field, or use an array of its own";
    const uint64_t bytes = context_.getTypeSizeInChars(type).getQuantity();
    if (const RecordDecl* inner = type->getAsRecordDecl()) {
      if (cuda_byte_vector(inner))
        return field + "is a " + type_text(type) + ", CUDA's vector of bytes: syncscope simulates arrays of them, "
               "not one inside a struct; keep the pixels in an array of their own";
      if (std::string why = struct_refusal(inner); !why.empty()) return why;
    } else if (!simulated_scalar(type) && !type->isEnumeralType()) {
      return field + "is a " + type_text(type) + ": " + kStructRule;
    } else if (bytes != 4 && bytes != 8) {
      return field + "is a " + type_text(type) + " (" + std::to_string(bytes) + " byte" + (bytes == 1 ? "" : "s") +
             "): " + kStructRule + "; make it an int" +
             (bytes == 1 ? std::string(", or keep pixels of bytes in CUDA's uchar4 or uchar3 (the same bytes), which are simulated")
                         : std::string());
    }
    const uint64_t offset = layout.getFieldOffset(f->getFieldIndex()) / 8;
    if (offset != end)
      return name + ", which has " + std::to_string(offset - end) + " bytes of padding before field '" + f->getNameAsString() +
             "': " + kStructRule + "; put the 8-byte fields first (or add a 4-byte field)";
    end = offset + bytes;
  }
  const uint64_t size = layout.getSize().getQuantity();
  if (end == 0) return name + ", a struct with no fields: " + kStructRule;
  if (end != size)
    return name + ", which has " + std::to_string(size - end) + " bytes of padding at its end: " + kStructRule +
           "; add a 4-byte field";
  if (size > 256) return name + ", a struct of " + std::to_string(size) + " bytes: syncscope lays out structs of up to 256 bytes";
  return "";
}

// "d_bins (BinStats, 8 cells each)": the picture's cells of an array are 32 bits; say how many an element
// of a struct the runtime is not told the fields of takes (a template's: README, "Bring your own
// CUDA"). Numbers and the structs it knows are shown field by field (sim/element_layout.h), so their
// array's name is the variable's.
std::string RewriteRules::cells_note(QualType element) const {
  element = element.getCanonicalType().getUnqualifiedType();
  if (element->isDependentType() || element->isIncompleteType()) return "";
  const int64_t bytes = context_.getTypeSizeInChars(element).getQuantity();
  if (!element->isRecordType() || described(element->getAsRecordDecl())) return "";
  return " (" + type_text(element) + ", " + std::to_string(bytes / 4) + " cells each)";
}

void RewriteRules::rewrite_pointer_declaration(DeclaratorDecl* d) {
  // A local array of pointers (`float *planes[2] = {a, b};`) holds the simulator's pointers too.
  const QualType type = pointer_array_element(d).isNull() ? d->getType() : pointer_array_element(d);
  if (!type->isPointerType() || type->getContainedAutoType() || !d->getTypeSourceInfo()) return;
  const QualType pointee = type->getPointeeType();
  if (pass_tile_itself(d, pointee)) return;
  if (pointee->isFunctionType()) {
    error(d->getLocation(), "'" + d->getNameAsString() + "' is a pointer to a function, which device code here cannot "
                            "call through: call the function by its name, or pass a functor (a struct with a __device__ "
                            "operator()) or make the function a template parameter");
    return;
  }
  if (const std::string why = element_refusal(pointee); !why.empty()) {
    error(d->getLocation(), "'" + d->getNameAsString() + "' points to " + why);
    return;
  }
  replace_declared_type(d, "::syncscope::cu::ptr<" + type_text(pointee) + ", ::syncscope::cu::same<SyncscopeCtx>> ",
                        "pointer");
}

void RewriteRules::replace_declared_type(DeclaratorDecl* d, const std::string& type, const char* kind) {
  // From the declaration's start: Clang's type locations leave out the pointee's `const`/`volatile`.
  const SourceRange range(d->getBeginLoc(), d->getTypeSourceInfo()->getTypeLoc().getEndLoc());
  const std::string made = (context_first_.count(d) ? "SyncscopeCtx& _c, " : "") + type;
  if (const auto split = split_declarators_.find(d); split != split_declarators_.end()) {
    // `, *b` -> `; cu::ptr<float> b` (split_declarators; refused there where the comma is not valid)
    if (split->second.comma.isValid())
      rewriter_.ReplaceText(CharSourceRange::getCharRange(split->second.comma, sm_.getExpansionLoc(d->getLocation())),
                          "; " + made);
    split_declarators_.erase(split);
    return;
  }
  const unsigned offset = sm_.getFileOffset(sm_.getExpansionLoc(range.getBegin()));
  if (!rewritten_types_.insert(offset).second) {
    error(d->getLocation(), std::string("declare one ") + kind + " per declaration ('" + d->getNameAsString() +
                                "' shares its type with the one before it)");
    return;
  }
  // Up to the name: qualifiers after the `*` (`__restrict__`, `const`) have no location of their own.
  const SourceLocation name = sm_.getExpansionLoc(d->getLocation());
  if (!d->getDeclName().isEmpty() && name.isValid() && in_main_file(name) &&
      sm_.isBeforeInTranslationUnit(sm_.getExpansionLoc(range.getBegin()), name)) {
    rewriter_.ReplaceText(CharSourceRange::getCharRange(sm_.getExpansionLoc(range.getBegin()), name), made);
    return;
  }
  replace(range, made);
}

bool RewriteRules::VisitParmVarDecl(ParmVarDecl* p) {
  const auto* f = dyn_cast_or_null<FunctionDecl>(p->getDeclContext());
  // A constructor keeps its raw pointers (the fields it sets hold addresses, cu::device_address):
  // its callers pass them so (VisitCXXConstructExpr).
  if (f && is_students(f) && is_device_only(f)) {
    if (!f->hasAttr<CUDAGlobalAttr>() && given_threads_own_memory(p)) replace_declared_type(p, "auto ", "pointer");
    else if (!isa<CXXConstructorDecl>(f)) rewrite_pointer_declaration(p);
    rewrite_reference_declaration(p);
  }
  return true;
}

bool RewriteRules::VisitVarDecl(VarDecl* v) {
  if (!in_main_file(v->getLocation()) || isa<ParmVarDecl>(v)) return true;
  if (!v->isLocalVarDecl()) {
    if (v->hasAttr<CUDASharedAttr>())
      rewrite_file_scope_shared(v);
    else if (const auto* note = v->getAttr<AnnotateAttr>(); note && note->getAnnotation() == "__managed__")
      error(v->getLocation(), "__managed__ '" + v->getNameAsString() +
                                  "' is not simulated: make it a __device__ variable, set and read on the host with "
                                  "cudaMemcpyToSymbol and cudaMemcpyFromSymbol (or cudaMallocManaged an array)");
    else if (v->hasAttr<CUDAConstantAttr>() && !simulated_constant(v->getType()))
      error(v->getLocation(), "__constant__ '" + v->getNameAsString() +
                                  "' must hold numbers or structs of plain data (and arrays of them): its type is not simulated");
    else if (v->hasAttr<CUDADeviceAttr>())
      declare_device_variable(v);
    return true;
  }
  if (in_device_code() && !v->hasAttr<CUDASharedAttr>()) {
    rewrite_auto_declaration(v);
    if (points_to_threads_own_memory(v)) replace_declared_type(v, "auto ", "pointer");
    else rewrite_pointer_declaration(v);
    rewrite_reference_declaration(v);
    split_unchanged_declarator(v);
  }
  return true;
}

bool RewriteRules::VisitDeclRefExpr(DeclRefExpr* e) {
  if (const auto* v = dyn_cast<VarDecl>(e->getDecl());
      !in_device_code() && v && v->hasAttr<CUDASharedAttr>() && !v->isLocalVarDecl() && in_main_file(e->getLocation()))
    error(e->getLocation(), "__shared__ '" + v->getNameAsString() +
                                "' is used in host code, where no block's shared memory is: use its size's constant instead");
  if (!in_device_code()) {
    kernel_as_value(e);
    return true;
  }
  if (const auto* v = dyn_cast<VarDecl>(e->getDecl())) {
    if (reference_places_.count(v)) {
      use_reference_here(e);
      return true;
    }
    if (v->hasAttr<CUDASharedAttr>() && !v->isLocalVarDecl()) use_file_scope_shared(v);
    if (shared_scalars_.count(v)) {
      insert_after_token(e->getEndLoc(), "[0]");
      return true;
    }
    if (v->hasAttr<CUDAConstantAttr>() && !v->isLocalVarDecl()) {
      // Read-only in device code, as on the GPU: said here for a plain write; cu::constant_memory
      // makes any other (through a pointer, say) a compile error at the student's line.
      if (written_to(e))
        error(e->getLocation(), "__constant__ '" + v->getNameAsString() +
                                    "' is read-only in device code: the host sets it with cudaMemcpyToSymbol");
      else if (insert_before(e->getBeginLoc(), "::syncscope::cu::constant_memory("))
        insert_after_token(e->getEndLoc(), ")");
      return true;
    }
    if (v->hasAttr<CUDADeviceAttr>() && !v->isLocalVarDecl() && !isa<ParmVarDecl>(v) && in_main_file(v->getLocation())) {
      // The variable's global memory in this run, found as the student's name is (same scope, same qualifier).
      const std::string qualifier = e->hasQualifier() ? text_of(e->getQualifierLoc().getSourceRange()) : "";
      replace(e->getSourceRange(),
              "::syncscope::cu::device_memory(_c, " + qualifier + "syncscope_device_" + v->getNameAsString() + ")");
      return true;
    }
    if (!in_main_file(v->getLocation())) {
      auto builtin = kBuiltinVariables.find(v->getName());
      if (builtin != kBuiltinVariables.end()) replace(e->getSourceRange(), std::string(builtin->second));
    }
  }
  return true;
}

bool RewriteRules::written_to(const Expr* e) {
  DynTypedNode node = DynTypedNode::create(*e);
  for (;;) {
    const auto parents = context_.getParents(node);
    if (parents.empty()) return false;
    const DynTypedNode& up = parents[0];
    const Expr* self = node.get<Expr>();
    if (const auto* cast = up.get<ImplicitCastExpr>()) {
      if (cast->getCastKind() == CK_LValueToRValue) return false;  // its value is read
    } else if (const auto* index = up.get<ArraySubscriptExpr>()) {
      if (index->getBase()->IgnoreParenImpCasts() != self->IgnoreParenImpCasts()) return false;  // it is the index
    } else if (const auto* op = up.get<BinaryOperator>()) {
      return op->isAssignmentOp() && op->getLHS()->IgnoreParenImpCasts() == self->IgnoreParenImpCasts();
    } else if (const auto* op = up.get<UnaryOperator>()) {
      return op->isIncrementDecrementOp();
    } else if (!up.get<ParenExpr>() && !up.get<MemberExpr>()) {
      return false;
    }
    node = up;
  }
}

bool RewriteRules::VisitUnaryOperator(UnaryOperator* e) {
  if (in_device_code() && e->getOpcode() == UO_AddrOf) rewrite_byte_address(e);
  if (!in_device_code() || e->getOpcode() != UO_Deref || !e->getSubExpr()->getType()->isPointerType()) return true;
  switch (editable(e->getOperatorLoc(), e->getSubExpr()->getEndLoc(), "deref")) {
    case Spelling::InFile: break;
    case Spelling::AlreadyEdited: return true;
    case Spelling::NotEditable:
      error(e->getOperatorLoc(), "a '*' written inside a macro's definition cannot be translated: write p[0] instead of *p");
      return true;
  }
  replace(SourceRange(e->getOperatorLoc()), "(");
  insert_after_token(e->getSubExpr()->getEndLoc(), ")[0]");
  return true;
}

bool RewriteRules::VisitCStyleCastExpr(CStyleCastExpr* e) {
  if (in_device_code() && in_main_file(e->getBeginLoc()))
    rewrite_pointer_cast(e, SourceRange(e->getLParenLoc(), e->getRParenLoc()), e->getLParenLoc().isMacroID(), true);
  return true;
}

// `const_cast<T *>(p)` and `reinterpret_cast<T *>(p)` alike (static_cast keeps its own rules).
bool RewriteRules::rewrite_named_pointer_cast(const CXXNamedCastExpr* e) {
  if (in_device_code() && in_main_file(e->getBeginLoc()))
    rewrite_pointer_cast(e, SourceRange(e->getOperatorLoc(), e->getAngleBrackets().getEnd()), e->getOperatorLoc().isMacroID(),
                         false);
  return true;
}
bool RewriteRules::VisitCXXConstCastExpr(CXXConstCastExpr* e) { return rewrite_named_pointer_cast(e); }
bool RewriteRules::VisitCXXReinterpretCastExpr(CXXReinterpretCastExpr* e) { return rewrite_named_pointer_cast(e); }

bool RewriteRules::names_shared_array(const Expr* e) const {
  e = e->IgnoreParenImpCasts();
  if (const auto* d = dyn_cast<DeclRefExpr>(e)) {
    const auto* v = dyn_cast<VarDecl>(d->getDecl());
    return v && v->hasAttr<CUDASharedAttr>();
  }
  if (const auto* s = dyn_cast<ArraySubscriptExpr>(e)) return names_shared_array(s->getBase());
  return false;
}

// `g[i].field`, `g->field`, `s[t].field` of a struct in device memory: `(g[i] ->* &S::field)`, the
// field's element (core/cuda_in/cu_device.h's record_ref); a local struct's fields stay as written.
bool RewriteRules::VisitMemberExpr(MemberExpr* e) {
  if (!in_device_code() || !in_main_file(e->getBeginLoc())) return true;
  if (!in_device_memory(e->getBase(), e->isArrow())) {
    rewrite_pointer_field(e);
    return true;
  }
  const auto* field = dyn_cast<FieldDecl>(e->getMemberDecl());
  if (!field) {
    error(e->getMemberLoc(), "'" + e->getMemberDecl()->getNameAsString() +
                                 "' of a struct in device memory: copy the element to a local variable first (S s = p[i];)");
    return true;
  }
  switch (editable(e->getBase()->getBeginLoc(), e->getMemberLoc(), "field")) {
    case Spelling::InFile: break;
    case Spelling::AlreadyEdited: return true;
    case Spelling::NotEditable:
      error(e->getMemberLoc(), "a field access written inside a macro's definition cannot be translated: write it out");
      return true;
  }
  const std::string record = type_text(context_.getRecordType(field->getParent()));
  insert_opening(e->getBase()->getBeginLoc(), "(");
  replace(SourceRange(e->getOperatorLoc(), e->getMemberLoc()),
          std::string(e->isArrow() ? "[0]" : "") + " ->* &" + record + "::" + field->getNameAsString() + ")");
  return true;
}

// A struct the kernel holds by value (a parameter, a local) with a pointer field, as the CUDA
// Programming Guide's `Matrix { int width, height; float* elements; }`: the field keeps a device
// address, which every read turns into the simulator's pointer (cu::device_pointer) and every
// assignment takes back from one (cu::device_address).
void RewriteRules::rewrite_pointer_field(MemberExpr* e) {
  const auto* field = dyn_cast<FieldDecl>(e->getMemberDecl());
  const QualType type = e->getType().getCanonicalType();
  // `m.elements` of a struct held by value, or `mutex` (this->mutex) in one of its __device__ methods.
  const bool own_field = e->isArrow() && isa<CXXThisExpr>(e->getBase()->IgnoreParenImpCasts());
  if (!field || !type->isPointerType() || (e->isArrow() && !own_field) || !element_refusal(type->getPointeeType()).empty())
    return;
  if (e->getBeginLoc().isMacroID() || e->getEndLoc().isMacroID()) {
    error(e->getMemberLoc(), "a pointer field used inside a macro cannot be translated: write it out");
    return;
  }
  const std::string shown = text_of(e->getSourceRange());
  const auto parents = context_.getParents(*e);
  const auto* assignment = parents.empty() ? nullptr : parents[0].get<BinaryOperator>();
  if (assignment && assignment->getLHS()->IgnoreParens() == e) {
    if (assignment->getOpcode() != BO_Assign) {
      error(e->getMemberLoc(), "'" + shown + "' is moved by " + assignment->getOpcodeStr().str() +
                                   " in device code: assign it a pointer (" + shown + " = " + shown + " + k) instead");
      return;
    }
    if (insert_before(assignment->getRHS()->getBeginLoc(), "::syncscope::cu::device_address("))
      insert_after_token(assignment->getRHS()->getEndLoc(), ")");
    return;
  }
  if (written_to(e)) {
    error(e->getMemberLoc(), "'" + shown + "' is moved in device code: assign it a pointer (" + shown + " = " + shown + " + 1) instead");
    return;
  }
  // Inside what wraps the whole use, which was visited first (`c ? read(device_pointer(_c, p)[i]) : 0`).
  if (insert_opening(e->getBeginLoc(), "::syncscope::cu::device_pointer(_c, ")) insert_after_token(e->getEndLoc(), ")");
}

bool RewriteRules::VisitCXXNewExpr(CXXNewExpr* e) {
  if (in_device_code()) error(e->getBeginLoc(), "'new' in device code is not simulated: use a __shared__ or cudaMalloc'ed array");
  return true;
}

}  // namespace syncscope::translate
