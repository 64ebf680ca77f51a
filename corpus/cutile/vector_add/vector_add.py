import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def vector_add(a, b, c, alpha: float, TILE: ConstInt):
    """c = alpha * a + b over 1-D arrays; the last tile is partial."""
    i = ct.bid(0)
    x = ct.load(a, index=(i,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)
    y = ct.load(b, index=(i,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)
    ct.store(c, index=(i,), tile=alpha * x + y)
