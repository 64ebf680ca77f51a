# pitfall: the index load has no mask, so the last block reads idx past its end; expect: RUN-FAIL
import triton
import triton.language as tl


@triton.jit
def gather_kernel(x_ptr, idx_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    ind = tl.load(idx_ptr + offs)
    tl.store(y_ptr + offs, tl.load(x_ptr + ind, mask=mask), mask=mask)


def gather(x, idx, y, TILE):
    n = y.numel()
    gather_kernel[(triton.cdiv(n, TILE),)](x, idx, y, n, BLOCK=TILE)
