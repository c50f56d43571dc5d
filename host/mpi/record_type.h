// A record of a few bytes as an MPI datatype, for the life of a scope: what the collectives and
// the shared files of host/mpi send, read and write. For host/mpi's own sources (it includes
// mpi.h, which the rest of boids never sees).
#pragma once

#include <mpi.h>

#include <cstddef>

namespace boids::mpi {

class RecordType {
 public:
  explicit RecordType(std::size_t bytes) {
    MPI_Type_contiguous(static_cast<int>(bytes), MPI_BYTE, &type_);
    MPI_Type_commit(&type_);
  }
  ~RecordType() { MPI_Type_free(&type_); }
  RecordType(const RecordType&) = delete;
  RecordType& operator=(const RecordType&) = delete;
  MPI_Datatype get() const { return type_; }

 private:
  MPI_Datatype type_ = MPI_DATATYPE_NULL;
};

}  // namespace boids::mpi
