// The slabs of an MPI run (host/mpi/slabs.h): who owns a coordinate, and which ranks a boid
// is a ghost of, across the torus's edge and between walls.
#include <gtest/gtest.h>

#include <vector>

#include "host/mpi/slabs.h"

namespace boids::mpi {
namespace {

std::vector<int> within(const Slabs& s, double at, double reach, int rank) {
  std::vector<int> out;
  s.ranks_within(at, reach, rank, out);
  return out;
}

TEST(Slabs, OwnEqualWidthsFromZeroToTheSide) {
  const Slabs s = equal_slabs(100, true, 4);
  ASSERT_EQ(s.ranks(), 4);
  EXPECT_EQ(s.owner(0), 0);
  EXPECT_EQ(s.owner(24.999), 0);
  EXPECT_EQ(s.owner(25), 1);
  EXPECT_EQ(s.owner(74.5), 2);
  EXPECT_EQ(s.owner(99.999), 3);
  EXPECT_EQ(s.owner(100), 3);  // rounding to the side stays in the last slab
  EXPECT_EQ(s.bounds.back(), 100);
}

TEST(Slabs, GhostsGoToTheSlabsWithinReach) {
  const Slabs s = equal_slabs(100, true, 4);
  EXPECT_EQ(within(s, 12, 5, 0), std::vector<int>{});
  EXPECT_EQ(within(s, 22, 5, 0), std::vector<int>{1});
  EXPECT_EQ(within(s, 26, 5, 1), std::vector<int>{0});
  EXPECT_EQ(within(s, 3, 5, 0), std::vector<int>{3});            // across the torus's edge
  EXPECT_EQ(within(s, 98, 5, 3), std::vector<int>{0});           // and back
  EXPECT_EQ(within(s, 50, 30, 2), (std::vector<int>{0, 1, 3}));  // a reach over a slab
}

TEST(Slabs, WallsStopGhostsAtTheEdge) {
  const Slabs s = equal_slabs(100, false, 4);
  EXPECT_EQ(within(s, 3, 5, 0), std::vector<int>{});
  EXPECT_EQ(within(s, 98, 5, 3), std::vector<int>{});
  EXPECT_EQ(within(s, 76, 5, 3), std::vector<int>{2});
}

TEST(Slabs, TwoRanksSeeEachOtherAcrossBothEdges) {
  const Slabs s = equal_slabs(10, true, 2);
  EXPECT_EQ(within(s, 0.5, 1, 0), std::vector<int>{1});
  EXPECT_EQ(within(s, 4.5, 1, 0), std::vector<int>{1});
  EXPECT_EQ(within(s, 2.5, 1, 0), std::vector<int>{});
}

TEST(Slabs, BalancedSlabsHoldAboutAsManyBoidsEach) {
  const std::vector<std::uint64_t> uniform(16, 10);
  EXPECT_EQ(balanced_slabs(160, true, 4, uniform).bounds,
            (std::vector<double>{0, 40, 80, 120, 160}));
  // Every boid in the first quarter of the world: the slabs share it, each a bin at least.
  std::vector<std::uint64_t> gathered(16, 0);
  gathered[0] = gathered[1] = gathered[2] = gathered[3] = 25;
  const Slabs s = balanced_slabs(160, true, 4, gathered);
  EXPECT_EQ(s.bounds, (std::vector<double>{0, 10, 20, 30, 160}));
  // All in one bin: a bin a slab, the last taking the rest.
  std::vector<std::uint64_t> one(16, 0);
  one[5] = 100;
  EXPECT_EQ(balanced_slabs(160, false, 4, one).bounds, (std::vector<double>{0, 60, 70, 80, 160}));
  EXPECT_EQ(balanced_slabs(160, true, 4, std::vector<std::uint64_t>(16, 0)).bounds,
            equal_slabs(160, true, 4).bounds);  // no boids: equal widths
}

TEST(Slabs, BinsCoverTheSide) {
  EXPECT_EQ(bin_of(0, 100, 10), 0u);
  EXPECT_EQ(bin_of(9.99, 100, 10), 0u);
  EXPECT_EQ(bin_of(10, 100, 10), 1u);
  EXPECT_EQ(bin_of(100, 100, 10), 9u);  // the side itself, as rounding may give
  EXPECT_EQ(bin_of(-0.0, 100, 10), 0u);
}

}  // namespace
}  // namespace boids::mpi
