# layout: flipped
# Translated from cuTile Python by `tiletrans rewrite --target julia --layout flipped`; every array is its Python shape reversed (the same bytes, column-major).
import cuTile as ct

# ConstInt = ct.Constant[int]  (cuTile.jl: constant parameters are `::Int`, launched as ct.Constant(v))

function rmsnorm(x::ct.TileArray, w::ct.TileArray, y::ct.TileArray, eps::Float32, N::Int, TN::Int)
    # y = x / sqrt(mean(x^2) + eps) * w per row; zero padding adds nothing to the sum
    # of squares, and the mean divides by the true width N.
    row = ct.bid(1)
    t = ct.load(x; index=(1, row), shape=(TN, 1), padding_mode=ct.PaddingMode.Zero)
    ms = sum(t .* t; dims=1) ./ N
    g = ct.load(w; index=(1,), shape=(TN,), padding_mode=ct.PaddingMode.Zero)
    ct.store(y; index=(1, row), tile=(t .* ct.rsqrt.(ms .+ eps)) .* g)
    return
end
