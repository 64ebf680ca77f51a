# layout: logical
# Translated from cuTile Python by `tiletrans rewrite --target julia --layout logical`; arrays keep their Python shapes.
import cuTile as ct

# ConstInt = ct.Constant[int]  (cuTile.jl: constant parameters are `::Int`, launched as ct.Constant(v))

function bmm(A::ct.TileArray, B::ct.TileArray, C::ct.TileArray, TM::Int, TN::Int, TK::Int)
    # C[b] = A[b] @ B[b] for f16 batches (Bt, M, K) @ (Bt, K, N); the batch is the
    # leading dim and grid axis 2; 3-d tiles with a batch dim of 1 go straight to mma.
    bm = ct.bid(1)
    bn = ct.bid(2)
    bt = ct.bid(3)
    acc = zeros(Float32, 1, TM, TN)
    for k in Int32(1):ct.num_tiles(A, 3, (1, TM, TK))
        a = ct.load(A; index=(bt, bm, k), shape=(1, TM, TK), padding_mode=ct.PaddingMode.Zero)
        b = ct.load(B; index=(bt, k, bn), shape=(1, TK, TN), padding_mode=ct.PaddingMode.Zero)
        acc = reshape(muladd(reshape(a, (TM, TK)), reshape(b, (TK, TN)), reshape(acc, (TM, TN))), (1, TM, TN))
    end
    ct.store(C; index=(bt, bm, bn), tile=acc)
    return
end
