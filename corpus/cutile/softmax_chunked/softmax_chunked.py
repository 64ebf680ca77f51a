import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def softmax(x, y, TN: ConstInt):
    """Row softmax in three passes over chunks: the max, then the sum of exp(x - max),
    then the normalised values. Padding with -inf keeps the padded columns out of
    every pass: they add nothing to the max and exp(-inf) = 0 to the sum."""
    row = ct.bid(0)
    chunks = ct.num_tiles(x, axis=1, shape=(1, TN))
    m = ct.full((1, 1), float("-inf"), dtype=ct.float32)
    for c in range(chunks):
        t = ct.load(x, index=(row, c), shape=(1, TN), padding_mode=ct.PaddingMode.NEG_INF)
        m = ct.maximum(m, ct.max(t, axis=1, keepdims=True))
    s = ct.full((1, 1), 0, dtype=ct.float32)
    for c in range(chunks):
        t = ct.load(x, index=(row, c), shape=(1, TN), padding_mode=ct.PaddingMode.NEG_INF)
        s = s + ct.sum(ct.exp(t - m), axis=1, keepdims=True)
    for c in range(chunks):
        t = ct.load(x, index=(row, c), shape=(1, TN), padding_mode=ct.PaddingMode.NEG_INF)
        ct.store(y, index=(row, c), tile=ct.exp(t - m) / s)
