// The ranks mpirun started, and the few collectives a distributed flight needs (host/mpi):
// broadcasts from rank 0, an exchange of records between every pair of ranks, and a gather
// to rank 0. All on MPI_COMM_WORLD, whose errors are fatal: a rank that fails ends the run.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace boids::mpi {

// Whether this process was started by mpirun (or another MPI launcher): only then is MPI
// initialised, so that boids started alone behaves, and starts, as without MPI.
bool launched_by_mpirun();

// MPI for the life of the process: initialised by a Session, finalised at its end.
class Session {
 public:
  Session(int& argc, char**& argv);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
};

int rank();   // 0 without MPI
int ranks();  // 1 without MPI
// This rank's place among the ranks on its machine (0 without MPI): it names the GPU a rank
// uses.
int local_rank();

// Ends every rank of the run at once, after saying why on standard error.
[[noreturn]] void abort_run(const std::string& why);

// Rank 0's bytes, on every rank.
void broadcast(std::string& bytes);
void broadcast(void* data, std::size_t bytes);

// The ranks a rank exchanges with (its slab's neighbours), as a graph over the run's ranks:
// an exchange over it sends and receives one message a neighbour, where one over every rank
// costs a message's latency for each of them. Made and freed by every rank together.
class Neighborhood {
 public:
  Neighborhood() = default;  // none: exchanges go to every rank
  // `ranks`: this rank's neighbours, each once; with them, those that name this one, and this
  // one itself.
  explicit Neighborhood(std::vector<int> ranks);
  ~Neighborhood();
  Neighborhood(Neighborhood&& other) noexcept;
  Neighborhood& operator=(Neighborhood&& other) noexcept;
  Neighborhood(const Neighborhood&) = delete;
  Neighborhood& operator=(const Neighborhood&) = delete;

  bool empty() const { return graph_ == nullptr; }
  const std::vector<int>& ranks() const { return ranks_; }  // ascending
  void* graph() const { return graph_; }                    // its MPI_Comm

 private:
  void free();
  std::vector<int> ranks_;
  void* graph_ = nullptr;
};

// An exchange of records in flight (ListExchange below, untyped): made by every rank
// together; its records are theirs once wait() returns. The lists it was given may change
// once it is made.
class RecordExchange {
 public:
  RecordExchange(const std::vector<std::vector<const void*>>& data,
                 const std::vector<std::vector<std::size_t>>& counts, std::size_t record_bytes,
                 const Neighborhood& near);
  ~RecordExchange();  // waits for an exchange not waited for
  RecordExchange(RecordExchange&&) noexcept;
  RecordExchange(const RecordExchange&) = delete;
  RecordExchange& operator=(const RecordExchange&) = delete;
  RecordExchange& operator=(RecordExchange&&) = delete;

  std::vector<std::vector<unsigned char>> wait();

 private:
  struct Pending;
  std::unique_ptr<Pending> pending_;
};

// Sends lists[k][r] to rank r, for every list k and rank r, in one exchange (two
// collectives, whatever the lists, the second left in flight until wait()); the k-th list
// wait() returns holds what every rank sent this one in its k-th, in rank order. T is a plain
// record (the same layout on every rank). Over a neighbourhood that is not empty, only its
// ranks are sent to and heard from (a list for any other rank must be empty).
template <typename T>
class ListExchange {
 public:
  ListExchange(const std::vector<const std::vector<std::vector<T>>*>& lists,
               const Neighborhood& near);
  std::vector<std::vector<T>> wait();

 private:
  RecordExchange records_;
};

// The same, waited for at once.
template <typename T>
std::vector<std::vector<T>> exchange_lists(
    const std::vector<const std::vector<std::vector<T>>*>& lists,
    const Neighborhood& near = Neighborhood());

// Sends every rank r its run of `by_rank` (counts[r] records, the runs in rank order) in one
// collective, and returns what every rank sent this one, in rank order: records received
// straight into the list returned, none copied on the way (a rank's share of a start).
template <typename T>
std::vector<T> to_ranks(const std::vector<T>& by_rank, const std::vector<std::size_t>& counts);

// Every rank's records at rank 0, in rank order (empty elsewhere).
template <typename T>
std::vector<T> gather(const std::vector<T>& mine);
// Every rank's records on every rank, in rank order.
template <typename T>
std::vector<T> all_gather(const std::vector<T>& mine);
// Rank 0's lists[r] at rank r (`lists` is read on rank 0 alone).
template <typename T>
std::vector<T> scatter(const std::vector<std::vector<T>>& lists);

