# pitfall: PaddingMode.Zero before a max (other=0): the padded zeros win the max of a negative row; expect: MISMATCH
# lint: jl-padding-zero-before-max@11
# layout: logical
# cuTile.jl translation of softmax_single.py: one row (1, TN) per block, reduced over
# dims=2 (kept, so the max and the sum broadcast back over the row).
import cuTile as ct

function softmax(x::ct.TileArray{T,2}, y::ct.TileArray{T,2}, TN::Int) where {T}
    row = ct.bid(1)
    t = ct.load(x; index=(row, 1), shape=(1, TN), padding_mode=ct.PaddingMode.Zero)
    t = t .- maximum(t; dims=2)
    e = exp.(t)
    ct.store(y; index=(row, 1), tile=e ./ sum(e; dims=2))
    return
end
