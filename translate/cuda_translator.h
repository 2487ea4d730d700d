// Plain CUDA onto syncscope's simulator: a student's .cu is parsed by Clang as CUDA (with
// translate/cuda_parse_shim.h standing in for NVIDIA's headers) and its text is rewritten through
// Clang's Rewriter, construct by construct from the AST, never by text patterns. Every rewrite
// stays on the line it replaces, so the translation compiled with `#line 1 "FILE.cu"` names the
// student's own lines in every report.
//
// What the rewrite does (the simulator side is core/cuda_in/cu_runtime.h):
//   - every __global__ and __device__ function becomes a template over the simulator's context,
//     which it takes as a first parameter `_c` (and passes on to the device functions it calls);
//   - pointers in device code become tracked pointers (`cu::ptr<float, Ctx>`), `*p` becomes `(p)[0]`;
//   - `__shared__` declarations become the block's shared arrays (1D, 2D, extern, scalars);
//   - threadIdx / blockIdx / blockDim / gridDim, barriers, fences and warp intrinsics become calls
//     on `_c`; a `// step: ...` comment on the line above a barrier becomes the step's caption;
//   - `kernel<<<grid, block, shared>>>(args)` becomes a simulated launch; `main` is renamed;
//   - what cannot be simulated is refused with its file, line and column and what to do instead.
#pragma once

#include <string>

#include "translate/translation.h"

namespace syncscope::translate {

Translation translate_cuda(const TranslateRequest& request);

// The shim and the headers a .cu includes most (<cstdio>, <cstdlib>, <vector>, <cmath>, <cstring>,
// which the simulator's runtime includes before the translation is compiled anyway), parsed once
// into a precompiled header at `path` (written whole or not at all), which a translation then
// reads in 0.1 s where parsing them took 0.25 s of every edit's translation. "" or why not.
std::string make_translation_pch(const std::string& path);

}  // namespace syncscope::translate
