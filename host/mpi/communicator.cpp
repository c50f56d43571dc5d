#include "host/mpi/communicator.h"

#include <mpi.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iostream>
#include <limits>
#include <memory>
#include <stdexcept>
#include <utility>

#include "host/base/errors.h"
#include "host/mpi/record_type.h"

namespace boids::mpi {
namespace {

bool initialised() {
  int flag = 0;
  MPI_Initialized(&flag);
  int finalised = 0;
  MPI_Finalized(&finalised);
  return flag != 0 && finalised == 0;
}

// MPI counts are ints: records are counted, as records of their own datatype, so that a
// message holds up to 2^31 - 1 of them (as many boids as a flock may hold).
int as_count(std::size_t records) {
  if (records > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
    abort_run("a message of " + std::to_string(records) + " records is over MPI's count");
  }
  return static_cast<int>(records);
}

std::vector<int> displacements(const std::vector<int>& counts, std::size_t& total) {
  std::vector<int> at(counts.size());
  total = 0;
  for (std::size_t r = 0; r < counts.size(); ++r) {
    at[r] = as_count(total);
    total += static_cast<std::size_t>(counts[r]);
  }
  as_count(total);
  return at;
}

}  // namespace

bool launched_by_mpirun() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_SIZE", "PMI_RANK"}) {
    if (std::getenv(name) != nullptr) return true;
  }
  return false;
}

Session::Session(int& argc, char**& argv) {
  if (!launched_by_mpirun() || initialised()) return;
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

Session::~Session() {
  if (initialised()) MPI_Finalize();
}

int rank() {
  if (!initialised()) return 0;
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

int ranks() {
  if (!initialised()) return 1;
  int n = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  return n;
}

int local_rank() {
  if (!initialised()) return 0;
  static const int local = [] {
    MPI_Comm machine;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank(), MPI_INFO_NULL, &machine);
    int r = 0;
    MPI_Comm_rank(machine, &r);
    MPI_Comm_free(&machine);
    return r;
  }();
  return local;
}

void abort_run(const std::string& why) {
  std::cerr << "boids: error: rank " << rank() << " of " << ranks() << ": " << why
            << " (ending every rank)" << std::endl;
  if (initialised()) MPI_Abort(MPI_COMM_WORLD, 1);
  std::exit(1);
}

void broadcast(void* data, std::size_t bytes) {
  constexpr std::size_t kPiece = std::size_t{1} << 30;  // bytes a broadcast sends at once
  for (std::size_t at = 0; at < bytes; at += kPiece) {
    MPI_Bcast(static_cast<unsigned char*>(data) + at,
              static_cast<int>(std::min(kPiece, bytes - at)), MPI_BYTE, 0, MPI_COMM_WORLD);
  }
}

void broadcast(std::string& bytes) {
  std::uint64_t size = bytes.size();
  broadcast(&size, sizeof size);
  bytes.resize(size);
  broadcast(bytes.data(), bytes.size());
}

// Each rank's neighbours joined with the ranks that name it (one MPI_Alltoall of flags), so
// that the graph is symmetric whatever the rounding of the distances that chose them.
Neighborhood::Neighborhood(std::vector<int> ranks) {
  std::vector<int> named(static_cast<std::size_t>(mpi::ranks()), 0), naming(named.size(), 0);
  for (const int r : ranks) named[static_cast<std::size_t>(r)] = 1;
  MPI_Alltoall(named.data(), 1, MPI_INT, naming.data(), 1, MPI_INT, MPI_COMM_WORLD);
  for (std::size_t r = 0; r < named.size(); ++r) {
    const bool self = static_cast<int>(r) == rank();  // a rank may send records to itself
    if (self || named[r] != 0 || naming[r] != 0) ranks_.push_back(static_cast<int>(r));
  }
  MPI_Comm graph = MPI_COMM_NULL;
  const int n = static_cast<int>(ranks_.size());
  MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, n, ranks_.data(), MPI_UNWEIGHTED, n, ranks_.data(),
                                 MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &graph);
  MPI_Comm_set_errhandler(graph, MPI_ERRORS_ARE_FATAL);
  graph_ = new MPI_Comm(graph);
}

