/* Adds two vectors on the GPU through the ahead-of-time add_1024 (README.md
 * here): no Python at run time, only the CUDA driver. Exits 0 when every
 * element is right. */
#include <stdio.h>
#include <stdlib.h>

#include "add_1024.h"

#define CHECK(call)                                                          \
  do {                                                                       \
    CUresult r_ = (call);                                                    \
    if (r_ != CUDA_SUCCESS) {                                                \
      fprintf(stderr, "%s failed: %d\n", #call, (int)r_);                    \
      return 1;                                                              \
    }                                                                        \
  } while (0)

int main(void) {
  enum { N = 5000 };
  static float x[N], y[N], out[N];
  for (int i = 0; i < N; ++i) {
    x[i] = (float)i;
    y[i] = 0.5f * (float)i;
  }
  CUdevice device;
  CUcontext context;
  CUdeviceptr dx, dy, dout;
  CHECK(cuInit(0));
  CHECK(cuDeviceGet(&device, 0));
  CHECK(cuDevicePrimaryCtxRetain(&context, device));
  CHECK(cuCtxSetCurrent(context));
  CHECK(cuMemAlloc(&dx, sizeof x));
  CHECK(cuMemAlloc(&dy, sizeof y));
  CHECK(cuMemAlloc(&dout, sizeof out));
  CHECK(cuMemcpyHtoD(dx, x, sizeof x));
  CHECK(cuMemcpyHtoD(dy, y, sizeof y));
  CHECK(add_1024(0, dx, dy, dout, N));
  CHECK(cuCtxSynchronize());
  CHECK(cuMemcpyDtoH(out, dout, sizeof out));
  unload_add_1024();
  for (int i = 0; i < N; ++i)
    if (out[i] != 1.5f * (float)i) {
      fprintf(stderr, "out[%d] = %g, expected %g\n", i, out[i], 1.5f * (float)i);
      return 1;
    }
  printf("ok: %d elements\n", N);
  return 0;
}
