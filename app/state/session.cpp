#include "app/state/session.h"

#include "core/config_codec.h"

#include <algorithm>
#include <utility>

namespace syncscope::app {

namespace {

// The scenario's "launch" or "step" past the end of the run now shown (where show_at put it instead),
// with the limit; nullopt when the run has them.
std::optional<std::string> past_the_end(const std::string& scenario, const AppState& shown, int launch, int step) {
  const Timeline& timeline = shown.timeline();
  if (timeline.size() == 0 || (shown.launch() == launch && shown.step() == step)) return std::nullopt;
  const std::string instead = "; shown at launch " + std::to_string(shown.launch()) + ", step " + std::to_string(shown.step());
  if (shown.launch() != launch)
    return scenario + ": \"launch\" " + std::to_string(launch) + ": this run has launches 0.." +
           std::to_string(timeline.launches() - 1) + instead;
  const int end = launch + 1 < timeline.launches() ? timeline.first_of_launch(launch + 1) : timeline.size();
  return scenario + ": \"step\" " + std::to_string(step) + ": launch " + std::to_string(launch) + " has steps 0.." +
         std::to_string(end - timeline.first_of_launch(launch) - 1) + instead;
}

}  // namespace

Session::Session(AppState& state, const Registry& registry, std::string gpu_helper)
    : state_(state), registry_(&registry), gpu_helper_(std::move(gpu_helper)) {}

void Session::edit(const ControlsForm& form) {
  form_ = form;
  check_ = check_form(*registry_, form_);
  if (check_.config) submit(*check_.config, state_.launch(), state_.step());
}

void Session::submit(RunConfig config, int launch, int step) {
  SimJob job;
  job.config = std::move(config);
  job.launch = launch;
  job.step = step;
  // A newer job overtakes the one in flight: its answer would be replaced at once anyway.
  if (latest_cancel_) latest_cancel_->store(true);
  latest_cancel_ = job.cancel;
  latest_progress_ = job.progress;
  submitted_at_ = std::chrono::steady_clock::now();
  simulation_note_.clear();
  simulation_.submit(std::move(job));
}

void Session::cancel_simulation() {
  if (!simulation_.busy() || !latest_cancel_) return;
  latest_cancel_->store(true);
  simulation_note_ = state_.run() ? "simulation cancelled; the last run stays on screen" : "the simulation was cancelled";
}

double Session::simulating_for() const {
  if (!simulation_.busy()) return 0;
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - submitted_at_).count();
}

std::optional<ProgressSnapshot> Session::simulation_progress() const {
  if (!simulation_.busy() || !latest_progress_) return std::nullopt;
  return latest_progress_->read();
}

std::optional<ProgressSnapshot> Session::lab_progress() const {
  if (!schedules_worker_.busy() || !lab_progress_) return std::nullopt;
  return lab_progress_->read();
}

void Session::open_kernel(const std::string& path, std::optional<KernelFile> loaded, const ProgramLaunch& launch) {
  if (kernel_watch_.open(path, std::move(loaded), launch)) adopt_kernel();
}

// A kernel file compiled: its registry replaces the last. The first time the app shows its
// algorithm at its defaults; after an edit the form stays and the run is simulated again.
void Session::adopt_kernel() {
  const bool showing_it = form_.algorithm == kernel_watch_.algorithm();
  registry_ = kernel_watch_.registry();
  const AlgorithmEntry* entry = registry_->find(kernel_watch_.algorithm());
  edit(showing_it ? form_ : form_.with_algorithm(*entry));
}

static std::optional<RunStop> stop_of(const RunResult& run, bool another_on_screen) {
  const auto& error = run.sim.trace.error;
  if (!error || error->kind == sim::SimErrorKind::Cancelled) return std::nullopt;
  RunStop stop{error->message, "", 0, run.sim.trace.launches.empty() && another_on_screen};
  if (!error->lines.empty()) {
    const sim::SourceLine& line = sim::LineTable::get(error->lines.front());
    stop.file = line.file;
    stop.line = static_cast<int>(line.line);
  }
  return stop;
}

