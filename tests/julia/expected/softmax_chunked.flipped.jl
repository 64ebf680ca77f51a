# layout: flipped
# Translated from cuTile Python by `tiletrans rewrite --target julia --layout flipped`; every array is its Python shape reversed (the same bytes, column-major).
import cuTile as ct

# ConstInt = ct.Constant[int]  (cuTile.jl: constant parameters are `::Int`, launched as ct.Constant(v))

function softmax(x::ct.TileArray, y::ct.TileArray, TN::Int)
    # Row softmax in three passes over chunks: the max, then the sum of exp(x - max),
    # then the normalised values. Padding with -inf keeps the padded columns out of
    # every pass: they add nothing to the max and exp(-inf) = 0 to the sum.
    row = ct.bid(1)
    chunks = ct.num_tiles(x, 1, (TN, 1))
    m = fill(-Inf32, 1, 1)
    for c in Int32(1):chunks
        t = ct.load(x; index=(c, row), shape=(TN, 1), padding_mode=ct.PaddingMode.NegInf)
        m = max.(m, maximum(t; dims=1))
    end
    s = zeros(Float32, 1, 1)
    for c in Int32(1):chunks
        t = ct.load(x; index=(c, row), shape=(TN, 1), padding_mode=ct.PaddingMode.NegInf)
        s = s .+ sum(exp.(t .- m); dims=1)
    end
    for c in Int32(1):chunks
        t = ct.load(x; index=(c, row), shape=(TN, 1), padding_mode=ct.PaddingMode.NegInf)
        ct.store(y; index=(c, row), tile=exp.(t .- m) ./ s)
    end
    return
end
