// The rewrites of translate/cuda_translator.h, one AST node kind each. A rewrite replaces source text
// on the line it stands on; what cannot be simulated becomes an error at its line and column.
#pragma once

#include <clang/AST/ASTContext.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Rewrite/Core/Rewriter.h>

#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <string>

#include "translate/translation.h"

namespace syncscope::translate {

// Scalar element types a simulated array may hold: up to 4 bytes in a 32-bit cell (bytes and
// booleans held one to a cell), 8 bytes in two.
bool simulated_scalar(clang::QualType t);

// `&x`, `&regs[2]` or `regs` where x and regs are a thread's own variables (locals of device code,
// not __shared__).
bool threads_own_memory(const clang::Expr* argument);

// A name or caption as a C++ string literal's text (quotes and backslashes escaped, `%` doubled).
std::string escaped_caption(std::string_view text);

// A `__device__` method that is translated as a __device__ function is, with the thread's context
// as its first parameter (`lock.lock()` becomes `lock.lock(_c)`): a named method, not an operator,
// a constructor or a destructor (their calls have no argument list to give `_c` to).
bool context_method(const clang::FunctionDecl* f);

class RewriteRules : public clang::RecursiveASTVisitor<RewriteRules> {
 public:
  RewriteRules(clang::ASTContext& context, clang::Rewriter& rewriter, const std::map<unsigned, std::string>& comments,
               Translation& out);

  bool TraverseFunctionDecl(clang::FunctionDecl* f);
  bool TraverseCXXMethodDecl(clang::CXXMethodDecl* m);
  bool VisitFunctionDecl(clang::FunctionDecl* f);
  // A student's name the translation uses itself (`_c`, `syncscope_count`) is refused, not a g++ error.
  bool VisitNamedDecl(clang::NamedDecl* d);
  bool VisitDeclStmt(clang::DeclStmt* s);
  bool VisitVarDecl(clang::VarDecl* v);
  bool VisitParmVarDecl(clang::ParmVarDecl* p);
  bool VisitDeclRefExpr(clang::DeclRefExpr* e);
  bool VisitCallExpr(clang::CallExpr* e);
  bool VisitCUDAKernelCallExpr(clang::CUDAKernelCallExpr* e);
  // Inline assembly (`asm("mov.u32 %0, %%laneid;" ...)`) is PTX, which nothing here runs.
  bool VisitAsmStmt(clang::AsmStmt* s);
  bool VisitUnaryOperator(clang::UnaryOperator* e);
  bool VisitCStyleCastExpr(clang::CStyleCastExpr* e);
  bool VisitCXXConstCastExpr(clang::CXXConstCastExpr* e);
  bool VisitCXXReinterpretCastExpr(clang::CXXReinterpretCastExpr* e);
  bool VisitMemberExpr(clang::MemberExpr* e);
  bool VisitCXXNewExpr(clang::CXXNewExpr* e);
  bool VisitImplicitCastExpr(clang::ImplicitCastExpr* e);
  // A struct with a pointer field made from device memory: `Acc a = {s};`, `Acc a(s);` (its
  // constructor takes the raw address the field keeps, see cu::device_address).
  bool VisitInitListExpr(clang::InitListExpr* e);
  bool VisitCXXConstructExpr(clang::CXXConstructExpr* e);
  void keep_device_address(const clang::Expr* value);
  // `extern "C" __global__ void k(...)`: a kernel becomes a template, which C linkage forbids; the
  // program is one file, so the linkage goes and nothing else changes.
  bool VisitLinkageSpecDecl(clang::LinkageSpecDecl* d);
  bool TraverseLambdaExpr(clang::LambdaExpr* e);
  bool VisitReturnStmt(clang::ReturnStmt* s);
  // `i < n ? in[i] : 0`: an element of device memory beside a value of another type is read as its
  // value first (translate/rewrite_values.cpp).
  bool VisitConditionalOperator(clang::ConditionalOperator* e);
  // `&smem[k]` of bytes: `(smem + (k))`, the pointer a cast to wider elements takes (rewrite_values.cpp).
  void rewrite_byte_address(clang::UnaryOperator* e);
  void rewrite_pointer_return(clang::FunctionDecl* f);  // rewrite_declarations.cpp
  void rewrite_reference_return(clang::FunctionDecl* f);
  // The CUDA samples' `SharedMemory<T>()`: the launch's dynamic shared memory as T elements
  // (translate/rewrite_declarations.cpp).
  bool VisitCXXUnresolvedConstructExpr(clang::CXXUnresolvedConstructExpr* e);
  bool VisitCXXTemporaryObjectExpr(clang::CXXTemporaryObjectExpr* e);
  // A struct of floats only (`struct Particle { float x, y; };`): its arrays' cells are floats in
  // the picture (cu::cells_dtype_v), as CUDA's float4's are.
  bool VisitCXXRecordDecl(clang::CXXRecordDecl* r);


