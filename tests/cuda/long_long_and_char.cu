// char and long long: blocks upper-case and reverse 256 chars through a __shared__ char array, then a __shared__ long long reduction adds position-weighted codes into a 64-bit total.
// From: course exercises on char buffers and 64-bit atomics (CUDA C++ Programming Guide: atomicAdd on unsigned long long, atomicMax on long long).
// BUG_NO_BARRIER: the __syncthreads between filling s[] and reading it reversed is left out; thread t reads s[255 - t] before it is stored.
// BUG_NON_ATOMIC: thread 0 of each block adds into *total with a plain +=; blocks lose each other's 64-bit updates.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>

#define N 2048
#define THREADS 256
#define BLOCKS (N / THREADS)
#define WEIGHT 1000003LL

__global__ void reverse_upper(const char *in, char *out)
{
    __shared__ char s[THREADS];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    char c = in[i];
    if (c >= 'a' && c <= 'z') c = c - 'a' + 'A';
    s[t] = c;
#ifndef BUG_NO_BARRIER
    // step: every thread stores its upper-cased character in s[t]
    __syncthreads();
#endif
    out[i] = s[blockDim.x - 1 - t];
}

__global__ void weighted_sum(const char *text, long long *total, long long *maxTerm)
{
    __shared__ long long cache[THREADS];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    long long term = (long long)text[i] * (i + 1) * WEIGHT; // far beyond 32 bits
    atomicMax(maxTerm, term);
    cache[t] = term;
    // step: every thread stores its 64-bit term in cache[t]
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s /= 2) {
        if (t < s) cache[t] += cache[t + s];
        // step: every thread t < s adds cache[t + s] into cache[t]
        __syncthreads();
    }
    if (t == 0) {
#ifdef BUG_NON_ATOMIC
        *total += cache[0];
#else
        atomicAdd((unsigned long long *)total, (unsigned long long)cache[0]);
#endif
    }
}

int main()
{
    const char *phrase = "the quick brown fox jumps over the lazy dog. ";
    int len = (int)strlen(phrase);
    std::vector<char> h_text(N);
    for (int i = 0; i < N; ++i) h_text[i] = phrase[i % len];

    char *d_text = NULL, *d_out = NULL;
    long long *d_total = NULL, *d_max = NULL;
    cudaMalloc((void **)&d_text, N);
    cudaMalloc((void **)&d_out, N);
    cudaMalloc((void **)&d_total, sizeof(long long));
    cudaMalloc((void **)&d_max, sizeof(long long));
    cudaMemcpy(d_text, h_text.data(), N, cudaMemcpyHostToDevice);
    cudaMemset(d_total, 0, sizeof(long long));
    cudaMemset(d_max, 0, sizeof(long long));

    reverse_upper<<<BLOCKS, THREADS>>>(d_text, d_out);
    weighted_sum<<<BLOCKS, THREADS>>>(d_out, d_total, d_max);
    cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess) err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        printf("CUDA error: %s FAIL\n", cudaGetErrorString(err));
        return 1;
    }
    std::vector<char> h_out(N);
    long long total = 0, maxTerm = 0;
    cudaMemcpy(h_out.data(), d_out, N, cudaMemcpyDeviceToHost);
    cudaMemcpy(&total, d_total, sizeof(long long), cudaMemcpyDeviceToHost);
    cudaMemcpy(&maxTerm, d_max, sizeof(long long), cudaMemcpyDeviceToHost);

    // CPU reference
    std::vector<char> expected(N);
    for (int b = 0; b < BLOCKS; ++b) {
        for (int t = 0; t < THREADS; ++t) {
            char c = h_text[b * THREADS + THREADS - 1 - t];
            if (c >= 'a' && c <= 'z') c = c - 'a' + 'A';
            expected[b * THREADS + t] = c;
        }
    }
    long long cpuTotal = 0, cpuMax = 0;
    for (int i = 0; i < N; ++i) {
        long long term = (long long)expected[i] * (i + 1) * WEIGHT;
        cpuTotal += term;
        if (term > cpuMax) cpuMax = term;
    }
    bool ok = memcmp(h_out.data(), expected.data(), N) == 0 && total == cpuTotal && maxTerm == cpuMax;

    char head[33];
    memcpy(head, h_out.data(), 32);
    head[32] = '\0';
    printf("out[0..31] = \"%s\"\n", head);
    printf("total = %lld, max term = %lld %s\n", total, maxTerm, ok ? "PASS" : "FAIL");

    cudaFree(d_text);
    cudaFree(d_out);
    cudaFree(d_total);
    cudaFree(d_max);
    return ok ? 0 : 1;
}
