// What every algorithm in kernels/ provides besides its kernels: a description for `syncscope list`
// and the app, the problem it solves, its host orchestration (a template over the runtime, so the
// same code drives the simulator and the GPU) and an independent sequential CPU reference.
//
//   struct MyAlgorithm {
//     static AlgoInfo info();
//     static std::string check(const Problem& p);   // "" or why this algorithm cannot run p
//     template <class Runtime> static void run(Runtime& rt, const Problem& p);
//     static std::vector<double> reference(const Problem& p, const std::vector<double>& input);
//   };
#pragma once

#include <string>
#include <vector>

#include "kernels/dtype.h"
#include "kernels/kernel_api.h"

namespace syncscope {

struct Problem {
  int n = 8;     // elements (2D algorithms: elements per row)
  int rows = 1;  // rows (2D algorithms only)
  int tpb = 8;   // threads per block
  DType dtype = DType::Float32;
  int bug = 0;   // 0: the correct kernel; k: the algorithm's k-th bug variant (AlgoInfo::bugs[k-1])

  int input_count() const { return n * rows; }
};

// A classic mistake an algorithm can be run with (`--bug NAME`), switched on inside the very same
// kernel source so the code panel shows where it bites.
struct BugInfo {
  std::string name;    // "no-second-barrier"
  std::string shows;   // what the class sees: "read and write of one step overlap (WAR)"
};

struct AlgoInfo {
  std::string name;         // the CLI name: "kogge-stone"
  std::string group;        // "scans" or "reductions"
  std::string title;        // "Kogge-Stone block scan"
  std::string description;  // one paragraph for the class
  std::string origin;       // which seed document it comes from
  Problem defaults;
  bool two_dimensional = false;  // uses --rows
  std::vector<std::string> sources;  // kernel files, repository-relative, for the code panel
  std::vector<BugInfo> bugs = {};    // variants with a classic race or guard mistake
};

constexpr int ceil_div(int a, int b) { return (a + b - 1) / b; }

}  // namespace syncscope
