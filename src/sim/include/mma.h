// mma.h — tensor-core WMMA cannot run on the tt_sim CPU executor.
#error "tt_sim: <mma.h> (nvcuda::wmma tensor-core fragments) is not supported by the CPU executor; port it by hand"
