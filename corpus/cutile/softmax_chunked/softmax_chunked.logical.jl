# layout: logical
# cuTile.jl translation of softmax_chunked.py: three passes over (1, TN) chunks of the
# row (the max, the sum of exp, the normalised values), with a helper for the loads.
import cuTile as ct

load_chunk(x, row, c, TN) = ct.load(x; index=(row, c), shape=(1, TN), padding_mode=ct.PaddingMode.NegInf)

function softmax(x::ct.TileArray{T,2}, y::ct.TileArray{T,2}, TN::Int) where {T}
    row = ct.bid(1)
    chunks = ct.num_tiles(x, 2, (1, TN))
    m = fill(-Inf32, (1, 1))
    for c in 1:chunks
        m = max.(m, maximum(load_chunk(x, row, c, TN); dims=2))
    end
    s = zeros(Float32, (1, 1))
    for c in 1:chunks
        s = s .+ sum(exp.(load_chunk(x, row, c, TN) .- m); dims=2)
    end
    for c in 1:chunks
        ct.store(y; index=(row, c), tile=exp.(load_chunk(x, row, c, TN) .- m) ./ s)
    end
    return
end
