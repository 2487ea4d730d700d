// The declarations of device memory a kernel file names: `__shared__` arrays inside kernels and
// `__device__` variables at file scope, and the student's structs' fields, which the runtime is told
// (translate/rewrite_rules.h); and the device code of methods it leaves as written.
#include <clang/AST/Attr.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/Lex/Lexer.h>

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "translate/rewrite_rules.h"

using namespace clang;

namespace syncscope::translate {

bool RewriteRules::VisitDeclStmt(DeclStmt* s) {
  if (!in_device_code()) return true;
  split_declarators(s);
  const VarDecl* previous = nullptr;
  for (Decl* d : s->decls()) {
    auto* v = dyn_cast<VarDecl>(d);
    if (!v || !v->hasAttr<CUDASharedAttr>()) continue;
    if (previous) {
      // `__shared__ int a[32], b[32];`: a declaration each, on the same line (`, b[32]` -> `; auto b = ...`).
      const SourceLocation comma = comma_after(previous);
      if (comma.isInvalid() || v->getLocation().isMacroID()) {
        error(v->getLocation(), "cannot find the ',' before __shared__ '" + v->getNameAsString() + "': declare it on its own");
        previous = v;
        continue;
      }
      replace(SourceRange(comma), ";");
      rewrite_shared_declaration(v, v->getLocation());
      previous = v;
      continue;
    }
    SourceLocation begin = declaration_start(v);
    const SourceLocation statement = sm_.getExpansionLoc(s->getBeginLoc());
    if (sm_.isBeforeInTranslationUnit(statement, begin)) begin = statement;
    rewrite_shared_declaration(v, begin);
    previous = v;
  }
  return true;
}

// `float *a = x, *b = y;` or `float *p = s, v = 0;`: a pointer's or reference's declared type is
// rewritten (cu::ptr), and the declarators after it would share the rewritten text. So each declarator
// after the first becomes a declaration of its own on the same line (`, *b` -> `; float *b`), its type
// rewritten as if it stood alone (replace_declared_type) or its specifiers repeated
// (split_unchanged_declarator).
void RewriteRules::split_declarators(DeclStmt* s) {
  std::vector<VarDecl*> vars;
  for (Decl* d : s->decls()) {
    auto* v = dyn_cast<VarDecl>(d);
    if (!v || v->hasAttr<CUDASharedAttr>()) return;  // a struct defined here; __shared__ arrays are split apart
    vars.push_back(v);
  }
  if (vars.size() < 2 || std::none_of(vars.begin(), vars.end(), [&](const VarDecl* v) { return will_be_rewritten(v); }))
    return;
  const VarDecl* rewritten = *std::find_if(vars.begin(), vars.end(), [&](const VarDecl* v) { return will_be_rewritten(v); });
  const VarDecl* other = rewritten == vars[0] ? vars[1] : vars[0];
  // One message for the statement: its declarators are left as they are (an invalid comma).
  const auto refuse = [&](const std::string& why) {
    error(rewritten->getLocation(), "declare '" + rewritten->getNameAsString() + "' in a declaration of its own, not with '" +
                                        other->getNameAsString() + "': syncscope rewrites its type, and " + why);
    for (size_t k = 1; k < vars.size(); ++k) split_declarators_[vars[k]] = SplitDeclarator{};
  };
  for (const DynTypedNode& parent : context_.getParents(*s)) {
    if (const auto* loop = parent.get<ForStmt>(); loop && loop->getInit() == s)
      return refuse("a for loop's start cannot be split apart (declare it before the loop)");
    // A branch's or loop's only statement (in a lambda or a macro, nothing braces it): split, the
    // second declaration would run whatever the condition.
    if (!parent.get<CompoundStmt>()) return refuse("here the declaration is a branch's or loop's only statement");
  }
  // The specifiers end where the first declarator's `*`, `&` and `[N]` begin: its innermost type's end.
  const TypeLoc whole = vars[0]->getTypeSourceInfo() ? vars[0]->getTypeSourceInfo()->getTypeLoc() : TypeLoc();
  TypeLoc specified = whole;
  while (!specified.isNull() && !specified.getNextTypeLoc().isNull()) specified = specified.getNextTypeLoc();
  // `FPTR a = x, b = y;` with `#define FPTR float *`: the `*` is the macro's, which the others share.
  if (!whole.isNull() && whole != specified && whole.getEndLoc().isMacroID())
    return refuse("its pointer's '*' is written in a macro");
  const LangOptions& lang = context_.getLangOpts();
  const SourceLocation begin = sm_.getExpansionLoc(s->getBeginLoc());
  const SourceLocation specifiers_end =
      specified.isNull() ? SourceLocation()
                         : Lexer::getLocForEndOfToken(sm_.getExpansionLoc(specified.getEndLoc()), 0, sm_, lang);
  if (!in_main_file(begin) || specifiers_end.isInvalid() || !sm_.isBeforeInTranslationUnit(begin, specifiers_end))
    return refuse("the declaration's type cannot be read where it is written");
  const std::string specifiers =
      Lexer::getSourceText(CharSourceRange::getCharRange(begin, specifiers_end), sm_, lang).str();
  std::vector<SourceLocation> commas;
  for (size_t k = 1; k < vars.size(); ++k) {
    commas.push_back(comma_after(vars[k - 1]));
    if (commas.back().isInvalid() || vars[k]->getLocation().isMacroID())
      return refuse("the ',' before '" + vars[k]->getNameAsString() + "' is not where it is written");
  }
  for (size_t k = 1; k < vars.size(); ++k) split_declarators_[vars[k]] = SplitDeclarator{commas[k - 1], specifiers};
}

// The ',' after a declarator, where the file has it (after a macro that ends its initializer too);
// invalid when it is not there.
SourceLocation RewriteRules::comma_after(const VarDecl* declarator) const {
  const SourceLocation end = sm_.getExpansionRange(declarator->getEndLoc()).getEnd();
  const auto comma = Lexer::findNextToken(end, sm_, context_.getLangOpts());
  if (!comma || !comma->is(tok::comma) || comma->getLocation().isMacroID()) return SourceLocation();
  return comma->getLocation();
}

void RewriteRules::split_unchanged_declarator(const VarDecl* v) {
  const auto split = split_declarators_.find(v);
  if (split == split_declarators_.end()) return;
  if (split->second.comma.isValid()) replace(SourceRange(split->second.comma), "; " + split->second.specifiers);
  split_declarators_.erase(split);
}

// `float tile[][33]` or `float (*tile)[33]`: a helper handed a 2D __shared__ tile takes the tile itself
// (C++20's `auto&&`), whose rows and cells it reads and writes as the kernel does. A kernel's rows of
// global memory are refused with what to write instead.
bool RewriteRules::pass_tile_itself(DeclaratorDecl* d, QualType pointee) {
  const auto* rows = context_.getAsConstantArrayType(pointee);
  const auto* p = dyn_cast<ParmVarDecl>(d);
  if (!rows || !p || !element_refusal(rows->getElementType()).empty()) return false;
  const std::string name = d->getNameAsString();
  if (const auto* f = dyn_cast_or_null<FunctionDecl>(p->getDeclContext()); f && f->hasAttr<CUDAGlobalAttr>()) {
    error(d->getLocation(), "a kernel's parameter '" + name + "' points to rows of " + type_text(pointee) +
                                ": take a " + type_text(rows->getElementType()) + " * and index it [r * " +
                                std::to_string(rows->getSize().getZExtValue()) + " + c]");
    return true;
  }
  replace(SourceRange(d->getBeginLoc(), d->getTypeSourceInfo()->getTypeLoc().getEndLoc()),
          (context_first_.count(d) ? "SyncscopeCtx& _c, auto&& " : "auto&& ") + name);
  return true;
}

// `__device__ T name = init;` stays as the student wrote it (in host memory: its declared value) with,
// after its `;` on the same line, the global memory it stands for: cu::device_variable (cu_host.h).
void RewriteRules::declare_device_variable(VarDecl* v) {
  const std::string name = v->getNameAsString();
  if (v->hasExternalStorage() || (!v->getType()->isConstantArrayType() && v->getType()->isArrayType())) {
    error(v->getLocation(), "__device__ '" + name + "' is declared without its size or its definition: define it in this file");
    return;
  }
  QualType element = v->getType();
  int rank = 0;
  while (const auto* array = dyn_cast<ConstantArrayType>(element.getCanonicalType().getTypePtr())) {
    element = array->getElementType();
    ++rank;
  }
  if (rank > 2) {
    error(v->getLocation(), "__device__ '" + name + "' has " + std::to_string(rank) +
                                " dimensions: numbers and 1D and 2D arrays of them are simulated");
    return;
  }
  if (const std::string why = element_refusal(element); !why.empty()) {
    error(v->getLocation(), "__device__ '" + name + "' holds " + why);
    return;
  }
  // The `;` that ends the declaration (past `, other = 2` when it declares several).
  auto next = Lexer::findNextToken(written(SourceRange(v->getEndLoc(), v->getEndLoc())).getEnd(), sm_,
                                                   context_.getLangOpts());
  int depth = 0;
  while (next && !next->is(tok::eof) && !(depth == 0 && next->is(tok::semi))) {
    if (next->isOneOf(tok::l_paren, tok::l_brace, tok::l_square)) ++depth;
    if (next->isOneOf(tok::r_paren, tok::r_brace, tok::r_square)) --depth;
    next = Lexer::findNextToken(next->getLocation(), sm_, context_.getLangOpts());
  }
  std::string memory = " static ::syncscope::cu::device_variable<decltype(";
  memory += name;
  memory += ")> syncscope_device_";
  memory += name;
  memory += "(";
  memory += name;
  memory += ", \"";
  memory += escaped_caption(name + cells_note(element));
  memory += "\");";
  if (!next || !next->is(tok::semi) || !insert_after_token(next->getLocation(), memory))
    error(v->getLocation(), "cannot find the ';' that ends __device__ '" + name + "': declare it on its own line");
}

bool RewriteRules::described(const RecordDecl* r) const {
  if (!r || !r->getIdentifier() || r->isUnion() || !r->getDeclContext()->isTranslationUnit()) return false;
  if (!in_main_file(r->getLocation())) {  // the shim's: CUDA's vector types (core/cuda_in/vector_types.h)
    static const std::set<std::string> vectors = {"int2",   "int3",    "int4",    "uint2",     "uint4",     "float2",
                                                  "float3", "float4",  "double2", "longlong2", "ulonglong2"};
    return vectors.count(r->getNameAsString()) > 0 || cuda_byte_vector(r);
  }
  // Not a template's (its name needs arguments), nor one a macro writes (the layout goes after its `;`).
  const auto* c = dyn_cast<CXXRecordDecl>(r);
  return c && !c->isDependentType() && !c->getTemplateInstantiationPattern() && !isa<ClassTemplateSpecializationDecl>(c) &&
         !r->getBeginLoc().isMacroID() && !r->getEndLoc().isMacroID() && struct_refusal(r).empty();
}

void RewriteRules::layout_fields(const RecordDecl* r, const std::string& prefix, std::string& out) const {
  for (const FieldDecl* f : r->getDefinition()->fields()) {
    const QualType type = f->getType().getCanonicalType();
    const std::string name = prefix + f->getNameAsString();
    if (const RecordDecl* inner = type->getAsRecordDecl()) {  // an anonymous member's fields are the struct's own
      layout_fields(inner, f->getName().empty() ? prefix : name + ".", out);
      continue;
    }
    const bool wide = context_.getTypeSizeInChars(type).getQuantity() == 8;
    const char kind = type->isRealFloatingType() ? (wide ? 'd' : 'f')
                      : wide                      ? (type->isSignedIntegerOrEnumerationType() ? 'l' : 'q')
                      : type->isUnsignedIntegerOrEnumerationType() ? 'u'
                                                      : 'i';
    if (!out.empty() && out.back() != ';') out += ',';
    out += name + ":" + kind;
  }
}

bool RewriteRules::VisitCXXRecordDecl(CXXRecordDecl* r) {
  if (!in_main_file(r->getLocation()) || !r->isThisDeclarationADefinition() || r->isUnion() || r->isDependentType() ||
      !r->getDeclContext()->isTranslationUnit() || r->getIdentifier() == nullptr || r->field_empty() || !described(r))
    return true;
  bool floats = true;  // a struct of floats only: its cells are floats to the simulator too
  for (const FieldDecl* f : r->fields()) {
    const auto* b = f->getType().getCanonicalType()->getAs<BuiltinType>();
    floats &= b && b->getKind() == BuiltinType::Float;
  }
  // Its fields, for the reports and the picture: `bins[2].sum = 1.5` (sim/element_layout.h).
  const std::string type = r->getQualifiedNameAsString();
  std::string layout = type + ";";
  layout_fields(r, "", layout);
  std::string after = " namespace syncscope::cu { template <> inline constexpr const char* cells_layout_v<::" + type + "> = \"" +
                      layout + "\";";
  if (floats) after += " template <> inline constexpr DType cells_dtype_v<::" + type + "> = DType::Float32;";
  after += " }";
  // After the `;` that ends the definition (past `} a, b;`), on its line.
  auto next = Lexer::findNextToken(written(SourceRange(r->getEndLoc(), r->getEndLoc())).getEnd(), sm_, context_.getLangOpts());
  while (next && !next->is(tok::eof) && !next->is(tok::semi))
    next = Lexer::findNextToken(next->getLocation(), sm_, context_.getLangOpts());
  if (next && next->is(tok::semi)) insert_after_token(next->getLocation(), after);
  return true;
}

// An array of bytes its function casts to a pointer to wider elements (`reinterpret_cast<T *>(smem)`,
// `(float *)smem`): raw storage, not bytes the kernel reads one at a time.
bool RewriteRules::cast_to_wider(const VarDecl* v) const {
  const QualType element = context_.getBaseElementType(v->getType());
  if (element->isDependentType() || context_.getTypeSizeInChars(element).getQuantity() != 1) return false;
  // An `extern` one belongs to the translation unit: its function is where it is written.
  const auto* f = dyn_cast_or_null<FunctionDecl>(v->getLexicalDeclContext());
  std::function<bool(const Stmt*)> casts = [&](const Stmt* s) {
    if (!s) return false;
    if (const auto* cast = dyn_cast<ExplicitCastExpr>(s); cast && cast->getType()->isPointerType()) {
      const QualType to = cast->getType()->getPointeeType();
      const auto* named = dyn_cast<DeclRefExpr>(cast->getSubExprAsWritten()->IgnoreParenImpCasts());
      if (named && named->getDecl() == v && (to->isDependentType() || context_.getTypeSizeInChars(to).getQuantity() > 1))
        return true;
    }
    for (const Stmt* child : s->children())
      if (casts(child)) return true;
    return false;
  };
  if (f) return casts(f->getBody());
  // One at file scope: any function of the file may cast it.
  for (const Decl* d : context_.getTranslationUnitDecl()->decls())
    if (const FunctionDecl* g = d->getAsFunction(); g && g->hasBody() && casts(g->getBody())) return true;
  return false;
}

void RewriteRules::rewrite_shared_declaration(VarDecl* v, SourceLocation begin) {
  const std::string name = v->getNameAsString();
  TypeLoc loc = v->getTypeSourceInfo()->getTypeLoc();
  std::vector<std::string> extents;
  bool unsized = false;
  while (auto array = loc.getAs<ArrayTypeLoc>()) {
    if (array.getSizeExpr()) extents.push_back("(" + text_of(array.getSizeExpr()->getSourceRange()) + ")");
    else unsized = true;
    loc = array.getElementLoc();
  }
  const QualType element = loc.getType();
  if (const std::string why = element_refusal(element); !why.empty()) {
    error(v->getLocation(), "__shared__ '" + name + "' holds " + why);
    return;
  }
  // ptxas's limit on a kernel's static shared memory: the launch's <<<..., bytes>>> sizes only extern ones.
  constexpr int64_t kStaticSharedLimit = 48 * 1024;
  if (const QualType whole = v->getType(); whole->isConstantSizeType() && !whole->isDependentType())
    if (const int64_t bytes = context_.getTypeSizeInChars(whole).getQuantity(); bytes > kStaticSharedLimit) {
      error(v->getLocation(), "__shared__ '" + name + "' takes " + std::to_string(bytes) + " bytes, over the " +
                                  std::to_string(kStaticSharedLimit) + " a kernel may declare statically (nvcc refuses it): "
                                  "make it extern __shared__, give its bytes as <<<grid, block, bytes>>> and allow them "
                                  "with cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes)");
      return;
    }
  const std::string shown = escaped_caption(name + cells_note(element));
  const std::string type = type_text(element.getUnqualifiedType());
  std::string made;
  if (unsized && extents.empty())
    made = std::string("::syncscope::cu::") + (cast_to_wider(v) ? "extern_shared_bytes<" : "extern_shared<") + type +
           ", SyncscopeCtx>(_c, \"" + shown + "\")";
  else if (unsized)
    made = "";
  else if (extents.empty())
    made = "::syncscope::cu::shared_array<" + type + ", 1, SyncscopeCtx>(_c, \"" + shown + "\")";
  else if (extents.size() == 1)
    made = "::syncscope::cu::shared_array<" + type + ", " + extents[0] + ", SyncscopeCtx>(_c, \"" + shown + "\")";
  else if (extents.size() == 2)
    made = "::syncscope::cu::shared_array2d<" + type + ", " + extents[0] + ", " + extents[1] + ", SyncscopeCtx>(_c, \"" +
           shown + "\")";
  else if (extents.size() == 3)
    made = "::syncscope::cu::shared_array3d<" + type + ", " + extents[0] + ", " + extents[1] + ", " + extents[2] +
           ", SyncscopeCtx>(_c, \"" + shown + "\")";
  if (made.empty()) {
    error(v->getLocation(), "__shared__ '" + name + "': only 1D, 2D and 3D shared arrays (and extern T name[]) are simulated");
    return;
  }
  if (extents.empty() && !unsized) shared_scalars_.insert(v);
  if (v->isLocalVarDecl())
    replace(SourceRange(begin, v->getEndLoc()), "auto " + name + " = " + made);
  else
    replace(SourceRange(begin, v->getEndLoc()),
            "template <class SyncscopeCtx> auto syncscope_shared_" + name + "(SyncscopeCtx& _c) { return " + made + "; }");
}

void RewriteRules::rewrite_file_scope_shared(VarDecl* v) {
  const std::string name = v->getNameAsString();
  if (!isa<TranslationUnitDecl>(v->getDeclContext()->getRedeclContext())) {
    error(v->getLocation(), "__shared__ '" + name + "' inside a namespace or a class cannot be translated: declare it at "
                            "file scope outside it, or inside the kernel");
    return;
  }
  const SourceLocation begin = declaration_start(v);
  // A second declaration of one (`extern __shared__ float dyn[];` again): the first made its function.
  if (v->getPreviousDecl()) {
    std::string blank = text_of(SourceRange(begin, v->getEndLoc()));
    for (char& c : blank)
      if (c != '\n') c = ' ';
    replace(SourceRange(begin, v->getEndLoc()), blank);
    return;
  }
  const auto next = Lexer::findNextToken(written(SourceRange(v->getEndLoc(), v->getEndLoc())).getEnd(), sm_, context_.getLangOpts());
  if (!file_shared_starts_.insert(sm_.getFileOffset(begin)).second || (next && next->is(tok::comma))) {
    error(v->getLocation(), "__shared__ '" + name + "' shares its declaration at file scope with another: declare each on "
                            "its own (__shared__ float a[64]; __shared__ float b[64];)");
    return;
  }
  rewrite_shared_declaration(v, begin);
}

void RewriteRules::use_file_scope_shared(const VarDecl* v) {
  if (!device_function_ || !file_shared_declared_.emplace(device_function_, v).second) return;
  const auto* body = dyn_cast_or_null<CompoundStmt>(device_function_->getBody());
  if (!body || !insert_after_token(body->getLBracLoc(), " auto " + v->getNameAsString() + " = syncscope_shared_" +
                                                            v->getNameAsString() + "(_c);"))
    error(v->getLocation(), "__shared__ '" + v->getNameAsString() + "' at file scope: cannot find the body of '" +
                                (device_function_ ? device_function_->getNameAsString() : std::string("?")) +
                                "', which uses it: declare it inside the kernel");
}

bool RewriteRules::VisitLinkageSpecDecl(LinkageSpecDecl* d) {
  if (d->getLanguage() != LinkageSpecDecl::lang_c || !in_main_file(d->getExternLoc()) || d->getExternLoc().isMacroID()) return true;
  bool device = false;
  for (const Decl* inner : d->decls()) {
    const FunctionDecl* f = inner->getAsFunction();
    if (f && is_device_only(f)) device = true;
  }
  if (!device) return true;
  auto language = Lexer::findNextToken(d->getExternLoc(), sm_, context_.getLangOpts());  // the "C"
  if (!language || !language->is(tok::string_literal)) return true;
  SourceLocation last = language->getLocation();
  if (d->hasBraces()) {
    auto open = Lexer::findNextToken(last, sm_, context_.getLangOpts());
    if (!open || !open->is(tok::l_brace) || d->getRBraceLoc().isMacroID()) return true;
    last = open->getLocation();
    replace(SourceRange(d->getRBraceLoc()), " ");
  }
  replace(SourceRange(d->getExternLoc(), last), " ");
  return true;
}

// A __device__ method left as written (an operator, a conversion, a class template's method) runs as
// host code: a pointer field it reads holds a device address, which it would dereference as a host
// pointer (a crash at its line), and a __shared__ array there is not one of the block's. Refused at
// the first such use, with what to write instead.
void RewriteRules::refuse_untranslated_device_code(const CXXMethodDecl* m) {
  if (!m->doesThisDeclarationHaveABody() || !is_device_only(m) || isa<CXXConstructorDecl>(m) || isa<CXXDestructorDecl>(m) ||
      !in_main_file(m->getLocation()))
    return;
  if (const auto* conversion = dyn_cast<CXXConversionDecl>(m)) {
    if (const VarDecl* v = dynamic_shared_of(conversion)) {
      // Its uses become the launch's dynamic shared memory (use_dynamic_shared); left as host code,
      // never called, it needs only to compile: `extern int __smem[];`.
      for (const Attr* a : v->attrs())
        if (isa<CUDASharedAttr>(a) && !a->isImplicit()) replace(SourceRange(a->getLocation()), " ");
      return;
    }
  }
  const bool templated = m->getParent()->isDependentContext() || isa<ClassTemplateSpecializationDecl>(m->getParent());
  const std::string what = (isa<CXXConversionDecl>(m)    ? std::string("the conversion operator")
                            : m->isOverloadedOperator() ? m->getNameAsString()
                                                        : "'" + m->getNameAsString() + "'") +
                           " of " + (templated ? "the class template " : "") + m->getParent()->getNameAsString();
  const std::string instead =
      templated ? "syncscope translates the __device__ methods of structs that are not templates (not yet a class template's); "
                  "write a __device__ function template that takes the struct (template <class T> __device__ T load(Vec<T> v, int i))"
                : "syncscope translates a struct's __device__ methods with names (not yet its operators or conversions); write a "
                  "named method (__device__ float get(int i) const)";
  std::function<bool(const Stmt*)> refuse = [&](const Stmt* s) {
    if (!s) return false;
    if (const auto* member = dyn_cast<MemberExpr>(s);
        member && member->getType()->isPointerType() && isa<CXXThisExpr>(member->getBase()->IgnoreParenImpCasts())) {
      error(member->getMemberLoc(), "pointer field '" + member->getMemberDecl()->getNameAsString() + "' in " + what +
                                        ": its device memory would be read as host memory; " + instead);
      return true;
    }
    if (const auto* declaration = dyn_cast<DeclStmt>(s))
      for (const Decl* d : declaration->decls())
        if (const auto* v = dyn_cast<VarDecl>(d); v && v->hasAttr<CUDASharedAttr>()) {
          error(v->getLocation(), "__shared__ '" + v->getNameAsString() + "' in " + what +
                                      " is not translated yet; declare it in the kernel (for dynamic shared memory of a "
                                      "template's T, as nvcc takes it too: extern __shared__ unsigned char smem[]; "
                                      "T *sdata = reinterpret_cast<T *>(smem);)");
          return true;
        }
    for (const Stmt* child : s->children())
      if (refuse(child)) return true;
    return false;
  };
  refuse(m->getBody());
}

// `float& a` in device code (a parameter or a local, not const): an element of device memory binds
// to it as the simulator's reference to that element, a thread's own variable as itself
// (cu::place_of), so that `swap(s[i], s[j])` reads and writes the shared cells, as on a GPU.
void RewriteRules::rewrite_reference_declaration(DeclaratorDecl* d) {
  const auto* local = dyn_cast<VarDecl>(d);
  const QualType referee = d->getType().getNonReferenceType();
  if (local && !isa<ParmVarDecl>(local) && d->getType()->isLValueReferenceType() && referee->isRecordType() &&
      !referee.isConstQualified() && local->getInit() && in_device_memory(local->getInit(), false)) {
    error(d->getLocation(), "a reference to a struct in device memory ('" + type_text(referee) + "& " +
                                d->getNameAsString() + "') is not translated yet: use a pointer (" + type_text(referee) +
                                " *" + d->getNameAsString() + " = &...; then " + d->getNameAsString() + "->field)");
    return;
  }
  const std::string type = reference_type(d);
  if (type.empty()) return;
  replace_declared_type(d, type, "reference");
  if (const auto* v = dyn_cast<VarDecl>(d)) reference_places_.insert(v);
}

// `auto *p = s;` and `const auto *row = tile;`: device pointers are the simulator's pointers, which
// `auto *` cannot be deduced from, so the declaration says `auto` (a copy of the pointer, as `auto *`
// is; the pointee's `const` is nvcc's to check). `auto &x = s[i];`: an element of device memory is
// the simulator's reference to it, a value, so it binds as `auto&&` (a thread's own variable binds
// as with `auto &`) and is a reference place like `float &x` (its accesses at the lines that use it).
void RewriteRules::rewrite_auto_declaration(VarDecl* v) {
  if (isa<DecompositionDecl>(v) || !v->getTypeSourceInfo() || !v->getType()->getContainedAutoType()) return;
  const TypeLoc written = v->getTypeSourceInfo()->getTypeLoc().getUnqualifiedLoc();
  if (const auto pointer = written.getAs<PointerTypeLoc>()) {
    if (!pointer.getPointeeLoc().getUnqualifiedLoc().getAs<AutoTypeLoc>()) return;  // `auto **`, `auto (*)[4]`
    replace_declared_type(v, "auto ", "pointer");
    return;
  }
  const auto reference = written.getAs<LValueReferenceTypeLoc>();
  if (!reference || v->getType().getNonReferenceType().isConstQualified() ||
      !reference.getPointeeLoc().getUnqualifiedLoc().getAs<AutoTypeLoc>())
    return;
  replace_declared_type(v, "auto&& ", "reference");
  reference_places_.insert(v);
}

// What a helper's pointer parameter given such an argument points to is the thread's, not a cell.
bool threads_own_memory(const Expr* argument) {
  const Expr* e = argument->IgnoreParenCasts();  // `(const float *)&x` too
  bool address = false;
  if (const auto* op = dyn_cast<UnaryOperator>(e); op && op->getOpcode() == UO_AddrOf) {
    e = op->getSubExpr()->IgnoreParenImpCasts();
    while (const auto* element = dyn_cast<ArraySubscriptExpr>(e)) e = element->getBase()->IgnoreParenImpCasts();
    address = true;
  }
  const auto* named = dyn_cast<DeclRefExpr>(e);
  const auto* v = named ? dyn_cast<VarDecl>(named->getDecl()) : nullptr;
  if (!v || !v->isLocalVarDecl() || v->hasAttr<CUDASharedAttr>() || v->getType()->isPointerType()) return false;
  return address || v->getType()->isConstantArrayType();
}

namespace {

struct OwnMemoryCalls : RecursiveASTVisitor<OwnMemoryCalls> {
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool VisitCallExpr(CallExpr* call) {
    const FunctionDecl* callee = call->getDirectCallee();
    if (!callee || callee->hasAttr<CUDAGlobalAttr>()) return true;
    if (const FunctionDecl* pattern = callee->getTemplateInstantiationPattern()) callee = pattern;
    for (unsigned k = 0; k < call->getNumArgs() && k < callee->getNumParams(); ++k)
      if (callee->getParamDecl(k)->getType()->isPointerType() && threads_own_memory(call->getArg(k)))
        found.insert({callee->getCanonicalDecl(), k});
    return true;
  }
  std::set<std::pair<const FunctionDecl*, unsigned>> found;
};

}  // namespace

// The parameter is written `auto`: a call with the thread's own memory passes its address (a raw
// pointer, whose accesses are the thread's own, as a GPU's registers and local memory are: never a
// race), a call with device memory the simulator's pointer, as before.
bool RewriteRules::given_threads_own_memory(const ParmVarDecl* p) {
  if (!own_memory_parameters_) {
    OwnMemoryCalls calls;
    calls.TraverseDecl(context_.getTranslationUnitDecl());
    own_memory_parameters_ = std::move(calls.found);
  }
  const auto* f = dyn_cast_or_null<FunctionDecl>(p->getDeclContext());
  return f && p->getType()->isPointerType() &&
         own_memory_parameters_->count({f->getCanonicalDecl(), p->getFunctionScopeIndex()}) > 0;
}

bool RewriteRules::points_to_threads_own_memory(const VarDecl* v) const {
  return v->getType()->isPointerType() && !v->getType()->getContainedAutoType() && v->getInit() &&
         v->getInitStyle() == VarDecl::CInit && threads_own_memory(v->getInit());
}

void RewriteRules::use_reference_here(const DeclRefExpr* e) {
  if (editable(e->getBeginLoc(), e->getEndLoc(), "reference") != Spelling::InFile) return;
  if (insert_opening(e->getBeginLoc(), "::syncscope::cu::here(")) insert_after_token(e->getEndLoc(), ")");
}

std::string RewriteRules::reference_type(const DeclaratorDecl* d) const {
  const QualType type = d->getType();
  if (!type->isLValueReferenceType() || type->getContainedAutoType() || !d->getTypeSourceInfo()) return "";
  const QualType referee = type.getNonReferenceType();
  if (referee.isConstQualified()) return "";
  if (const auto* p = dyn_cast<ParmVarDecl>(d); p && deduced_references_.count(p)) return deduced_references_.at(p) + "&& ";
  if (referee->isDependentType() || !simulated_scalar(referee.getCanonicalType().getUnqualifiedType())) return "";
  return "::syncscope::cu::place_of<" + type_text(referee) + "> auto&& ";
}

// `template <typename T> __device__ void swap(T& a, T& b)`: T cannot be deduced from an element of
// device memory (the simulator's reference to it), so each such parameter gets a type of its own,
// first in the template's list, and T, where no argument names it, is the element's type
// (cu::value_of_t): `template <class SyncscopeRef0, class SyncscopeRef1, typename T =
// value_of_t<SyncscopeRef0>> void swap(SyncscopeRef0&& a, SyncscopeRef1&& b)`.
void RewriteRules::deduce_through_references(const FunctionDecl* f, FunctionTemplateDecl* t) {
  TemplateParameterList* list = t->getTemplateParameters();
  std::string added;
  std::map<const TemplateTypeParmDecl*, bool> defaulted;  // whether its default could be written
  for (unsigned k = 0; k < f->getNumParams(); ++k) {
    const ParmVarDecl* p = f->getParamDecl(k);
    const QualType type = p->getType();
    if (!type->isLValueReferenceType() || !p->getTypeSourceInfo() || type.getNonReferenceType().isConstQualified())
      continue;
    const auto* parameter = type.getNonReferenceType()->getAs<TemplateTypeParmType>();
    // Its own template's parameter (the type may be canonical: no declaration of its own).
    if (!parameter || parameter->getDepth() != list->getDepth() || parameter->getIndex() >= list->size()) continue;
    const auto* decl = dyn_cast<TemplateTypeParmDecl>(list->getParam(parameter->getIndex()));
    if (!decl || decl->isParameterPack()) continue;
    const std::string name = "SyncscopeRef" + std::to_string(k);
    if (decl->hasDefaultArgument()) continue;
    if (!defaulted.count(decl)) {
      // Before what the signature's rewrite put after `T` (`, class SyncscopeCtx` where T is last).
      const SourceLocation after = Lexer::getLocForEndOfToken(written(decl->getLocation()), 0, sm_, context_.getLangOpts());
      defaulted[decl] = in_main_file(after) &&
                        !rewriter_.InsertTextBefore(after, " = ::syncscope::cu::value_of_t<" + name + ">");
    }
    if (!defaulted[decl]) continue;
    deduced_references_[p] = name;
    added += "class " + name + ", ";
  }
  if (!added.empty()) insert_after_token(list->getLAngleLoc(), added);
}

// The CUDA samples' SharedMemory<T> (reduction, threadFenceReduction): a struct whose conversion
// to T* declares the launch's dynamic shared memory and returns it, `T *sdata = SharedMemory<T>();`.
const VarDecl* RewriteRules::dynamic_shared_of(const CXXConversionDecl* m) const {
  const auto* body = dyn_cast_or_null<CompoundStmt>(m->getBody());
  if (!body || body->size() != 2) return nullptr;
  const auto* declaration = dyn_cast<DeclStmt>(body->body_front());
  const auto* returned = dyn_cast<ReturnStmt>(body->body_back());
  if (!declaration || !declaration->isSingleDecl() || !returned || !returned->getRetValue()) return nullptr;
  const auto* v = dyn_cast<VarDecl>(declaration->getSingleDecl());
  if (!v || !v->hasAttr<CUDASharedAttr>() || !v->getType()->isIncompleteArrayType()) return nullptr;
  const auto* named = dyn_cast<DeclRefExpr>(returned->getRetValue()->IgnoreParenCasts());
  return named && named->getDecl() == v ? v : nullptr;
}

const VarDecl* RewriteRules::dynamic_shared_accessor(const CXXRecordDecl* r) const {
  if (!r || !r->hasDefinition() || !in_main_file(r->getLocation())) return nullptr;
  for (const CXXMethodDecl* m : r->methods())
    if (const auto* conversion = dyn_cast<CXXConversionDecl>(m))
      if (const VarDecl* v = dynamic_shared_of(conversion)) return v;
  return nullptr;
}

bool RewriteRules::VisitCXXUnresolvedConstructExpr(CXXUnresolvedConstructExpr* e) {
  if (in_device_code() && e->getNumArgs() == 0) use_dynamic_shared(e, e->getTypeAsWritten());
  return true;
}

bool RewriteRules::VisitCXXTemporaryObjectExpr(CXXTemporaryObjectExpr* e) {
  if (in_device_code() && e->getNumArgs() == 0 && e->getTypeSourceInfo())
    use_dynamic_shared(e, e->getTypeSourceInfo()->getType());
  return true;
}

// `SharedMemory<T>()` -> the launch's dynamic shared memory as T elements, as the struct's conversion
// gives it on a GPU (whichever specialization: each is the same memory).
void RewriteRules::use_dynamic_shared(const Expr* e, QualType written) {
  const auto* specialization = written->getAs<TemplateSpecializationType>();
  if (!specialization || specialization->getNumArgs() != 1 ||
      specialization->getArg(0).getKind() != TemplateArgument::Type)
    return;
  const auto* pattern = dyn_cast_or_null<ClassTemplateDecl>(specialization->getTemplateName().getAsTemplateDecl());
  const VarDecl* v = pattern ? dynamic_shared_accessor(pattern->getTemplatedDecl()) : nullptr;
  if (!v) return;
  const QualType element = specialization->getArg(0).getAsType();
  if (const std::string why = element_refusal(element); !why.empty()) {
    error(e->getBeginLoc(), "the dynamic shared memory of " + type_text(written) + " holds " + why);
    return;
  }
  replace(e->getSourceRange(), "::syncscope::cu::extern_shared<" + type_text(element) + ", SyncscopeCtx>(_c, \"" +
                                   escaped_caption(v->getNameAsString()) + "\")");
}

// A helper that returns a pointer into device memory (`return p + i;`, the Programming Guide's
// pitched row `(float *)((char *)base + r * pitch)`): its pointer parameters are the simulator's
// pointers, so is what it returns.
void RewriteRules::rewrite_pointer_return(FunctionDecl* f) {
  const QualType type = f->getReturnType();
  if (!type->isPointerType() || type->getContainedAutoType()) return;
  const QualType pointee = type->getPointeeType();
  if (const std::string why = element_refusal(pointee); !why.empty()) {
    error(f->getLocation(), "'" + f->getNameAsString() + "' returns a pointer to " + why);
    return;
  }
  const SourceRange range = f->getReturnTypeSourceRange();
  if (range.isInvalid() || range.getBegin().isMacroID() || range.getEnd().isMacroID()) {
    error(f->getLocation(), "the pointer '" + f->getNameAsString() + "' returns is spelled by a macro: write its type out");
    return;
  }
  replace(range, "::syncscope::cu::ptr<" + type_text(pointee) + ", SyncscopeCtx> ");
}

// `__device__ float &at(float *p, int i) { return p[i]; }`: a reference into device memory is the
// simulator's element (cu::ref), as p[i] is. Only where every return gives such an element: a
// reference to the thread's own variables stays a C++ reference.
void RewriteRules::rewrite_reference_return(FunctionDecl* f) {
  const QualType type = f->getReturnType();
  if (!type->isLValueReferenceType() || type->getContainedAutoType() || !f->hasBody()) return;
  const QualType referee = type->getPointeeType();
  if (!element_refusal(referee).empty() || referee->isRecordType()) return;
  bool returns_elements = false;
  std::function<bool(const Stmt*)> all_elements = [&](const Stmt* s) {
    if (!s) return true;
    if (const auto* r = dyn_cast<ReturnStmt>(s)) {
      const Expr* value = r->getRetValue() ? r->getRetValue()->IgnoreParenImpCasts() : nullptr;
      const auto* element = dyn_cast_or_null<ArraySubscriptExpr>(value);
      const auto* deref = dyn_cast_or_null<UnaryOperator>(value);
      // A struct's pointer field (`View { float *data; float &at(int i) { return data[i]; } }`) holds
      // device memory as a parameter does.
      auto device_pointer = [&](const Expr* p) {
        const auto* field = dyn_cast<MemberExpr>(p->IgnoreParenImpCasts());
        return device_memory(p) || (field && isa<FieldDecl>(field->getMemberDecl()) && field->getType()->isPointerType());
      };
      const bool device = (element && device_pointer(element->getBase())) ||
                          (deref && deref->getOpcode() == UO_Deref && device_pointer(deref->getSubExpr()));
      returns_elements |= device;
      return device;
    }
    for (const Stmt* child : s->children())
      if (!all_elements(child)) return false;
    return true;
  };
  if (!all_elements(f->getBody()) || !returns_elements) return;
  const SourceRange range = f->getReturnTypeSourceRange();
  if (range.isInvalid() || range.getBegin().isMacroID() || range.getEnd().isMacroID()) {
    error(f->getLocation(), "the reference '" + f->getNameAsString() + "' returns is spelled by a macro: write its type out");
    return;
  }
  replace(range, "::syncscope::cu::ref<" + type_text(referee) + ", SyncscopeCtx> ");
}

}  // namespace syncscope::translate
