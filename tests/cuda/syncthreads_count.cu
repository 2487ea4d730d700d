// Counting barriers: each block counts its elements above a threshold with __syncthreads_count and
// checks with __syncthreads_and that all of them are in range; a one-block search for a value stops
// at the first chunk that holds it with __syncthreads_or (every thread leaves together).
// From: the CUDA C++ Programming Guide, "Synchronization Functions", as course exercises use them.
// BUG_RACY_COUNT: the count is a shared int every thread with a hit increments (counter = counter + 1): lost updates.
// BUG_OWN_EXIT: the search's finder leaves on its own, before a __syncthreads the others wait at; they go on without it and search to the end.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define THREADS 128
#define N 1000
#define BLOCKS ((N + THREADS - 1) / THREADS)
#define THRESHOLD 700
#define TARGET 999

__global__ void count_above(const int *data, int n, int threshold, int *block_counts, int *block_in_range)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? data[i] : 0;
    int above = i < n && v > threshold;
#ifdef BUG_RACY_COUNT
    __shared__ int counter;
    if (threadIdx.x == 0) counter = 0;
    __syncthreads();
    if (above) counter = counter + 1;
    __syncthreads();
    int count = counter;
#else
    // step: every thread votes whether its element is above the threshold; the barrier counts the votes
    int count = __syncthreads_count(above);
#endif
    // step: every thread votes whether its element is in [0, 1000); the barrier ANDs the votes
    int in_range = __syncthreads_and(v >= 0 && v < 1000);
    if (threadIdx.x == 0) {
        block_counts[blockIdx.x] = count;
        block_in_range[blockIdx.x] = in_range;
    }
}

// One block walks the array a chunk of blockDim.x elements at a time and stops at the first chunk
// that holds the target.
__global__ void find_first_chunk(const int *data, int n, int target, int *first_chunk)
{
    int chunk = 0;
    for (int base = 0; base < n; base += blockDim.x) {
        int i = base + threadIdx.x;
        int hit = i < n && data[i] == target;
#ifdef BUG_OWN_EXIT
        if (hit) {
            first_chunk[0] = chunk;
            return;
        }
        __syncthreads();
#else
        // step: the block asks whether any thread's element is the target
        if (__syncthreads_or(hit)) {
            if (threadIdx.x == 0) first_chunk[0] = chunk;
            return;
        }
#endif
        chunk++;
    }
    if (threadIdx.x == 0) first_chunk[0] = -1;
}

int main()
{
    int h_data[N];
    for (int i = 0; i < N; ++i) h_data[i] = (i * 37 + 11) % 1000;

    int *d_data, *d_counts, *d_in_range, *d_chunk;
    cudaMalloc((void **)&d_data, N * sizeof(int));
    cudaMalloc((void **)&d_counts, BLOCKS * sizeof(int));
    cudaMalloc((void **)&d_in_range, BLOCKS * sizeof(int));
    cudaMalloc((void **)&d_chunk, sizeof(int));
    cudaMemcpy(d_data, h_data, N * sizeof(int), cudaMemcpyHostToDevice);

    count_above<<<BLOCKS, THREADS>>>(d_data, N, THRESHOLD, d_counts, d_in_range);
    find_first_chunk<<<1, THREADS>>>(d_data, N, TARGET, d_chunk);
    cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess) err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        printf("CUDA error: %s FAIL\n", cudaGetErrorString(err));
        return 1;
    }

    int h_counts[BLOCKS], h_in_range[BLOCKS], h_chunk = 0;
    cudaMemcpy(h_counts, d_counts, BLOCKS * sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(h_in_range, d_in_range, BLOCKS * sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(&h_chunk, d_chunk, sizeof(int), cudaMemcpyDeviceToHost);

    // CPU reference: the same counts, range checks and first chunk, element by element.
    bool ok = true;
    int total = 0, blocks_in_range = 0;
    for (int b = 0; b < BLOCKS; ++b) {
        int expected = 0, all = 1;
        for (int i = b * THREADS; i < (b + 1) * THREADS; ++i) {
            int v = i < N ? h_data[i] : 0;
            if (i < N && v > THRESHOLD) expected++;
            if (v < 0 || v >= 1000) all = 0;
        }
        if (h_counts[b] != expected || h_in_range[b] != all) ok = false;
        total += expected;
        blocks_in_range += all;
    }
    int expected_chunk = -1;
    for (int i = 0; i < N; ++i)
        if (h_data[i] == TARGET) {
            expected_chunk = i / THREADS;
            break;
        }
    if (h_chunk != expected_chunk) ok = false;
    printf("above %d = %d, blocks in range = %d of %d, first chunk with %d = %d %s\n", THRESHOLD, total, blocks_in_range,
           BLOCKS, TARGET, expected_chunk, ok ? "PASS" : "FAIL");

    cudaFree(d_data);
    cudaFree(d_counts);
    cudaFree(d_in_range);
    cudaFree(d_chunk);
    return ok ? 0 : 1;
}
