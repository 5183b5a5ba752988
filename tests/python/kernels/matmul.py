"""Tutorial 3: C = A @ B in tiles, programs ordered in groups of GROUP_M
rows of tiles so that neighbours reuse the same tiles of B from L2, with an
optional fused activation."""

import tritium.language as tl

from _jit import jit


@jit
def leaky_relu(x):
    return tl.where(x >= 0, x, 0.01 * x)


@jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr,
                  ACTIVATION: tl.constexpr):
    pid = tl.program_id(axis=0)
    tiles_m = tl.cdiv(M, BLOCK_M)
    tiles_n = tl.cdiv(N, BLOCK_N)
    per_group = GROUP_M * tiles_n
    group = pid // per_group
    group_first_m = group * GROUP_M
    group_rows = min(tiles_m - group_first_m, GROUP_M)
    tile_m = group_first_m + (pid % per_group) % group_rows
    tile_n = (pid % per_group) // group_rows

    rows = (tile_m * BLOCK_M + tl.arange(0, BLOCK_M)) % M
    cols = (tile_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N
    ks = tl.arange(0, BLOCK_K)
    a_tile = a_ptr + rows[:, None] * stride_am + ks[None, :] * stride_ak
    b_tile = b_ptr + ks[:, None] * stride_bk + cols[None, :] * stride_bn

    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        remaining = K - k * BLOCK_K
        a = tl.load(a_tile, mask=ks[None, :] < remaining, other=0.0)
        b = tl.load(b_tile, mask=ks[:, None] < remaining, other=0.0)
        acc = tl.dot(a, b, acc)
        a_tile += BLOCK_K * stride_ak
        b_tile += BLOCK_K * stride_bk
    if ACTIVATION == "leaky_relu":
        acc = leaky_relu(acc)
    c = acc.to(tl.float16)

    out_rows = tile_m * BLOCK_M + tl.arange(0, BLOCK_M)
    out_cols = tile_n * BLOCK_N + tl.arange(0, BLOCK_N)
    c_tile = c_ptr + stride_cm * out_rows[:, None] + stride_cn * out_cols[None, :]
    tl.store(c_tile, c, mask=(out_rows[:, None] < M) & (out_cols[None, :] < N))
