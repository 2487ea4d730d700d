// `syncscope worker`: the process a kernel file runs in (core/worker/kernel_worker.h starts it).
// It loads the compiled kernel behind the sandbox's walls (core/worker/sandbox.h) and answers
// requests on stdin/stdout (core/worker/frames.h) until stdin closes. Whatever the kernel does —
// abort(), exit(), a wild write, a forbidden system call — ends this process, never syncscope; the
// worker's last act is an F frame saying what happened and where.
#pragma once

namespace syncscope::worker {

int kernel_worker_main();

}  // namespace syncscope::worker
