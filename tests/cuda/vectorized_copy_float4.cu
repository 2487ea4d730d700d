// Vectorized memory access, after NVIDIA's "CUDA Pro Tip: Increase Performance with Vectorized Memory
// Access": a copy that moves four ints at a time through int4, a scalar loop for the elements left over,
// and a float4 sum through a shared tile read as float2.
// BUG_TAIL_PAST_END: one thread copies one element past the arrays' end; the allocation has room after
// it, so the check still passes: only the out-of-bounds report shows it.
#include <cstdio>
#include <vector>

__global__ void copyVector4(const int *in, int *out, int n)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    for (int i = idx; i < n / 4; i += blockDim.x * gridDim.x)
        reinterpret_cast<int4 *>(out)[i] = reinterpret_cast<const int4 *>(in)[i];
    // the elements after the last whole int4
    int rest = idx + n / 4 * 4;
#ifndef BUG_TAIL_PAST_END
    if (rest < n)
#else
    if (rest <= n)
#endif
        out[rest] = in[rest];
}

__global__ void sumPairs(const float *in, float *out)
{
    __shared__ float tile[128];
    int t = threadIdx.x;
    float4 v = reinterpret_cast<const float4 *>(in)[blockIdx.x * 32 + t];
    tile[4 * t] = v.x;
    tile[4 * t + 1] = v.y;
    tile[4 * t + 2] = v.z;
    tile[4 * t + 3] = v.w;
    // step: the tile holds the block's 128 floats
    __syncthreads();
    float2 *pairs = (float2 *)&tile[0];
    float2 p = pairs[t];
    float2 q = pairs[t + 32];
    out[blockIdx.x * 32 + t] = p.x + p.y + q.x + q.y;
}

int main()
{
    const int n = 1030, blocks = 4;
    std::vector<int> in(n), out(n, -1);
    for (int i = 0; i < n; ++i) in[i] = (i * 37) % 101;
    int *dIn, *dOut;
    cudaMalloc(&dIn, n * sizeof(int));
    cudaMalloc(&dOut, n * sizeof(int));
    cudaMemcpy(dIn, in.data(), n * sizeof(int), cudaMemcpyHostToDevice);
    copyVector4<<<2, 128>>>(dIn, dOut, n);
    cudaMemcpy(out.data(), dOut, n * sizeof(int), cudaMemcpyDeviceToHost);
    bool ok = true;
    for (int i = 0; i < n; ++i) if (out[i] != in[i]) ok = false;

    std::vector<float> f(blocks * 128), sums(blocks * 32);
    for (int i = 0; i < blocks * 128; ++i) f[i] = (float)(i % 9);
    float *dF, *dSums;
    cudaMalloc(&dF, f.size() * sizeof(float));
    cudaMalloc(&dSums, sums.size() * sizeof(float));
    cudaMemcpy(dF, f.data(), f.size() * sizeof(float), cudaMemcpyHostToDevice);
    sumPairs<<<blocks, 32>>>(dF, dSums);
    cudaMemcpy(sums.data(), dSums, sums.size() * sizeof(float), cudaMemcpyDeviceToHost);
    float total = 0;
    for (int b = 0; b < blocks; ++b)
        for (int t = 0; t < 32; ++t) {
            const float *x = &f[b * 128];
            float want = x[2 * t] + x[2 * t + 1] + x[2 * t + 64] + x[2 * t + 65];
            if (sums[b * 32 + t] != want) ok = false;
            total += sums[b * 32 + t];
        }
    printf("out[1029] = %d, total = %.1f %s\n", out[n - 1], total, ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
