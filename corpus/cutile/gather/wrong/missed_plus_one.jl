# pitfall: the 0-based positions in idx passed to ct.gather without the +1; expect: MISMATCH
# lint: jl-gather-loaded-index@12:31
# layout: flipped
# cuTile.jl translation of gather.py: y[i] = x[idx[i]]; idx holds 0-based positions,
# ct.gather takes 1-based ones, so the indices get +1.
import cuTile as ct

function gather(x::ct.TileArray{Float32,1}, idx::ct.TileArray{Int32,1}, y::ct.TileArray{Float32,1},
                TILE::Int)
    i = ct.bid(1)
    ind = ct.load(idx; index=i, shape=(TILE,), padding_mode=ct.PaddingMode.Zero)
    ct.store(y; index=i, tile=ct.gather(x, ind))
    return
end
