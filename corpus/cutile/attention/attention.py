import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def attention(Q, K, V, O, scale: float, TL: ConstInt, TD: ConstInt):
    """Flash attention over (heads, L, D) f16 inputs: each block owns TL queries of one
    head and streams the keys and values in TL-long tiles with an online softmax
    (running max m, running sum l, the accumulator rescaled by exp(m_old - m_new))."""
    qi = ct.bid(0)
    h = ct.bid(1)
    q = ct.load(Q, index=(h, qi, 0), shape=(1, TL, TD), padding_mode=ct.PaddingMode.ZERO).reshape((TL, TD))
    m = ct.full((TL, 1), float("-inf"), dtype=ct.float32)
    l = ct.full((TL, 1), 0, dtype=ct.float32)
    acc = ct.full((TL, TD), 0, dtype=ct.float32)
    for j in range(ct.num_tiles(K, axis=1, shape=(1, TL, TD))):
        k = ct.load(K, index=(h, j, 0), shape=(1, TL, TD), padding_mode=ct.PaddingMode.ZERO).reshape((TL, TD))
        v = ct.load(V, index=(h, j, 0), shape=(1, TL, TD), padding_mode=ct.PaddingMode.ZERO).reshape((TL, TD))
        s = ct.mma(q, ct.transpose(k), ct.full((TL, TL), 0, dtype=ct.float32)) * scale
        m_new = ct.maximum(m, ct.max(s, axis=1, keepdims=True))
        p = ct.exp(s - m_new)
        alpha = ct.exp(m - m_new)
        l = l * alpha + ct.sum(p, axis=1, keepdims=True)
        acc = ct.mma(p.astype(v.dtype), v, acc * alpha)
        m = m_new
    out = (acc / l).astype(O.dtype)
    ct.store(O, index=(h, qi, 0), tile=out.reshape((1, TL, TD)))
