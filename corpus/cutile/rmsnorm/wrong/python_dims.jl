# pitfall: the Python axis kept (dims=2) for a flipped row (TN, 1): every element is its own mean; expect: MISMATCH
# lint: jl-reduce-unit-dim@12
# layout: flipped
# cuTile.jl translation of rmsnorm.py: x is (N, rows) here, so a row is the column
# tile (TN, 1), the mean reduces dims=1, and the weight (TN,) broadcasts as it is.
import cuTile as ct

function rmsnorm(x::ct.TileArray{T,2}, w::ct.TileArray{T,1}, y::ct.TileArray{T,2},
                 eps::Float32, N::Int, TN::Int) where {T}
    row = ct.bid(1)
    t = ct.load(x; index=(1, row), shape=(TN, 1), padding_mode=ct.PaddingMode.Zero)
    ms = sum(t .* t; dims=2) / N
    g = ct.load(w; index=1, shape=(TN,), padding_mode=ct.PaddingMode.Zero)
    ct.store(y; index=(1, row), tile=t .* ct.rsqrt.(ms .+ eps) .* g)
    return
end
