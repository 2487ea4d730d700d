#!/usr/bin/env bash
# Builds the GPU-enabled binaries here (nvcc; GUI off) and packs them, with the two shared
# libraries the GPU machine lacks, into .device/ for `device run ... carry: [".device"]`.
# The GPU machine has CUDA but no Debian packages, so it runs what is built here.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake --preset device -DSYNCSCOPE_CUDA=ON >/dev/null
cmake --build --preset device
rm -rf .device && mkdir -p .device/lib
cp build-device/syncscope build-device/tests/syncscope_gpu_tests build-device/tests/syncscope_tests \
   build-device/bench/syncscope_bench .device/
for lib in libboost_context.so.1.74.0 libbenchmark.so.1debian; do cp -L "/usr/lib/x86_64-linux-gnu/$lib" .device/lib/; done
# The kernel worker's sandbox and line finder (libseccomp, elfutils' libdw) and what libdw needs.
ldd build-device/syncscope | awk '/libseccomp|libdw|libelf|liblzma|libbz2|libzstd/ { print $3 }' | xargs -r -I{} cp -L {} .device/lib/
mkdir -p .device/assets && cp -r assets/scenarios assets/perf .device/assets/
[[ -n "${BEFORE_BENCH:-}" ]] && cp "$BEFORE_BENCH" .device/syncscope_bench_before
cp scripts/device-gpu-check.sh scripts/device-perf.sh scripts/device-cuda-check.sh scripts/racecheck_compare.py .device/
# The starter kernel files, with their CPU libraries compiled here (the device has no Boost
# headers), at one absolute path both machines share.
# (and tests/kernel_files/warp_bitwise.h: the bitwise warp reductions against the GPU's intrinsics)
mkdir -p .device/starters /tmp/syncscope-starters
cp assets/kernels/*.h tests/kernel_files/warp_bitwise.h .device/starters/
cp assets/kernels/*.h tests/kernel_files/warp_bitwise.h /tmp/syncscope-starters/
for f in /tmp/syncscope-starters/*.h; do SYNCSCOPE_CACHE_DIR=$PWD/.device/kernel-cache build-device/syncscope run --kernel "$f" > /dev/null; done
# The plain CUDA corpus: translated and compiled for the simulator here (the GPU machine has no
# Clang), every program and bug variant, at one absolute path both machines share.
mkdir -p .device/cuda && cp -r tests/cuda/*.cu tests/cuda/expected.txt tests/cuda/no_main tests/cuda/cuda_programs_gpu.sh .device/cuda/
rm -rf /tmp/syncscope-cuda && mkdir -p /tmp/syncscope-cuda && cp -r tests/cuda/*.cu tests/cuda/no_main /tmp/syncscope-cuda/
for f in /tmp/syncscope-cuda/*.cu; do
  echo "$f"
  for macro in $(grep -o 'BUG_[A-Z0-9_]*' "$f" | sort -u); do echo "$f --bug $macro"; done
done | SYNCSCOPE_CACHE_DIR=$PWD/.device/kernel-cache xargs -P "$(nproc)" -L1 sh -c 'build-device/syncscope run "$0" "$@" > /dev/null 2>&1 || true'
SYNCSCOPE_CACHE_DIR=$PWD/.device/kernel-cache build-device/syncscope run /tmp/syncscope-cuda/no_main/scale.cu \
  --grid 4 --block 64 --arg factor=0.5 > /dev/null
SYNCSCOPE_CACHE_DIR=$PWD/.device/kernel-cache build-device/syncscope run /tmp/syncscope-cuda/no_main/dynamic_reverse.cu \
  --grid 1 --block 64 --arg n=64 --shared-bytes 256 > /dev/null
rm -rf .device/kernel-cache/include-* .device/kernel-cache/pch-*
du -sh .device
