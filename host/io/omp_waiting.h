// How the OpenMP runtime's idle threads wait. GNU's runtime (libgomp) spins for a while at
// every barrier and at the end of every parallel region before it sleeps, and a step has
// several of each. Beside other busy programs a spinning thread holds the core that the thread
// it waits for needs, and the flock slows several times over; sleeping at once costs nothing
// measurable on a quiet machine at the sizes boids times (bench/results: the contention runs,
// `boids-bench --busy K`). So idle threads sleep unless the user chose otherwise.
//
// The runtime reads its environment once, in its own initialiser, before main: a tool's
// executable executes itself again with the choice, from its .preinit_array
// (host/tools/omp_waiting.cpp); the Python package makes it in boids/__init__.py before it loads
// its module, which loads the runtime. The tests read the effect, the runtime's spin count.
#pragma once

namespace boids {

// Sets OMP_WAIT_POLICY=passive in the environment unless OMP_WAIT_POLICY or GOMP_SPINCOUNT is
// set. prepare_tool_process (host/io/tool_process.h) calls it again: the C library takes the
// process's environment afresh before main, and the process's own reports and children should
// see what its runtime was given.
void choose_omp_waiting();

}  // namespace boids
