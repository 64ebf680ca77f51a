# layout: logical
# Translated from cuTile Python by `tiletrans rewrite --target julia --layout logical`; arrays keep their Python shapes.
import cuTile as ct

# ConstInt = ct.Constant[int]  (cuTile.jl: constant parameters are `::Int`, launched as ct.Constant(v))

function rmsnorm(x::ct.TileArray, w::ct.TileArray, y::ct.TileArray, eps::Float32, N::Int, TN::Int)
    # y = x / sqrt(mean(x^2) + eps) * w per row; zero padding adds nothing to the sum
    # of squares, and the mean divides by the true width N.
    row = ct.bid(1)
    t = ct.load(x; index=(row, 1), shape=(1, TN), padding_mode=ct.PaddingMode.Zero)
    ms = sum(t .* t; dims=2) ./ N
    g = ct.load(w; index=(1,), shape=(TN,), padding_mode=ct.PaddingMode.Zero)
    ct.store(y; index=(row, 1), tile=(t .* ct.rsqrt.(ms .+ eps)) .* reshape(g, (1, TN)))
    return
end
