# layout: flipped
# Translated from cuTile Python by `tiletrans rewrite --target julia --layout flipped`; every array is its Python shape reversed (the same bytes, column-major).
import cuTile as ct

# ConstInt = ct.Constant[int]  (cuTile.jl: constant parameters are `::Int`, launched as ct.Constant(v))

function batch_tile(A::ct.TileArray, W::ct.TileArray, C::ct.TileArray, BT::Int, TM::Int, TN::Int, TK::Int)
    # C[b] = A[b] @ W[0] for f32 batches (Bt, M, K) @ (1, K, N): each block takes BT
    # batches at once, so its tiles have a leading batch dim of BT (not 1), and W's
    # (1, TK, TN) tile broadcasts over it.
    bb = ct.bid(1)
    bm = ct.bid(2)
    bn = ct.bid(3)
    acc = zeros(Float32, TN, TM, BT)
    for k in Int32(1):ct.num_tiles(A, 1, (TK, TM, BT))
        a = ct.load(A; index=(k, bm, bb), shape=(TK, TM, BT), padding_mode=ct.PaddingMode.Zero)
        w = ct.load(W; index=(bn, k, 1), shape=(TN, TK, 1), padding_mode=ct.PaddingMode.Zero)
        acc = muladd(w, a, acc)
    end
    # a second product without an accumulator: the first K tile again, added in
    a0 = ct.load(A; index=(1, bm, bb), shape=(TK, TM, BT), padding_mode=ct.PaddingMode.Zero)
    w0 = ct.load(W; index=(bn, 1, 1), shape=(TN, TK, 1), padding_mode=ct.PaddingMode.Zero)
    acc = acc .+ (w0 * a0)
    ct.store(C; index=(bn, bm, bb), tile=acc)
    return
end