Neighborhood::~Neighborhood() {
  free();
}

Neighborhood::Neighborhood(Neighborhood&& other) noexcept
    : ranks_(std::move(other.ranks_)), graph_(other.graph_) {
  other.graph_ = nullptr;
}

Neighborhood& Neighborhood::operator=(Neighborhood&& other) noexcept {
  if (this != &other) {
    free();
    ranks_ = std::move(other.ranks_);
    graph_ = other.graph_;
    other.graph_ = nullptr;
  }
  return *this;
}

void Neighborhood::free() {
  if (graph_ == nullptr) return;
  MPI_Comm* graph = static_cast<MPI_Comm*>(graph_);
  if (initialised()) MPI_Comm_free(graph);
  delete graph;
  graph_ = nullptr;
}

// What an exchange in flight holds until its records arrive.
struct RecordExchange::Pending {
  // Every buffer and array the posted collective reads or writes, kept until it completes.
  std::vector<unsigned char> packed, got;
  std::vector<int> send_counts, send_at, recv_counts, recv_list_counts, recv_at;
  std::unique_ptr<RecordType> record;
  int lists = 0, peers = 0;
  std::size_t record_bytes = 0;
  MPI_Request request = MPI_REQUEST_NULL;
};

// One exchange of each list's count for each rank (blocking: a few integers a peer), and one
// of the records, each rank's lists one after the other, posted and left in flight:
// MPI_Alltoall and MPI_Ialltoallv over every rank, or their neighbourhood forms over `near`'s
// ranks alone.
RecordExchange::RecordExchange(const std::vector<std::vector<const void*>>& data,
                               const std::vector<std::vector<std::size_t>>& counts,
                               std::size_t record_bytes, const Neighborhood& near)
    : pending_(std::make_unique<Pending>()) {
  Pending& x = *pending_;
  const int lists = static_cast<int>(data.size());
  for (int k = 0; k < lists; ++k) {
    if (static_cast<int>(data[k].size()) != ranks()) {
      throw std::logic_error("exchange: one list a rank");
    }
  }
  // The ranks exchanged with: every rank, or the neighbours; a list for another is an error.
  std::vector<int> peers;
  if (near.empty()) {
    for (int r = 0; r < ranks(); ++r) peers.push_back(r);
  } else {
    peers = near.ranks();
    for (int r = 0; r < ranks(); ++r) {
      if (std::binary_search(peers.begin(), peers.end(), r)) continue;
      for (int k = 0; k < lists; ++k) {
        if (counts[k][r] > 0) throw std::logic_error("exchange: records for a rank not near");
      }
    }
  }
  const int n = static_cast<int>(peers.size());
  x.lists = lists;
  x.peers = n;
  x.record_bytes = record_bytes;
  // The counts by peer, then list: [p * lists + k].
  std::vector<int> send_list_counts(n * lists);
  x.recv_list_counts.assign(n * lists, 0);
  std::vector<int>& send_counts = x.send_counts;
  std::vector<int>& recv_counts = x.recv_counts;
  send_counts.assign(n, 0);
  recv_counts.assign(n, 0);
  for (int p = 0; p < n; ++p) {
    std::size_t total = 0;
    for (int k = 0; k < lists; ++k) {
      send_list_counts[p * lists + k] = as_count(counts[k][peers[p]]);
      total += counts[k][peers[p]];
    }
    send_counts[p] = as_count(total);
  }
  std::size_t send_total = 0, recv_total = 0;
  x.send_at = displacements(send_counts, send_total);
  const std::vector<int>& send_at = x.send_at;
  x.packed.resize(send_total * record_bytes);
  for (int p = 0; p < n; ++p) {
    std::size_t at = static_cast<std::size_t>(send_at[p]) * record_bytes;
    for (int k = 0; k < lists; ++k) {
      const std::size_t count = counts[k][peers[p]];
      if (count == 0) continue;
      std::memcpy(x.packed.data() + at, data[k][peers[p]], count * record_bytes);
      at += count * record_bytes;
    }
  }
  const MPI_Comm graph = near.empty() ? MPI_COMM_WORLD : *static_cast<MPI_Comm*>(near.graph());
  if (near.empty()) {
    MPI_Alltoall(send_list_counts.data(), lists, MPI_INT, x.recv_list_counts.data(), lists, MPI_INT,
                 graph);
  } else {
    MPI_Neighbor_alltoall(send_list_counts.data(), lists, MPI_INT, x.recv_list_counts.data(), lists,
                          MPI_INT, graph);
  }
  for (int p = 0; p < n; ++p) {
    std::size_t total = 0;
    for (int k = 0; k < lists; ++k) {
      total += static_cast<std::size_t>(x.recv_list_counts[p * lists + k]);
    }
    recv_counts[p] = as_count(total);
  }
  x.recv_at = displacements(recv_counts, recv_total);
  x.got.resize(recv_total * record_bytes);
  x.record = std::make_unique<RecordType>(record_bytes);
  const MPI_Datatype record = x.record->get();
  if (near.empty()) {
    MPI_Ialltoallv(x.packed.data(), send_counts.data(), send_at.data(), record, x.got.data(),
                   recv_counts.data(), x.recv_at.data(), record, graph, &x.request);
  } else {
    MPI_Ineighbor_alltoallv(x.packed.data(), send_counts.data(), send_at.data(), record,
                            x.got.data(), recv_counts.data(), x.recv_at.data(), record, graph,
                            &x.request);
  }
}

