// Where an element of device memory must be read as a value before C++ sees it. In the simulator an
// element is a reference object (cu::ref) that converts to its value; where C++ picks a type from
// both sides, as `?:` does, that object would take the other side's type: `i < n ? in[i] : 0` would
// be an int, truncating the float a GPU gives.
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

}  // namespace syncscope::translate
