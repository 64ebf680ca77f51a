# (no layout line)
# tile_add.py in cuTile.jl (a 1-d array reads the same in both layouts)
import cuTile as ct

function add(a::ct.TileArray{Float32,1}, b::ct.TileArray{Float32,1}, c::ct.TileArray{Float32,1}, tile::Int)
    bid = ct.bid(1)
    ct.store(c; index=bid, tile=ct.load(a; index=bid, shape=(tile,)) + ct.load(b; index=bid, shape=(tile,)))
    return
end