RecordExchange::~RecordExchange() {
  if (pending_ && pending_->request != MPI_REQUEST_NULL && initialised()) {
    MPI_Wait(&pending_->request, MPI_STATUS_IGNORE);
  }
}

RecordExchange::RecordExchange(RecordExchange&&) noexcept = default;

std::vector<std::vector<unsigned char>> RecordExchange::wait() {
  Pending& x = *pending_;
  MPI_Wait(&x.request, MPI_STATUS_IGNORE);
  std::vector<std::vector<unsigned char>> out(static_cast<std::size_t>(x.lists));
  for (int p = 0; p < x.peers; ++p) {
    const unsigned char* from =
        x.got.data() + static_cast<std::size_t>(x.recv_at[p]) * x.record_bytes;
    for (int k = 0; k < x.lists; ++k) {
      const std::size_t bytes =
          static_cast<std::size_t>(x.recv_list_counts[p * x.lists + k]) * x.record_bytes;
      out[static_cast<std::size_t>(k)].insert(out[static_cast<std::size_t>(k)].end(), from,
                                              from + bytes);
      from += bytes;
    }
  }
  return out;
}

void all_to_all_records(const void* data, const std::vector<std::size_t>& counts,
                        std::size_t record_bytes,
                        const std::function<void*(std::size_t records)>& receive_into) {
  const int n = ranks();
  std::vector<int> send(static_cast<std::size_t>(n)), recv(static_cast<std::size_t>(n));
  for (int r = 0; r < n; ++r)
    send[static_cast<std::size_t>(r)] = as_count(counts[static_cast<std::size_t>(r)]);
  MPI_Alltoall(send.data(), 1, MPI_INT, recv.data(), 1, MPI_INT, MPI_COMM_WORLD);
  std::size_t send_total = 0, recv_total = 0;
  const std::vector<int> send_at = displacements(send, send_total);
  const std::vector<int> recv_at = displacements(recv, recv_total);
  void* into = receive_into(recv_total);
  const RecordType record(record_bytes);
  MPI_Alltoallv(data, send.data(), send_at.data(), record.get(), into, recv.data(), recv_at.data(),
                record.get(), MPI_COMM_WORLD);
}

