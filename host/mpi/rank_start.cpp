// How a rank's share of a flock begins: from a whole start on rank 0 (a start file, a
// checkpoint), scattered; or from a random start, each rank drawing its own.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include "host/base/errors.h"
#include "host/base/memory.h"
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

// A rank's slab is held as one part or three (RankFlock::cut_parts).
constexpr std::size_t kMostParts = 3;

// The places of a start handed over: a part's are the boids the first rank's stripe gives it,
// ascending by index, then the second's, and so on, which is the order of their indices
// (the stripes ascend by rank). `next[k * kMostParts + p]` is the place in part p of the next
// boid from rank k's stripe; `end` where rank k's run ends.
struct StartPlaces {
  std::vector<std::uint64_t> next, end, part_sizes;

  // From what every rank's stripe gives each part of this rank (`given`, by rank and part).
  StartPlaces(const std::vector<std::uint64_t>& given, std::size_t parts)
      : next(given.size()), end(given.size()), part_sizes(parts, 0) {
    for (std::size_t i = 0; i < given.size(); ++i) {
      const std::size_t p = i % kMostParts;
      if (given[i] > 0 && p >= parts) throw std::logic_error("a boid given to no part");
      if (p >= parts) continue;
      next[i] = part_sizes[p];
      part_sizes[p] += given[i];
      end[i] = part_sizes[p];
    }
  }
  bool filled() const { return next == end; }
};

}  // namespace

// Each rank counts, from the stripe's coordinates, what it gives each part of each rank, so
// that a receiving rank knows every boid's place before any arrives; the boids then go, a piece
// at a time (`piece(at, count)`: the boids [at, at + count), as the first pass saw them; as
// many pieces on every rank as the longest stripe needs, a CSV file's stripes being its ranks'
// lines, of any length) straight to their places in the parts' arrays. No rank holds its share
// twice, and the parts are what start_parts makes of the same boids, bit for bit.
void RankFlock::hand_over(std::uint64_t first, std::uint64_t last, std::vector<double> along,
                          const StartPiece& piece) {
  const auto n = static_cast<std::size_t>(ranks());
  const int dims = config_.params.dimensions;
  std::vector<Slabs> cuts;
  for (int k = 0; k < ranks(); ++k) cuts.push_back(cuts_of(k));
  const auto place_of = [&](double s) {
    const int k = slabs_.owner(s);
    return static_cast<std::size_t>(k) * kMostParts +
           static_cast<std::size_t>(cuts[static_cast<std::size_t>(k)].owner(s));
  };
  std::vector<std::uint64_t> gives(n * kMostParts, 0);
  for (const double s : along) ++gives[place_of(s)];
  release(along);
  StartPlaces places(to_ranks(gives, std::vector<std::size_t>(n, kMostParts)),
                     cuts_.bounds.size() - 1);
  open_parts(places.part_sizes);
  const std::vector<std::uint64_t> firsts = all_gather(std::vector<std::uint64_t>{first});
  const auto source_of = [&](std::uint64_t id) {
    return static_cast<std::size_t>(std::upper_bound(firsts.begin(), firsts.end(), id) -
                                    firsts.begin() - 1);
  };
  const auto part_of = [&](const IndexedBoid& b) {
    return static_cast<std::size_t>(cuts_.owner(along_of(b, dims)));
  };
  const std::uint64_t pieces = max_over_ranks((last - first + kPiece - 1) / kPiece);
  std::vector<IndexedBoid> records;
  std::vector<std::size_t> where, run_at(n * kMostParts + 1), counts(n);
  for (std::uint64_t r = 0; r < pieces; ++r) {
    const std::uint64_t at = first + r * kPiece;
    const FlockState boids = piece(at, at < last ? std::min(kPiece, last - at) : std::uint64_t{0});
    // The records by rank and part, each run ascending by index: each boid's place found once,
    // the runs counted, then each record written where its run puts it.
    const std::vector<double>& axis = dims == 3 ? boids.z : boids.y;
    where.resize(boids.size());
    std::fill(run_at.begin(), run_at.end(), 0);
    for (std::size_t i = 0; i < boids.size(); ++i) {
      where[i] = place_of(axis[i]);
      ++run_at[where[i] + 1];
    }
    for (std::size_t q = 1; q < run_at.size(); ++q) run_at[q] += run_at[q - 1];
    for (std::size_t k = 0; k < n; ++k) {
      counts[k] = run_at[(k + 1) * kMostParts] - run_at[k * kMostParts];
    }
    records.resize(boids.size());
    for (std::size_t i = 0; i < boids.size(); ++i) {
      IndexedBoid& b = records[run_at[where[i]]++];
      b = indexed_of(boids, i);
      b.id = at + i;
    }
    const std::vector<IndexedBoid> got = to_ranks(records, counts);
    // Runs of one rank's stripe and one part, each to its places.
    for (std::size_t i = 0; i < got.size();) {
      const std::size_t k = source_of(got[i].id), p = part_of(got[i]);
      std::size_t j = i + 1;
      while (j < got.size() && source_of(got[j].id) == k && part_of(got[j]) == p) ++j;
      std::uint64_t& place = places.next[k * kMostParts + p];
      if (place + (j - i) > places.end[k * kMostParts + p]) {
        throw std::logic_error("a start's boids arrived beyond their count");
      }
      parts_[p].access->fill_part(place, {got.data() + i, j - i});
      place += j - i;
      i = j;
    }
  }
  if (!places.filled()) throw std::logic_error("a start's boids arrived short of their count");
}

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
  release(lists);
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
  RankFlock flock(flight, whole, first_slabs(p, along, /*over_ranks=*/true, largest_share),
                  largest_share, 0);
  flock.hand_over(stripe.first, stripe.last, std::move(along), draw_piece);
  return flock;
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
  RankFlock flock(flight, rows.m.rows, first_slabs(p, along, /*over_ranks=*/true, largest_share),
                  largest_share, steps_taken);
  flock.hand_over(stripe.first, stripe.last, std::move(along), read_piece);
  if (const std::string failed = file.finish(); !failed.empty()) {
    throw RuntimeError(cannot_read + ": " + failed);
  }
  return flock;
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
  RankFlock flock(flight, read->whole, first_slabs(p, along, /*over_ranks=*/true, largest_share),
                  largest_share, 0);
  flock.hand_over(read->first, read->first + rows.size(), std::move(along),
                  [&](std::uint64_t at, std::uint64_t count) {
                    return rows_of(rows, at - read->first, count);
                  });
  return flock;
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
