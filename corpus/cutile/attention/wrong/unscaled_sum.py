# pitfall: the running sum is not rescaled when the max grows (l_i + sum(p)); expect: MISMATCH
import triton
import triton.language as tl


@triton.jit
def flash_kernel(q_ptr, k_ptr, v_ptr, o_ptr, L, scale, BL: tl.constexpr, BD: tl.constexpr):
    pid_l = tl.program_id(0)
    h = tl.program_id(1)
    offs_l = pid_l * BL + tl.arange(0, BL)
    offs_d = tl.arange(0, BD)
    head = h * L * BD
    q = tl.load(q_ptr + head + offs_l[:, None] * BD + offs_d[None, :])
    m_i = tl.full((BL,), -float("inf"), dtype=tl.float32)
    l_i = tl.zeros((BL,), dtype=tl.float32)
    acc = tl.zeros((BL, BD), dtype=tl.float32)
    for start in range(0, L, BL):
        offs_k = start + tl.arange(0, BL)
        k = tl.load(k_ptr + head + offs_k[:, None] * BD + offs_d[None, :])
        v = tl.load(v_ptr + head + offs_k[:, None] * BD + offs_d[None, :])
        s = tl.dot(q, tl.trans(k)) * scale
        m_ij = tl.maximum(m_i, tl.max(s, axis=1))
        p = tl.exp(s - m_ij[:, None])
        alpha = tl.exp(m_i - m_ij)
        l_i = l_i + tl.sum(p, axis=1)
        acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
        m_i = m_ij
    acc = acc / l_i[:, None]
    tl.store(o_ptr + head + offs_l[:, None] * BD + offs_d[None, :], acc.to(o_ptr.dtype.element_ty))


def attention(Q, K, V, O, scale, TL, TD):
    heads, L, D = Q.shape
    flash_kernel[(triton.cdiv(L, TL), heads)](Q, K, V, O, L, scale, BL=TL, BD=TD)
