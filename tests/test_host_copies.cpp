// A .cu program on the GPU is compared with the simulator by its copies to the host
// (core/cuda_program_gpu.h): the recorder's file read back, and the comparison's verdict.
#include <gtest/gtest.h>

#include <cstring>

#include "core/child_process.h"
#include "core/cuda_program_gpu.h"

namespace syncscope::test {
namespace {

std::vector<uint8_t> ints(std::initializer_list<int32_t> values) {
  std::vector<uint8_t> bytes(values.size() * 4);
  std::memcpy(bytes.data(), values.begin(), bytes.size());
  return bytes;
}

HostCopy copy(int line, const char* array, std::initializer_list<int32_t> values) {
  return HostCopy{line, array, 4, ints(values)};
}

TEST(HostCopies, TheRecordersFileReadsBackCopyByCopy) {
  const std::vector<uint8_t> first = ints({1, 2, 3}), second = ints({-7});
  std::string text = "copy 41 12\n" + std::string(first.begin(), first.end()) + "\n";
  text += "copy 58 4\n" + std::string(second.begin(), second.end()) + "\n";
  std::vector<HostCopy> copies;
  ASSERT_TRUE(parse_host_copies(text, &copies));
  ASSERT_EQ(copies.size(), 2u);
  EXPECT_EQ(copies[0].line, 41);
  EXPECT_EQ(copies[0].bytes, first);
  EXPECT_EQ(copies[1].line, 58);
  EXPECT_EQ(copies[1].bytes, second);
  // A copy's bytes may hold newlines and the word "copy": the count, not the text, delimits them.
  const std::string tricky = "copy\n";
  std::vector<HostCopy> one;
  ASSERT_TRUE(parse_host_copies("copy 7 5\n" + tricky + "\n", &one));
  EXPECT_EQ(std::string(one[0].bytes.begin(), one[0].bytes.end()), tricky);
}

TEST(HostCopies, ADamagedRecordIsRefusedNotGuessed) {
  std::vector<HostCopy> copies;
  EXPECT_FALSE(parse_host_copies("copy 41 12\nabc", &copies));       // cut short (a crash mid-write)
  EXPECT_FALSE(parse_host_copies("copy 41 3\nabcd\n", &copies));     // no newline after the bytes
  EXPECT_FALSE(parse_host_copies("paste 41 3\nabc\n", &copies));
  EXPECT_FALSE(parse_host_copies("copy 41 999999999999\nabc\n", &copies));
  std::vector<HostCopy> none;
  EXPECT_TRUE(parse_host_copies("", &none));  // a program that copied nothing back
  EXPECT_TRUE(none.empty());
}

TEST(HostCopies, IdenticalCopiesAgree) {
  const std::vector<HostCopy> sim = {copy(41, "d_out", {1, 2, 3, 4}), copy(58, "d_sum", {10})};
  EXPECT_TRUE(compare_host_copies(sim, sim).identical);
  EXPECT_TRUE(compare_host_copies({}, {}).identical);
}

TEST(HostCopies, TheFirstDifferingCopyIsNamedWithItsElements) {
  const std::vector<HostCopy> sim = {copy(41, "d_out", {1, 2, 3, 4}), copy(58, "d_sum", {10})};
  std::vector<HostCopy> gpu = sim;
  gpu[1].bytes = ints({11});
  gpu[0].bytes = ints({1, 2, 9, 4});
  const HostCopyComparison c = compare_host_copies(sim, gpu);
  EXPECT_FALSE(c.identical);
  EXPECT_EQ(c.difference, "copy 1 to the host (d_out, line 41): 1 of 4 elements differ, at 2");
}

TEST(HostCopies, DifferentCountsOrSizesAreNamed) {
  const std::vector<HostCopy> sim = {copy(41, "d_out", {1, 2, 3, 4})};
  std::vector<HostCopy> gpu = {copy(41, "d_out", {1, 2, 3, 4}), copy(50, "d_out", {1})};
  EXPECT_EQ(compare_host_copies(sim, gpu).difference, "the simulator made 1 copies to the host, the GPU 2");
  gpu = {copy(41, "d_out", {1, 2})};
  EXPECT_EQ(compare_host_copies(sim, gpu).difference,
            "copy 1 to the host (d_out, line 41): the simulator copied 16 bytes, the GPU 8");
}

TEST(ChildProcess, FeedsStdinKeepsStderrApartAndStopsAtTheDeadline) {
  ChildOptions o;
  o.input = "hello\n";
  o.merge_stderr = false;
  const ChildResult echoed = run_child({"sh", "-c", "cat; echo oops >&2; exit 3"}, o);
  EXPECT_EQ(echoed.output, "hello\n");
  EXPECT_EQ(echoed.errors, "oops\n");
  EXPECT_EQ(echoed.exit_code, 3);

  ChildOptions deadline;
  deadline.wall_seconds = 1;
  // The shell's child keeps the pipe open: the whole group must go.
  const ChildResult stopped = run_child({"sh", "-c", "sleep 30 & sleep 30"}, deadline);
  EXPECT_TRUE(stopped.timed_out);
  EXPECT_EQ(stopped.exit_code, -1);
  EXPECT_EQ(describe_end(stopped, deadline), "stopped after 1 s");

  ChildOptions env;
  env.environment = {{"SYNCSCOPE_TEST_VALUE", "42"}};
  EXPECT_EQ(run_child({"sh", "-c", "printf %s \"$SYNCSCOPE_TEST_VALUE\""}, env).output, "42");
  const ChildResult missing = run_child({"/nonexistent/program"});
  EXPECT_EQ(missing.exit_code, 127);
  EXPECT_FALSE(missing.failure.empty());
}

}  // namespace
}  // namespace syncscope::test
