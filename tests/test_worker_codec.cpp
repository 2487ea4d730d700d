// The kernel worker's wire form (core/worker/): what a worker sends, this process reads back
// whole — the trace's hash, the outputs, the hazards, the error and the lines they name — and a
// message cut short or tampered with is a WireError, never a crash.
#include <gtest/gtest.h>
#include <poll.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <thread>

#include "core/worker/frames.h"
#include "core/worker/worker_codec.h"
#include "tests/test_util.h"

namespace syncscope::test {
namespace {

using worker::WireError;
using worker::WireReader;
using worker::WireWriter;

RunConfig config(RunOptions o) { return std::get<RunConfig>(resolve(builtin_registry(), o)); }

SimOutcome round_trip(const SimOutcome& out) {
  WireWriter w;
  worker::write_outcome(w, out);
  WireReader r(w.bytes());
  return worker::read_outcome(r);
}

TEST(WorkerCodec, AnOutcomeComesBackWhole) {
  for (const char* algo : {"kogge-stone", "two-phase-scan", "hierarchical-scan", "block-exclusive-sum"}) {
    RunOptions o{.algorithm = algo};
    o.bug = algo == std::string("kogge-stone") ? "no-second-barrier" : "none";
    const RunConfig c = config(o);
    SimOutcome out = c.algorithm->simulate(c.problem, make_input(c), sim_options(c));
    for (sim::ArrayInfo& info : out.trace.arrays)  // a 2D shared array's row length travels too
      if (info.space == sim::MemSpace::Shared) info.columns = 4;
    const SimOutcome back = round_trip(out);
    EXPECT_EQ(back.trace.hash(), out.trace.hash()) << algo;
    ASSERT_EQ(back.trace.arrays.size(), out.trace.arrays.size()) << algo;
    for (size_t k = 0; k < out.trace.arrays.size(); ++k) EXPECT_EQ(back.trace.arrays[k].columns, out.trace.arrays[k].columns);
    EXPECT_EQ(back.output_bits, out.output_bits) << algo;
    EXPECT_EQ(back.output_poison, out.output_poison) << algo;
    EXPECT_EQ(back.output_array, out.output_array) << algo;
    ASSERT_EQ(back.globals_final.size(), out.globals_final.size()) << algo;
    const std::vector<sim::HazardGroup> sent = out.trace.hazards.groups(), got = back.trace.hazards.groups();
    ASSERT_EQ(got.size(), sent.size()) << algo;
    for (size_t k = 0; k < sent.size(); ++k) {
      const sim::HazardGroup& a = sent[k];
      const sim::HazardGroup& b = got[k];
      EXPECT_EQ(a.count, b.count);
      EXPECT_EQ(sim::LineTable::describe(a.first.line_first), sim::LineTable::describe(b.first.line_first));
      EXPECT_EQ(a.indices, b.indices);
    }
  }
}

TEST(WorkerCodec, TheKoggeStoneRaceIsStillThere) {
  const RunConfig c = config({.algorithm = "kogge-stone", .bug = "no-second-barrier"});
  const SimOutcome back = round_trip(c.algorithm->simulate(c.problem, make_input(c), sim_options(c)));
  EXPECT_FALSE(back.trace.hazards.empty());
}

// `syncscope run` asks for no copies of global memory: the worker then sends the output and the
// steps, and none of the snapshots, and the result is the same.
TEST(WorkerCodec, WithoutGlobalMemoryTheOutcomeIsSmallerAndTheOutputTheSame) {
  RunConfig c = config({.algorithm = "hierarchical-scan", .n = 1 << 14, .tpb = 256});
  const SimOutcome with = c.algorithm->simulate(c.problem, make_input(c), sim_options(c));
  c.global_memory = false;
  WireWriter sent_options;
  worker::write_sim_options(sent_options, sim_options(c));
  WireReader options_reader(sent_options.bytes());
  const sim::SimOptions options = worker::read_sim_options(options_reader);
  EXPECT_FALSE(options.global_memory);
  const SimOutcome without = c.algorithm->simulate(c.problem, make_input(c), options);
  EXPECT_FALSE(with.trace.globals_before.empty());
  EXPECT_FALSE(with.globals_final.empty());
  EXPECT_TRUE(without.trace.globals_before.empty());
  EXPECT_TRUE(without.globals_final.empty());
  for (const sim::LaunchTrace& l : without.trace.launches) EXPECT_TRUE(l.globals_after.empty());
  EXPECT_EQ(without.output_bits, with.output_bits);
  EXPECT_EQ(without.trace.launches.size(), with.trace.launches.size());
  WireWriter a, b;
  worker::write_outcome(a, with);
  worker::write_outcome(b, without);
  size_t snapshot_bytes = 0;  // the first snapshot of each array is sent whole: its elements' bits at least
  for (const sim::ArraySnapshot& snapshot : with.trace.globals_before) snapshot_bytes += snapshot.bits.size() * 4;
  EXPECT_GT(snapshot_bytes, 0u);
  EXPECT_LE(b.bytes().size() + snapshot_bytes, a.bytes().size()) << "the snapshots are not sent";
  const SimOutcome back = round_trip(without);
  EXPECT_EQ(back.output_bits, with.output_bits);
  EXPECT_TRUE(back.globals_final.empty());
}

void expect_same_snapshots(const std::vector<sim::ArraySnapshot>& got, const std::vector<sim::ArraySnapshot>& sent,
                           const std::string& where) {
  ASSERT_EQ(got.size(), sent.size()) << where;
  for (size_t k = 0; k < sent.size(); ++k) {
    EXPECT_EQ(got[k].array, sent[k].array) << where;
    EXPECT_EQ(got[k].bits, sent[k].bits) << where << " array " << sent[k].array;
    EXPECT_EQ(got[k].poison, sent[k].poison) << where << " array " << sent[k].array;
  }
}

// An array that did not change since its last snapshot in the outcome (an input across launches,
// the last launch's output as the final one) crosses the pipe once; every snapshot comes back as
// it was, shared ones of every step included, and the poison of uninitialized cells too.
TEST(WorkerCodec, ASnapshotThatRepeatsCrossesOnceAndComesBackTheSame) {
  RunConfig c = config({.algorithm = "hierarchical-scan", .n = 1 << 14, .tpb = 256});
  SimOutcome out = c.algorithm->simulate(c.problem, make_input(c), sim_options(c));
  ASSERT_FALSE(out.globals_final.empty());
  ASSERT_FALSE(out.trace.launches.empty());
  // A poisoned cell in the last launch's snapshot of an array, which the final one repeats.
  const int poisoned = out.globals_final.front().array;
  out.globals_final.front().poison.back() = 1;
  for (sim::ArraySnapshot& s : out.trace.launches.back().globals_after)
    if (s.array == poisoned) s.poison.back() = 1;
  WireWriter w;
  worker::write_outcome(w, out);
  SimOutcome without_final = out;  // the final snapshots and the output repeat the last launch's
  without_final.globals_final.clear();
  without_final.output_array = -1;
  without_final.output_bits.clear();
  without_final.output_poison.clear();
  WireWriter shorter;
  worker::write_outcome(shorter, without_final);
  size_t final_bytes = 0;
  for (const sim::ArraySnapshot& s : out.globals_final) final_bytes += s.bits.size() * 4;
  EXPECT_GT(final_bytes, 10000u);
  const size_t per_reference = 4 + 1;  // the array, "the same as its last"
  EXPECT_LE(w.bytes().size() - shorter.bytes().size(), per_reference * (out.globals_final.size() + 1))
      << "the final snapshots crossed again";
  WireReader r(w.bytes());
  const SimOutcome back = worker::read_outcome(r);
  expect_same_snapshots(back.trace.globals_before, out.trace.globals_before, "before");
  ASSERT_EQ(back.trace.launches.size(), out.trace.launches.size());
  for (size_t k = 0; k < out.trace.launches.size(); ++k) {
    expect_same_snapshots(back.trace.launches[k].globals_after, out.trace.launches[k].globals_after,
                          "after launch " + std::to_string(k));
    const auto& blocks = out.trace.launches[k].blocks;
    ASSERT_EQ(back.trace.launches[k].blocks.size(), blocks.size());
    for (size_t b = 0; b < blocks.size(); ++b)
      for (size_t step = 0; step < blocks[b].steps.size(); ++step)
        expect_same_snapshots(back.trace.launches[k].blocks[b].steps[step].shared, blocks[b].steps[step].shared,
                              "shared, step " + std::to_string(step));
  }
  expect_same_snapshots(back.globals_final, out.globals_final, "final");
  EXPECT_EQ(back.output_bits, out.output_bits);
  EXPECT_EQ(back.output_poison, out.output_poison);
}

// "The same as the last one of array 7" with no array 7 before it is a tampered message.
TEST(WorkerCodec, ASnapshotTheSameAsNoneBeforeItIsRefused) {
  SimOutcome out;
  out.trace.globals_before.push_back(sim::ArraySnapshot{0, {1, 2, 3}, {0, 0, 0}});
  out.globals_final.push_back(sim::ArraySnapshot{0, {1, 2, 3}, {0, 0, 0}});
  WireWriter w;
  worker::write_outcome(w, out);
  std::string bytes = w.bytes();
  // The first snapshot's array id sits after the count of arrays (0) and the count of snapshots (1).
  const size_t id_at = 8 + 8;
  const int32_t other = 7;
  std::memcpy(bytes.data() + id_at, &other, sizeof other);
  WireReader r(bytes);
  EXPECT_THROW(worker::read_outcome(r), WireError);
}

// Poison flags are one a cell or none: more would cost nothing against the bound below, and each
// 5-byte reference to such a snapshot would copy them again (a 1 MiB answer could ask for 45 GB).
TEST(WorkerCodec, PoisonFlagsWithoutTheirCellsAreRefused) {
  SimOutcome out;
  out.trace.globals_before.push_back(sim::ArraySnapshot{0, {}, std::vector<uint8_t>(4096, 1)});
  for (int k = 0; k < 8; ++k) out.globals_final.push_back(out.trace.globals_before[0]);
  WireWriter w;
  worker::write_outcome(w, out);
  WireReader r(w.bytes());
  EXPECT_THROW(worker::read_outcome(r), WireError);
}

// A few bytes may stand for a large array (a reference, a uniform array): what they add up to is
// bounded, so a garbled answer cannot make syncscope allocate gigabytes.
TEST(WorkerCodec, SnapshotsThatStandForTooManyCellsAreRefused) {
  SimOutcome out;
  out.trace.globals_before.push_back(sim::ArraySnapshot{0, std::vector<uint32_t>(1000, 7), std::vector<uint8_t>(1000, 1)});
  for (int k = 0; k < 20; ++k) out.globals_final.push_back(out.trace.globals_before.front());
  WireWriter w;
  worker::write_outcome(w, out);
  WireReader enough(w.bytes());
  EXPECT_EQ(worker::read_outcome(enough, 21000).globals_final.size(), 20u);
  WireReader too_little(w.bytes());
  EXPECT_THROW(worker::read_outcome(too_little, 20999), WireError);
}

TEST(WorkerCodec, AnErrorAndItsLinesComeBack) {
  SimOutcome out;
  const sim::LineId line = sim::LineTable::intern("/home/student/k.h", 32, "kernel");
  out.trace.error = sim::SimError{sim::SimErrorKind::Kernel, "the kernel called abort() at k.h:32", 0, 3, 1, {line}};
  const SimOutcome back = round_trip(out);
  ASSERT_TRUE(back.trace.error.has_value());
  EXPECT_EQ(back.trace.error->message, "the kernel called abort() at k.h:32");
  EXPECT_EQ(back.trace.error->block, 3);
  ASSERT_EQ(back.trace.error->lines.size(), 1u);
  EXPECT_EQ(sim::LineTable::describe(back.trace.error->lines[0]), "/home/student/k.h:32");
}

// Device printf travels with its step: thread, line (renumbered into this process's table), text,
// and the count the caps left out.
TEST(WorkerCodec, WhatThreadsPrintedComesBackWithTheirStep) {
  SimOutcome out;
  sim::LaunchTrace launch;
  sim::BlockTrace block;
  block.steps.resize(2);
  block.steps[0].printed = {{3, sim::LineTable::intern("/home/student/printf.cu", 19, "k"), "block 0 thread 3: 30"},
                            {700, sim::LineTable::intern("/home/student/printf.cu", 25, "k"), "two\nlines"}};
  block.steps[1].printed_dropped = 4096;
  launch.blocks = {block};
  launch.steps = 2;
  out.trace.launches = {launch};
  const SimOutcome back = round_trip(out);
  EXPECT_EQ(back.trace.hash(), out.trace.hash());
  ASSERT_EQ(back.trace.launches.size(), 1u);
  ASSERT_EQ(back.trace.launches[0].blocks.size(), 1u);
  const auto& steps = back.trace.launches[0].blocks[0].steps;
  ASSERT_EQ(steps.size(), 2u);
  ASSERT_EQ(steps[0].printed.size(), 2u);
  EXPECT_EQ(steps[0].printed[0].thread, 3);
  EXPECT_EQ(sim::LineTable::describe(steps[0].printed[0].line), "/home/student/printf.cu:19");
  EXPECT_EQ(steps[0].printed[0].text, "block 0 thread 3: 30");
  EXPECT_EQ(steps[0].printed[1].thread, 700);
  EXPECT_EQ(sim::LineTable::describe(steps[0].printed[1].line), "/home/student/printf.cu:25");
  EXPECT_EQ(steps[0].printed[1].text, "two\nlines");
  EXPECT_EQ(steps[0].printed_dropped, 0u);
  EXPECT_TRUE(steps[1].printed.empty());
  EXPECT_EQ(steps[1].printed_dropped, 4096u);
  // Cut anywhere, the printed lines' part of the message is refused too.
  WireWriter w;
  worker::write_outcome(w, out);
  for (size_t cut = 0; cut < w.bytes().size(); ++cut) {
    WireReader r(std::string_view(w.bytes()).substr(0, cut));
    EXPECT_THROW(worker::read_outcome(r), WireError) << "cut at " << cut;
  }
}

TEST(WorkerCodec, EveryCutOfAMessageIsAWireError) {
  const RunConfig c = config({.algorithm = "kogge-stone"});
  WireWriter w;
  worker::write_outcome(w, c.algorithm->simulate(c.problem, make_input(c), sim_options(c)));
  const std::string whole = w.bytes();
  for (size_t cut = 0; cut < whole.size(); cut += 1 + cut / 7) {
    WireReader r(std::string_view(whole).substr(0, cut));
    EXPECT_THROW(worker::read_outcome(r), WireError) << "cut at " << cut << " of " << whole.size();
  }
}

TEST(WorkerCodec, ACountPastTheEndIsRefusedBeforeAnyAllocation) {
  WireWriter w;
  w.put<uint64_t>(uint64_t{1} << 60);  // "this many arrays follow"
  WireReader r(w.bytes());
  EXPECT_THROW(worker::read_outcome(r), WireError);
}

TEST(WorkerCodec, AlgoInfoAndProblemComeBack) {
  const AlgoInfo& info = builtin_registry().find("kogge-stone")->info;
  WireWriter w;
  worker::write_algo_info(w, info);
  WireReader r(w.bytes());
  const AlgoInfo back = worker::read_algo_info(r);
  r.expect_end();
  EXPECT_EQ(back.name, info.name);
  EXPECT_EQ(back.defaults, info.defaults);
  ASSERT_EQ(back.bugs.size(), info.bugs.size());
  EXPECT_EQ(back.bugs[0].name, info.bugs[0].name);
  EXPECT_EQ(back.sources, info.sources);
}

TEST(WorkerCodec, ACheckComesBackWithItsField) {
  for (const CheckResult& c : {CheckResult{}, CheckResult{ProblemError{ProblemField::Tpb, "must be a power of two", false}}}) {
    WireWriter w;
    worker::write_check(w, c);
    WireReader r(w.bytes());
    const CheckResult back = worker::read_check(r);
    r.expect_end();
    ASSERT_EQ(back.has_value(), c.has_value());
    if (!c) continue;
    EXPECT_EQ(back->field, ProblemField::Tpb);
    EXPECT_EQ(back->why, "must be a power of two");
  }
}

TEST(WorkerCodec, AFaultFrameReadsBack) {
  const uint64_t frames[] = {0x1234, 0x5678};
  char bytes[worker::kFaultFrameBytes];
  const size_t size = worker::fault_frame(bytes, worker::FaultKind::RefusedCall, 57, 0, frames, 2);
  // Through a pipe and the FrameReader syncscope reads its worker with, in two pieces: a reader
  // must put a frame together from reads that end anywhere.
  int pipe_fds[2];
  ASSERT_EQ(pipe(pipe_fds), 0);
  worker::FrameReader reader;
  std::optional<worker::Frame> frame;
  size_t sent = 0;
  for (const size_t cut : {size_t{3}, size}) {
    ASSERT_EQ(write(pipe_fds[1], bytes + sent, cut - sent), static_cast<ssize_t>(cut - sent));
    sent = cut;
    while (!frame) {
      pollfd readable{pipe_fds[0], POLLIN, 0};
      if (poll(&readable, 1, 0) <= 0) break;
      ASSERT_TRUE(reader.read_some(pipe_fds[0]));
      frame = reader.take();
    }
  }
  close(pipe_fds[1]);
  EXPECT_FALSE(reader.read_some(pipe_fds[0]));  // nothing after it: the end of the pipe
  close(pipe_fds[0]);
  ASSERT_TRUE(frame.has_value());
  EXPECT_EQ(frame->kind, 'F');
  const worker::WorkerFault f = worker::decode_fault(frame->payload);
  EXPECT_EQ(f.kind, worker::FaultKind::RefusedCall);
  EXPECT_EQ(f.number, 57);
  EXPECT_EQ(f.frames, (std::vector<uint64_t>{0x1234, 0x5678}));
}

TEST(WorkerCodec, ALongFrameCrossesAPipeAndAFileWhole) {
  // Megabytes go to a pipe as the pages they lie in (vmsplice) and to anything else written; the
  // reader gets the same bytes either way, read while the writer is still writing.
  std::string payload(size_t{3} << 20, '\0');
  for (size_t k = 0; k < payload.size(); ++k) payload[k] = static_cast<char>(k * 7 + k / 4096);
  int pipe_fds[2];
  ASSERT_EQ(pipe(pipe_fds), 0);
  bool written = false;
  std::thread writer([&] {
    written = worker::write_frame(pipe_fds[1], 'A', payload);
    close(pipe_fds[1]);
  });
  const std::optional<worker::Frame> piped = worker::read_frame(pipe_fds[0]);
  writer.join();
  close(pipe_fds[0]);
  EXPECT_TRUE(written);
  ASSERT_TRUE(piped.has_value());
  EXPECT_EQ(piped->kind, 'A');
  EXPECT_TRUE(piped->payload == payload);

  FILE* file = std::tmpfile();
  ASSERT_NE(file, nullptr);
  ASSERT_TRUE(worker::write_frame(fileno(file), 'S', payload));
  ASSERT_EQ(lseek(fileno(file), 0, SEEK_SET), 0);
  const std::optional<worker::Frame> filed = worker::read_frame(fileno(file));
  std::fclose(file);
  ASSERT_TRUE(filed.has_value());
  EXPECT_EQ(filed->kind, 'S');
  EXPECT_TRUE(filed->payload == payload);
}

}  // namespace
}  // namespace syncscope::test
