// Runs kogge_stone.cl on the first OpenCL platform (under `oclgrind --data-races`: Oclgrind's
// simulator) and prints the kernel's time and simulated elements per second.
//   oclgrind --data-races scan_host KERNEL.cl N TPB
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#define CHECK(call)                                                        \
  do {                                                                     \
    cl_int e_ = (call);                                                    \
    if (e_ != CL_SUCCESS) {                                                \
      std::fprintf(stderr, "%s failed: %d\n", #call, static_cast<int>(e_)); \
      return 1;                                                            \
    }                                                                      \
  } while (0)

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: scan_host KERNEL.cl N TPB\n");
    return 2;
  }
  std::ifstream file(argv[1]);
  std::stringstream text;
  text << file.rdbuf();
  const std::string source = text.str();
  const int n = std::atoi(argv[2]), tpb = std::atoi(argv[3]);
  const int blocks = (n + tpb - 1) / tpb;

  cl_platform_id platform;
  cl_device_id device;
  cl_int err;
  CHECK(clGetPlatformIDs(1, &platform, nullptr));
  CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr));
  cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
  CHECK(err);
  cl_command_queue queue = clCreateCommandQueue(context, device, 0, &err);
  CHECK(err);
  const char* src = source.c_str();
  cl_program program = clCreateProgramWithSource(context, 1, &src, nullptr, &err);
  CHECK(err);
  CHECK(clBuildProgram(program, 1, &device, "", nullptr, nullptr));
  cl_kernel kernel = clCreateKernel(program, "kogge_stone_scan", &err);
  CHECK(err);

  std::vector<float> x(n), y(n, -1.0f);
  for (int i = 0; i < n; ++i) x[i] = static_cast<float>(i % 7);
  cl_mem dx = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(float), x.data(), &err);
  CHECK(err);
  cl_mem dy = clCreateBuffer(context, CL_MEM_WRITE_ONLY, n * sizeof(float), nullptr, &err);
  CHECK(err);
  CHECK(clSetKernelArg(kernel, 0, sizeof dx, &dx));
  CHECK(clSetKernelArg(kernel, 1, sizeof dy, &dy));
  CHECK(clSetKernelArg(kernel, 2, sizeof n, &n));
  CHECK(clSetKernelArg(kernel, 3, tpb * sizeof(float), nullptr));
  const size_t global = static_cast<size_t>(blocks) * tpb, local = tpb;

  const auto t0 = std::chrono::steady_clock::now();
  CHECK(clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &global, &local, 0, nullptr, nullptr));
  CHECK(clFinish(queue));
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  CHECK(clEnqueueReadBuffer(queue, dy, CL_TRUE, 0, n * sizeof(float), y.data(), 0, nullptr, nullptr));

  // The scan must be right, or the timing means nothing.
  for (int b = 0, wrong = 0; b < blocks; ++b) {
    double sum = 0;
    for (int i = b * tpb; i < std::min(n, (b + 1) * tpb); ++i) {
      sum += x[i];
      if (y[i] != static_cast<float>(sum) && ++wrong == 1) {
        std::fprintf(stderr, "wrong result at %d: %g, expected %g\n", i, y[i], sum);
        return 1;
      }
    }
  }
  std::printf("%d elements, TPB %d: %.3f s, %.0f elements/s\n", n, tpb, seconds, n / seconds);
  return 0;
}
