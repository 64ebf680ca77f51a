# pitfall: row and column strides swapped in the offsets; expect: MISMATCH
import triton
import triton.language as tl


@triton.jit
def bias_add_kernel(x_ptr, b_ptr, y_ptr, M, N, stride_m, BM: tl.constexpr, BN: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rows = pid_m * BM + tl.arange(0, BM)
    cols = pid_n * BN + tl.arange(0, BN)
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    offs = rows[:, None] + cols[None, :] * stride_m
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    b = tl.load(b_ptr + cols, mask=cols < N, other=0.0)
    tl.store(y_ptr + offs, x + b[None, :], mask=mask)


def bias_add(x, b, y, TM, TN):
    M, N = x.shape
    grid = (triton.cdiv(M, TM), triton.cdiv(N, TN))
    bias_add_kernel[grid](x, b, y, M, N, x.stride(0), BM=TM, BN=TN)
