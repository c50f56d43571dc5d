# The libFuzzer harnesses: one line each. boids_fuzz_harness(NAME [SOURCES...]) builds
# fuzz_NAME.cpp (with any further library sources it needs, relative to the repository) into
# fuzz_NAME, fed from corpus/NAME/, and registers the CTest test fuzz_NAME.
boids_fuzz_harness(state_csv)
boids_fuzz_harness(state_npy)
boids_fuzz_harness(obstacles)
boids_fuzz_harness(options)
boids_fuzz_harness(checkpoint host/io/checkpoint.cpp host/io/checkpoint_flight.cpp
                   host/io/flight_params.cpp)
boids_fuzz_harness(serve_message host/serve/messages.cpp)
