# layout: flipped
# Translated from cuTile Python by `tiletrans rewrite --target julia --layout flipped`; every array is its Python shape reversed (the same bytes, column-major).
import cuTile as ct

# ConstInt = ct.Constant[int]  (cuTile.jl: constant parameters are `::Int`, launched as ct.Constant(v))

function softmax(x::ct.TileArray, y::ct.TileArray, TN::Int)
    # Row softmax for rows longer than a tile: one pass keeps a running max m and a
    # running sum l (rescaled by exp(m_old - m_new) when the max grows), a second pass
    # normalises.
    row = ct.bid(1)
    chunks = ct.num_tiles(x, 1, (TN, 1))
    m = fill(-Inf32, 1, 1)
    l = zeros(Float32, 1, 1)
    for c in Int32(1):chunks
        t = ct.load(x; index=(c, row), shape=(TN, 1), padding_mode=ct.PaddingMode.NegInf)
        m_new = max.(m, maximum(t; dims=1))
        l = (l .* exp.(m .- m_new)) .+ sum(exp.(t .- m_new); dims=1)
        m = m_new
    end
    for c in Int32(1):chunks
        t = ct.load(x; index=(c, row), shape=(TN, 1), padding_mode=ct.PaddingMode.NegInf)
        ct.store(y; index=(c, row), tile=exp.(t .- m) ./ l)
    end
    return
end
