# pitfall: the store index not swapped (y's tile (j, i) for block (i, j)); expect: MISMATCH
# lint: jl-index-dims@12
# layout: flipped
# cuTile.jl translation of transpose.py: x is (N, M) and y (M, N) here; block (i, j)
# loads x's (TN, TM) tile at (j, i) and stores it permuted as y's tile (i, j).
import cuTile as ct

function transpose(x::ct.TileArray{T,2}, y::ct.TileArray{T,2}, TM::Int, TN::Int) where {T}
    i = ct.bid(1)
    j = ct.bid(2)
    t = ct.load(x; index=(j, i), shape=(TN, TM), padding_mode=ct.PaddingMode.Zero)
    ct.store(y; index=(j, i), tile=permutedims(t, (2, 1)))
    return
end
