"""Tutorial 6: attention forward in the FlashAttention style: for a block
of queries, stream the keys and values in blocks, keeping a running row
maximum (m), row sum (l) and output accumulator, rescaled as the maximum
grows. STAGE 3 is causal (the diagonal block masked), STAGE 1 is not."""

import tritium.language as tl

from _jit import jit


@jit
def attn_inner(acc, l_i, m_i, q, k_ptrs, v_ptrs, start_m, qk_scale, n_ctx, stride_kn, stride_vn,
               BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, STAGE: tl.constexpr, offs_m, offs_n):
    # STAGE 1: the blocks left of the diagonal; 2: the diagonal block; 3: all.
    if STAGE == 1:
        lo, hi = 0, start_m * BLOCK_M
    elif STAGE == 2:
        lo, hi = start_m * BLOCK_M, (start_m + 1) * BLOCK_M
        lo = tl.multiple_of(lo, BLOCK_M)
    else:
        lo, hi = 0, n_ctx
    k_ptrs += lo * stride_kn
    v_ptrs += lo * stride_vn
    for start_n in range(lo, hi, BLOCK_N):
        start_n = tl.multiple_of(start_n, BLOCK_N)
        k = tl.load(k_ptrs)
        qk = tl.dot(q, k)
        if STAGE == 2:
            causal = offs_m[:, None] >= (start_n + offs_n[None, :])
            qk = qk * qk_scale + tl.where(causal, 0, -1.0e6)
            m_new = tl.maximum(m_i, tl.max(qk, 1))
            qk -= m_new[:, None]
        else:
            m_new = tl.maximum(m_i, tl.max(qk, 1) * qk_scale)
            qk = qk * qk_scale - m_new[:, None]
        p = tl.math.exp2(qk)
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None]
        v = tl.load(v_ptrs)
        acc = tl.dot(p.to(tl.float16), v, acc)
        m_i = m_new
        k_ptrs += BLOCK_N * stride_kn
        v_ptrs += BLOCK_N * stride_vn
    return acc, l_i, m_i


@jit
def attn_fwd(Q, K, V, sm_scale, M, Out, stride_qz, stride_qh, stride_qm, stride_qk, stride_kz, stride_kh, stride_kn,
             stride_kk, stride_vz, stride_vh, stride_vn, stride_vk, stride_oz, stride_oh, stride_om, stride_on, H, n_ctx,
             HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, STAGE: tl.constexpr):
    tl.static_assert(BLOCK_N <= HEAD_DIM)
    start_m = tl.program_id(0)
    off_hz = tl.program_id(1)
    off_z = off_hz // H
    off_h = off_hz % H
    q_base = off_z.to(tl.int64) * stride_qz + off_h.to(tl.int64) * stride_qh
    k_base = off_z.to(tl.int64) * stride_kz + off_h.to(tl.int64) * stride_kh
    v_base = off_z.to(tl.int64) * stride_vz + off_h.to(tl.int64) * stride_vh
    o_base = off_z.to(tl.int64) * stride_oz + off_h.to(tl.int64) * stride_oh

    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    q_ptrs = Q + q_base + offs_m[:, None] * stride_qm + offs_d[None, :] * stride_qk
    kt_ptrs = K + k_base + offs_d[:, None] * stride_kk + offs_n[None, :] * stride_kn
    v_ptrs = V + v_base + offs_n[:, None] * stride_vn + offs_d[None, :] * stride_vk

    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32) + 1.0
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    qk_scale = sm_scale * 1.44269504  # 1 / ln(2): exp(x) = exp2(x / ln 2)
    q = tl.load(q_ptrs)
    if STAGE & 1:
        acc, l_i, m_i = attn_inner(acc, l_i, m_i, q, kt_ptrs, v_ptrs, start_m, qk_scale, n_ctx, stride_kn, stride_vn,
                                   BLOCK_M, BLOCK_N, 4 - STAGE, offs_m, offs_n)
    if STAGE & 2:
        acc, l_i, m_i = attn_inner(acc, l_i, m_i, q, kt_ptrs, v_ptrs, start_m, qk_scale, n_ctx, stride_kn, stride_vn,
                                   BLOCK_M, BLOCK_N, 2, offs_m, offs_n)
    m_i += tl.math.log2(l_i)
    acc = acc / l_i[:, None]
    tl.store(M + off_hz * n_ctx + offs_m, m_i)
    o_ptrs = Out + o_base + offs_m[:, None] * stride_om + offs_d[None, :] * stride_on
    tl.store(o_ptrs, acc.to(Out.type.element_ty))
