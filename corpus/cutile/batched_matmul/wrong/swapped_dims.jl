# pitfall: swapped stride/dims: the batch indexed as the first dim in a flipped file, where it is the last; expect: MISMATCH
# lint: jl-array-tile-shape@16
# layout: flipped
# cuTile.jl translation of batched_matmul.py: the batch is the last dim here, A is
# (K, M, Bt), B (N, K, Bt) and C (N, M, Bt), so each batch computes C = B * A (as
# cuTile.jl's own examples/batchmatmul.jl keeps the batch last).
import cuTile as ct

function bmm(A::ct.TileArray{Float16,3}, B::ct.TileArray{Float16,3}, C::ct.TileArray{Float32,3},
             TM::Int, TN::Int, TK::Int)
    bm = ct.bid(1)
    bn = ct.bid(2)
    bt = ct.bid(3)
    acc = zeros(Float32, (TN, TM))
    for k in 1:ct.num_tiles(A, 1, (TK, TM, 1))
        a = ct.load(A; index=(bt, bm, k), shape=(1, TM, TK), padding_mode=ct.PaddingMode.Zero)
        b = ct.load(B; index=(bn, k, bt), shape=(TN, TK, 1), padding_mode=ct.PaddingMode.Zero)
        acc = muladd(reshape(b, (TN, TK)), transpose(reshape(a, (TM, TK))), acc)
    end
    ct.store(C; index=(bn, bm, bt), tile=reshape(acc, (TN, TM, 1)))
    return
end
