# layout: logical
# Translated from cuTile Python by `tiletrans rewrite --target julia --layout logical`; arrays keep their Python shapes.
import cuTile as ct

# ConstInt = ct.Constant[int]  (cuTile.jl: constant parameters are `::Int`, launched as ct.Constant(v))

function batch_tile(A::ct.TileArray, W::ct.TileArray, C::ct.TileArray, BT::Int, TM::Int, TN::Int, TK::Int)
    # C[b] = A[b] @ W[0] for f32 batches (Bt, M, K) @ (1, K, N): each block takes BT
    # batches at once, so its tiles have a leading batch dim of BT (not 1), and W's
    # (1, TK, TN) tile broadcasts over it.
    bb = ct.bid(1)
    bm = ct.bid(2)
    bn = ct.bid(3)
    acc = zeros(Float32, BT, TM, TN)
    for k in Int32(1):ct.num_tiles(A, 3, (BT, TM, TK))
        a = ct.load(A; index=(bb, bm, k), shape=(BT, TM, TK), padding_mode=ct.PaddingMode.Zero)
        w = ct.load(W; index=(1, k, bn), shape=(1, TK, TN), padding_mode=ct.PaddingMode.Zero)
        acc = permutedims(muladd(permutedims(a, (2, 3, 1)), permutedims(w, (2, 3, 1)), permutedims(acc, (2, 3, 1))), (3, 1, 2))
    end
    # a second product without an accumulator: the first K tile again, added in
    a0 = ct.load(A; index=(bb, bm, 1), shape=(BT, TM, TK), padding_mode=ct.PaddingMode.Zero)
    w0 = ct.load(W; index=(1, 1, bn), shape=(1, TK, TN), padding_mode=ct.PaddingMode.Zero)
    acc = acc .+ permutedims(permutedims(a0, (2, 3, 1)) * permutedims(w0, (2, 3, 1)), (3, 1, 2))
    ct.store(C; index=(bb, bm, bn), tile=acc)
    return
end
