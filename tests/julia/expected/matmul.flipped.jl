# layout: flipped
# Translated from cuTile Python by `tiletrans rewrite --target julia --layout flipped`; every array is its Python shape reversed (the same bytes, column-major).
import cuTile as ct

# ConstInt = ct.Constant[int]  (cuTile.jl: constant parameters are `::Int`, launched as ct.Constant(v))

function matmul(A::ct.TileArray, B::ct.TileArray, C::ct.TileArray, TM::Int, TN::Int, TK::Int)
    # C = A @ B for f32 A (M, K) and B (K, N), on tensor cores in TF32, accumulating in f32.
    bm = ct.bid(1)
    bn = ct.bid(2)
    op = (eltype(A) == Float32 ? ct.TFloat32 : eltype(A))
    acc = zeros(Float32, TN, TM)
    for k in Int32(1):ct.num_tiles(A, 1, (TK, TM))
        a = convert(ct.Tile{op}, ct.load(A; index=(k, bm), shape=(TK, TM), padding_mode=ct.PaddingMode.Zero))
        b = convert(ct.Tile{op}, ct.load(B; index=(bn, k), shape=(TN, TK), padding_mode=ct.PaddingMode.Zero))
        acc = muladd(b, a, acc)
    end
    ct.store(C; index=(bn, bm), tile=convert(ct.Tile{eltype(C)}, acc))
    return
end
