# layout: flipped
# cuTile.jl translation of concat.py: a is (A, M), b (B, M) and y (A + B, M) here (the
# same bytes, column-major), so the tiles are (TA, TM) and (TB, TM) and join along dims=1.
import cuTile as ct

function concat(a::ct.TileArray{T,2}, b::ct.TileArray{T,2}, y::ct.TileArray{T,2},
                TM::Int, TA::Int, TB::Int) where {T}
    i = ct.bid(1)
    ta = ct.load(a; index=(1, i), shape=(TA, TM), padding_mode=ct.PaddingMode.Zero)
    tb = ct.load(b; index=(1, i), shape=(TB, TM), padding_mode=ct.PaddingMode.Zero)
    ct.store(y; index=(1, i), tile=cat(ta, tb; dims=1))
    return
end
