// The flock's parameters a page may change while the flock flies: the rows of the table of
// parameters (host/model/param_table.h) that have a control, each named as the command line's
// option (without "--"; a vector's axes "wind-x", ...), with the range the table gives for a
// flock of these parameters and its value in effect. The page draws its panel from them, as
// the viewer does, and a change it sends is checked against that range and then by the rules
// of every flight (check_flight_params), as the command line's options are.
#pragma once

#include <string>
#include <vector>

#include "host/core/config.h"
#include "host/model/flock.h"
#include "host/model/param_table.h"

namespace boids {

struct Control {
  std::string name;  // "alignment", "max-speed", "wind-x", ...
  double low = 0, high = 0;
  bool logarithmic = false;
  bool whole = false;  // takes whole numbers only (the page's slider steps by 1)
  double value = 0;    // the flock's now
  ParamSection section = ParamSection::kModel;
};

// The controls of a flock of `params` (those its model and world take), with their values.
std::vector<Control> controls_of(const FlockParams& params);

// `params` with control `name` set to `value`, and a value given that it bounds held within it
// (a separation radius given when the radius falls below it). Throws InputError naming the
// control when the flock has no such control, the value is outside its range, or the flight's
// rules refuse the result.
FlockParams with_control(const FlockParams& params, Precision precision, const std::string& name,
                         double value);

}  // namespace boids
