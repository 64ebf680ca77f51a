# layout: logical
# Translated from cuTile Python by `tiletrans rewrite --target julia --layout logical`; arrays keep their Python shapes.
import cuTile as ct

# ConstInt = ct.Constant[int]  (cuTile.jl: constant parameters are `::Int`, launched as ct.Constant(v))

function softmax(x::ct.TileArray, y::ct.TileArray, TN::Int)
    # Row softmax, one row per block, the whole row in one tile (TN >= N).
    # Padding with -inf keeps the padded columns out of the max and the sum.
    row = ct.bid(1)
    t = ct.load(x; index=(row, 1), shape=(1, TN), padding_mode=ct.PaddingMode.NegInf)
    t = t .- maximum(t; dims=2)
    e = exp.(t)
    ct.store(y; index=(row, 1), tile=e ./ sum(e; dims=2))
    return
end
