# layout: logical
# Translated from cuTile Python by `tiletrans rewrite --target julia --layout logical`; arrays keep their Python shapes.
import cuTile as ct

# ConstInt = ct.Constant[int]  (cuTile.jl: constant parameters are `::Int`, launched as ct.Constant(v))

function concat(a::ct.TileArray, b::ct.TileArray, y::ct.TileArray, TM::Int, TA::Int, TB::Int)
    # y = [a b]: the rows of a (M, A) and b (M, B) joined side by side. Block i loads
    # a (TM, TA) tile of a and a (TM, TB) tile of b and stores their concatenation along
    # axis 1, y's (TM, TA + TB) tile i.
    i = ct.bid(1)
    ta = ct.load(a; index=(i, 1), shape=(TM, TA), padding_mode=ct.PaddingMode.Zero)
    tb = ct.load(b; index=(i, 1), shape=(TM, TB), padding_mode=ct.PaddingMode.Zero)
    ct.store(y; index=(i, 1), tile=cat(ta, tb; dims=2))
    return
end