 private:
  bool in_main_file(clang::SourceLocation loc) const;
  bool in_device_code() const { return device_depth_ > 0; }
  void error(clang::SourceLocation loc, const std::string& message);
  // `e` (or the array or member it names) is assigned, compound-assigned, incremented or decremented.
  bool written_to(const clang::Expr* e);
  std::string text_of(clang::SourceRange range) const;
  clang::SourceLocation written(clang::SourceLocation loc) const;
  clang::CharSourceRange written(clang::SourceRange range) const;
  std::string type_text(clang::QualType type) const;
  // Where a declaration really begins: before `__global__`, `extern`, `__shared__`.
  clang::SourceLocation declaration_start(const clang::Decl* d) const;
  void rewrite_device_signature(clang::FunctionDecl* f);
  // `template __global__ void reduce<256>(const int *, int *);`: each explicit instantiation of a
  // device function template is left blank (the translation instantiates it where it is called);
  // a kernel's are the kernels a file without main() launches, `reduce<256>` (rewrite_calls.cpp).
  // Whether it had any.
  bool explicit_instantiations(const clang::FunctionTemplateDecl* t, bool kernel);
  std::vector<clang::SourceRange> explicit_instantiation_ranges(llvm::StringRef name) const;
  KernelParameter kernel_parameter(const clang::ParmVarDecl* p) const;  // as a file without main() declares it
  void note_call_site(const clang::CallExpr* e, const clang::FunctionDecl* callee);
  void rewrite_pointer_declaration(clang::DeclaratorDecl* d);
  void rewrite_reference_declaration(clang::DeclaratorDecl* d);
  // A `__device__` helper's pointer parameter that some call gives a thread's own memory (`swap(&x,
  // &y)`, `fill(regs, 4)`): it takes that as it takes device memory (see rewrite_declarations.cpp).
  bool given_threads_own_memory(const clang::ParmVarDecl* p);
  // `float *p = &x;` (or `= regs`) with x a thread's own variable: declared `auto`, as such a parameter.
  bool points_to_threads_own_memory(const clang::VarDecl* v) const;
  // `auto *p = s;` and `auto &x = s[i];` in device code (see rewrite_declarations.cpp).
  void rewrite_auto_declaration(clang::VarDecl* v);
  // The type a `float&` or a template's `T&` in device code is written as ("" where it stays).
  std::string reference_type(const clang::DeclaratorDecl* d) const;
  // A template's `T&` parameters, before its signature is rewritten (see rewrite_declarations.cpp).
  void deduce_through_references(const clang::FunctionDecl* f, clang::FunctionTemplateDecl* t);
  // A use of such a reference: its accesses are at this line (cu::here), not at the one that bound it.
  void use_reference_here(const clang::DeclRefExpr* e);
  // The declared type written `type` instead, from the declaration's start up to its name.
  void replace_declared_type(clang::DeclaratorDecl* d, const std::string& type, const char* kind);
  // The element type of a local array of pointers (null: `d` is none).
  clang::QualType pointer_array_element(const clang::DeclaratorDecl* d) const;
  bool will_be_rewritten(const clang::DeclaratorDecl* d) const;
  // Why an array cannot hold elements of this type ("" when it can), and how the picture's 32-bit
  // cells hold one that takes several ("" for one cell each).
  std::string element_refusal(clang::QualType element) const;
  std::string struct_refusal(const clang::RecordDecl* r) const;
  bool cuda_byte_vector(const clang::RecordDecl* r) const;
  void refuse_untranslated_device_code(const clang::CXXMethodDecl* m);
  // `operator T*() { extern __shared__ int __smem[]; return (T*)__smem; }`: its array (null when the
  // conversion is something else), and a struct's such conversion's.
  const clang::VarDecl* dynamic_shared_of(const clang::CXXConversionDecl* m) const;
  const clang::VarDecl* dynamic_shared_accessor(const clang::CXXRecordDecl* r) const;
  void use_dynamic_shared(const clang::Expr* e, clang::QualType written);
  bool cast_to_wider(const clang::VarDecl* v) const;
  bool device_memory(const clang::Expr* e) const;  // uchar4 and its kin, from the shim
  std::string cells_note(clang::QualType element) const;
  // A struct the runtime is told the fields of (cu::cells_layout_v): the student's, at file scope,
  // and CUDA's vector types.
  bool described(const clang::RecordDecl* r) const;
  // "x:f,y:f,inner.count:i": the fields in the order of their cells (sim/element_layout.h).
  void layout_fields(const clang::RecordDecl* r, const std::string& prefix, std::string& out) const;
  // The expression is in a shared or global array (an element, or through a pointer with `->`).
  bool in_device_memory(const clang::Expr* e, bool through_pointer) const;
  bool names_shared_array(const clang::Expr* e) const;
  void rewrite_shared_declaration(clang::VarDecl* v, clang::SourceLocation begin);
  // A `__shared__` declared at file scope is every block's one array for each kernel that names it:
  // a function at its line declares it (the site that keys it), and each device function that names
  // it calls that once at its opening brace (rewrite_declarations.cpp).
  void use_file_scope_shared(const clang::VarDecl* v);
  void rewrite_file_scope_shared(clang::VarDecl* v);
  void split_declarators(clang::DeclStmt* s);
  clang::SourceLocation comma_after(const clang::VarDecl* declarator) const;
  bool pass_tile_itself(clang::DeclaratorDecl* d, clang::QualType pointee);
  void split_unchanged_declarator(const clang::VarDecl* v);
  void declare_device_variable(clang::VarDecl* v);
  void rewrite_pointer_field(clang::MemberExpr* e);
  bool rewrite_named_pointer_cast(const clang::CXXNamedCastExpr* e);
  void rewrite_pointer_cast(const clang::ExplicitCastExpr* e, clang::SourceRange written, bool in_macro, bool c_style);
  void write_pointer_cast(const clang::ExplicitCastExpr* e, clang::SourceRange written, clang::QualType to_element, bool c_style);
  bool points_to_own_memory(const clang::Expr* e);
  std::string caption_before(clang::SourceLocation barrier) const;
  bool replace(clang::SourceRange range, const std::string& text);
  bool insert_before(clang::SourceLocation loc, const std::string& text);
  bool insert_after_token(clang::SourceLocation loc, const std::string& text);
  // `text` opening an expression that starts at `loc`, after what an enclosing rewrite (visited
  // first) put there: `f(_c, (ps[i] ->* &P::x))`, not `f((_c, ps[i] ...`.
  bool insert_opening(clang::SourceLocation loc, const std::string& text);
  bool is_device_only(const clang::FunctionDecl* f) const;
  bool is_students(const clang::FunctionDecl* f) const;
  // A dependent call's candidate among the student's device functions: any (arguments < 0), or the
  // one that takes that many arguments (null when none or several do).
  const clang::FunctionDecl* dependent_callee(const clang::Expr* callee, int arguments) const;
  // The student's device function (its template's pattern) a call or launch of `arguments` names:
  // resolved, or the dependent call's one candidate. Null when it is not the student's.
  const clang::FunctionDecl* called_pattern(const clang::Expr* callee, const clang::FunctionDecl* resolved,
                                            unsigned arguments) const;
  // `NULL` or `0` for a pointer: `nullptr`, which the simulator's pointer takes (once per place).
  void null_to_nullptr(const clang::Expr* e);
  void kernel_as_value(const clang::DeclRefExpr* e);
  // Per argument of a call of `pattern`: NULL made nullptr for a pointer parameter; for a template's
  // `const T*` or `volatile T*` parameter, a bit in `const_mask`/`volatile_mask` (cu_arguments.h).
  void pointer_arguments(const clang::FunctionDecl* pattern, llvm::ArrayRef<const clang::Expr*> arguments,
                         unsigned long long& const_mask, unsigned long long& volatile_mask);
  // Whether the text from `first` to `last` can be edited where the student wrote it: written in the
  // file itself, or inside one macro argument (`assert(*p == 3)`, `SQ(q[i].x)`). An argument the macro
  // expands twice gives two expressions with one spelling: the first edits it, the second is
  // AlreadyEdited (`rule` tells apart the different edits at one place).
  enum class Spelling { InFile, AlreadyEdited, NotEditable };
  Spelling editable(clang::SourceLocation first, clang::SourceLocation last, const char* rule);

