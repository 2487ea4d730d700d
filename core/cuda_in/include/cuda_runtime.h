// A translated .cu's `#include <cuda_runtime.h>`: syncscope's own CUDA runtime on the simulator.
#pragma once
#include "core/cuda_in/cu_runtime.h"
