"""Several GPUs in one process (issue 18), run where two or more are lent
(marker ``multi_gpu``; skipped with fewer): a kernel launches on torch's
current device with that device's module, compiled once; launches
alternate between devices; tensors of one launch on two GPUs are refused;
two threads each drive one GPU; the
torch.distributed example all-reduces a Tritium kernel's output across
processes. The same launch paths are checked on CPU against two fake GPUs
(tests/python/runtime/test_launch_fake.py)."""

import os
import subprocess
import sys
import threading

import pytest

import tritium
import tritium.language as tl

pytestmark = [pytest.mark.gpu, pytest.mark.multi_gpu]

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__))))))


@tritium.jit
def scale(x_ptr, out_ptr, n, factor, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) * factor, mask=mask)


@pytest.fixture
def torch():
    return pytest.importorskip("torch")


def _scaled_on(torch, device, factor, n=5000):
    with torch.cuda.device(device):
        x = torch.arange(n, device=f"cuda:{device}", dtype=torch.float32)
        out = torch.empty_like(x)
        k = scale[(tritium.cdiv(n, 1024),)](x, out, n, factor, BLOCK=1024)
        torch.cuda.synchronize(device)
        assert torch.equal(out, x * factor), f"wrong result on cuda:{device}"
        return k


def test_compiled_on_gpu0_launched_on_gpu1(torch):
    first = _scaled_on(torch, 0, 2.0)
    again = _scaled_on(torch, 1, 3.0)
    assert again.hash == first.hash  # the same compiled kernel, loaded on each device


def test_launches_alternate_between_devices(torch):
    for i in range(6):
        _scaled_on(torch, i % 2, float(i + 1))


def test_tensors_on_two_gpus_are_refused(torch):
    x = torch.arange(1024, device="cuda:0", dtype=torch.float32)
    out = torch.empty(1024, device="cuda:1", dtype=torch.float32)
    with pytest.raises(ValueError, match=r"argument 'out_ptr' \(parameter 1\): a tensor on cuda:1, but "
                                         r"argument 'x_ptr' is on cuda:0"):
        scale[(1,)](x, out, 1024, 2.0, BLOCK=1024)


def test_two_threads_each_drive_one_gpu(torch):
    errors = []

    def work(device):
        try:
            torch.cuda.set_device(device)
            for i in range(50):
                _scaled_on(torch, device, float(i))
        except Exception as e:  # pragma: no cover
            errors.append(e)
    threads = [threading.Thread(target=work, args=(d,)) for d in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors


def test_torch_distributed_example(torch):
    env = dict(os.environ, PYTHONPATH=os.path.join(REPO, "python"), NCCL_NVLS_ENABLE="0")
    r = subprocess.run([sys.executable, os.path.join(REPO, "examples", "multi_gpu", "allreduce.py")],
                       env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.count("all-reduced sum matches") == torch.cuda.device_count(), r.stdout