  clang::ASTContext& context_;
  clang::SourceManager& sm_;
  clang::Rewriter& rewriter_;
  const std::map<unsigned, std::string>& comments_;
  Translation& out_;
  int device_depth_ = 0;
  const clang::FunctionDecl* device_function_ = nullptr;  // the innermost one being traversed
  std::set<unsigned> blanked_instantiations_;
  std::set<unsigned> file_shared_starts_;  // offsets where a file-scope __shared__ declaration begins  // offsets of explicit instantiations left blank
  std::set<std::pair<const clang::FunctionDecl*, const clang::VarDecl*>> file_shared_declared_;
  bool in_kernel_body_ = false;  // a `return` here ends the thread (not one in a lambda or a __device__ function)
  std::set<const clang::VarDecl*> shared_scalars_;  // `__shared__ int x;`: every use becomes x[0]
  std::set<unsigned> rewritten_types_;  // offsets of type text already replaced
  struct SplitDeclarator {
    clang::SourceLocation comma;  // before it, in the declaration it is split from
    std::string specifiers;       // the declaration's, as written (`const unsigned int`)
  };
  std::map<const clang::DeclaratorDecl*, SplitDeclarator> split_declarators_;
  std::set<const clang::DeclaratorDecl*> context_first_;  // first parameters that bring `_c` with them
  std::map<const clang::ParmVarDecl*, std::string> deduced_references_;  // `T& a` -> "SyncscopeRef0"
  std::set<const clang::VarDecl*> reference_places_;  // references rewritten to bind device memory
  // (helper, parameter index) of pointer parameters given a thread's own memory; scanned once.
  std::optional<std::set<std::pair<const clang::FunctionDecl*, unsigned>>> own_memory_parameters_;
  std::set<std::tuple<std::string, unsigned, unsigned>> macro_argument_edits_;  // (rule, first, last offset) in macro arguments
  std::set<unsigned> nullptrs_;  // offsets of NULLs made nullptr
  std::set<const clang::DeclRefExpr*> launched_kernels_;  // a launch's kernel (visited before its name)
  std::string program_name_;
};

}  // namespace syncscope::translate
