# pitfall: an undotted + of a (TM, TN) tile and a (1, TN) row: Julia's + needs equal shapes, the compiler rejects it; expect: BUILD-FAIL
# lint: jl-undotted-shapes@14
# layout: logical
# cuTile.jl translation of bias_add.py: y = x .+ b with x (M, N) as in Python. Julia
# broadcasts from the left, so the row vector b (N,) is reshaped to (1, N) first.
import cuTile as ct

function bias_add(x::ct.TileArray{T,2}, b::ct.TileArray{T,1}, y::ct.TileArray{T,2},
                  TM::Int, TN::Int) where {T}
    i = ct.bid(1)
    j = ct.bid(2)
    t = ct.load(x; index=(i, j), shape=(TM, TN), padding_mode=ct.PaddingMode.Zero)
    row = ct.load(b; index=j, shape=(TN,), padding_mode=ct.PaddingMode.Zero)
    ct.store(y; index=(i, j), tile=t + reshape(row, (1, TN)))
    return
end
