# pitfall: a dotted .* where the matrix product was meant (acc .+ a .* b for ct.mma); expect: MISMATCH
# lint: jl-broadcast-shapes@20
# layout: logical
# cuTile.jl translation of matmul.py: C = A * B, A (M, K) and B (K, N) as in Python;
# f32 operands go to the tensor cores as TFloat32, accumulating in Float32.
import cuTile as ct

function matmul(A::ct.TileArray{T,2}, B::ct.TileArray{T,2}, C::ct.TileArray{T,2},
                TM::Int, TN::Int, TK::Int) where {T}
    bm = ct.bid(1)
    bn = ct.bid(2)
    acc = zeros(Float32, (TM, TN))
    for k in 1:ct.num_tiles(A, 2, (TM, TK))
        a = ct.load(A; index=(bm, k), shape=(TM, TK), padding_mode=ct.PaddingMode.Zero)
        b = ct.load(B; index=(k, bn), shape=(TK, TN), padding_mode=ct.PaddingMode.Zero)
        if T === Float32
            a = convert(ct.Tile{ct.TFloat32}, a)
            b = convert(ct.Tile{ct.TFloat32}, b)
        end
        acc = acc .+ convert(ct.Tile{Float32}, a .* b)
    end
    ct.store(C; index=(bm, bn), tile=convert(ct.Tile{T}, acc))
    return
end
