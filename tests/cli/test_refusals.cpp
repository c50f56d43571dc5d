// Refusals that explain themselves: each names the option or the file it refuses.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "tests/support/cli_fixture.h"
#include "tests/support/test_support.h"

namespace boids {
namespace {

using test_support::Result;
using test_support::write_file;

class Refusals : public test_support::CliFixture {
 protected:
  // `boids args...` is refused as bad input, in one line that holds every one of `words`.
  Result refused(const std::vector<std::string>& args,
                 const std::vector<std::string>& words) const {
    const Result r = run(args);
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_EQ(r.err.rfind("boids: error: ", 0), 0u) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    for (const std::string& w : words) EXPECT_NE(r.err.find(w), std::string::npos) << r.err;
    return r;
  }
};

TEST_F(Refusals, ObstaclesThatLeaveNoRoomNameTheirFile) {
  write_file(path("rock.csv"), "x,y,radius\n50,50,99\n");
  refused({"run", "--backend", "cpu", "--obstacles", path("rock.csv")},
          {"--obstacles '" + path("rock.csv") + "': the obstacles cover the whole world"});
}

}  // namespace
}  // namespace boids
