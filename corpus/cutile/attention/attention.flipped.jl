# layout: flipped
# cuTile.jl translation of attention.py: Q, K, V, O are (D, L, heads) here, so a block
# works on transposed tiles: scores s' = k' * q are (keys, queries), reductions run over
# dims=1 and the accumulator is (D, queries) = v * p.
import cuTile as ct

function attention(Q::ct.TileArray{T,3}, K::ct.TileArray{T,3}, V::ct.TileArray{T,3}, O::ct.TileArray{T,3},
                   scale::Float32, TL::Int, TD::Int) where {T}
    qi = ct.bid(1)
    h = ct.bid(2)
    q = reshape(ct.load(Q; index=(1, qi, h), shape=(TD, TL, 1), padding_mode=ct.PaddingMode.Zero), (TD, TL))
    m = fill(-Inf32, (1, TL))
    l = zeros(Float32, (1, TL))
    acc = zeros(Float32, (TD, TL))
    for j in 1:ct.num_tiles(K, 2, (TD, TL, 1))
        k = reshape(ct.load(K; index=(1, j, h), shape=(TD, TL, 1), padding_mode=ct.PaddingMode.Zero), (TD, TL))
        v = reshape(ct.load(V; index=(1, j, h), shape=(TD, TL, 1), padding_mode=ct.PaddingMode.Zero), (TD, TL))
        s = muladd(transpose(k), q, zeros(Float32, (TL, TL))) * scale
        m_new = max.(m, maximum(s; dims=1))
        p = exp.(s .- m_new)
        alpha = exp.(m .- m_new)
        l = l .* alpha .+ sum(p; dims=1)
        acc = muladd(v, convert(ct.Tile{T}, p), acc .* alpha)
        m = m_new
    end
    out = convert(ct.Tile{T}, acc ./ l)
    ct.store(O; index=(1, qi, h), tile=reshape(out, (TD, TL, 1)))
    return
end
