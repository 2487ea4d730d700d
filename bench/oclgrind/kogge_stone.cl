// The OpenCL twin of kernels/kogge_stone.h (KoggeStoneScanKernel), for the Oclgrind comparison:
// the same loads, read phase / barrier / write phase / barrier, and store.
__kernel void kogge_stone_scan(__global const float* x, __global float* y, int n, __local float* shared_) {
  const int t = get_local_id(0);
  const int i = get_global_id(0);
  const int block = get_local_size(0);
  shared_[t] = i < n ? x[i] : 0.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int offset = 1; offset < block; offset *= 2) {
    float partner = 0.0f;
    if (t >= offset) partner = shared_[t - offset];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (t >= offset) shared_[t] += partner;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (i < n) y[i] = shared_[t];
}
