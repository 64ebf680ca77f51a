import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def softmax(x, y, TN: ConstInt):
    """Row softmax, one row per block, the whole row in one tile (TN >= N).
    Padding with -inf keeps the padded columns out of the max and the sum."""
    row = ct.bid(0)
    t = ct.load(x, index=(row, 0), shape=(1, TN), padding_mode=ct.PaddingMode.NEG_INF)
    t = t - ct.max(t, axis=1, keepdims=True)
    e = ct.exp(t)
    ct.store(y, index=(row, 0), tile=e / ct.sum(e, axis=1, keepdims=True))
