# pitfall: the mean divides by the padded block width instead of the row length; expect: MISMATCH
import triton
import triton.language as tl


@triton.jit
def rmsnorm_kernel(x_ptr, w_ptr, y_ptr, stride, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    ms = tl.sum(x * x, axis=0) / BLOCK
    w = tl.load(w_ptr + cols, mask=mask, other=0.0)
    tl.store(y_ptr + row * stride + cols, x * tl.rsqrt(ms + eps) * w, mask=mask)


def rmsnorm(x, w, y, eps, N, TN):
    rmsnorm_kernel[(x.shape[0],)](x, w, y, x.stride(0), N, eps, BLOCK=TN)
