# layout: flipped
# cuTile.jl translation of matmul.py: here A is (K, M), B (N, K) and C (N, M), so
# C = B * A; block (bm, bn) owns C's (TN, TM) tile at (bn, bm).
import cuTile as ct

function matmul(A::ct.TileArray{T,2}, B::ct.TileArray{T,2}, C::ct.TileArray{T,2},
                TM::Int, TN::Int, TK::Int) where {T}
    bm = ct.bid(1)
    bn = ct.bid(2)
    acc = zeros(Float32, (TN, TM))
    for k in 1:ct.num_tiles(A, 1, (TK, TM))
        a = ct.load(A; index=(k, bm), shape=(TK, TM), padding_mode=ct.PaddingMode.Zero)
        b = ct.load(B; index=(bn, k), shape=(TN, TK), padding_mode=ct.PaddingMode.Zero)
        if T === Float32
            a = convert(ct.Tile{ct.TFloat32}, a)
            b = convert(ct.Tile{ct.TFloat32}, b)
        end
        acc = muladd(b, a, acc)
    end
    ct.store(C; index=(bn, bm), tile=convert(ct.Tile{T}, acc))
    return
end
