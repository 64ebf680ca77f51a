import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def matmul(A, B, C, TM: ConstInt, TN: ConstInt, TK: ConstInt):
    """C = A @ B for f32 A (M, K) and B (K, N), on tensor cores in TF32, accumulating in f32."""
    bm = ct.bid(0)
    bn = ct.bid(1)
    op = ct.tfloat32 if A.dtype == ct.float32 else A.dtype
    acc = ct.full((TM, TN), 0, dtype=ct.float32)
    for k in range(ct.num_tiles(A, axis=1, shape=(TM, TK))):
        a = ct.load(A, index=(bm, k), shape=(TM, TK), padding_mode=ct.PaddingMode.ZERO).astype(op)
        b = ct.load(B, index=(k, bn), shape=(TK, TN), padding_mode=ct.PaddingMode.ZERO).astype(op)
        acc = ct.mma(a, b, acc)
    ct.store(C, index=(bm, bn), tile=acc.astype(C.dtype))
