# layout: flipped
# cuTile.jl translation of softmax_single.py: x is (N, rows) here, so a row is the
# column tile (TN, 1), reduced over dims=1, as cuTile.jl's examples/softmax.jl does.
import cuTile as ct

function softmax(x::ct.TileArray{T,2}, y::ct.TileArray{T,2}, TN::Int) where {T}
    row = ct.bid(1)
    t = ct.load(x; index=(1, row), shape=(TN, 1), padding_mode=ct.PaddingMode.NegInf)
    t = t .- maximum(t; dims=1)
    e = exp.(t)
    ct.store(y; index=(1, row), tile=e ./ sum(e; dims=1))
    return
end
