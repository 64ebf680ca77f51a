# layout: flipped
# cuTile.jl translation of softmax_online.py: x is (N, rows) here; chunks are (TN, 1)
# column tiles reduced over dims=1.
import cuTile as ct

function softmax(x::ct.TileArray{T,2}, y::ct.TileArray{T,2}, TN::Int) where {T}
    row = ct.bid(1)
    chunks = ct.num_tiles(x, 1, (TN, 1))
    m = fill(-Inf32, (1, 1))
    l = zeros(Float32, (1, 1))
    for c in 1:chunks
        t = ct.load(x; index=(c, row), shape=(TN, 1), padding_mode=ct.PaddingMode.NegInf)
        m_new = max.(m, maximum(t; dims=1))
        l = l .* exp.(m .- m_new) .+ sum(exp.(t .- m_new); dims=1)
        m = m_new
    end
    for c in 1:chunks
        t = ct.load(x; index=(c, row), shape=(TN, 1), padding_mode=ct.PaddingMode.NegInf)
        ct.store(y; index=(c, row), tile=exp.(t .- m) ./ l)
    end
    return
end
