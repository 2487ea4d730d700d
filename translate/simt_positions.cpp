#include "translate/simt_positions.h"

#include <clang/AST/ExprCXX.h>
#include <clang/AST/StmtCXX.h>
#include <clang/Lex/Lexer.h>

#include <algorithm>
#include <tuple>

using namespace clang;

namespace syncscope::translate {

namespace {

constexpr const char* kPosition = " ::syncscope::cu::simt_position(_c, ";
constexpr unsigned kLastPosition = 0xfffe;  // 16 bits a level (sim/sim_ctx.h); 0xffff is "past a call"

}  // namespace

// The statements of one function, children before parents.
class PositionWalk {
 public:
  PositionWalk(SimtPositions& out) : out_(out), sm_(out.context_.getSourceManager()) {}

  void walk(Stmt* s) {
    if (!s || isa<Expr>(s)) return;  // no branch of a kernel's own inside an expression (lambdas neither)
    for (Stmt* child : s->children()) walk(child);
    if (auto* i = dyn_cast<IfStmt>(s)) {
      if (!whole(s)) return;
      branch(i->getThen());
      if (i->getElse() && !isa<IfStmt>(i->getElse())) branch(i->getElse());  // an `else if` numbers its own
      join(s);
    } else if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(s)) {
      if (!whole(s)) return;
      Stmt* body = nullptr;
      Expr* test = nullptr;  // none where it declares a variable (`while (int k = next())`)
      if (auto* f = dyn_cast<ForStmt>(s)) body = f->getBody(), test = f->getConditionVariable() ? nullptr : f->getCond();
      if (auto* w = dyn_cast<WhileStmt>(s)) body = w->getBody(), test = w->getConditionVariable() ? nullptr : w->getCond();
      if (auto* d = dyn_cast<DoStmt>(s)) body = d->getBody(), test = d->getCond();
      if (auto* r = dyn_cast<CXXForRangeStmt>(s)) body = r->getBody();
      branch(body);
      loop_test(test, end_of(body));
      join(s);
    } else if (auto* sw = dyn_cast<SwitchStmt>(s)) {
      if (!whole(s)) return;
      for (SwitchCase* c = sw->getSwitchCaseList(); c; c = c->getNextSwitchCase())
        if (c->getColonLoc().isFileID()) numbered(c->getColonLoc().getLocWithOffset(1), true, kPosition, ");");
      join(s);
    }
  }

 private:
  // Where `s` ends, its `;` or `}` included; invalid when that is not in the file as written.
  SourceLocation end_of(const Stmt* s) const {
    if (!s) return {};
    if (const auto* c = dyn_cast<CompoundStmt>(s)) return after(c->getRBracLoc());
    if (const auto* i = dyn_cast<IfStmt>(s)) return end_of(i->getElse() ? i->getElse() : i->getThen());
    if (const auto* f = dyn_cast<ForStmt>(s)) return end_of(f->getBody());
    if (const auto* w = dyn_cast<WhileStmt>(s)) return end_of(w->getBody());
    if (const auto* r = dyn_cast<CXXForRangeStmt>(s)) return end_of(r->getBody());
    if (const auto* sw = dyn_cast<SwitchStmt>(s)) return end_of(sw->getBody());
    if (const auto* c = dyn_cast<SwitchCase>(s)) return end_of(c->getSubStmt());
    if (const auto* l = dyn_cast<LabelStmt>(s)) return end_of(l->getSubStmt());
    if (const auto* a = dyn_cast<AttributedStmt>(s)) return end_of(a->getSubStmt());
    if (const auto* d = dyn_cast<DoStmt>(s)) return semicolon_after(d->getRParenLoc());
    if (const auto* n = dyn_cast<NullStmt>(s)) return after(n->getSemiLoc());
    if (isa<DeclStmt>(s)) return after(s->getEndLoc());  // its range holds its `;`
    return semicolon_after(s->getEndLoc());
  }
  SourceLocation after(SourceLocation token) const {
    if (!token.isFileID()) return {};
    return Lexer::getLocForEndOfToken(token, 0, sm_, out_.context_.getLangOpts());
  }
  SourceLocation semicolon_after(SourceLocation last) const {
    if (!last.isFileID()) return {};
    return Lexer::findLocationAfterToken(last, tok::semi, sm_, out_.context_.getLangOpts(), false);
  }
  // The construct and its end are written in the file itself (no part of it by a macro).
  bool whole(const Stmt* s) const {
    return s->getBeginLoc().isFileID() && s->getEndLoc().isFileID() && end_of(s).isValid() &&
           sm_.isInMainFile(s->getBeginLoc());
  }

