# pitfall: signature mismatch: b declared a 2-d TileArray, the spec gives a 1-d array; expect: BUILD-FAIL
# lint-undetectable: the file is consistent with itself under cuTile.jl: a (TN,) load from an array declared 2-d is padded to (TN, 1) (cuTile.jl c3e5f05 _match_shape), so it compiles for a 2-d array; only the host passing a 1-d bias makes the signature wrong, and the host is not in the file (check: BUILD-FAIL against the spec; jl-array-rank covers the rank errors a file shows by itself)
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
