import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def gather(x, idx, y, TILE: ConstInt):
    """y[i] = x[idx[i]]: a tiled load of the indices, then an indexed gather of x."""
    i = ct.bid(0)
    ind = ct.load(idx, index=(i,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)
    ct.store(y, index=(i,), tile=ct.gather(x, ind))
