import triton
import triton.language as tl


@triton.jit
def flash_kernel(Q, K, V, O, L, scale, BL: tl.constexpr, BD: tl.constexpr):
    pid_l = tl.program_id(0)
    z = tl.program_id(1)
    head = z * L * BD
    offs_l = pid_l * BL + tl.arange(0, BL)
    offs_d = tl.arange(0, BD)
    q = tl.load(Q + head + offs_l[:, None] * BD + offs_d[None, :])
    m_i = tl.full((BL,), -float("inf"), dtype=tl.float32)
    l_i = tl.zeros((BL,), dtype=tl.float32)
    acc = tl.zeros((BL, BD), dtype=tl.float32)
    for start in range(0, L, BL):
        offs_k = start + tl.arange(0, BL)
        k = tl.load(K + head + offs_k[:, None] * BD + offs_d[None, :])
        v = tl.load(V + head + offs_k[:, None] * BD + offs_d[None, :])
        s = tl.dot(q, tl.trans(k)) * scale
        # causal: key j is visible to query i when j <= i
        s = tl.where(offs_k[None, :] <= offs_l[:, None], s, -float("inf"))
        m_ij = tl.maximum(m_i, tl.max(s, axis=1))
        p = tl.exp(s - m_ij[:, None])
        alpha = tl.exp(m_i - m_ij)
        l_i = l_i * alpha + tl.sum(p, axis=1)
        acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
        m_i = m_ij
    acc = acc / l_i[:, None]
    tl.store(O + head + offs_l[:, None] * BD + offs_d[None, :], acc.to(O.dtype.element_ty))


def attention(q, k, v, o):
    heads, L, D = q.shape
    flash_kernel[(triton.cdiv(L, 64), heads)](q, k, v, o, L, 1.0 / (D ** 0.5), BL=64, BD=D)
