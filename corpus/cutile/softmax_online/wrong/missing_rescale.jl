# pitfall: the running sum not rescaled by exp(m_old - m_new) when the max grows; expect: MISMATCH
# lint: jl-online-softmax-rescale@16:13
# layout: logical
# cuTile.jl translation of softmax_online.py: a running max m and sum l over (1, TN)
# chunks of the row, then a normalising pass.
import cuTile as ct

function softmax(x::ct.TileArray{T,2}, y::ct.TileArray{T,2}, TN::Int) where {T}
    row = ct.bid(1)
    chunks = ct.num_tiles(x, 2, (1, TN))
    m = fill(-Inf32, (1, 1))
    l = zeros(Float32, (1, 1))
    for c in 1:chunks
        t = ct.load(x; index=(row, c), shape=(1, TN), padding_mode=ct.PaddingMode.NegInf)
        m_new = max.(m, maximum(t; dims=2))
        l = l .+ sum(exp.(t .- m_new); dims=2)
        m = m_new
    end
    for c in 1:chunks
        t = ct.load(x; index=(row, c), shape=(1, TN), padding_mode=ct.PaddingMode.NegInf)
        ct.store(y; index=(row, c), tile=exp.(t .- m) ./ l)
    end
    return
end
