import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def transpose(x, y, TM: ConstInt, TN: ConstInt):
    """y = x.T. Block (i, j) loads x's (TM, TN) tile already transposed: with
    order=(1, 0) the tile space is x's axes swapped, so index (j, i) and shape
    (TN, TM) give t[a, b] = x[i*TM + b, j*TN + a], which is y's tile (j, i)."""
    i = ct.bid(0)
    j = ct.bid(1)
    t = ct.load(x, index=(j, i), shape=(TN, TM), order=(1, 0), padding_mode=ct.PaddingMode.ZERO)
    ct.store(y, index=(j, i), tile=t)
