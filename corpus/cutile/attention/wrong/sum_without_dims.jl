# pitfall: sum(p) without dims=2: the row sums become one sum over the whole tile; expect: MISMATCH
# lint: jl-reduce-all@23
# layout: logical
# cuTile.jl translation of attention.py: Q, K, V, O are (heads, L, D) as in Python; each
# block owns TL queries of one head and streams keys and values with an online softmax.
import cuTile as ct

function attention(Q::ct.TileArray{T,3}, K::ct.TileArray{T,3}, V::ct.TileArray{T,3}, O::ct.TileArray{T,3},
                   scale::Float32, TL::Int, TD::Int) where {T}
    qi = ct.bid(1)
    h = ct.bid(2)
    q = reshape(ct.load(Q; index=(h, qi, 1), shape=(1, TL, TD), padding_mode=ct.PaddingMode.Zero), (TL, TD))
    m = fill(-Inf32, (TL, 1))
    l = zeros(Float32, (TL, 1))
    acc = zeros(Float32, (TL, TD))
    for j in 1:ct.num_tiles(K, 2, (1, TL, TD))
        k = reshape(ct.load(K; index=(h, j, 1), shape=(1, TL, TD), padding_mode=ct.PaddingMode.Zero), (TL, TD))
        v = reshape(ct.load(V; index=(h, j, 1), shape=(1, TL, TD), padding_mode=ct.PaddingMode.Zero), (TL, TD))
        s = muladd(q, transpose(k), zeros(Float32, (TL, TL))) * scale
        m_new = max.(m, maximum(s; dims=2))
        p = exp.(s .- m_new)
        alpha = exp.(m .- m_new)
        l = l .* alpha .+ sum(p)
        acc = muladd(convert(ct.Tile{T}, p), v, acc .* alpha)
        m = m_new
    end
    out = convert(ct.Tile{T}, acc ./ l)
    ct.store(O; index=(h, qi, 1), tile=reshape(out, (1, TL, TD)))
    return
end
