import torch
import triton
import triton.language as tl


@triton.jit
def vector_add_kernel(a_ptr, b_ptr, c_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(a_ptr + offs, mask=mask)
    b = tl.load(b_ptr + offs, mask=mask)
    tl.store(c_ptr + offs, a + b, mask=mask)


def vector_add(a, b, c):
    n = c.numel()
    grid = lambda meta: (triton.cdiv(n, meta["BLOCK"]),)
    vector_add_kernel[grid](a, b, c, n, BLOCK=1024)
