# layout: logical
# Translated from cuTile Python by `tiletrans rewrite --target julia --layout logical`; arrays keep their Python shapes.
import cuTile as ct

# ConstInt = ct.Constant[int]  (cuTile.jl: constant parameters are `::Int`, launched as ct.Constant(v))

function attention(Q::ct.TileArray, K::ct.TileArray, V::ct.TileArray, O::ct.TileArray, scale::Float32, TL::Int, TD::Int)
    # Flash attention over (heads, L, D) f16 inputs: each block owns TL queries of one
    # head and streams the keys and values in TL-long tiles with an online softmax
    # (running max m, running sum l, the accumulator rescaled by exp(m_old - m_new)).
    qi = ct.bid(1)
    h = ct.bid(2)
    q = reshape(ct.load(Q; index=(h, qi, 1), shape=(1, TL, TD), padding_mode=ct.PaddingMode.Zero), (TL, TD))
    m = fill(-Inf32, TL, 1)
    l = zeros(Float32, TL, 1)
    acc = zeros(Float32, TL, TD)
    for j in Int32(1):ct.num_tiles(K, 2, (1, TL, TD))
        k = reshape(ct.load(K; index=(h, j, 1), shape=(1, TL, TD), padding_mode=ct.PaddingMode.Zero), (TL, TD))
        v = reshape(ct.load(V; index=(h, j, 1), shape=(1, TL, TD), padding_mode=ct.PaddingMode.Zero), (TL, TD))
        s = muladd(q, transpose(k), zeros(Float32, TL, TL)) .* scale
        m_new = max.(m, maximum(s; dims=2))
        p = exp.(s .- m_new)
        alpha = exp.(m .- m_new)
        l = (l .* alpha) .+ sum(p; dims=2)
        acc = muladd(convert(ct.Tile{eltype(v)}, p), v, acc .* alpha)
        m = m_new
    end
    out = convert(ct.Tile{eltype(O)}, (acc ./ l))
    ct.store(O; index=(h, qi, 1), tile=reshape(out, (1, TL, TD)))
    return
end
