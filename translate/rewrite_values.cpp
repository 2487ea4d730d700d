// Where an element of device memory must be read as a value before C++ sees it. In the simulator an
// element is a reference object (cu::ref) that converts to its value; where C++ picks a type from
// both sides, as `?:` does, that object would take the other side's type: `i < n ? in[i] : 0` would
// be an int, truncating the float a GPU gives.
#include <clang/AST/Expr.h>

#include "translate/rewrite_rules.h"

using namespace clang;

namespace syncscope::translate {

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

}  // namespace syncscope::translate
