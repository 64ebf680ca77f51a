import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def bmm(A, B, C, TM: ConstInt, TN: ConstInt, TK: ConstInt):
    """C[b] = A[b] @ B[b] for f16 batches (Bt, M, K) @ (Bt, K, N); the batch is the
    leading dim and grid axis 2; 3-d tiles with a batch dim of 1 go straight to mma."""
    bm = ct.bid(0)
    bn = ct.bid(1)
    bt = ct.bid(2)
    acc = ct.full((1, TM, TN), 0, dtype=ct.float32)
    for k in range(ct.num_tiles(A, axis=2, shape=(1, TM, TK))):
        a = ct.load(A, index=(bt, bm, k), shape=(1, TM, TK), padding_mode=ct.PaddingMode.ZERO)
        b = ct.load(B, index=(bt, k, bn), shape=(1, TK, TN), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(a, b, acc)
    ct.store(C, index=(bt, bm, bn), tile=acc)
