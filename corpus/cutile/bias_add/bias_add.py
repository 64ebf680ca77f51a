import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def bias_add(x, b, y, TM: ConstInt, TN: ConstInt):
    """y = x + b, the row vector b broadcast over every row of x (M, N)."""
    i = ct.bid(0)
    j = ct.bid(1)
    t = ct.load(x, index=(i, j), shape=(TM, TN), padding_mode=ct.PaddingMode.ZERO)
    row = ct.load(b, index=(j,), shape=(TN,), padding_mode=ct.PaddingMode.ZERO)
    ct.store(y, index=(i, j), tile=t + row)
