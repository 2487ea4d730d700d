// Where an element of device memory must be read as a value before C++ sees it. In the simulator an
// element is a reference object (cu::ref) that converts to its value; where C++ picks a type from
// both sides, as `?:` does, that object would take the other side's type: `i < n ? in[i] : 0` would
// be an int, truncating the float a GPU gives. And casts between pointers in device code, which
// become views of the same cells (the simulator's pointer of the new type).
#include <clang/AST/Expr.h>
#include <clang/Lex/Lexer.h>

#include "translate/rewrite_rules.h"

using namespace clang;

namespace syncscope::translate {

bool RewriteRules::in_device_memory(const Expr* e, bool through_pointer) const {
  e = e->IgnoreParenImpCasts();
  if (through_pointer) return e->getType()->isPointerType() && !isa<CXXThisExpr>(e);
  if (const auto* s = dyn_cast<ArraySubscriptExpr>(e)) {
    const Expr* array = s->getBase()->IgnoreParenImpCasts();
    return array->getType()->isPointerType() || names_shared_array(array);
  }
  if (const auto* u = dyn_cast<UnaryOperator>(e))
    return u->getOpcode() == UO_Deref && u->getSubExpr()->getType()->isPointerType();
  if (const auto* m = dyn_cast<MemberExpr>(e)) return in_device_memory(m->getBase(), m->isArrow());
  if (const auto* d = dyn_cast<DeclRefExpr>(e)) {
    const auto* v = dyn_cast<VarDecl>(d->getDecl());
    // A __shared__ scalar, or a __device__ variable that is no array (`__device__ Params g;`).
    return shared_scalars_.count(v) > 0 ||
           (v && v->hasAttr<CUDADeviceAttr>() && !v->isLocalVarDecl() && !v->getType()->isArrayType() && in_main_file(v->getLocation()));
  }
  return false;
}

bool RewriteRules::VisitConditionalOperator(ConditionalOperator* e) {
  if (!in_device_code()) return true;
  const Expr* sides[2] = {e->getTrueExpr(), e->getFalseExpr()};
  const bool in_memory[2] = {in_device_memory(sides[0], false), in_device_memory(sides[1], false)};
  // Both elements of one type: the result is an element too (`(c ? a[i] : b[i]) = v` writes it).
  if (in_memory[0] && in_memory[1] &&
      context_.hasSameType(sides[0]->getType().getUnqualifiedType(), sides[1]->getType().getUnqualifiedType()))
    return true;
  for (int k = 0; k < 2; ++k) {
    // A template's `T` too: cu::read passes what is not a number's element through.
    const QualType type = sides[k]->getType();
    if (!in_memory[k] || !(type->isDependentType() || simulated_scalar(type.getCanonicalType().getUnqualifiedType())))
      continue;
    if (editable(sides[k]->getBeginLoc(), sides[k]->getEndLoc(), "read") != Spelling::InFile) continue;
    if (insert_opening(sides[k]->getBeginLoc(), "::syncscope::cu::read(")) insert_after_token(sides[k]->getEndLoc(), ")");
  }
  return true;
}

// A byte's address in device memory: syncscope's cells are 4 bytes, so a byte array cast to wider
// elements is a pointer that counts bytes (cu::ptr::byte_view), which its `+` keeps and its `[k]`
// (an access of one byte) does not: the Programming Guide's partition `(int *)&smem[n * 4]`.
void RewriteRules::rewrite_byte_address(UnaryOperator* e) {
  const auto* element = dyn_cast<ArraySubscriptExpr>(e->getSubExpr()->IgnoreParens());
  if (!element) return;
  const Expr* base = element->getBase()->IgnoreParenImpCasts();
  const QualType type = base->getType();
  const QualType pointee = type->isPointerType() ? type->getPointeeType()
                           : type->isArrayType() ? context_.getAsArrayType(type)->getElementType()
                                                 : QualType();
  if (pointee.isNull() || pointee->isDependentType() || context_.getTypeSizeInChars(pointee).getQuantity() != 1) return;
  if (!in_device_memory(element, false)) return;
  if (editable(e->getOperatorLoc(), element->getRBracketLoc(), "byte address") != Spelling::InFile) return;
  const SourceLocation open = Lexer::findLocationAfterToken(base->getEndLoc(), tok::l_square, context_.getSourceManager(),
                                                             context_.getLangOpts(), false);
  if (open.isInvalid()) return;
  replace(SourceRange(e->getOperatorLoc()), "(");
  replace(SourceRange(open.getLocWithOffset(-1)), " + (");
  replace(SourceRange(element->getRBracketLoc()), "))");
}

// A cast between pointers to other element types in device code: `written` (the `(T *)` or the
// `reinterpret_cast<T *>`) becomes the simulator's pointer of the new type, one of the views of the
// same cells that cu::ptr has; any other is refused. A reinterpret_cast's becomes a parenthesized
// functional cast, which binds before a following `[i]` as it did (`(T)(in)[i]` would cast the
// element) and cannot be read as a declaration (`T(out)[i] = v;` declares an array `out`).
void RewriteRules::rewrite_pointer_cast(const ExplicitCastExpr* e, SourceRange written, bool in_macro, bool c_style) {
  const QualType to = e->getType();
  const Expr* source = e->getSubExprAsWritten();
  const QualType from = source->getType();
  // A __shared__ array cast as it is (`reinterpret_cast<float4 *>(tile)`, `(float *)smem_raw` of an
  // `extern __shared__` one): its first element's address.
  const bool array = from->isConstantArrayType() || from->isIncompleteArrayType();
  if (!to->isPointerType() || (!from->isPointerType() && !array)) return;
  const QualType to_element = to->getPointeeType();
  const QualType from_element = array ? context_.getAsArrayType(from)->getElementType() : from->getPointeeType();
  if (context_.hasSameUnqualifiedType(to_element.getUnqualifiedType(), from_element.getUnqualifiedType())) {
    // `(int *)in`, `const_cast<int *>(in)` of a `const int *in`: the same cells, `const` taken away
    // (or added): the simulator's pointer of the new type. A thread's own memory stays an address.
    if (!array && to_element.isVolatileQualified() == from_element.isVolatileQualified() &&
        to_element.isConstQualified() != from_element.isConstQualified() && !points_to_own_memory(source))
      write_pointer_cast(e, written, to_element, c_style);
    return;
  }
  if (const auto* call = dyn_cast<CallExpr>(source->IgnoreParenImpCasts()))  // (float *)malloc(n): that call's refusal says it
    if (const FunctionDecl* f = call->getDirectCallee(); f && f->getNameAsString() == "malloc" && !is_students(f)) return;
  const bool known = !to_element->isDependentType() && !from_element->isDependentType() &&
                     element_refusal(to_element).empty() && element_refusal(from_element).empty();
  const int64_t to_bytes = known ? context_.getTypeSizeInChars(to_element).getQuantity() : 0;
  const int64_t from_bytes = known ? context_.getTypeSizeInChars(from_element).getQuantity() : 0;
  const bool to_number = simulated_scalar(to_element.getCanonicalType());
  const bool from_number = simulated_scalar(from_element.getCanonicalType());
  // `(unsigned long long *)total`, `(int *)&f`: the same cells read as another number of the same
  // size; `reinterpret_cast<float4 *>(in)`: a float array's cells four at a time (a vectorized load).
  const bool cell_view = known && to_bytes >= 4 && from_bytes >= 4 && to_bytes % 4 == 0 && from_bytes % 4 == 0 &&
                         (to_bytes == from_bytes || !to_number || !from_number);
  // `(float *)((char *)img + r * pitch)`, the Programming Guide's pitched rows: a char pointer into
  // an array of 4-byte cells counts bytes, and is cast back (cu_device.h's ptr says how).
  const bool byte_steps = known && ((to_bytes == 1 && from_bytes >= 4) || (from_bytes == 1 && to_bytes >= 4));
  // `reinterpret_cast<T *>(smem_raw)` in a template (the CUDA samples' dynamic shared memory): which
  // view it is is known once T is; the runtime's pointer has the views there are.
  const bool dependent = (to_element->isDependentType() || from_element->isDependentType()) &&
                         (to_element->isDependentType() || element_refusal(to_element).empty()) &&
                         (from_element->isDependentType() || element_refusal(from_element).empty());
  if ((cell_view || byte_steps || dependent) && in_macro) {
    // Once for a use of the macro: its outermost cast (visited first) is the one its value has.
    const unsigned use = sm_.getFileOffset(sm_.getExpansionLoc(e->getBeginLoc()));
    if (!macro_argument_edits_.insert({"cast in a macro's body", use, use}).second) return;
    const std::string macro = Lexer::getImmediateMacroName(e->getBeginLoc(), sm_, context_.getLangOpts()).str();
    error(e->getBeginLoc(), "a pointer cast (" + type_text(from) + " to " + type_text(to) + ") written in macro " + macro +
                                " is simulated only where it is written out: write the cast at the line that uses " +
                                macro + ", or make " + macro + " a __device__ function returning " + type_text(to));
    return;
  }
  if (!(cell_view || byte_steps || dependent)) {
    error(e->getBeginLoc(), "a pointer cast in device code (" + type_text(from) + " to " + type_text(to) +
                                ") is not simulated: declare the array with the element type it holds");
    return;
  }
  // (An `extern __shared__` array is the runtime's pointer already.)
  if (from->isConstantArrayType() && editable(source->getBeginLoc(), source->getEndLoc(), "array cast") == Spelling::InFile &&
      insert_before(source->getBeginLoc(), "&("))
    insert_after_token(source->getEndLoc(), ")[0]");
  write_pointer_cast(e, written, to_element, c_style);
}

void RewriteRules::write_pointer_cast(const ExplicitCastExpr* e, SourceRange written, QualType to_element, bool c_style) {
  const std::string pointer = "::syncscope::cu::ptr<" + type_text(to_element) + ", SyncscopeCtx>";
  if (c_style) {
    replace(written, "(" + pointer + ")");
  } else if (replace(written, "(" + pointer)) {
    insert_after_token(e->getEndLoc(), ")");
  }
}

// `&x`, `regs`, or a pointer declared to them (`float *p = &x;`, a helper's parameter some call
// gives such an address): a raw address in the translation, not the simulator's pointer.
bool RewriteRules::points_to_own_memory(const Expr* e) {
  if (threads_own_memory(e)) return true;
  const auto* named = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
  if (const auto* p = named ? dyn_cast<ParmVarDecl>(named->getDecl()) : nullptr) return given_threads_own_memory(p);
  const auto* v = named ? dyn_cast<VarDecl>(named->getDecl()) : nullptr;
  return v && points_to_threads_own_memory(v);
}


}  // namespace syncscope::translate
