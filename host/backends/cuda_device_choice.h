// The GPU a process's cuda backend uses: the CUDA runtime's current device, device 0 unless a
// process chooses another. Under MPI each rank takes the one its rank on its machine names.
#pragma once

namespace boids {

// Makes device `local_rank` mod the devices this process sees the current one, before the
// flock is made on it. Returns its ordinal, or -1 where there is no usable device (the
// backend then says why when a flock is made).
int use_cuda_device_of_local_rank(int local_rank);

}  // namespace boids