bool Session::poll() {
  bool changed = false;
  if (kernel_watch_.poll()) adopt_kernel();
  if (auto perf = perf_worker_.take()) perf_results_ = std::move(*perf);
  std::optional<SimAnswer> answer = simulation_.take();
  if (answer && answer->run->sim.trace.error && answer->run->sim.trace.error->kind == sim::SimErrorKind::Cancelled)
    answer.reset();  // cancelled or overtaken: the last run stays on screen
  if (answer) run_stop_ = stop_of(*answer->run, state_.run() != nullptr);
  if (answer && run_stop_ && run_stop_->before_first_launch && state_.run()) {
    // Nothing of it to draw: the last run that ran stays on screen, the stop is said at its line.
    simulation_note_ = run_stop_->message + "; the last run that ran stays on screen";
    answer.reset();
  }
  if (answer) {
    // Where the class is now: the lesson may have played on while the run was simulated (another
    // block recorded, another schedule); the position at submission only when nothing is shown.
    int launch = state_.run() ? state_.launch() : answer->job.launch, step = state_.run() ? state_.step() : answer->job.step;
    const bool scenario_jump = pending_jump_ && !jump_from_scenario_.empty();
    if (pending_jump_) {
      launch = pending_jump_->first;
      step = pending_jump_->second;
      pending_jump_.reset();
    }
    state_.show_at(answer->run, launch, step);
    if (scenario_jump) scenario_notice_ = past_the_end(jump_from_scenario_, state_, launch, step);
    jump_from_scenario_.clear();
    if (!answer->run->config.detail_blocks.empty()) state_.set_focus_block(answer->run->config.detail_blocks.front());
    gpu_.reset();
    if (run_gpu_automatically) run_gpu();
    changed = true;
  }
  if (auto gpu_answer = gpu_worker_.take()) {
    gpu_status_ = gpu_answer->status;
    gpu_ = std::move(*gpu_answer);
  }
  if (auto lab_answer = schedules_worker_.take()) schedules_ = std::move(*lab_answer);
  if (auto lab_answer = gpu_runs_worker_.take()) gpu_runs_ = std::move(*lab_answer);
  return changed;
}

void Session::compare_schedules() {
  if (!state_.run_shared()) return;
  OutcomesJob job{state_.run_shared(), 0};
  lab_progress_ = job.progress;
  schedules_worker_.submit(std::move(job));
  // No GPU here: the GPU's recorded runs of this configuration (assets/gpu-runs) come beside the
  // schedules, if it was recorded; a GPU here runs only when asked (GPU runs).
  if (!::syncscope::gpu_status().usable && !gpu_outcomes()) gpu_runs_worker_.submit({state_.run_shared(), kRecordedOnly});
}

void Session::run_gpu_outcomes(int runs) {
  if (!state_.run_shared() || runs < 1) return;  // the panel and --gpu-runs refuse such counts with a message
  // The GPU's outcomes are read next to the simulator's schedules. Asked for first: a comparison
  // without a GPU here asks for a recording, which this job, the latest, then replaces.
  if (!schedule_outcomes() && !schedules_worker_.busy()) compare_schedules();
  gpu_runs_worker_.submit({state_.run_shared(), runs});
}

// The lab's answers stay valid while the configuration is the same (another schedule or another
// recorded block does not change what the kernel can compute).
static bool same_lab_config(const RunResult* a, const RunResult* b) {
  return a && b && same_problem(a->config, b->config);
}

const Outcomes* Session::schedule_outcomes() const {
  return schedules_ && same_lab_config(schedules_->for_run.get(), state_.run()) ? &schedules_->outcomes : nullptr;
}

