# pitfall: a Python-style 0:chunks-1 loop: chunk 0 lies before the row and the last chunk is never read; expect: MISMATCH
# lint: jl-zero-based-index@24
# layout: flipped
# cuTile.jl translation of softmax_chunked.py: x is (N, rows) here; three passes over
# (TN, 1) column chunks, reduced over dims=1.
import cuTile as ct

function load_chunk(x, row, c, TN)
    return ct.load(x; index=(c, row), shape=(TN, 1), padding_mode=ct.PaddingMode.NegInf)
end

function softmax(x::ct.TileArray{T,2}, y::ct.TileArray{T,2}, TN::Int) where {T}
    row = ct.bid(1)
    chunks = ct.num_tiles(x, 1, (TN, 1))
    m = fill(-Inf32, (1, 1))
    for c in 0:chunks - 1
        m = max.(m, maximum(load_chunk(x, row, c, TN); dims=1))
    end
    s = zeros(Float32, (1, 1))
    for c in 0:chunks - 1
        s = s .+ sum(exp.(load_chunk(x, row, c, TN) .- m); dims=1)
    end
    for c in 0:chunks - 1
        ct.store(y; index=(c, row), tile=exp.(load_chunk(x, row, c, TN) .- m) ./ s)
    end
    return
end
