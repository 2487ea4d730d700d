// A translated .cu's `#include <device_launch_parameters.h>`: syncscope's CUDA runtime on the simulator.
#pragma once
#include "core/cuda_in/cu_runtime.h"
