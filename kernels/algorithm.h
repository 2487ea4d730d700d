// What every algorithm in kernels/ provides besides its kernels: a description for `syncscope list`
// and the app, the problem it solves, its host orchestration (a template over the runtime, so the
// same code drives the simulator and the GPU) and an independent sequential CPU reference.
//
//   struct MyAlgorithm {
//     static AlgoInfo info();
//     static CheckResult check(const Problem& p);   // {} or why this algorithm cannot run p
//     template <class Runtime> static void run(Runtime& rt, const Problem& p);
//     static std::vector<double> reference(const Problem& p, const std::vector<double>& input);
//   };
#pragma once

#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "contract/dtype.h"
#include "contract/kernel_api.h"

namespace syncscope {

struct Problem {
  int n = 8;     // elements (2D algorithms: elements per row)
  int rows = 1;  // rows (2D algorithms only)
  int tpb = 8;   // threads per block
  DType dtype = DType::Float32;
  int bug = 0;   // 0: the correct kernel; k: the algorithm's k-th bug variant (AlgoInfo::bugs[k-1])

  int input_count() const { return n * rows; }
  bool operator==(const Problem&) const = default;
};

// The fields of a Problem an algorithm's check can refuse. The configuration (core/config_fields.h)
// maps each to its ConfigField, which every front end spells its own way.
enum class ProblemField : uint8_t { N, Rows, Tpb, Dtype };

// Why an algorithm cannot run a problem. The user sees the field and its value before `why`:
// `--tpb 48: <why>` on the command line, `"tpb" 48: <why>` for a scenario, `48: <why>` under the
// Controls form's field.
struct ProblemError {
  ProblemField field;
  std::string why;
  // `why` is a whole sentence that names the options itself ("--n 100000 at --tpb 64 needs ..."):
  // shown as it is, still under `field`.
  bool names_options = false;
};

// An algorithm's check(): {} when it can run the problem.
using CheckResult = std::optional<ProblemError>;

// Checked where an algorithm is registered (core/registry.h) and where a kernel file is loaded
// (core/kernel_file.cpp), so a check() that still returns a string gets a sentence saying what to
// return rather than a conversion error.
template <class Algorithm>
concept ChecksProblems = requires(const Problem& p) {
  { Algorithm::check(p) } -> std::same_as<CheckResult>;
};

// A classic mistake an algorithm can be run with (`--bug NAME`), switched on inside the very same
// kernel source so the code panel shows where it bites.
struct BugInfo {
  std::string name;    // "no-second-barrier"
  std::string shows;   // what the class sees: "read and write of one step overlap (WAR)"
};

// One algorithm's bug variants, written once next to its enum:
//
//   enum class MyBug : int { None, NoBarrier, Count };
//   inline constexpr BugTable<MyBug, 1> kMyBugs{{{{MyBug::NoBarrier, "no-barrier", "what the class sees"}}}};
//
// `p.bug` is 1-based into the table and `kMyBugs.of(p)` gives the enumerator; the table must list
// every enumerator but None, in the enum's order (`static_assert(kMyBugs.complete())`), so the
// name a user types and the branch the kernel takes cannot drift apart.
template <class BugEnum>
struct BugVariant {
  BugEnum value;
  const char* name;
  const char* shows;
};

template <class BugEnum, std::size_t N>
struct BugTable {
  std::array<BugVariant<BugEnum>, N> variants;

  constexpr bool complete() const {
    if (static_cast<std::size_t>(BugEnum::Count) != N + 1 || static_cast<int>(BugEnum::None) != 0) return false;
    for (std::size_t k = 0; k < N; ++k)
      if (static_cast<std::size_t>(variants[k].value) != k + 1) return false;
    return true;
  }
  BugEnum of(const Problem& p) const { return static_cast<BugEnum>(p.bug); }  // the registry checked the range
  std::vector<BugInfo> infos() const {
    std::vector<BugInfo> out;
    for (const auto& v : variants) out.push_back({v.name, v.shows});
    return out;
  }
};

struct AlgoInfo {
  std::string name;         // the CLI name: "kogge-stone"
  std::string group;        // "scans", "reductions": the heading it is listed under
  std::string title;        // "Kogge-Stone block scan"
  std::string description;  // one paragraph for the class
  std::string origin;       // which seed document it comes from
  Problem defaults;
  bool two_dimensional = false;  // uses --rows
  std::vector<std::string> sources;  // kernel files, repository-relative, for the code panel
  std::vector<BugInfo> bugs = {};    // variants with a classic race or guard mistake
  // Float sums whose order the GPU's timing decides (atomics, look-back): the GPU's float32 result
  // can differ from the simulator's in the last bits; int32 results are exact either way.
  bool float_order_depends_on_timing = false;
  // A plain CUDA program (core/cuda_program.h): its main() chooses the launches and checks its own
  // result, so n, rows, tpb, dtype and the input do not apply; the result is what main() returns.
  bool program = false;
  // A program whose file has no main() (a textbook listing): syncscope's own main() launched one of
  // its kernels as --grid and --block say, and returns 0 when the launch succeeded.
  bool kernels_only = false;
};

constexpr int ceil_div(int a, int b) { return (a + b - 1) / b; }

// A kernel file loaded at run time (`--kernel my_scan.h`) names its algorithm on its last line:
//   SYNCSCOPE_KERNEL_FILE(MyScan)
// Nothing here; the loader (core/kernel_file.cpp) defines it to export the algorithm.
#ifndef SYNCSCOPE_KERNEL_FILE
#define SYNCSCOPE_KERNEL_FILE(Algorithm)
#endif

}  // namespace syncscope
