// Bank conflicts of 4-, 8- and 16-byte shared-memory accesses, one kernel each (a warp of 32 lanes).
// A GPU serves 8-byte accesses by half warps and 16-byte ones by quarter warps. Measured on an H100
// with ncu (l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum / _st.sum, 2026-11-27): 0, 2,
// 30, 0 and 1 conflicts per instruction, in the order below; syncscope counts the same passes.
__global__ void double_contiguous(double* out) {
  __shared__ double s[64];
  s[threadIdx.x] = threadIdx.x * 1.0;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}
__global__ void double_stride2(double* out) {
  __shared__ double s[64];
  s[2 * threadIdx.x] = threadIdx.x * 1.0;
  __syncthreads();
  out[threadIdx.x] = s[2 * threadIdx.x];
}
__global__ void double_stride16(double* out) {
  __shared__ double s[32 * 16];
  s[16 * threadIdx.x] = threadIdx.x * 1.0;
  __syncthreads();
  out[threadIdx.x] = s[16 * threadIdx.x];
}
__global__ void float4_contiguous(float4* out) {
  __shared__ float4 s[32];
  s[threadIdx.x] = make_float4(threadIdx.x, 1, 2, 3);
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}
__global__ void float_stride2(float* out) {
  __shared__ float s[64];
  s[2 * threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = s[2 * threadIdx.x];
}
