# pitfall: an fp16 accumulator (zeros(Float16, ...)): muladd accumulates and rounds in Float16; expect: MISMATCH
# lint: jl-accumulator-precision@17
# layout: logical
# cuTile.jl translation of batched_matmul.py: A (Bt, M, K), B (Bt, K, N) as in Python;
# 3-d tiles with a batch dim of 1 are reshaped to matrices for muladd.
import cuTile as ct

function bmm(A::ct.TileArray{Float16,3}, B::ct.TileArray{Float16,3}, C::ct.TileArray{Float32,3},
             TM::Int, TN::Int, TK::Int)
    bm = ct.bid(1)
    bn = ct.bid(2)
    bt = ct.bid(3)
    acc = zeros(Float16, (TM, TN))
    for k in 1:ct.num_tiles(A, 3, (1, TM, TK))
        a = ct.load(A; index=(bt, bm, k), shape=(1, TM, TK), padding_mode=ct.PaddingMode.Zero)
        b = ct.load(B; index=(bt, k, bn), shape=(1, TK, TN), padding_mode=ct.PaddingMode.Zero)
        acc = muladd(reshape(a, (TM, TK)), reshape(b, (TK, TN)), acc)
    end
    ct.store(C; index=(bt, bm, bn), tile=reshape(acc, (1, TM, TN)))
    return
end
