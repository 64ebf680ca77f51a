# pitfall: no '# layout:' line, so the checker cannot tell which Julia array the bytes are; expect: BUILD-FAIL
# lint: jl-layout-line@1:1
# cuTile.jl translation of vector_add.py: c = alpha * a + b, 1-based block ids.
import cuTile as ct

function vector_add(a::ct.TileArray{T,1}, b::ct.TileArray{T,1}, c::ct.TileArray{T,1},
                    alpha::Float32, TILE::Int) where {T}
    i = ct.bid(1)
    x = ct.load(a; index=i, shape=(TILE,), padding_mode=ct.PaddingMode.Zero)
    y = ct.load(b; index=i, shape=(TILE,), padding_mode=ct.PaddingMode.Zero)
    ct.store(c; index=i, tile=alpha * x + y)
    return
end
