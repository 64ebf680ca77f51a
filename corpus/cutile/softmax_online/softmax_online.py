import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def softmax(x, y, TN: ConstInt):
    """Row softmax for rows longer than a tile: one pass keeps a running max m and a
    running sum l (rescaled by exp(m_old - m_new) when the max grows), a second pass
    normalises."""
    row = ct.bid(0)
    chunks = ct.num_tiles(x, axis=1, shape=(1, TN))
    m = ct.full((1, 1), float("-inf"), dtype=ct.float32)
    l = ct.full((1, 1), 0, dtype=ct.float32)
    for c in range(chunks):
        t = ct.load(x, index=(row, c), shape=(1, TN), padding_mode=ct.PaddingMode.NEG_INF)
        m_new = ct.maximum(m, ct.max(t, axis=1, keepdims=True))
        l = l * ct.exp(m - m_new) + ct.sum(ct.exp(t - m_new), axis=1, keepdims=True)
        m = m_new
    for c in range(chunks):
        t = ct.load(x, index=(row, c), shape=(1, TN), padding_mode=ct.PaddingMode.NEG_INF)
        ct.store(y, index=(row, c), tile=ct.exp(t - m) / l)
