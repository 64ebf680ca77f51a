# layout: flipped
# Translated from cuTile Python by `tiletrans rewrite --target julia --layout flipped`; every array is its Python shape reversed (the same bytes, column-major).
import cuTile as ct

# ConstInt = ct.Constant[int]  (cuTile.jl: constant parameters are `::Int`, launched as ct.Constant(v))

function attention(Q::ct.TileArray, K::ct.TileArray, V::ct.TileArray, O::ct.TileArray, scale::Float32, TL::Int, TD::Int)
    # Flash attention over (heads, L, D) f16 inputs: each block owns TL queries of one
    # head and streams the keys and values in TL-long tiles with an online softmax
    # (running max m, running sum l, the accumulator rescaled by exp(m_old - m_new)).
    qi = ct.bid(1)
    h = ct.bid(2)
    q = reshape(ct.load(Q; index=(1, qi, h), shape=(TD, TL, 1), padding_mode=ct.PaddingMode.Zero), (TD, TL))
    m = fill(-Inf32, 1, TL)
    l = zeros(Float32, 1, TL)
    acc = zeros(Float32, TD, TL)
    for j in Int32(1):ct.num_tiles(K, 2, (TD, TL, 1))
        k = reshape(ct.load(K; index=(1, j, h), shape=(TD, TL, 1), padding_mode=ct.PaddingMode.Zero), (TD, TL))
        v = reshape(ct.load(V; index=(1, j, h), shape=(TD, TL, 1), padding_mode=ct.PaddingMode.Zero), (TD, TL))
        s = muladd(transpose(k), q, zeros(Float32, TL, TL)) .* scale
        m_new = max.(m, maximum(s; dims=1))
        p = exp.(s .- m_new)
        alpha = exp.(m .- m_new)
        l = (l .* alpha) .+ sum(p; dims=1)
        acc = muladd(v, convert(ct.Tile{eltype(v)}, p), acc .* alpha)
        m = m_new
    end
    out = convert(ct.Tile{eltype(O)}, (acc ./ l))
    ct.store(O; index=(1, qi, h), tile=reshape(out, (TD, TL, 1)))
    return
end
