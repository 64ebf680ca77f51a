# pitfall: signature mismatch: b declared a 2-d TileArray, the spec gives a 1-d array; expect: BUILD-FAIL
# lint: jl-array-rank-unused@8:41
# layout: flipped
# cuTile.jl translation of bias_add.py: x is (N, M) here (the same bytes, column-major),
# so b (N,) lines up with the first dim and broadcasts as it is.
import cuTile as ct

function bias_add(x::ct.TileArray{T,2}, b::ct.TileArray{T,2}, y::ct.TileArray{T,2},
                  TM::Int, TN::Int) where {T}
    i = ct.bid(1)
    j = ct.bid(2)
    t = ct.load(x; index=(j, i), shape=(TN, TM), padding_mode=ct.PaddingMode.Zero)
    row = ct.load(b; index=j, shape=(TN,), padding_mode=ct.PaddingMode.Zero)
    ct.store(y; index=(j, i), tile=t .+ row)
    return
end
