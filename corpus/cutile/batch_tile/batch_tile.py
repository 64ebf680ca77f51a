import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def batch_tile(A, W, C, BT: ConstInt, TM: ConstInt, TN: ConstInt, TK: ConstInt):
    """C[b] = A[b] @ W[0] for f32 batches (Bt, M, K) @ (1, K, N): each block takes BT
    batches at once, so its tiles have a leading batch dim of BT (not 1), and W's
    (1, TK, TN) tile broadcasts over it."""
    bb = ct.bid(0)
    bm = ct.bid(1)
    bn = ct.bid(2)
    acc = ct.full((BT, TM, TN), 0, dtype=ct.float32)
    for k in range(ct.num_tiles(A, axis=2, shape=(BT, TM, TK))):
        a = ct.load(A, index=(bb, bm, k), shape=(BT, TM, TK), padding_mode=ct.PaddingMode.ZERO)
        w = ct.load(W, index=(0, k, bn), shape=(1, TK, TN), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(a, w, acc)
    # a second product without an accumulator: the first K tile again, added in
    a0 = ct.load(A, index=(bb, bm, 0), shape=(BT, TM, TK), padding_mode=ct.PaddingMode.ZERO)
    w0 = ct.load(W, index=(0, 0, bn), shape=(1, TK, TN), padding_mode=ct.PaddingMode.ZERO)
    acc = acc + ct.matmul(a0, w0)
    ct.store(C, index=(bb, bm, bn), tile=acc)
