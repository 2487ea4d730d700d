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

  // `listed`: a statement written right after `s` runs right after it (s is in a block, or is a
  // body this pass braces); only then may a join follow it.
  void walk(Stmt* s, bool listed) {
    if (!s || isa<Expr>(s)) return;  // no branch of a kernel's own inside an expression (lambdas neither)
    if (auto* i = dyn_cast<IfStmt>(s)) {
      const bool ours = whole(s);
      const SourceLocation then_opens = header_end(i->getRParenLoc()), else_opens = header_end(i->getElseLoc());
      walk(i->getThen(), ours && braced(i->getThen(), then_opens));
      // An `else if` ends where its `if` does: its join may follow it where the `if`'s may.
      walk(i->getElse(), isa_and_nonnull<IfStmt>(i->getElse()) ? listed : ours && braced(i->getElse(), else_opens));
      if (!ours) return;
      branch(i->getThen(), then_opens);
      if (i->getElse() && !isa<IfStmt>(i->getElse())) branch(i->getElse(), else_opens);
      if (listed) join(s);
    } else if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(s)) {
      const bool ours = whole(s);
      Stmt* body = nullptr;
      SourceLocation opens;  // where a braced body would open: after `)` or `do`
      if (auto* f = dyn_cast<ForStmt>(s)) body = f->getBody(), opens = header_end(f->getRParenLoc());
      if (auto* w = dyn_cast<WhileStmt>(s)) body = w->getBody(), opens = header_end(w->getRParenLoc());
      if (auto* d = dyn_cast<DoStmt>(s)) body = d->getBody(), opens = header_end(d->getDoLoc());
      if (auto* r = dyn_cast<CXXForRangeStmt>(s)) body = r->getBody(), opens = header_end(r->getRParenLoc());
      walk(body, ours && braced(body, opens));
      if (!ours) return;
      branch(body, opens);
      loop_test(s, end_of(body));
      if (listed) join(s);
    } else if (auto* sw = dyn_cast<SwitchStmt>(s)) {
      walk(sw->getBody(), false);  // a block walks its own statements as listed
      if (whole(s) && listed) join(s);
    } else if (auto* c = dyn_cast<SwitchCase>(s)) {
      walk(c->getSubStmt(), listed);
      // `case 1: position; ...` keeps the case's statements only where they follow it in a block.
      if (listed && c->getColonLoc().isFileID()) numbered(c->getColonLoc().getLocWithOffset(1), true, kPosition, ");");
    } else if (auto* l = dyn_cast<LabelStmt>(s)) {
      walk(l->getSubStmt(), listed);
    } else if (auto* a = dyn_cast<AttributedStmt>(s)) {
      walk(a->getSubStmt(), listed);
    } else {
      const bool block = isa<CompoundStmt>(s);
      for (Stmt* child : s->children()) walk(child, block);
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
  // A token's place in the file: a macro's name or its call's `)` stands for what it expands to
  // (`i < N`), as long as the macro's use is in the file.
  SourceLocation in_file(SourceLocation token) const {
    if (token.isInvalid()) return {};
    const SourceLocation at = token.isMacroID() ? sm_.getExpansionRange(token).getEnd() : token;
    return at.isFileID() && sm_.isInMainFile(at) ? at : SourceLocation();
  }
  SourceLocation after(SourceLocation token) const {
    token = in_file(token);
    if (token.isInvalid()) return {};
    return Lexer::getLocForEndOfToken(token, 0, sm_, out_.context_.getLangOpts());
  }
  SourceLocation semicolon_after(SourceLocation last) const {
    last = in_file(last);
    if (last.isInvalid()) return {};
    return Lexer::findLocationAfterToken(last, tok::semi, sm_, out_.context_.getLangOpts(), false);
  }
  SourceLocation header_end(SourceLocation keyword_or_paren) const {
    return keyword_or_paren.isFileID() ? after(keyword_or_paren) : SourceLocation();
  }
  // The construct's keyword is written in the file (not by a macro) and its end can be found.
  bool whole(const Stmt* s) const {
    return s->getBeginLoc().isFileID() && sm_.isInMainFile(s->getBeginLoc()) && end_of(s).isValid();
  }

  // The start of a branch or loop body: a position where the lanes that take it start. A body of
  // one statement is braced from `opens` (after its `)`, `else` or `do`, so a `#pragma unroll`
  // between the two ends up inside).
  void branch(Stmt* body, SourceLocation opens) {
    if (!body || isa<NullStmt, ReturnStmt, BreakStmt, ContinueStmt>(body)) return;  // leaves: the next position is elsewhere
    if (auto* c = dyn_cast<CompoundStmt>(body)) {
      if (c->getLBracLoc().isFileID()) numbered(c->getLBracLoc().getLocWithOffset(1), true, kPosition, ");");
      return;
    }
    if (!braced(body, opens)) return;
    numbered(opens, true, std::string(" {") + kPosition, ");");
    plain(end_of(body), false, " }");
  }
  // A body is a block, or one statement this pass braces: one that starts in the file, so that
  // the braces hold all of it (a macro's `tmp = x; x = y; y = tmp` would leave two statements out).
  bool braced(const Stmt* body, SourceLocation opens) const {
    if (!body || isa<CompoundStmt>(body)) return true;
    return opens.isValid() && body->getBeginLoc().isFileID() && end_of(body).isValid();
  }
  // After the construct: where the lanes that went different ways meet again.
  void join(const Stmt* s) { numbered(end_of(s), false, kPosition, ");"); }
  // The loop's test, as `(position, test)`, numbered as if it stood where the body ends; a `for`
  // with no test gets it in its step (`for (;; position)`, `for (;; (position, ++i))`).
  void loop_test(Stmt* loop, SourceLocation body_end) {
    Expr* test = nullptr;
    if (auto* f = dyn_cast<ForStmt>(loop)) {
      if (f->getConditionVariable()) return;
      test = f->getCond();
      if (!test && !f->getInc()) {
        const SourceLocation close = in_file(f->getRParenLoc());
        if (close.isValid()) add(close, true, kPosition + 1, ")", true, body_end);
        return;
      }
      if (!test) test = f->getInc();
    } else if (auto* w = dyn_cast<WhileStmt>(loop)) {
      if (w->getConditionVariable()) return;
      test = w->getCond();
    } else if (auto* d = dyn_cast<DoStmt>(loop)) {
      test = d->getCond();
    }
    if (!test || body_end.isInvalid()) return;  // range-for, `while (int k = next())`: none
    const CharSourceRange range = Lexer::makeFileCharRange(CharSourceRange::getTokenRange(test->getSourceRange()), sm_,
                                                           out_.context_.getLangOpts());
    if (range.isInvalid() || !sm_.isInMainFile(range.getBegin())) return;
    add(range.getBegin(), true, std::string("(") + (kPosition + 1), "), ", true, body_end);
    plain(range.getEnd(), false, ")");
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
  walk.walk(body, false);
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
