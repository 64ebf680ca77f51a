# layout: flipped
# Translated from cuTile Python by `tiletrans rewrite --target julia --layout flipped`; every array is its Python shape reversed (the same bytes, column-major).
import cuTile as ct

# ConstInt = ct.Constant[int]  (cuTile.jl: constant parameters are `::Int`, launched as ct.Constant(v))

function bias_add(x::ct.TileArray, b::ct.TileArray, y::ct.TileArray, TM::Int, TN::Int)
    # y = x + b, the row vector b broadcast over every row of x (M, N).
    i = ct.bid(1)
    j = ct.bid(2)
    t = ct.load(x; index=(j, i), shape=(TN, TM), padding_mode=ct.PaddingMode.Zero)
    row = ct.load(b; index=(j,), shape=(TN,), padding_mode=ct.PaddingMode.Zero)
    ct.store(y; index=(j, i), tile=t .+ row)
    return
end
