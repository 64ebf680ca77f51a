# layout: logical
# Translated from cuTile Python by `tiletrans rewrite --target julia --layout logical`; arrays keep their Python shapes.
import cuTile as ct

# ConstInt = ct.Constant[int]  (cuTile.jl: constant parameters are `::Int`, launched as ct.Constant(v))

function matmul(A::ct.TileArray, B::ct.TileArray, C::ct.TileArray, TM::Int, TN::Int, TK::Int)
    # C = A @ B for f32 A (M, K) and B (K, N), on tensor cores in TF32, accumulating in f32.
    bm = ct.bid(1)
    bn = ct.bid(2)
    op = (eltype(A) == Float32 ? ct.TFloat32 : eltype(A))
    acc = zeros(Float32, TM, TN)
    for k in Int32(1):ct.num_tiles(A, 2, (TM, TK))
        a = convert(ct.Tile{op}, ct.load(A; index=(bm, k), shape=(TM, TK), padding_mode=ct.PaddingMode.Zero))
        b = convert(ct.Tile{op}, ct.load(B; index=(k, bn), shape=(TK, TN), padding_mode=ct.PaddingMode.Zero))
        acc = muladd(a, b, acc)
    end
    ct.store(C; index=(bm, bn), tile=convert(ct.Tile{eltype(C)}, acc))
    return
end