std::vector<unsigned char> gather_records(const void* data, std::size_t count,
                                          std::size_t record_bytes) {
  const int n = ranks();
  int mine = as_count(count);
  std::vector<int> counts(rank() == 0 ? n : 0);
  MPI_Gather(&mine, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::size_t total = 0;
  const std::vector<int> at = rank() == 0 ? displacements(counts, total) : std::vector<int>();
  std::vector<unsigned char> got(total * record_bytes);
  const RecordType record(record_bytes);
  MPI_Gatherv(data, mine, record.get(), got.data(), counts.data(), at.data(), record.get(), 0,
              MPI_COMM_WORLD);
  return got;
}

std::vector<unsigned char> scatter_records(const std::vector<const void*>& data,
                                           const std::vector<std::size_t>& counts,
                                           std::size_t record_bytes) {
  const bool root = rank() == 0;
  std::vector<int> send_counts;
  std::size_t total = 0;
  std::vector<unsigned char> packed;
  std::vector<int> at;
  if (root) {
    if (static_cast<int>(counts.size()) != ranks()) {
      throw std::logic_error("scatter: one list a rank");
    }
    for (const std::size_t c : counts) send_counts.push_back(as_count(c));
    at = displacements(send_counts, total);
    packed.resize(total * record_bytes);
    for (std::size_t r = 0; r < counts.size(); ++r) {
      if (counts[r] == 0) continue;
      std::memcpy(packed.data() + static_cast<std::size_t>(at[r]) * record_bytes, data[r],
                  counts[r] * record_bytes);
    }
  }
  int mine = 0;
  MPI_Scatter(send_counts.data(), 1, MPI_INT, &mine, 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::vector<unsigned char> got(static_cast<std::size_t>(mine) * record_bytes);
  const RecordType record(record_bytes);
  MPI_Scatterv(packed.data(), send_counts.data(), at.data(), record.get(), got.data(), mine,
               record.get(), 0, MPI_COMM_WORLD);
  return got;
}

std::vector<unsigned char> all_gather_records(const void* data, std::size_t count,
                                              std::size_t record_bytes) {
  int mine = as_count(count);
  std::vector<int> counts(static_cast<std::size_t>(ranks()));
  MPI_Allgather(&mine, 1, MPI_INT, counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
  std::size_t total = 0;
  const std::vector<int> at = displacements(counts, total);
  std::vector<unsigned char> got(total * record_bytes);
  const RecordType record(record_bytes);
  MPI_Allgatherv(data, mine, record.get(), got.data(), counts.data(), at.data(), record.get(),
                 MPI_COMM_WORLD);
  return got;
}

void sum_over_ranks(std::vector<double>& values) {
  MPI_Allreduce(MPI_IN_PLACE, values.data(), as_count(values.size()), MPI_DOUBLE, MPI_SUM,
                MPI_COMM_WORLD);
}

void min_over_ranks(std::vector<double>& values) {
  MPI_Allreduce(MPI_IN_PLACE, values.data(), as_count(values.size()), MPI_DOUBLE, MPI_MIN,
                MPI_COMM_WORLD);
}

void sum_over_ranks(std::vector<std::uint64_t>& values) {
  MPI_Allreduce(MPI_IN_PLACE, values.data(), as_count(values.size()), MPI_UINT64_T, MPI_SUM,
                MPI_COMM_WORLD);
}

bool on_every_rank(bool value) {
  return on_every_rank(std::vector<bool>{value})[0];
}

bool none_refused(const std::string& problem, std::string& refusal) {
  if (on_every_rank(problem.empty())) return true;
  const std::vector<char> all =
      gather(std::vector<char>(problem.c_str(), problem.c_str() + problem.size() + 1));
  for (std::size_t at = 0; at < all.size();) {
    const std::string one(&all[at]);
    if (!one.empty()) {
      refusal = one;
      break;
    }
    at += one.size() + 1;
  }
  return false;
}

bool none_refused(const std::function<void()>& check, std::string& refusal) {
  std::string problem;
  try {
    check();
  } catch (const InputError& e) {
    problem = e.what();
  }
  return none_refused(problem, refusal);
}

std::vector<bool> on_every_rank(const std::vector<bool>& values) {
  std::vector<int> all(values.begin(), values.end());
  MPI_Allreduce(MPI_IN_PLACE, all.data(), as_count(all.size()), MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  return std::vector<bool>(all.begin(), all.end());
}

std::uint64_t max_over_ranks(std::uint64_t value) {
  std::uint64_t out = 0;
  MPI_Allreduce(&value, &out, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
  return out;
}

}  // namespace boids::mpi
