# layout: flipped
# Translated from cuTile Python by `tiletrans rewrite --target julia --layout flipped`; every array is its Python shape reversed (the same bytes, column-major).
import cuTile as ct

# ConstInt = ct.Constant[int]  (cuTile.jl: constant parameters are `::Int`, launched as ct.Constant(v))

function softmax(x::ct.TileArray, y::ct.TileArray, TN::Int)
    # Row softmax, one row per block, the whole row in one tile (TN >= N).
    # Padding with -inf keeps the padded columns out of the max and the sum.
    row = ct.bid(1)
    t = ct.load(x; index=(1, row), shape=(TN, 1), padding_mode=ct.PaddingMode.NegInf)
    t = t .- maximum(t; dims=1)
    e = exp.(t)
    ct.store(y; index=(1, row), tile=e ./ sum(e; dims=1))
    return
end
