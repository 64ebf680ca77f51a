# layout: flipped
# Translated from cuTile Python by `tiletrans rewrite --target julia --layout flipped`; every array is its Python shape reversed (the same bytes, column-major).
import cuTile as ct

# ConstInt = ct.Constant[int]  (cuTile.jl: constant parameters are `::Int`, launched as ct.Constant(v))

function transpose(x::ct.TileArray, y::ct.TileArray, TM::Int, TN::Int)
    # y = x.T. Block (i, j) loads x's (TM, TN) tile already transposed: with
    # order=(1, 0) the tile space is x's axes swapped, so index (j, i) and shape
    # (TN, TM) give t[a, b] = x[i*TM + b, j*TN + a], which is y's tile (j, i).
    i = ct.bid(1)
    j = ct.bid(2)
    t = ct.load(x; index=(i, j), shape=(TM, TN), order=(2, 1), padding_mode=ct.PaddingMode.Zero)
    ct.store(y; index=(i, j), tile=t)
    return
end
