# pitfall: the logical-layout product (A tile (bm, k) times B tile (k, bn)) in a flipped file: the accumulator is C's transpose; expect: MISMATCH
# lint: jl-array-tile-shape@14 jl-accumulator-shape@20 jl-index-dims@22
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
        a = ct.load(A; index=(bm, k), shape=(TM, TK), padding_mode=ct.PaddingMode.Zero)
        b = ct.load(B; index=(k, bn), shape=(TK, TN), padding_mode=ct.PaddingMode.Zero)
        if T === Float32
            a = convert(ct.Tile{ct.TFloat32}, a)
            b = convert(ct.Tile{ct.TFloat32}, b)
        end
        acc = muladd(a, b, acc)
    end
    ct.store(C; index=(bm, bn), tile=convert(ct.Tile{T}, acc))
    return
end
