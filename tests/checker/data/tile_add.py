import cuda.tile as ct


@ct.kernel
def add(a, b, c, tile: ct.Constant[int]):
    bid = ct.bid(0)
    x = ct.load(a, index=(bid,), shape=(tile,))
    y = ct.load(b, index=(bid,), shape=(tile,))
    ct.store(c, index=(bid,), tile=x + y)
