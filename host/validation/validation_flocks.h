// How the validation builds its flocks, in two dimensions (validation.cpp) and in three
// (validation_3d.cpp): one construction for both.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "host/validation/validation.h"

namespace boids {

// The validation's four cases in `dense`'s world: "random" and "flocked" (500 boids; the
// reference flown 300 steps from a random start), and 200 boids at the radii that leave two
// cells and one cell per axis ("2-cells-r<two_cells>", "1-cell-r<one_cell>").
std::vector<ValidationFlock> standard_flocks(const FlockParams& dense, int two_cells, int one_cell);

// Variants of one world, each a flock of 500 boids from its own seed (11, 12, ... in order).
class VariantFlocks {
 public:
  explicit VariantFlocks(const FlockParams& base) : base_(base) {}

  // A variant named `name`: `change` makes it from the base.
  template <typename Change>
  void add(const std::string& name, Change&& change) {
    FlockParams p = base_;
    change(p);
    variants_.emplace_back(name, p);
  }

  std::vector<ValidationFlock> flocks() const;

 private:
  FlockParams base_;
  std::vector<std::pair<std::string, FlockParams>> variants_;
};

}  // namespace boids