// Sums `values` over the ranks, element by element, in place on every rank; the largest of
// `value` over the ranks.
void sum_over_ranks(std::vector<std::uint64_t>& values);
void sum_over_ranks(std::vector<double>& values);
// The least of each element over the ranks, in place on every rank.
void min_over_ranks(std::vector<double>& values);
std::uint64_t max_over_ranks(std::uint64_t value);
// Whether `value` holds on every rank.
bool on_every_rank(bool value);
// The same of each element, in one collective.
std::vector<bool> on_every_rank(const std::vector<bool>& values);
// Whether every rank's `problem` is empty; where one is not, `refusal` (on rank 0) becomes the
// lowest such rank's: the first in the flock's order, where ranks hold its parts in order.
bool none_refused(const std::string& problem, std::string& refusal);
// The same for the InputError `check` throws here, if any (its words are the problem).
bool none_refused(const std::function<void()>& check, std::string& refusal);

// The untyped collectives behind the templates: counts of records of `record_bytes` each
// (RecordExchange: data[k][r] and counts[k][r] are list k's records for rank r).
void all_to_all_records(const void* data, const std::vector<std::size_t>& counts,
                        std::size_t record_bytes,
                        const std::function<void*(std::size_t records)>& receive_into);
std::vector<unsigned char> gather_records(const void* data, std::size_t count,
                                          std::size_t record_bytes);
std::vector<unsigned char> all_gather_records(const void* data, std::size_t count,
                                              std::size_t record_bytes);
std::vector<unsigned char> scatter_records(const std::vector<const void*>& data,
                                           const std::vector<std::size_t>& counts,
                                           std::size_t record_bytes);

template <typename T>
std::vector<T> records_of(const std::vector<unsigned char>& bytes);

// The pointers and counts of lists[k][r], for RecordExchange.
template <typename T>
RecordExchange exchange_of(const std::vector<const std::vector<std::vector<T>>*>& lists,
                           const Neighborhood& near) {
  std::vector<std::vector<const void*>> data(lists.size());
  std::vector<std::vector<std::size_t>> counts(lists.size());
  for (std::size_t k = 0; k < lists.size(); ++k) {
    for (const std::vector<T>& records : *lists[k]) {
      data[k].push_back(records.data());
      counts[k].push_back(records.size());
    }
  }
  return RecordExchange(data, counts, sizeof(T), near);
}

template <typename T>
ListExchange<T>::ListExchange(const std::vector<const std::vector<std::vector<T>>*>& lists,
                              const Neighborhood& near)
    : records_(exchange_of(lists, near)) {}

template <typename T>
std::vector<std::vector<T>> ListExchange<T>::wait() {
  std::vector<std::vector<T>> out;
  for (const std::vector<unsigned char>& bytes : records_.wait())
    out.push_back(records_of<T>(bytes));
  return out;
}

template <typename T>
std::vector<std::vector<T>> exchange_lists(
    const std::vector<const std::vector<std::vector<T>>*>& lists, const Neighborhood& near) {
  return ListExchange<T>(lists, near).wait();
}

template <typename T>
std::vector<T> records_of(const std::vector<unsigned char>& bytes) {
  std::vector<T> out(bytes.size() / sizeof(T));
  if (!bytes.empty()) std::memcpy(out.data(), bytes.data(), bytes.size());
  return out;
}

template <typename T>
std::vector<T> to_ranks(const std::vector<T>& by_rank, const std::vector<std::size_t>& counts) {
  std::vector<T> out;
  all_to_all_records(by_rank.data(), counts, sizeof(T), [&out](std::size_t records) {
    out.resize(records);
    return static_cast<void*>(out.data());
  });
  return out;
}

template <typename T>
std::vector<T> gather(const std::vector<T>& mine) {
  return records_of<T>(gather_records(mine.data(), mine.size(), sizeof(T)));
}

template <typename T>
std::vector<T> all_gather(const std::vector<T>& mine) {
  return records_of<T>(all_gather_records(mine.data(), mine.size(), sizeof(T)));
}

template <typename T>
std::vector<T> scatter(const std::vector<std::vector<T>>& lists) {
  std::vector<const void*> data;
  std::vector<std::size_t> counts;
  for (const std::vector<T>& records : lists) {
    data.push_back(records.data());
    counts.push_back(records.size());
  }
  return records_of<T>(scatter_records(data, counts, sizeof(T)));
}

}  // namespace boids::mpi
