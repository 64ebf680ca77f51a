import triton
import triton.language as tl


@triton.jit
def fused_gelu_kernel(x_ptr, w_ptr, b_ptr, o_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    w = tl.load(w_ptr + offs, mask=mask)
    b = tl.load(b_ptr + offs, mask=mask)
    h = x * w + b
    # tanh approximation of GELU; tanh(z) = 2 sigmoid(2z) - 1 stays finite for every z,
    # where the seed's (1 - exp(-2z)) / (1 + exp(-2z)) is inf / inf once exp overflows
    z = 0.7978845608028654 * (h + 0.044715 * h * h * h)
    t = 2.0 * tl.sigmoid(2.0 * z) - 1.0
    tl.store(o_ptr + offs, 0.5 * h * (1.0 + t), mask=mask)


def fused_gelu(x, w, b, o):
    n = o.numel()
    fused_gelu_kernel[(triton.cdiv(n, 512),)](x, w, b, o, n, BLOCK=512)
