// cooperative_groups/scan.h — maps the CUDA header to the tt_sim CUDA shim (src/sim/include).
#include "../tt_sim_cuda_or_current.h"
