// A fixed set of OS threads that run one job on every worker and wait for all of them.
#pragma once

#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace syncscope::sim {

class WorkerPool {
 public:
  explicit WorkerPool(int workers);  // the calling thread is worker 0; workers-1 threads are started
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  int size() const { return static_cast<int>(threads_.size()) + 1; }
  // Runs job(worker) on every worker and returns when all are done; rethrows the first exception.
  void run(const std::function<void(int)>& job);

 private:
  void loop(int worker);

  std::vector<std::thread> threads_;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  const std::function<void(int)>* job_ = nullptr;
  uint64_t generation_ = 0;
  int pending_ = 0;
  bool stopping_ = false;
  std::exception_ptr error_;
};

}  // namespace syncscope::sim
