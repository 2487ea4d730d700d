#!/usr/bin/env bash
# Installs the Debian 12 packages syncscope builds and tests with (DESIGN.md §4); clang and its
# runtime libraries are for the fuzzing targets (libFuzzer) only; libseccomp and libdw (elfutils)
# sandbox the kernel worker and name the line a kernel faulted at; libclang-cpp14-dev (the library)
# and libclang-14-dev (its headers) build syncscope-translate, which takes a student's .cu.
# Idempotent: asks dpkg first and stays silent when everything is already there.
set -euo pipefail

packages=(
  build-essential cmake make pkg-config ninja-build
  libglfw3-dev libimgui-dev python3-glad python3-jinja2
  libboost-context-dev libcli11-dev nlohmann-json3-dev
  libstb-dev libgif-dev libgtest-dev libbenchmark-dev
  fonts-dejavu-core xvfb xauth xdotool imagemagick
  libseccomp-dev libdw-dev
  clang libclang-rt-14-dev libclang-cpp14-dev libclang-14-dev llvm-14-dev
)
# Optional peers for the benchmarks only: `scripts/install-deps.sh --bench`.
if [[ "${1:-}" == "--bench" ]]; then
  packages+=(oclgrind ocl-icd-opencl-dev opencl-headers)
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

echo "install-deps: installing ${missing[*]}"
sudo=""
if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
# Update the package lists only when they were never fetched or an install fails on stale lists.
if ! $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/tmp/syncscope-apt.log 2>&1; then
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
