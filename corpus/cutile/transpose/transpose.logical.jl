# layout: logical
# cuTile.jl translation of transpose.py: y = x', x (M, N) and y (N, M) as in Python.
import cuTile as ct

function transpose(x::ct.TileArray{T,2}, y::ct.TileArray{T,2}, TM::Int, TN::Int) where {T}
    i = ct.bid(1)
    j = ct.bid(2)
    t = ct.load(x; index=(j, i), shape=(TN, TM), order=(2, 1), padding_mode=ct.PaddingMode.Zero)
    ct.store(y; index=(j, i), tile=t)
    return
end
