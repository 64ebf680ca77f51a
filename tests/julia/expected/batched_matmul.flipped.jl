# layout: flipped
# Translated from cuTile Python by `tiletrans rewrite --target julia --layout flipped`; every array is its Python shape reversed (the same bytes, column-major).
import cuTile as ct

# ConstInt = ct.Constant[int]  (cuTile.jl: constant parameters are `::Int`, launched as ct.Constant(v))

function bmm(A::ct.TileArray, B::ct.TileArray, C::ct.TileArray, TM::Int, TN::Int, TK::Int)
    # C[b] = A[b] @ B[b] for f16 batches (Bt, M, K) @ (Bt, K, N); the batch is the
    # leading dim and grid axis 2; 3-d tiles with a batch dim of 1 go straight to mma.
    bm = ct.bid(1)
    bn = ct.bid(2)
    bt = ct.bid(3)
    acc = zeros(Float32, TN, TM, 1)
    for k in Int32(1):ct.num_tiles(A, 1, (TK, TM, 1))
        a = ct.load(A; index=(k, bm, bt), shape=(TK, TM, 1), padding_mode=ct.PaddingMode.Zero)
        b = ct.load(B; index=(bn, k, bt), shape=(TN, TK, 1), padding_mode=ct.PaddingMode.Zero)
        acc = muladd(b, a, acc)
    end
    ct.store(C; index=(bn, bm, bt), tile=acc)
    return
end
