// cuda_pipeline.h — cp.async pipelines cannot run on the tt_sim CPU executor.
#error "tt_sim: <cuda_pipeline.h> (cp.async / __pipeline_memcpy_async) is not supported by the CPU executor"
