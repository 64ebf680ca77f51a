# layout: flipped
# Translated from cuTile Python by `tiletrans rewrite --target julia --layout flipped`; every array is its Python shape reversed (the same bytes, column-major).
import cuTile as ct

# ConstInt = ct.Constant[int]  (cuTile.jl: constant parameters are `::Int`, launched as ct.Constant(v))

function vector_add(a::ct.TileArray, b::ct.TileArray, c::ct.TileArray, alpha::Float32, TILE::Int)
    # c = alpha * a + b over 1-D arrays; the last tile is partial.
    i = ct.bid(1)
    x = ct.load(a; index=(i,), shape=(TILE,), padding_mode=ct.PaddingMode.Zero)
    y = ct.load(b; index=(i,), shape=(TILE,), padding_mode=ct.PaddingMode.Zero)
    ct.store(c; index=(i,), tile=(alpha .* x) .+ y)
    return
end
