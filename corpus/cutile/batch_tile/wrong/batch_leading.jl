# pitfall: the leading batch dim kept in front for muladd (cuTile.jl takes dims 1-2 as the matrix, so BT is read as M); expect: BUILD-FAIL
# lint: jl-accumulator-shape@20
# layout: logical
# cuTile.jl translation of batch_tile.py: A (Bt, M, K), W (1, K, N) as in Python. A
# block's tiles lead with a batch dim of BT; cuTile.jl's batched muladd wants the batch
# behind the matrix dims, so the tiles are permuted to (TM, TK, BT) and (TK, TN, 1) (a
# batch of 1 broadcasts), the accumulator lives as (TM, TN, BT) and is permuted back
# for the store.
import cuTile as ct

function batch_tile(A::ct.TileArray{Float32,3}, W::ct.TileArray{Float32,3}, C::ct.TileArray{Float32,3},
                    BT::Int, TM::Int, TN::Int, TK::Int)
    bb = ct.bid(1)
    bm = ct.bid(2)
    bn = ct.bid(3)
    acc = zeros(Float32, (BT, TM, TN))
    for k in 1:ct.num_tiles(A, 3, (BT, TM, TK))
        a = ct.load(A; index=(bb, bm, k), shape=(BT, TM, TK), padding_mode=ct.PaddingMode.Zero)
        w = ct.load(W; index=(1, k, bn), shape=(1, TK, TN), padding_mode=ct.PaddingMode.Zero)
        acc = muladd(a, w, acc)
    end
    a0 = ct.load(A; index=(bb, bm, 1), shape=(BT, TM, TK), padding_mode=ct.PaddingMode.Zero)
    w0 = ct.load(W; index=(1, 1, bn), shape=(1, TK, TN), padding_mode=ct.PaddingMode.Zero)
    acc = acc + a0 * w0
    ct.store(C; index=(bb, bm, bn), tile=acc)
    return
end
