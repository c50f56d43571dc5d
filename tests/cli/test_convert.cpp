// `boids convert`: state files to each other, a checkpoint's state, a trajectory's frame and
// XDMF description, each equal to what the run wrote; bad input refused with nothing written.
// (tests/python/test_trajectories.py reads the GSD and XDMF with the field's own readers.)
#include <gtest/gtest.h>

#include <filesystem>

#include "tests/support/cli_fixture.h"

namespace {

using boids::test_support::read_file;
using boids::test_support::write_file;

class Convert : public boids::test_support::CliFixture {
 protected:
  // A flight that saved its end as CSV, a checkpoint and a trajectory (frames 0, 5, 10, 12).
  void SetUp() override {
    CliFixture::SetUp();
    const auto r =
        run({"run", "--backend", "cpu", "--count", "150", "--steps", "12", "--save", "end.csv",
             "--checkpoint", "end.ckpt", "--trajectory", "t.h5", "--trajectory-every", "5"});
    ASSERT_EQ(r.code, 0) << r.err;
  }
  void expect_refused(const std::vector<std::string>& args, const std::string& message) {
    std::vector<std::string> command = {"convert"};
    command.insert(command.end(), args.begin(), args.end());
    const std::set<std::string> before = entries();
    const auto r = run(command);
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_NE(r.err.find("boids: error: " + message), std::string::npos) << r.err;
    EXPECT_EQ(entries(), before);  // nothing written, no temporary file left
  }
};

TEST_F(Convert, StateFilesCheckpointsAndFramesBecomeStateFiles) {
  ASSERT_EQ(run({"convert", "end.csv", "end.npy"}).code, 0);
  ASSERT_EQ(run({"convert", "end.npy", "back.csv"}).code, 0);
  EXPECT_EQ(read_file(path("back.csv")), read_file(path("end.csv")));
  ASSERT_EQ(run({"convert", "end.ckpt", "checkpoint.csv"}).code, 0);
  EXPECT_EQ(read_file(path("checkpoint.csv")), read_file(path("end.csv")));
  ASSERT_EQ(run({"convert", "t.h5", "last.csv"}).code, 0);  // the last whole frame
  EXPECT_EQ(read_file(path("last.csv")), read_file(path("end.csv")));
  // Frame 0 is the start: the run's --init from it flies to the same end.
  ASSERT_EQ(run({"convert", "t.h5", "start.npy", "--frame", "0"}).code, 0);
  const auto again = run(
      {"run", "--backend", "cpu", "--init", "start.npy", "--steps", "12", "--save", "again.csv"});
  ASSERT_EQ(again.code, 0) << again.err;
  EXPECT_EQ(read_file(path("again.csv")), read_file(path("end.csv")));
}

// Predators travel with the state they hunt, committed with it: from a trajectory, a checkpoint
// or a state file, a converted state has its predators beside it, and --init with them flies
// the same flight. A state without predators takes away an earlier file of them.
TEST_F(Convert, PredatorsTravelWithTheStateOrGoWithIt) {
  const auto hunt =
      run({"run", "--backend", "cpu", "--count", "150", "--steps", "10", "--predators", "2",
           "--save", "hunt.csv", "--checkpoint", "hunt.ckpt", "--trajectory", "hunt.h5"});
  ASSERT_EQ(hunt.code, 0) << hunt.err;
  const std::string predators = read_file(path("hunt.predators.csv"));
  for (const char* from : {"hunt.h5", "hunt.ckpt", "hunt.csv"}) {
    ASSERT_EQ(run({"convert", from, "got.npy"}).code, 0) << from;
    ASSERT_EQ(run({"convert", "got.npy", "got.csv"}).code, 0) << from;
    EXPECT_EQ(read_file(path("got.csv")), read_file(path("hunt.csv"))) << from;
    EXPECT_EQ(read_file(path("got.predators.csv")), predators) << from;
  }
  const auto on = run({"run", "--backend", "cpu", "--init", "got.csv", "--predators", "2",
                       "--steps", "3", "--save", "on.csv"});
  const auto from_run = run({"run", "--backend", "cpu", "--init", "hunt.csv", "--predators", "2",
                             "--steps", "3", "--save", "on_run.csv"});
  ASSERT_EQ(on.code, 0) << on.err;
  ASSERT_EQ(from_run.code, 0) << from_run.err;
  EXPECT_EQ(read_file(path("on.csv")), read_file(path("on_run.csv")));
  // Over it, a state without predators: their file goes, whether converted or saved.
  ASSERT_EQ(run({"convert", "end.ckpt", "got.csv"}).code, 0);
  EXPECT_FALSE(std::filesystem::exists(path("got.predators.csv")));
  ASSERT_EQ(
      run({"run", "--backend", "cpu", "--count", "20", "--steps", "1", "--save", "hunt.csv"}).code,
      0);
  EXPECT_FALSE(std::filesystem::exists(path("hunt.predators.csv")));
}

TEST_F(Convert, TheXdmfDescriptionIsWrittenAgainFromTheTrajectory) {
  ASSERT_EQ(run({"convert", "t.h5", "again.xdmf"}).code, 0);
  EXPECT_EQ(read_file(path("again.xdmf")), read_file(path("t.xdmf")));
  // From another directory it names the trajectory by its whole path.
  std::filesystem::create_directory(dir_ / "elsewhere");
  ASSERT_EQ(run({"convert", "t.h5", "elsewhere/t.xdmf"}).code, 0);
  EXPECT_NE(read_file(path("elsewhere/t.xdmf")).find(">" + path("t.h5") + ":/particles/flock"),
            std::string::npos);
}

TEST_F(Convert, BadInputIsRefusedAndNothingIsWritten) {
  expect_refused({"end.csv"}, "convert takes two files, IN and OUT (given 1");
  expect_refused({"missing.csv", "x.npy"}, "cannot read 'missing.csv': No such file");
  expect_refused({"end.csv", "end.csv"}, "cannot convert 'end.csv' to 'end.csv'");
  expect_refused({"end.csv", "x.gsd"}, "cannot convert 'end.csv' to 'x.gsd'");
  expect_refused({"end.csv", "x.txt"}, "'x.txt': boids converts state files");
  expect_refused({"t.h5", "t.h5"}, "IN and OUT are the same file");
  expect_refused({"t.h5", "x.csv", "--frame", "4"}, "trajectory 't.h5': it has no frame 4");
  expect_refused({"end.csv", "x.npy", "--frame", "0"}, "--frame: only a trajectory");
  expect_refused({"t.h5", "missing/x.gsd"}, "OUT: cannot write");
  write_file(path("text.h5"), "not HDF5");
  expect_refused({"text.h5", "x.gsd"}, "trajectory 'text.h5': not an HDF5 file");
  write_file(path("bad.ckpt"), "BOIDSCKP and then nothing");
  expect_refused({"bad.ckpt", "x.csv"}, "checkpoint 'bad.ckpt':");
  // A position below 0 is refused as such, not against a world the size of a double.
  write_file(path("negative.csv"), "x,y,vx,vy\n-1,2,0.5,0\n");
  expect_refused({"negative.csv", "x.npy"},
                 "state file 'negative.csv', line 2: x = -1 is negative: positions lie in [0, "
                 "the world's side)");
  write_file(path("bad.csv"), "x,y,vx,vy\n1,2,3\n");
  expect_refused({"bad.csv", "x.npy"}, "state file 'bad.csv', line 2");
}

}  // namespace
