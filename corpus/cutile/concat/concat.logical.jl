# layout: logical
# cuTile.jl translation of concat.py: a (M, A), b (M, B) and y (M, A + B) as in Python;
# Python's axis 1 is Julia's dims=2.
import cuTile as ct

function concat(a::ct.TileArray{T,2}, b::ct.TileArray{T,2}, y::ct.TileArray{T,2},
                TM::Int, TA::Int, TB::Int) where {T}
    i = ct.bid(1)
    ta = ct.load(a; index=(i, 1), shape=(TM, TA), padding_mode=ct.PaddingMode.Zero)
    tb = ct.load(b; index=(i, 1), shape=(TM, TB), padding_mode=ct.PaddingMode.Zero)
    ct.store(y; index=(i, 1), tile=cat(ta, tb; dims=2))
    return
end
