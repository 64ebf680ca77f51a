# pitfall: the store keeps the row stride of x (N) for y, whose rows are M long; expect: MISMATCH
import triton
import triton.language as tl


@triton.jit
def transpose_kernel(x_ptr, y_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rows = pid_m * BM + tl.arange(0, BM)
    cols = pid_n * BN + tl.arange(0, BN)
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    t = tl.load(x_ptr + rows[:, None] * N + cols[None, :], mask=mask, other=0.0)
    tl.store(y_ptr + cols[:, None] * N + rows[None, :], tl.trans(t), mask=tl.trans(mask))


def transpose(x, y, TM, TN):
    M, N = x.shape
    transpose_kernel[(triton.cdiv(M, TM), triton.cdiv(N, TN))](x, y, M, N, BM=TM, BN=TN)
