#include "app/view/code_model.h"

#include <algorithm>
#include <set>
#include <sstream>

#include "core/sources.h"

namespace syncscope::app {

CodeModel build_code_view(const RunResult& run, int launch, int step, int block, const std::string& preferred_file) {
  CodeModel m;
  m.files = run.config.algorithm->info.sources;
  const sim::Trace& t = run.sim.trace;
  const sim::BlockTrace* b = launch < static_cast<int>(t.launches.size()) ? t.launches[launch].find_block(block) : nullptr;
  if (!b && launch < static_cast<int>(t.launches.size()) && !t.launches[launch].blocks.empty())
    b = &t.launches[launch].blocks.front();
  const sim::StepTrace* st = b && step < static_cast<int>(b->steps.size()) ? &b->steps[step] : nullptr;

  // Which file: the one the user picked, else the one holding the barrier, else the first.
  std::string file = preferred_file;
  if (file.empty() && st && st->barrier != sim::kNoLine) file = sim::LineTable::get(st->barrier).file;
  if (file.empty() && st)
    for (const sim::Event& e : st->events)
      if (e.line != sim::kNoLine) {
        file = sim::LineTable::get(e.line).file;
        break;
      }
  if (file.empty() && !m.files.empty()) file = m.files.front();
  auto it = std::find(m.files.begin(), m.files.end(), file);
  if (it == m.files.end() && !file.empty()) m.files.push_back(file), it = m.files.end() - 1;
  m.file = static_cast<int>(it - m.files.begin());

  const std::shared_ptr<const SourceFile> source = find_source(file);
  if (!source) {
    m.missing = file + " is not embedded in this build";
    return m;
  }
  std::set<uint32_t> executed, racy, racy_across_warps;
  uint32_t barrier = 0;
  if (st) {
    for (const sim::Event& e : st->events) {
      if (e.line == sim::kNoLine || e.kind == sim::EventKind::Barrier) continue;
      const sim::SourceLine& l = sim::LineTable::get(e.line);
      if (l.file != file) continue;
      executed.insert(l.line);
      if (e.flags & sim::kRacy) racy.insert(l.line);
      if ((e.flags & sim::kRacy) && !(e.flags & sim::kRaceInOneWarp)) racy_across_warps.insert(l.line);
    }
    if (st->barrier != sim::kNoLine && sim::LineTable::get(st->barrier).file == file)
      barrier = sim::LineTable::get(st->barrier).line;
  }
  std::istringstream in(source->text);
  std::string text;
  for (int n = 1; std::getline(in, text); ++n)
    m.lines.push_back({n, text, static_cast<uint32_t>(n) == barrier, executed.count(n) > 0, racy.count(n) > 0,
                       racy.count(n) > 0 && racy_across_warps.count(n) == 0});
  m.focus_line = barrier ? static_cast<int>(barrier) : executed.empty() ? 1 : static_cast<int>(*executed.begin());
  return m;
}

}  // namespace syncscope::app
