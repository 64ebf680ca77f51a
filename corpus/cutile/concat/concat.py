import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def concat(a, b, y, TM: ConstInt, TA: ConstInt, TB: ConstInt):
    """y = [a b]: the rows of a (M, A) and b (M, B) joined side by side. Block i loads
    a (TM, TA) tile of a and a (TM, TB) tile of b and stores their concatenation along
    axis 1, y's (TM, TA + TB) tile i."""
    i = ct.bid(0)
    ta = ct.load(a, index=(i, 0), shape=(TM, TA), padding_mode=ct.PaddingMode.ZERO)
    tb = ct.load(b, index=(i, 0), shape=(TM, TB), padding_mode=ct.PaddingMode.ZERO)
    ct.store(y, index=(i, 0), tile=ct.cat((ta, tb), axis=1))
