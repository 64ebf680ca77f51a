// hip/hip_runtime.h — maps the HIP header to the tt_sim HIP shim (src/sim/include).
#include "../tt_sim_hip.h"
