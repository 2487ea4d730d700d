// Elements of several cells (a double, a long long, a struct) in the simulator's 32-bit cells are
// shown as what the program wrote (sim/element_layout.h): the element at its own index, a field by
// its name and type, an 8-byte number as one value, in the reports (sim/describe.h) and in the step
// view's picture (app/view/block_view_model.h), not as whole-number halves. The kernels are written
// as syncscope-translate writes a student's (it also writes a struct's cells_layout_v, as below); the
// values expected are computed here.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "app/view/block_view_model.h"
#include "app/view/global_arrays_model.h"
#include "core/cuda_in/cu_runtime.h"
#include "sim/describe.h"

// A struct of a double, an int and a float, described as the translator describes a student's.
struct Rec {
  double sum;
  int count;
  float mean;
};
namespace syncscope::cu {
template <> inline constexpr const char* cells_layout_v<::Rec> = "Rec;sum:d,count:i,mean:f";
}

namespace {

using namespace syncscope;
template <class E, class Ctx>
using dptr = cu::ptr<E, cu::same<Ctx>>;

constexpr long long kBig = (1ll << 40) + 7;  // its high word is not 0: halves would show 7 and 256

template <class Ctx>
void wide_sums(Ctx& _c, dptr<double, Ctx> out, dptr<long long, Ctx> totals) {
  auto s = cu::shared_array<long long, 4, Ctx>(_c, "s");
  const unsigned t = cu::thread_idx(_c).x;
  s[t] = kBig * (t + 1);
  _c.sync();
  if (t < 2) s[t] += s[t + 2];
  _c.sync();
  if (t == 0) totals[0] = s[0] + s[1];
  out[t] = -1.5 * t;
}

RunResult wide_run(sim::SimOptions options = {}) {
  RunResult r;
  r.id = 4242;
  r.sim = cu::simulate_program(
      [] {
        double* out = nullptr;
        long long* totals = nullptr;
        syncscope_cuda_malloc_named("out", &out, 4 * sizeof(double));  // as the translator names cudaMalloc's arrays
        syncscope_cuda_malloc_named("totals", &totals, sizeof(long long));
        cu::launch([](auto& _c, auto... a) { wide_sums(_c, a...); }, "wide_sums", 1, 4, 0)(out, totals);
        return 0;
      },
      options);
  return r;
}

template <class Ctx>
void records(Ctx& _c, dptr<Rec, Ctx> out) {
  auto s = cu::shared_array<Rec, 2, Ctx>(_c, "s");
  const unsigned t = cu::thread_idx(_c).x;
  (s[t] ->* &Rec::sum) = kBig + 0.5 * t;
  (s[t] ->* &Rec::count) = -3 - static_cast<int>(t);
  (s[t] ->* &Rec::mean) = 0.25f * static_cast<float>(t + 1);
  _c.sync();
  out[t] = s[1 - t];
}

RunResult record_run() {
  RunResult r;
  r.id = 4343;
  r.sim = cu::simulate_program(
      [] {
        Rec* out = nullptr;
        syncscope_cuda_malloc_named("out", &out, 2 * sizeof(Rec));
        cu::launch([](auto& _c, auto... a) { records(_c, a...); }, "records", 1, 2, 0)(out);
        return 0;
      },
      sim::SimOptions{});
  return r;
}

size_t array_named(const sim::Trace& t, const std::string& name) {
  for (size_t k = 0; k < t.arrays.size(); ++k)
    if (t.arrays[k].name == name) return k;
  ADD_FAILURE() << "no array " << name;
  return 0;
}

int memory_operations(const app::BlockViewModel& m) {
  int n = 0;
  for (const app::OperationView& op : m.operations)
    n += op.kind == sim::EventKind::SharedRead || op.kind == sim::EventKind::SharedWrite;
  return n;
}

TEST(WideElements, ArraysSayTheirElementsType) {
  const RunResult r = wide_run();
  const sim::Trace& t = r.sim.trace;
  EXPECT_EQ(t.arrays[array_named(t, "s")].layout, "long long;:l");
  EXPECT_EQ(t.arrays[array_named(t, "out")].layout, "double;:d");
  EXPECT_EQ(t.arrays[array_named(t, "totals")].layout, "long long;:l");
  EXPECT_EQ(t.arrays[array_named(t, "s")].size, 8);  // still two cells an element (two banks)
}

TEST(WideElements, LayoutsNameEachCell) {
  const sim::ElementLayout rec = sim::ElementLayout::parse("Rec;sum:d,count:i,mean:f");
  ASSERT_FALSE(rec.plain());
  EXPECT_EQ(rec.cells, 4);
  EXPECT_EQ(rec.element_name("s", 5), "s[1].sum");  // cell 5: element 1's sum, its high word
  EXPECT_TRUE(rec.place(5).high);
  EXPECT_TRUE(rec.starts_wide(4));
  EXPECT_FALSE(rec.starts_wide(5));
  EXPECT_EQ(rec.element_name("s", 7), "s[1].mean");
  EXPECT_EQ(sim::ElementLayout::parse("double;:d").element_name("cache", 3), "cache[1]");
  // Anything else is a plain array, one cell an element: never a guess.
  for (const char* bad : {"", "Rec", "Rec;", "Rec;sum", "Rec;sum:x", "Rec;sum:dd", "Rec;sum:d,"})
    EXPECT_TRUE(sim::ElementLayout::parse(bad).plain()) << bad;
  EXPECT_EQ(sim::ElementLayout::parse("").element_name("s", 3), "s[3]");
}

// A 2D or 3D shared array's element is named as the program indexes it: t[1][7], not t[17].
TEST(WideElements, TilesNameRowAndColumn) {
  sim::ArrayInfo tile;
  tile.size = 60;
  tile.columns = 10;  // __shared__ float t[6][10]
  EXPECT_EQ(sim::ElementLayout::of(tile).element_name("t", 17), "t[1][7]");
  EXPECT_EQ(sim::ElementLayout::of(tile).element_name("t", 60), "t[60]");  // out of bounds: as the cell is numbered
  sim::ArrayInfo box;
  box.size = 2 * 3 * 4 * 2;
  box.columns = 8;  // __shared__ double b[2][3][4]: two cells an element
  box.plane_rows = 3;
  box.layout = "double;:d";
  EXPECT_EQ(sim::ElementLayout::of(box).element_name("b", 2 * (12 + 4 + 1)), "b[1][1][1]");
}

TEST(WideElements, FormattedFromBothWords) {
  const uint64_t big = static_cast<uint64_t>(kBig);
  EXPECT_EQ(sim::format_field('l', static_cast<uint32_t>(big), static_cast<uint32_t>(big >> 32)),
            "1099511627783");
  const uint64_t minus = static_cast<uint64_t>(-kBig);
  EXPECT_EQ(sim::format_field('l', static_cast<uint32_t>(minus), static_cast<uint32_t>(minus >> 32)),
            "-1099511627783");
  EXPECT_EQ(sim::format_field('q', 0xffffffffu, 0xffffffffu), "18446744073709551615");
  uint64_t bits = 0;
  const double d = -0.1;
  std::memcpy(&bits, &d, sizeof bits);
  EXPECT_EQ(sim::format_field('d', static_cast<uint32_t>(bits), static_cast<uint32_t>(bits >> 32)),
            "-0.1");
  EXPECT_EQ(sim::format_field('d', 0, 0, true), "?");
}

TEST(WideElements, ReportsNameTheElementAndItsValue) {
  const RunResult r = wide_run();
  const sim::Trace& t = r.sim.trace;
  ASSERT_FALSE(t.launches.empty());
  ASSERT_FALSE(t.launches[0].blocks.empty());
  const sim::StepTrace& second = t.launches[0].blocks[0].steps.at(1);  // s[t] += s[t + 2]
  const std::vector<int> halves = sim::element_halves(second.events, t);
  std::vector<std::string> t1;
  for (size_t k = 0; k < second.events.size(); ++k)
    if (second.events[k].thread == 1 && second.events[k].is_memory() && !sim::is_paired_high_half(halves, k))
      t1.push_back(sim::describe_event(second.events[k], t, DType::Int32, halves[k] >= 0 ? &second.events[halves[k]] : nullptr));
  ASSERT_EQ(t1.size(), 3u) << ::testing::PrintToString(t1);
  EXPECT_EQ(t1[0], "reads s[1] = " + std::to_string(kBig * 2));
  EXPECT_EQ(t1[1], "reads s[3] = " + std::to_string(kBig * 4));
  EXPECT_EQ(t1[2], "writes s[1] = " + std::to_string(kBig * 6));
  // A cell alone is said to be a word of its element, never passed off as the element.
  for (size_t k = 0; k < second.events.size(); ++k)
    if (second.events[k].is_memory() && halves[k] >= 0) {
      const std::string alone = sim::describe_event(second.events[k], t, DType::Int32);
      EXPECT_NE(alone.find(second.events[k].index & 1 ? "(its high word)" : "(its low word)"), std::string::npos) << alone;
      break;
    }
}

TEST(WideElements, HalvesArePairedWhateverTheScheduleRunsBetweenThem) {
  sim::SimOptions random;
  random.schedule = {sim::ScheduleKind::Random, 7};  // preempts between a number's two cells
  for (const sim::SimOptions& options : {sim::SimOptions{}, random}) {
    const RunResult r = wide_run(options);
    const sim::Trace& t = r.sim.trace;
    for (const sim::StepTrace& step : t.launches.at(0).blocks.at(0).steps) {
      const std::vector<int> halves = sim::element_halves(step.events, t);
      for (size_t k = 0; k < step.events.size(); ++k)
        if (step.events[k].is_memory() && step.events[k].array == array_named(t, "s"))
          EXPECT_GE(halves[k], 0) << "event " << k << " of schedule " << options.schedule.name();
    }
  }
}

TEST(WideElements, StructsAreShownFieldByFieldAsTheirTypes) {
  const RunResult r = record_run();
  const sim::Trace& t = r.sim.trace;
  EXPECT_EQ(t.arrays[array_named(t, "s")].layout, "Rec;sum:d,count:i,mean:f");
  const sim::StepTrace& first = t.launches.at(0).blocks.at(0).steps.at(0);
  const std::vector<int> halves = sim::element_halves(first.events, t);
  std::vector<std::string> t1;
  for (size_t k = 0; k < first.events.size(); ++k)
    if (first.events[k].thread == 1 && first.events[k].is_memory() && !sim::is_paired_high_half(halves, k))
      t1.push_back(sim::describe_event(first.events[k], t, DType::Int32, halves[k] >= 0 ? &first.events[halves[k]] : nullptr));
  EXPECT_EQ(t1, (std::vector<std::string>{"writes s[1].sum = " + std::to_string(kBig) + ".5", "writes s[1].count = -4",
                                          "writes s[1].mean = 0.5"}));
  const app::BlockViewModel m = app::build_block_view(r, 0, 0, 0);
  ASSERT_EQ(m.arrays.size(), 1u);
  const app::SharedArrayView& s = m.arrays[0];
  EXPECT_EQ(s.name, "s (Rec)");
  EXPECT_EQ(s.cells_per_element, 4);
  ASSERT_EQ(s.after.size(), 8u);
  EXPECT_EQ(s.after[4].text, std::to_string(kBig) + ".5");  // one box over sum's two cells
  EXPECT_EQ(s.after[4].span, 2);
  EXPECT_EQ(s.after[5].span, 0);
  EXPECT_EQ(s.after[6].text, "-4");
  EXPECT_EQ(s.after[7].text, "0.5");  // a float, not its bits 1056964608
  EXPECT_EQ(memory_operations(m), 6);  // per thread: sum (one access of two cells), count, mean
}

TEST(WideElements, ThePictureShowsOneBoxAnElement) {
  const RunResult r = wide_run();
  const app::BlockViewModel m = app::build_block_view(r, 0, 1, 0);
  ASSERT_TRUE(m.available) << m.why_not;
  ASSERT_EQ(m.arrays.size(), 1u);
  const app::SharedArrayView& s = m.arrays[0];
  EXPECT_EQ(s.name, "s (long long)");
  EXPECT_EQ(s.cells_per_element, 2);
  ASSERT_EQ(s.after.size(), 8u);
  for (int e = 0; e < 4; ++e) {
    EXPECT_EQ(s.before[2 * e].span, 2);
    EXPECT_EQ(s.before[2 * e + 1].span, 0);
    EXPECT_EQ(s.before[2 * e].text, std::to_string(kBig * (e + 1))) << e;
    EXPECT_EQ(s.before[2 * e + 1].text, "");
  }
  EXPECT_EQ(s.after[0].text, std::to_string(kBig * 4));
  EXPECT_EQ(s.after[2].text, std::to_string(kBig * 6));
  EXPECT_TRUE(s.after[0].changed);
  EXPECT_FALSE(s.after[4].changed);
  // One arrow an element access (to its box), labelled with the element's value.
  ASSERT_EQ(m.reads.size(), 4u);
  ASSERT_EQ(m.writes.size(), 2u);
  for (const app::ArrowView& a : m.reads) EXPECT_EQ(a.index % 2, 0);
  EXPECT_EQ(m.writes[1].value, std::to_string(kBig * 6));
  EXPECT_EQ(memory_operations(m), 6);  // the replay steps through accesses: one for both cells of a number
  EXPECT_EQ(m.thread_views[1].writes, std::to_string(kBig * 6) + " = " + std::to_string(kBig * 2) + " + " + std::to_string(kBig * 4));
  // "write s[t]": the elements' indices (the cells written, 2t, would make it "s[...]").
  EXPECT_EQ(m.caption, "2 threads read s[...]; 2 threads write s[t]");
  // The box's colour is the element's value: the largest after the step is the top of the scale.
  EXPECT_EQ(s.hi, std::to_string(kBig * 6));
  EXPECT_FLOAT_EQ(s.after[2].shade, 1.0f);
  EXPECT_FLOAT_EQ(s.after[3].shade, 1.0f);
}

TEST(WideElements, GlobalArraysAreCountedAndShownInElements) {
  const RunResult r = wide_run();
  const app::GlobalArraysModel g = app::build_global_arrays(r, 0, 2);
  const app::GlobalArrayView* out = nullptr;
  for (const auto& a : g.arrays)
    if (a.name == "out (double)") out = &a;
  ASSERT_NE(out, nullptr);
  EXPECT_EQ(out->elements(), 4);
  EXPECT_EQ(out->element_text(3), "-4.5");
  EXPECT_TRUE(out->element_written_now(3));
}

}  // namespace
