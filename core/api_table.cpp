#include "core/api_table.h"

#include "contract/warp_ops.h"

namespace syncscope {
namespace {

// The operands of a kind's two calls, as CUDA and the kernel write them.
struct Operands {
  std::string cuda, plain, masked;
};

Operands operands_of(const WarpOpInfo& op) {
  const std::string arg = op.arg;
  switch (op.kind) {
    case WarpKind::Shuffle: return {"(mask, v, " + arg + ", width)", "(v, " + arg + ")", "(mask, v, " + arg + ", width)"};
    case WarpKind::Vote: return {"(mask, p)", "(p)", "(mask, p)"};
    case WarpKind::Sync: return {"(mask)", "()", "(mask)"};
    case WarpKind::Reduce:
    case WarpKind::Match: return {"(mask, v)", "(v)", "(mask, v)"};
    default: return {"()", "()", "()"};
  }
}

}  // namespace

std::vector<std::string> warp_api_rows() {
  std::vector<std::string> rows;
  for (const WarpOpInfo& op : kWarpOps) {
    if (op.kind == WarpKind::None || op.kind == WarpKind::ActiveMask) continue;  // no rendezvous: a row of its own
    const Operands o = operands_of(op);
    std::string row = "| `" + std::string(op.intrinsic) + o.cuda + "` | `c." + op.name + o.plain + "`, `c." + op.name_sync +
                      o.masked + "` | " + op.gives + " |";
    rows.push_back(row);
  }
  return rows;
}

}  // namespace syncscope
