# pitfall: no mask on the partial last block; expect: RUN-FAIL
import triton
import triton.language as tl


@triton.jit
def add_kernel(a_ptr, b_ptr, c_ptr, n, alpha, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    a = tl.load(a_ptr + offs)
    b = tl.load(b_ptr + offs)
    tl.store(c_ptr + offs, alpha * a + b)


def vector_add(a, b, c, alpha, TILE):
    add_kernel[(triton.cdiv(a.numel(), TILE),)](a, b, c, a.numel(), alpha, BLOCK=TILE)
