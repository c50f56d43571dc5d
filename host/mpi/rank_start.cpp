// How a rank's share of a flock begins: from a whole start on rank 0 (a start file, a
// checkpoint), scattered; or from a random start, each rank drawing its own.
#include <algorithm>
#include <functional>
#include <optional>
#include <string>
#include <utility>

#include "host/base/errors.h"
#include "host/base/message_text.h"
#include "host/config/flock_options.h"
#include "host/io/checkpoint.h"
#include "host/io/state_file.h"
#include "host/model/initial_state.h"
#include "host/mpi/communicator.h"
#include "host/mpi/csv_stripe.h"
#include "host/mpi/rank_flock.h"
#include "host/mpi/shared_file.h"
#include "host/mpi/slab_axis.h"

namespace boids::mpi {
namespace {

IndexedBoid indexed_of(const FlockState& s, std::size_t i) {
  const bool box = s.dimensions == 3;
  return {i, s.x[i], s.y[i], box ? s.z[i] : 0.0, s.vx[i], s.vy[i], box ? s.vz[i] : 0.0};
}

// The slabs a flight starts on, balanced on the start's coordinates along their axis (`along`:
// the whole start, or with `over_ranks` every rank's part of it), and how much the largest of
// equal slabs would have held over the mean (`largest_share`).
Slabs first_slabs(const FlockParams& p, const std::vector<double>& along, bool over_ranks,
                  double& largest_share) {
  const int n = ranks();
  std::vector<std::uint64_t> bins = empty_bins(n);
  const Slabs equal = equal_slabs(side_of(p), p.world.torus(), n);
  std::vector<std::uint64_t> in_equal(static_cast<std::size_t>(n), 0);
  for (const double s : along) {
    ++bins[bin_of(s, side_of(p), bins.size())];
    ++in_equal[static_cast<std::size_t>(equal.owner(s))];
  }
  if (over_ranks) {
    sum_over_ranks(bins);
    sum_over_ranks(in_equal);
  }
  std::uint64_t whole = 0;
  for (const std::uint64_t c : in_equal) whole += c;
  largest_share = 1;
  if (whole > 0) {
    largest_share = static_cast<double>(*std::max_element(in_equal.begin(), in_equal.end())) * n /
                    static_cast<double>(whole);
  }
  return balanced_slabs(side_of(p), p.world.torus(), n, bins);
}

// The flight's settings, from rank 0 on every rank: its configuration, as a checkpoint of one
// boid (`first`, the flock's first: a checkpoint's boids are held to a start's rules, outside
// the obstacles, at the Vicsek speed V, which a made-up boid may break).
SimulationConfig broadcast_config(const SimulationConfig& config, const FlockState& first,
                                  std::uint64_t steps_taken) {
  std::string settings;
  if (rank() == 0) settings = format_checkpoint(Checkpoint{config, steps_taken, first, {0}});
  broadcast(settings);
  return parse_checkpoint(settings, "the flight rank 0 sent").config;
}

// Boids [at, at + count) of `whole`.
FlockState rows_of(const FlockState& whole, std::uint64_t at, std::uint64_t count) {
  FlockState some;
  some.dimensions = whole.dimensions;
  const auto from = static_cast<std::ptrdiff_t>(at), to = static_cast<std::ptrdiff_t>(at + count);
  const auto take = [&](const std::vector<double>& in, std::vector<double>& out) {
    out.assign(in.begin() + from, in.begin() + to);
  };
  take(whole.x, some.x);
  take(whole.y, some.y);
  take(whole.vx, some.vx);
  take(whole.vy, some.vy);
  if (some.dimensions == 3) {
    take(whole.z, some.z);
    take(whole.vz, some.vz);
  }
  return some;
}

FlockState first_boid_of(const FlockState& whole) {
  return rows_of(whole, 0, 1);
}

// The boids a start is made or read in at once.
constexpr std::uint64_t kPiece = 65536;

// Every rank's boids of its stripe handed to the ranks whose slabs hold them, a piece at a time
// (`piece(at, count)`: the boids [at, at + count), as the first pass saw them), as many pieces
// on every rank as the longest stripe needs (a CSV file's stripes are its ranks' lines, of any
// length); `along` is the stripe's coordinates along the slabs' axis, which size the rank's
// share. Returns the rank's share.
template <typename Piece>
std::vector<IndexedBoid> hand_over(const FlockParams& p, Slabs& slabs, const Stripe& stripe,
                                   std::vector<double> along, const Piece& piece) {
  slabs.side = side_of(p);
  slabs.torus = p.world.torus();
  std::vector<std::uint64_t> held(static_cast<std::size_t>(ranks()), 0);
  for (const double s : along) ++held[static_cast<std::size_t>(slabs.owner(s))];
  sum_over_ranks(held);
  along = {};
  std::vector<IndexedBoid> own;
  own.reserve(held[static_cast<std::size_t>(rank())]);
  const std::uint64_t pieces = max_over_ranks((stripe.last - stripe.first + kPiece - 1) / kPiece);
  const auto owner = [&](const IndexedBoid& b) { return slabs.owner(along_of(b, p.dimensions)); };
  std::vector<IndexedBoid> records;
  std::vector<std::size_t> counts(static_cast<std::size_t>(ranks()));
  for (std::uint64_t r = 0; r < pieces; ++r) {
    const std::uint64_t at = stripe.first + r * kPiece;
    const FlockState boids =
        piece(at, at < stripe.last ? std::min(kPiece, stripe.last - at) : std::uint64_t{0});
    records.clear();
    for (std::size_t i = 0; i < boids.size(); ++i) {
      records.push_back(indexed_of(boids, i));
      records.back().id = at + i;
    }
    std::sort(records.begin(), records.end(),
              [&](const IndexedBoid& a, const IndexedBoid& b) { return owner(a) < owner(b); });
    std::fill(counts.begin(), counts.end(), 0);
    for (const IndexedBoid& b : records) ++counts[static_cast<std::size_t>(owner(b))];
    const std::vector<IndexedBoid> got = to_ranks(records, counts);
    own.insert(own.end(), got.begin(), got.end());
  }
  return own;
}

}  // namespace

// Rank 0 holds the whole start: it balances the slabs on it and sends every rank the flight's
// settings, the slabs and its own boids (MPI_Scatterv), so that no other rank ever holds more
// than its share.
RankFlock RankFlock::start(const SimulationConfig& config, const FlockState* whole,
                           std::uint64_t steps_taken) {
  struct Shape {
    std::uint64_t whole_count, steps_taken;
    double largest_share;
  };
  Shape shape{0, 0, 1};
  Slabs slabs;
  std::vector<std::vector<IndexedBoid>> lists;
  const SimulationConfig flight =
      broadcast_config(config, rank() == 0 ? first_boid_of(*whole) : FlockState(), steps_taken);
  if (rank() == 0) {
    shape = {whole->size(), steps_taken, 1};
    const std::vector<double>& along_axis = config.params.dimensions == 3 ? whole->z : whole->y;
    slabs = first_slabs(config.params, along_axis, /*over_ranks=*/false, shape.largest_share);
    lists.resize(static_cast<std::size_t>(ranks()));
    for (std::size_t i = 0; i < whole->size(); ++i) {
      lists[static_cast<std::size_t>(slabs.owner(along_axis[i]))].push_back(indexed_of(*whole, i));
    }
  }
  broadcast(&shape, sizeof shape);
  slabs.bounds.resize(static_cast<std::size_t>(ranks()) + 1);
  broadcast(slabs.bounds.data(), sizeof(double) * slabs.bounds.size());
  std::vector<IndexedBoid> own = scatter(lists);
  lists = {};
  slabs.side = side_of(flight.params);
  slabs.torus = flight.params.world.torus();
  return RankFlock(flight, shape.whole_count, std::move(slabs), shape.largest_share, std::move(own),
                   shape.steps_taken);
}

// Every rank draws the boids of its stripe of the input indices (a boid's start depends on
// the seed and its index alone) twice, in pieces: first for their coordinates along the slabs'
// axis, which balance the slabs, then to hand them over.
RankFlock RankFlock::draw(const SimulationConfig& config, const FlockState& first,
                          std::uint64_t count) {
  std::uint64_t whole = count;
  broadcast(&whole, sizeof whole);
  const SimulationConfig flight = broadcast_config(config, first, 0);
  const FlockParams& p = flight.params;
  const Stripe stripe = stripe_of(whole, rank(), ranks());
  const auto draw_piece = [&](std::uint64_t at, std::uint64_t n) {
    return make_initial_boids(at, n, flight.seed, p);
  };
  std::vector<double> along;
  along.reserve(stripe.last - stripe.first);
  for (std::uint64_t at = stripe.first; at < stripe.last; at += kPiece) {
    const FlockState drawn = draw_piece(at, std::min(kPiece, stripe.last - at));
    const std::vector<double>& axis = p.dimensions == 3 ? drawn.z : drawn.y;
    along.insert(along.end(), axis.begin(), axis.end());
  }
  double largest_share = 1;
  Slabs slabs = first_slabs(p, along, /*over_ranks=*/true, largest_share);
  std::vector<IndexedBoid> own = hand_over(p, slabs, stripe, std::move(along), draw_piece);
  return RankFlock(flight, whole, std::move(slabs), largest_share, std::move(own), 0);
}

// A file of the flock's rows that each rank reads its own stripe of: where they lie (`m`), how
// a piece of rows becomes boids, and how they are checked; both throw InputError to refuse
// them. `kind` names the file in messages ("state file", "checkpoint").
struct RowFile {
  const char* kind;
  NpyMatrix m;
  std::function<FlockState(const double* rows, std::uint64_t at, std::uint64_t count)> boids;
  std::function<void(const FlockState& boids, std::uint64_t at)> check;
};

namespace {

// The matrix `m` from rank 0 on every rank.
NpyMatrix broadcast_matrix(const NpyMatrix& m) {
  std::uint64_t shape[4] = {m.rows, m.columns, m.data_offset, m.fortran_order ? 1u : 0u};
  broadcast(shape, sizeof shape);
  NpyMatrix all;
  all.rows = shape[0];
  all.columns = shape[1];
  all.data_offset = shape[2];
  all.fortran_order = shape[3] != 0;
  return all;
}

}  // namespace

// Each rank reads the rows of its stripe by byte ranges (MPI-IO), in pieces, twice: first to
// check them as one process checks the whole file and for their coordinates along the slabs'
// axis, then to hand them over. A refusal found by any rank ends every rank's reading.
std::optional<RankFlock> RankFlock::read_rows(const SimulationConfig& flight,
                                              const std::string& name, const RowFile& rows,
                                              std::uint64_t steps_taken, std::string& refusal) {
  const FlockParams& p = flight.params;
  const Stripe stripe = stripe_of(rows.m.rows, rank(), ranks());
  const std::string cannot_read = std::string("cannot read ") + rows.kind + " " + quoted_path(name);
  SharedFile file(name, SharedFile::Mode::kRead);
  if (!file.opened()) {
    refusal = cannot_read + ": " + file.why();
    return std::nullopt;
  }
  const auto read_piece = [&](std::uint64_t at, std::uint64_t count) {
    const std::vector<double> values =
        npy_rows(rows.m, at, count, [&](std::uint64_t offset, double* into, std::uint64_t n) {
          file.get(offset, into, n * sizeof(double));
        });
    return rows.boids(values.data(), at, count);
  };
  std::vector<double> along;
  std::string problem;
  try {
    along.reserve(stripe.last - stripe.first);
    for (std::uint64_t at = stripe.first; at < stripe.last; at += kPiece) {
      const FlockState piece = read_piece(at, std::min(kPiece, stripe.last - at));
      if (!file.failure().empty()) break;
      rows.check(piece, at);
      const std::vector<double>& axis = p.dimensions == 3 ? piece.z : piece.y;
      along.insert(along.end(), axis.begin(), axis.end());
    }
  } catch (const InputError& e) {
    problem = e.what();
  }
  if (problem.empty() && !file.failure().empty()) problem = cannot_read + ": " + file.failure();
  if (!none_refused(problem, refusal)) {
    file.finish();
    return std::nullopt;
  }
  double largest_share = 1;
  Slabs slabs = first_slabs(p, along, /*over_ranks=*/true, largest_share);
  std::vector<IndexedBoid> own = hand_over(p, slabs, stripe, std::move(along), read_piece);
  if (const std::string failed = file.finish(); !failed.empty()) {
    throw RuntimeError(cannot_read + ": " + failed);
  }
  return RankFlock(flight, rows.m.rows, std::move(slabs), largest_share, std::move(own),
                   steps_taken);
}

std::optional<RankFlock> RankFlock::read_npy(const SimulationConfig& config,
                                             const FlockState& first, const std::string& path,
                                             std::string& refusal) {
  std::string name = path;
  NpyMatrix m;
  if (rank() == 0) m = npy_state_matrix(path);
  broadcast(name);
  m = broadcast_matrix(m);
  const SimulationConfig flight = broadcast_config(config, first, 0);
  const World& world = flight.params.world;
  const RowFile rows{"state file", m,
                     [&](const double* values, std::uint64_t at, std::uint64_t count) {
                       return npy_state_rows(m, values, at, count, name, world);
                     },
                     [&](const FlockState& boids, std::uint64_t at) {
                       check_start_file(boids, name, flight.precision, flight.params, at);
                     }};
  return read_rows(flight, name, rows, 0, refusal);
}

// A CSV file's rows are read by each rank as its lines (host/mpi/csv_stripe.h); they are then
// checked, balanced and handed over as a .npy file's.
std::optional<RankFlock> RankFlock::read_csv(
    const SimulationConfig& config, const std::string& path,
    const std::function<void(const FlockState&)>& check_first, std::string& refusal) {
  std::optional<CsvStripe> read = read_csv_stripe(path, config.params.world, refusal);
  if (!read) return std::nullopt;
  const FlockState& rows = read->rows;
  const bool first_ok = none_refused(
      [&] {
        if (rank() == 0) check_first(read->first_boid);
      },
      refusal);
  if (!first_ok) return std::nullopt;
  const SimulationConfig flight = broadcast_config(config, read->first_boid, 0);
  const FlockParams& p = flight.params;
  const bool rows_ok = none_refused(
      [&] { check_start_file(rows, read->name, flight.precision, p, read->first); }, refusal);
  if (!rows_ok) return std::nullopt;
  const std::vector<double>& axis = p.dimensions == 3 ? rows.z : rows.y;
  std::vector<double> along(axis.begin(), axis.end());
  double largest_share = 1;
  Slabs slabs = first_slabs(p, along, /*over_ranks=*/true, largest_share);
  const Stripe stripe{read->first, read->first + rows.size()};
  std::vector<IndexedBoid> own =
      hand_over(p, slabs, stripe, std::move(along), [&](std::uint64_t at, std::uint64_t count) {
        return rows_of(rows, at - read->first, count);
      });
  return RankFlock(flight, read->whole, std::move(slabs), largest_share, std::move(own), 0);
}

// A checkpoint's columns are a Fortran-ordered matrix of its rows; its order is the input order
// on a flock spread over ranks, and is left unread (rank 0 has checked it, with the checksum).
std::optional<RankFlock> RankFlock::read_checkpoint(const CheckpointHead& head,
                                                    const FlockState& first,
                                                    const std::string& path, std::string& refusal) {
  std::string name = path;
  broadcast(name);
  std::uint64_t step = head.step;
  broadcast(&step, sizeof step);
  CheckpointHead all;
  all.columns = broadcast_matrix(head.columns);
  all.config = broadcast_config(head.config, first, step);
  all.step = step;
  all.count = all.columns.rows;
  const RowFile rows{"checkpoint", all.columns,
                     [&](const double* values, std::uint64_t, std::uint64_t count) {
                       FlockState boids = checkpoint_boids(all, values, count);
                       take_changed_speed(all, boids);
                       return boids;
                     },
                     [&](const FlockState& boids, std::uint64_t at) {
                       check_checkpoint_boids(all, boids, at, name);
                     }};
  return read_rows(all.config, name, rows, step, refusal);
}

}  // namespace boids::mpi
