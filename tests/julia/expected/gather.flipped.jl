# layout: flipped
# Translated from cuTile Python by `tiletrans rewrite --target julia --layout flipped`; every array is its Python shape reversed (the same bytes, column-major).
import cuTile as ct

# ConstInt = ct.Constant[int]  (cuTile.jl: constant parameters are `::Int`, launched as ct.Constant(v))

function gather(x::ct.TileArray, idx::ct.TileArray, y::ct.TileArray, TILE::Int)
    # y[i] = x[idx[i]]: a tiled load of the indices, then an indexed gather of x.
    i = ct.bid(1)
    ind = ct.load(idx; index=(i,), shape=(TILE,), padding_mode=ct.PaddingMode.Zero)
    ct.store(y; index=(i,), tile=ct.gather(x, ind .+ 1))
    return
end