const Outcomes* Session::gpu_outcomes() const {
  // A recording asked for alone and not found is no answer (empty outcomes, no error).
  if (gpu_runs_ && gpu_runs_->outcomes.runs == 0 && gpu_runs_->outcomes.error.empty()) return nullptr;
  return gpu_runs_ && same_lab_config(gpu_runs_->for_run.get(), state_.run()) ? &gpu_runs_->outcomes : nullptr;
}

void Session::use_schedule(const std::string& schedule) {
  const RunResult* run = state_.run();
  if (!run) return;
  auto parsed = sim::Schedule::parse(schedule, nullptr);
  if (!parsed) return;
  RunConfig config = run->config;
  config.schedule = *parsed;
  form_ = ControlsForm::from(config);
  check_ = FormCheck{config, {}};
  submit(std::move(config), state_.launch(), state_.step());
}

void Session::settle_within(std::chrono::milliseconds most) {
  if (kernel_watch_.wait()) adopt_kernel();
  if (simulation_.wait_idle_for(most)) poll();
}

void Session::settle() {
  if (kernel_watch_.wait()) adopt_kernel();
  simulation_.wait_idle();
  poll();
  gpu_worker_.wait_idle();
  schedules_worker_.wait_idle();
  gpu_runs_worker_.wait_idle();
  perf_worker_.wait_idle();
  poll();
}

void Session::load_perf_results(PerfResultsJob job) {
  if (perf_requested_) return;
  perf_requested_ = true;
  perf_worker_.submit(std::move(job));
}

void Session::run_gpu() {
  if (state_.run_shared()) gpu_worker_.submit(state_.run_shared());
}

const GpuAnswer* Session::gpu() const {
  return gpu_ && gpu_->for_run == state_.run_shared() ? &*gpu_ : nullptr;
}

void Session::focus_block(int block) {
  state_.set_focus_block(block);
  const RunResult* run = state_.run();
  if (!run) return;
  const auto recorded = state_.recorded_blocks();
  if (std::find(recorded.begin(), recorded.end(), block) != recorded.end()) return;
  // Detail for another block: run again with it recorded (the same run, deterministically).
  RunConfig config = run->config;
  config.detail_blocks = {block};
  form_.blocks = config.detail_blocks;
  submit(std::move(config), state_.launch(), state_.step());
}

void Session::jump(int launch, int step, int block) {
  const RunResult* run = state_.run();
  if (!run) return;
  state_.show_at(state_.run_shared(), launch, step);
  jump_from_scenario_.clear();
  state_.playback().playing = false;
  const sim::LaunchTrace& lt = run->sim.trace.launches.at(launch);
  if (!lt.find_block(block)) pending_jump_ = {launch, step};
  focus_block(block);
}

std::optional<std::string> Session::open_scenario(const std::string& path) {
  auto loaded = load_scenario(path);
  if (auto* why = std::get_if<std::string>(&loaded)) return *why;
  const Scenario& s = std::get<Scenario>(loaded);
  auto resolved = resolve(*registry_, s.options);
  if (auto* e = std::get_if<ConfigError>(&resolved)) return path + ": " + e->json_text();  // named as the file names it
  RunConfig config = std::get<RunConfig>(resolved);
  form_ = ControlsForm::from(config);
  check_ = FormCheck{config, {}};
  title_ = s.title;
  pending_jump_ = {s.launch, s.step};
  jump_from_scenario_ = path;
  scenario_notice_.reset();
  submit(std::move(config), s.launch, s.step);
  return std::nullopt;
}

std::optional<std::string> Session::take_scenario_notice() { return std::exchange(scenario_notice_, std::nullopt); }

std::optional<std::string> Session::save_scenario(const std::string& path) const {
  const RunResult* run = state_.run();
  if (!run) return std::string("nothing to save yet");
  Scenario s = scenario_of(run->config, state_.launch(), state_.step());
  s.title = title_;
  return app::save_scenario(path, s);
}

}  // namespace syncscope::app
