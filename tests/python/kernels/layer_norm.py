"""Tutorial 5: layer normalization, forward and backward.

The backward pass computes dx per row and accumulates the partial sums of
dw and db of GROUP rows into one of GROUP buffers; programs that share a
buffer take turns through a spin lock (atomic_cas / atomic_xchg), and a
second kernel sums the buffers."""

import tritium.language as tl

from _jit import jit


@jit
def layer_norm_fwd(X, Y, W, B, Mean, Rstd, stride, N, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    X += row * stride
    Y += row * stride
    partial = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        partial += tl.load(X + cols, mask=cols < N, other=0.0).to(tl.float32)
    mean = tl.sum(partial, axis=0) / N
    sq = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(X + cols, mask=cols < N, other=0.0).to(tl.float32)
        centered = tl.where(cols < N, x - mean, 0.0)
        sq += centered * centered
    var = tl.sum(sq, axis=0) / N
    rstd = 1 / tl.sqrt(var + eps)
    tl.store(Mean + row, mean)
    tl.store(Rstd + row, rstd)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        valid = cols < N
        w = tl.load(W + cols, mask=valid)
        b = tl.load(B + cols, mask=valid)
        x = tl.load(X + cols, mask=valid, other=0.0).to(tl.float32)
        tl.store(Y + cols, (x - mean) * rstd * w + b, mask=valid)


@jit
def layer_norm_bwd_dx(DX, DY, DW, DB, X, W, Mean, Rstd, Lock, stride, N, GROUP: tl.constexpr, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    valid = cols < N
    X += row * stride
    DY += row * stride
    DX += row * stride
    # Rows row, row + GROUP, ... share one partial buffer and its lock.
    slot = row % GROUP
    Lock += slot
    Count = Lock + GROUP
    DW = DW + slot * N + cols
    DB = DB + slot * N + cols

    x = tl.load(X + cols, mask=valid, other=0).to(tl.float32)
    dy = tl.load(DY + cols, mask=valid, other=0).to(tl.float32)
    w = tl.load(W + cols, mask=valid).to(tl.float32)
    mean = tl.load(Mean + row)
    rstd = tl.load(Rstd + row)
    xhat = tl.where(valid, (x - mean) * rstd, 0.0)
    wdy = tl.where(valid, w * dy, 0.0)
    c1 = tl.sum(xhat * wdy, axis=0) / N
    c2 = tl.sum(wdy, axis=0) / N
    dx = (wdy - (xhat * c1 + c2)) * rstd
    tl.store(DX + cols, dx, mask=valid)

    part_dw = (dy * xhat).to(w.dtype)
    part_db = dy.to(w.dtype)
    while tl.atomic_cas(Lock, 0, 1) == 1:
        pass
    seen = tl.load(Count)
    if seen == 0:
        tl.atomic_xchg(Count, 1)
    else:
        part_dw += tl.load(DW, mask=valid)
        part_db += tl.load(DB, mask=valid)
    tl.store(DW, part_dw, mask=valid)
    tl.store(DB, part_db, mask=valid)
    tl.atomic_xchg(Lock, 0)


@jit
def layer_norm_bwd_dwdb(DW, DB, FINAL_DW, FINAL_DB, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    cols = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    dw = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    db = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for i in range(0, M, BLOCK_M):
        rows = i + tl.arange(0, BLOCK_M)
        valid = (rows[:, None] < M) & (cols[None, :] < N)
        offs = rows[:, None] * N + cols[None, :]
        dw += tl.load(DW + offs, mask=valid, other=0.0)
        db += tl.load(DB + offs, mask=valid, other=0.0)
    tl.store(FINAL_DW + cols, tl.sum(dw, axis=0), mask=cols < N)
    tl.store(FINAL_DB + cols, tl.sum(db, axis=0), mask=cols < N)
