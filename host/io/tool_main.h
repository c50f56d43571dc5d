// A tool's main, as every boids tool ends: exit codes and messages for what went wrong, and a
// check that what it printed reached its standard output.
#pragma once

#include <exception>
#include <iostream>
#include <new>

#include "host/base/errors.h"
#include "host/base/interruption.h"
#include "host/base/memory.h"
#include "host/io/output_file.h"
#include "host/io/tool_process.h"

namespace boids {

/// A tool's main: prepares the process (host/io/tool_process.h: its signals) and
/// returns what `body` returns; an exception is printed as `tool: error: ...` on stderr and
/// gives exit code 2 for an InputError, 1 for anything else; a command stopped by a signal says
/// where, as `tool: stopped by SIGINT ...`, and exits 128 + the signal. What the tool printed must
/// have reached its standard output (not a full disk or a closed pipe), or the exit code is 1.
template <typename Body>
int main_reporting_errors(const char* tool, Body&& body) {
  prepare_tool_process();
  try {
    const int status = body();
    finish_standard_output();
    return status;
  } catch (const Interrupted& e) {
    std::cerr << tool << ": " << e.what() << "\n";
    return e.exit_status();
  } catch (const InputError& e) {
    std::cerr << tool << ": error: " << e.what() << "\n";
    return 2;
  } catch (const std::bad_alloc&) {
    std::cerr << tool << ": error: " << out_of_memory_message() << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << tool << ": error: " << e.what() << "\n";
    return 1;
  }
}

}  // namespace boids
