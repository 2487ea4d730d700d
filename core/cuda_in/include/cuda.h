// A translated .cu's `#include <cuda.h>`: syncscope's CUDA runtime on the simulator.
#pragma once
#include "core/cuda_in/cu_runtime.h"
