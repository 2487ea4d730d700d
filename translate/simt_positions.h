// Program positions for SIMT lockstep in a translated .cu. A built-in kernel's SIMT twin is compiled
// with coverage callbacks, so every basic block reports its address (sim/simt.h). A .cu is one unit
// with its main() and globals, and coverage there would slow the plain run of every other block
// too; so the translator numbers the places where the lanes of a warp can part and meet again, in
// source order, and the kernel reports them itself (cu::simt_position, cu::simt_call):
//   - the start of each branch of an `if`, each loop body (every iteration) and each `case`;
//   - the join after each `if`, loop and `switch`, where lanes that took different ways meet;
//   - each loop's test, numbered after its body: lanes that finished an iteration (or `continue`d)
//     wait there for those still in it, as a GPU's lanes do at the loop's back edge;
//   - the start of each __device__ function (a call: its positions sort inside its call site).
// In each warp the lanes at the smallest position run together (MinPC), so a lane that skipped a
// branch waits at the join until its neighbours get there, as a GPU reconverges.
//
// Runs after the rewrite rules (translate/rewrite_rules.h), children before parents, so that its
// text opens before and closes after whatever they put at the same place. Every insertion stays on
// its line; a construct with a part written by a macro gets no positions (its lanes then move by
// the positions around it).
#pragma once

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/Rewrite/Core/Rewriter.h>

#include <string>
#include <vector>

namespace syncscope::translate {

// Numbers the branches, loops and joins of `f`, a kernel or __device__ function the student wrote
// (translated with its `_c` parameter), and of nothing else.
class SimtPositions {
 public:
  SimtPositions(clang::ASTContext& context, clang::Rewriter& rewriter);
  void add_function(clang::FunctionDecl* f, bool kernel);
  // Writes the insertions into the rewriter, numbered in source order.
  void write();

 private:
  struct Insertion {
    unsigned offset;         // in the main file: where the text goes
    clang::SourceLocation at;
    bool before;             // before text others put there (an opening), or after (a closing)
    std::string prefix;      // the text before the position's number, and after it
    std::string suffix;
    int order;               // children before parents: the order to write them in
    bool numbered;           // a position (prefix, number, suffix), or text alone (a closing brace)
    unsigned rank;           // where its number falls in source order: its offset, but for a loop's
    bool rank_closing;       // test, which comes after the body it follows
  };
  friend class PositionWalk;
  clang::ASTContext& context_;
  clang::Rewriter& rewriter_;
  std::vector<Insertion> insertions_;
};

}  // namespace syncscope::translate
