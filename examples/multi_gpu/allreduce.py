"""A Tritium kernel inside torch.distributed: one process per GPU, each
scales its own tensor with a Tritium kernel on its device, then NCCL sums
the results across processes; every rank checks the sum.

    python3 examples/multi_gpu/allreduce.py            # spawns one process per GPU
    torchrun --nproc-per-node=2 examples/multi_gpu/allreduce.py

NVLink multicast (NVLS) stays off: NCCL_NVLS_ENABLE=0. Needs torch with NCCL
and at least two GPUs; prints why and exits 0 otherwise, and exits 1 if a
rank's result is wrong.
"""

import os
import sys

import tritium
import tritium.language as tl


@tritium.jit
def scale_kernel(x_ptr, out_ptr, n, factor, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) * factor, mask=mask)


def run(rank, world):
    import torch
    import torch.distributed as dist
    torch.cuda.set_device(rank)
    dist.init_process_group("nccl", rank=rank, world_size=world,
                            device_id=torch.device("cuda", rank))
    try:
        n = 1 << 20
        x = torch.arange(n, device="cuda", dtype=torch.float32)
        out = torch.empty_like(x)
        scale_kernel[(tritium.cdiv(n, 1024),)](x, out, n, float(rank + 1), BLOCK=1024)
        dist.all_reduce(out)  # sum over ranks of (rank + 1) * x
        expected = x * (world * (world + 1) / 2)
        ok = torch.equal(out, expected)
        print(f"rank {rank} on {torch.cuda.get_device_name(rank)} (cuda:{rank}): "
              f"{'all-reduced sum matches' if ok else 'WRONG sum'}", flush=True)
        return ok
    finally:
        dist.destroy_process_group()


def _spawned(rank, world):
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29517")
    if not run(rank, world):
        sys.exit(1)


def main():
    os.environ.setdefault("NCCL_NVLS_ENABLE", "0")
    try:
        import torch
        import torch.distributed as dist
    except ImportError:
        print("torch is not installed: nothing to run")
        return 0
    if not (torch.cuda.is_available() and dist.is_available() and dist.is_nccl_available()):
        print("torch has no CUDA or no NCCL here: nothing to run")
        return 0
    if "RANK" in os.environ:  # under torchrun
        return 0 if run(int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])) else 1
    world = torch.cuda.device_count()
    if world < 2:
        print(f"{world} GPU(s): the example needs two or more")
        return 0
    import torch.multiprocessing as mp
    mp.spawn(_spawned, args=(world,), nprocs=world)  # raises if a rank fails
    return 0


if __name__ == "__main__":
    sys.exit(main())