  // The start of a branch or loop body: a position where the lanes that take it start.
  void branch(Stmt* body) {
    if (!body || isa<NullStmt, ReturnStmt, BreakStmt, ContinueStmt>(body)) return;  // leaves: the next position is elsewhere
    if (auto* c = dyn_cast<CompoundStmt>(body)) {
      if (c->getLBracLoc().isFileID()) numbered(c->getLBracLoc().getLocWithOffset(1), true, kPosition, ");");
      return;
    }
    // One statement: braced, so the position is part of the branch.
    const SourceLocation end = end_of(body);
    if (!body->getBeginLoc().isFileID() || end.isInvalid()) return;
    numbered(body->getBeginLoc(), true, std::string("{") + kPosition, "); ");
    plain(end, false, " }");
  }
  // After the construct: where the lanes that went different ways meet again.
  void join(const Stmt* s) { numbered(end_of(s), false, kPosition, ");"); }
  // The loop's test, as `(position, test)`, numbered as if it stood where the body ends.
  void loop_test(Expr* test, SourceLocation body_end) {
    if (!test || body_end.isInvalid() || !test->getBeginLoc().isFileID()) return;
    const SourceLocation close = after(test->getEndLoc());
    if (close.isInvalid() || !sm_.isInMainFile(test->getBeginLoc())) return;
    add(test->getBeginLoc(), true, std::string("(") + (kPosition + 1), "), ", true, body_end);
    plain(close, false, ")");
  }

  void numbered(SourceLocation at, bool before, std::string prefix, std::string suffix) {
    add(at, before, std::move(prefix), std::move(suffix), true);
  }
  void plain(SourceLocation at, bool before, std::string text) { add(at, before, std::move(text), "", false); }
  // `ranked_at`: where its number falls in source order, as a closing there (default: `at` itself).
  void add(SourceLocation at, bool before, std::string prefix, std::string suffix, bool numbered,
           SourceLocation ranked_at = {}) {
    if (at.isInvalid() || !sm_.isInMainFile(at)) return;
    const int order = static_cast<int>(out_.insertions_.size());
    const unsigned offset = sm_.getFileOffset(at);
    const bool ranked_apart = ranked_at.isValid();
    out_.insertions_.push_back({offset, at, before, std::move(prefix), std::move(suffix), order, numbered,
                                ranked_apart ? sm_.getFileOffset(ranked_at) : offset, ranked_apart || !before});
  }

  SimtPositions& out_;
  SourceManager& sm_;

  friend class SimtPositions;
};

SimtPositions::SimtPositions(ASTContext& context, Rewriter& rewriter) : context_(context), rewriter_(rewriter) {}

void SimtPositions::add_function(FunctionDecl* f, bool kernel) {
  auto* body = dyn_cast_or_null<CompoundStmt>(f->getBody());
  if (!body || !body->getLBracLoc().isFileID() || f->isConstexpr()) return;  // a constexpr function holds no guard
  PositionWalk walk(*this);
  walk.walk(body);
  const SourceLocation open = body->getLBracLoc().getLocWithOffset(1);
  // A kernel starts at its first position; a __device__ function's are a level below its call's.
  if (kernel)
    walk.numbered(open, true, kPosition, ");");
  else
    walk.numbered(open, true, " [[maybe_unused]] auto syncscope_call = ::syncscope::cu::simt_call(_c, ", ");");
}

void SimtPositions::write() {
  // Numbers in the order the text will read: at one place, the openings (parents first) before
  // the closings (children first).
  std::vector<const Insertion*> numbered;
  for (const Insertion& i : insertions_)
    if (i.numbered) numbered.push_back(&i);
  auto key = [](const Insertion* i) {
    return std::make_tuple(i->rank, i->rank_closing ? 1 : 0, i->rank_closing ? i->order : -i->order);
  };
  std::sort(numbered.begin(), numbered.end(), [&](const Insertion* a, const Insertion* b) { return key(a) < key(b); });
  std::vector<unsigned> number(insertions_.size(), 0);
  for (size_t k = 0; k < numbered.size(); ++k)
    number[numbered[k]->order] = std::min<unsigned>(static_cast<unsigned>(k) + 1, kLastPosition);
  for (const Insertion& i : insertions_) {
    const std::string text = i.numbered ? i.prefix + std::to_string(number[i.order]) + i.suffix : i.prefix;
    rewriter_.InsertText(i.at, text, /*InsertAfter=*/!i.before);
  }
}

}  // namespace syncscope::translate
