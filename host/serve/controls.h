// The flock's parameters a page may change while the flock flies, as one table: each control
// named as the command line's option (without "--"), with the range the page offers for a
// flock of these parameters and the models that take it. The page draws its panel from the
// table, and a change it sends is checked against the table and then by the rules of every
// flight (check_flight_params), as the command line's options are.
#pragma once

#include <string>
#include <vector>

#include "host/core/config.h"
#include "host/model/flock.h"

namespace boids::serve {

struct Control {
  std::string name;  // "alignment", "max-speed", "wind-x", ...
  double low = 0, high = 0;
  bool logarithmic = false;
  bool whole = false;  // takes whole numbers only (the page's slider steps by 1)
  double value = 0;    // the flock's now
};

// The controls of a flock of `params` (those its model and world take), with their values.
std::vector<Control> controls_of(const FlockParams& params);

// `params` with control `name` set to `value`. Throws InputError naming the control when the
// flock has no such control, the value is outside its range, or the flight's rules refuse the
// result (a separation radius above the radius, ...).
FlockParams with_control(const FlockParams& params, Precision precision, const std::string& name,
                         double value);

}  // namespace boids::serve
