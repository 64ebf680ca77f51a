# layout: flipped
# cuTile.jl translation of batch_tile.py: the same bytes as column-major arrays, so A is
# (K, M, Bt), W (N, K, 1) and C (N, M, Bt): the batch already trails, tiles are
# (TK, TM, BT) and (TN, TK, 1), and A[b] @ W is muladd(w, a, acc) (W's batch of 1
# broadcasts).
import cuTile as ct

function batch_tile(A::ct.TileArray{Float32,3}, W::ct.TileArray{Float32,3}, C::ct.TileArray{Float32,3},
                    BT::Int, TM::Int, TN::Int, TK::Int)
    bb = ct.bid(1)
    bm = ct.bid(2)
    bn = ct.bid(3)
    acc = zeros(Float32, (TN, TM, BT))
    for k in 1:ct.num_tiles(A, 1, (TK, TM, BT))
        a = ct.load(A; index=(k, bm, bb), shape=(TK, TM, BT), padding_mode=ct.PaddingMode.Zero)
        w = ct.load(W; index=(bn, k, 1), shape=(TN, TK, 1), padding_mode=ct.PaddingMode.Zero)
        acc = muladd(w, a, acc)
    end
    a0 = ct.load(A; index=(1, bm, bb), shape=(TK, TM, BT), padding_mode=ct.PaddingMode.Zero)
    w0 = ct.load(W; index=(bn, 1, 1), shape=(TN, TK, 1), padding_mode=ct.PaddingMode.Zero)
    acc = acc + w0 * a0
    ct.store(C; index=(bn, bm, bb), tile=acc)
    return
end
