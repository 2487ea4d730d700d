// A tour of the atomic functions: Min/Max/And/Or/Xor/Exch/Inc in shared memory per block, then Min/Max/And/Or/Xor/Add/Sub/Inc/Dec/CAS in global memory.
// From: the CUDA C++ Programming Guide, "Atomic Functions" (including its atomicCAS loop idiom), as exercised in GPU course labs.
// BUG_NON_ATOMIC: the shared minimum is a plain test-then-write (if (x < s_min) s_min = x); a smaller value can be overwritten.
// BUG_NO_BARRIER: the __syncthreads after thread 0 initialises the shared values is left out; atomics may hit them before the init.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define N 1024
#define THREADS 128
#define BLOCKS (N / THREADS)
#define RING 9u // atomicInc / atomicDec wrap: values 0..RING

struct Stats {
    int minVal;
    int maxVal;
    unsigned int andAll;
    unsigned int orAll;
    unsigned int xorAll;
    int leaders;            // one per block, elected with atomicExch
    int remaining;          // counts down from N with atomicSub
    unsigned int ring;      // atomicInc N times from 0
    unsigned int countdown; // atomicDec N times from 0
    int blockRings;         // sum of the blocks' shared atomicInc rings
    int sum;                // added with an atomicCAS loop
};

// an atomic add written with atomicCAS: retry until nobody changed the value between our read and our write
__device__ int atomicAddCAS(int *address, int val)
{
    int old = 0; // any first guess works: atomicCAS returns the real value
    int assumed;
    do {
        assumed = old;
        old = atomicCAS(address, assumed, assumed + val);
    } while (assumed != old);
    return old;
}

__global__ void atomics_kernel(const int *data, Stats *g)
{
    __shared__ int s_min, s_max, s_flag;
    __shared__ unsigned int s_and, s_or, s_xor, s_ring;

    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int x = data[i];

    if (threadIdx.x == 0) {
        s_min = 0x7fffffff; s_max = -0x7fffffff - 1; s_flag = 0;
        s_and = 0xffffffffu; s_or = 0; s_xor = 0; s_ring = 0;
    }
#ifndef BUG_NO_BARRIER
    // step: thread 0 initialises the block's shared results
    __syncthreads();
#endif

#ifdef BUG_NON_ATOMIC
    if (x < s_min) s_min = x;
#else
    atomicMin(&s_min, x);
#endif
    atomicMax(&s_max, x);
    atomicAnd(&s_and, (unsigned int)x);
    atomicOr(&s_or, (unsigned int)x);
    atomicXor(&s_xor, (unsigned int)x);
    atomicInc(&s_ring, RING);
    if (atomicExch(&s_flag, 1) == 0) atomicAdd(&g->leaders, 1); // exactly one thread sees the 0

    // per-thread global atomics
    atomicSub(&g->remaining, 1);
    atomicInc(&g->ring, RING);
    atomicDec(&g->countdown, RING);
    atomicAddCAS(&g->sum, x);
    // step: every thread applies its value to the shared results and the global counters
    __syncthreads();

    if (threadIdx.x == 0) {
        atomicMin(&g->minVal, s_min);
        atomicMax(&g->maxVal, s_max);
        atomicAnd(&g->andAll, s_and);
        atomicOr(&g->orAll, s_or);
        atomicXor(&g->xorAll, s_xor);
        atomicAdd(&g->blockRings, (int)s_ring);
    }
}

int main()
{
    std::vector<int> h_data(N);
    unsigned int seed = 99;
    for (int i = 0; i < N; ++i) {
        seed = seed * 1103515245u + 12345u;
        h_data[i] = 1000 + (int)((seed >> 16) % 9000); // 1000..9999
    }

    Stats init = {0x7fffffff, -0x7fffffff - 1, 0xffffffffu, 0u, 0u, 0, N, 0u, 0u, 0, 0};
    int *d_data = NULL;
    Stats *d_stats = NULL;
    cudaMalloc((void **)&d_data, N * sizeof(int));
    cudaMalloc((void **)&d_stats, sizeof(Stats));
    cudaMemcpy(d_data, h_data.data(), N * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(d_stats, &init, sizeof(Stats), cudaMemcpyHostToDevice);

    atomics_kernel<<<BLOCKS, THREADS>>>(d_data, d_stats);
    cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess) err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        printf("CUDA error: %s FAIL\n", cudaGetErrorString(err));
        return 1;
    }
    Stats s;
    cudaMemcpy(&s, d_stats, sizeof(Stats), cudaMemcpyDeviceToHost);

    // CPU reference
    Stats e = init;
    for (int i = 0; i < N; ++i) {
        int x = h_data[i];
        if (x < e.minVal) e.minVal = x;
        if (x > e.maxVal) e.maxVal = x;
        e.andAll &= (unsigned int)x;
        e.orAll |= (unsigned int)x;
        e.xorAll ^= (unsigned int)x;
        e.sum += x;
    }
    e.leaders = BLOCKS;
    e.remaining = 0;
    e.ring = N % (RING + 1);                         // atomicInc: old >= RING ? 0 : old + 1
    e.countdown = (RING + 1 - N % (RING + 1)) % (RING + 1); // atomicDec: old == 0 ? RING : old - 1
    e.blockRings = BLOCKS * (int)(THREADS % (RING + 1));

    bool ok = s.minVal == e.minVal && s.maxVal == e.maxVal && s.andAll == e.andAll && s.orAll == e.orAll &&
              s.xorAll == e.xorAll && s.leaders == e.leaders && s.remaining == e.remaining &&
              s.ring == e.ring && s.countdown == e.countdown && s.blockRings == e.blockRings && s.sum == e.sum;
    printf("and = %u, or = %u, xor = %u, leaders = %d, remaining = %d, ring = %u, countdown = %u, block rings = %d\n",
           s.andAll, s.orAll, s.xorAll, s.leaders, s.remaining, s.ring, s.countdown, s.blockRings);
    printf("min = %d, max = %d, sum = %d %s\n", s.minVal, s.maxVal, s.sum, ok ? "PASS" : "FAIL");

    cudaFree(d_data);
    cudaFree(d_stats);
    return ok ? 0 : 1;
}
