// The NVIDIA blog's "Using Shared Memory in CUDA C/C++" dynamicReverse, as a listing gives it:
// no main(), and its shared array sized by the launch, not by the kernel:
//   syncscope run dynamic_reverse.cu --grid 1 --block 64 --arg n=64 --shared-bytes 256 [--gpu]
// Without --shared-bytes the array has no elements, and every access is out of bounds.
__global__ void dynamicReverse(int *d, int n)
{
  extern __shared__ int s[];
  int t = threadIdx.x;
  int tr = n - t - 1;
  s[t] = d[t];
#ifndef BUG_NO_BARRIER
  __syncthreads();
#endif
  d[t] = s[tr];
}
