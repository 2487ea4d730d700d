// A kernel with no main(), as a verifier's test case or a textbook listing gives it:
//   syncscope run scale.cu --grid 4 --block 64 --arg factor=0.5 [--gpu]
// launches it through a generated main() that fills `data` with 0, 1, 2, ... and copies it back.
__global__ void scale(float* data, float factor) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  data[i] = data[i] * factor + 1.0f;
}
