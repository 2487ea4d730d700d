// Kogge-Stone inclusive scan of each block's section, as a plain .cu without main(): the yardstick
// for a translated program's speed against the built-in kogge-stone (README, "Bring your own CUDA"):
//   syncscope run bench/cuda/kogge_stone_no_main.cu --grid 256 --block 1024
//   syncscope run kogge-stone --n 262144 --tpb 1024 --dtype int32
__global__ void kogge_stone(const int *in, int *out)
{
    __shared__ int s[1024];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    s[t] = in[i];
    for (int offset = 1; offset < blockDim.x; offset *= 2) {
        __syncthreads();
        int partner = t >= offset ? s[t - offset] : 0;
        __syncthreads();
        s[t] += partner;
    }
    out[i] = s[t];
}
