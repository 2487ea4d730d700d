// Dot product: grid-stride products per thread, a shared "cache" reduced in each block, block sums added on the host; float and double.
// From: Sanders & Kandrot, "CUDA by Example", ch. 5.3 (dot, shared memory and synchronization), as a template.
// BUG_NO_BARRIER: the __syncthreads in the reduction loop is left out; cache[cacheIndex + i] is read while its owner writes it.
// BUG_DIVERGENT_BARRIER: the __syncthreads moves inside if (cacheIndex < i), the book's own warning: not every thread reaches it (barrier divergence).
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

constexpr int N = 3000;
constexpr int threadsPerBlock = 128;
constexpr int blocksPerGrid = (N + threadsPerBlock - 1) / threadsPerBlock < 16 ? (N + threadsPerBlock - 1) / threadsPerBlock : 16;

template <typename T>
__global__ void dot(const T *a, const T *b, T *c)
{
    __shared__ T cache[threadsPerBlock];
    int tid = threadIdx.x + blockIdx.x * blockDim.x;
    int cacheIndex = threadIdx.x;

    T temp = 0;
    while (tid < N) {
        temp += a[tid] * b[tid];
        tid += blockDim.x * gridDim.x;
    }
    // set the cache values
    cache[cacheIndex] = temp;
    // step: every thread stores its running sum in cache[cacheIndex]
    __syncthreads();

    // for reductions, threadsPerBlock must be a power of 2
    int i = blockDim.x / 2;
    while (i != 0) {
        if (cacheIndex < i) {
            cache[cacheIndex] += cache[cacheIndex + i];
#ifdef BUG_DIVERGENT_BARRIER
            // step: only the threads cacheIndex < i add cache[cacheIndex + i] and reach this barrier
            __syncthreads();
#endif
        }
#ifndef BUG_NO_BARRIER
#ifndef BUG_DIVERGENT_BARRIER
        // step: every thread cacheIndex < i adds cache[cacheIndex + i] into cache[cacheIndex]
        __syncthreads();
#endif
#endif
        i /= 2;
    }
    if (cacheIndex == 0) c[blockIdx.x] = cache[0];
}

template <typename T>
bool run_dot(const char *name, T *result)
{
    std::vector<T> a(N), b(N), partial_c(blocksPerGrid);
    for (int i = 0; i < N; ++i) {
        a[i] = (T)(i % 8);
        b[i] = (T)(i % 5 + 1);
    }
    T *dev_a = NULL, *dev_b = NULL, *dev_partial_c = NULL;
    cudaMalloc((void **)&dev_a, N * sizeof(T));
    cudaMalloc((void **)&dev_b, N * sizeof(T));
    cudaMalloc((void **)&dev_partial_c, blocksPerGrid * sizeof(T));
    cudaMemcpy(dev_a, a.data(), N * sizeof(T), cudaMemcpyHostToDevice);
    cudaMemcpy(dev_b, b.data(), N * sizeof(T), cudaMemcpyHostToDevice);

    dot<T><<<blocksPerGrid, threadsPerBlock>>>(dev_a, dev_b, dev_partial_c);
    cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess) err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        printf("%s: CUDA error: %s\n", name, cudaGetErrorString(err));
        return false;
    }
    cudaMemcpy(partial_c.data(), dev_partial_c, blocksPerGrid * sizeof(T), cudaMemcpyDeviceToHost);

    // finish up on the CPU side, and compute the reference (whole numbers below 2^24, so exact)
    T c = 0;
    for (int k = 0; k < blocksPerGrid; ++k) c += partial_c[k];
    T expected = 0;
    for (int i = 0; i < N; ++i) expected += a[i] * b[i];
    printf("%s: gpu %.1f, cpu %.1f\n", name, (double)c, (double)expected);
    *result = c;

    cudaFree(dev_a);
    cudaFree(dev_b);
    cudaFree(dev_partial_c);
    return c == expected;
}

int main()
{
    float f = 0.0f;
    double d = 0.0;
    bool ok_f = run_dot<float>("float", &f);
    bool ok_d = run_dot<double>("double", &d);
    bool ok = ok_f && ok_d;
    printf("float dot = %.0f, double dot = %.0f %s\n", (double)f, d, ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
