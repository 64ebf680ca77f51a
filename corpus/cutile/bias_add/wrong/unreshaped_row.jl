# pitfall: the (N,) bias row not reshaped to (1, N): Julia broadcasts from the left, so it is added down the columns; expect: MISMATCH
# layout: logical
# lint: jl-row-broadcast@14:36
# cuTile.jl translation of bias_add.py: y = x .+ b with x (M, N) as in Python. Julia
# broadcasts from the left, so the row vector b (N,) is reshaped to (1, N) first.
import cuTile as ct

function bias_add(x::ct.TileArray{T,2}, b::ct.TileArray{T,1}, y::ct.TileArray{T,2},
                  TM::Int, TN::Int) where {T}
    i = ct.bid(1)
    j = ct.bid(2)
    t = ct.load(x; index=(i, j), shape=(TM, TN), padding_mode=ct.PaddingMode.Zero)
    row = ct.load(b; index=j, shape=(TN,), padding_mode=ct.PaddingMode.Zero)
    ct.store(y; index=(i, j), tile=t .+ row)
    return
end
