# layout: logical
# cuTile.jl translation of rmsnorm.py: one row (1, TN) per block; the weight row (TN,)
# is reshaped to (1, TN), since Julia broadcasts from the left.
import cuTile as ct

function rmsnorm(x::ct.TileArray{T,2}, w::ct.TileArray{T,1}, y::ct.TileArray{T,2},
                 eps::Float32, N::Int, TN::Int) where {T}
    row = ct.bid(1)
    t = ct.load(x; index=(row, 1), shape=(1, TN), padding_mode=ct.PaddingMode.Zero)
    ms = sum(t .* t; dims=2) / N
    g = ct.load(w; index=1, shape=(TN,), padding_mode=ct.PaddingMode.Zero)
    ct.store(y; index=(row, 1), tile=t .* ct.rsqrt.(ms .+ eps) .* reshape(g, (1, TN)))
    return
end
