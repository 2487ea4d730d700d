// A translated .cu's `#include <cuda_runtime_api.h>`: syncscope's CUDA runtime on the simulator.
#pragma once
#include "core/cuda_in/cu_runtime.h"
