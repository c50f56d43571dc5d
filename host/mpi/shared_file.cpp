#include "host/mpi/shared_file.h"

#include <mpi.h>

#include <cstring>

#include "host/mpi/communicator.h"
#include "host/mpi/record_type.h"

namespace boids::mpi {
namespace {

// Why MPI-IO refused, in its words.
std::string mpi_reason(int code) {
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  return std::string(text, static_cast<std::size_t>(length));
}

}  // namespace

struct SharedFile::Handle {
  MPI_File file = MPI_FILE_NULL;
};

SharedFile::SharedFile(const std::string& path, Mode mode)
    : handle_(std::make_unique<Handle>()), mode_(mode), rank_(rank()) {
  const int access = mode == Mode::kWrite ? MPI_MODE_WRONLY | MPI_MODE_CREATE : MPI_MODE_RDONLY;
  check("cannot open the file",
        MPI_File_open(MPI_COMM_WORLD, path.c_str(), access, MPI_INFO_NULL, &handle_->file));
  opened_ = on_every_rank(failure_.empty());
}

// Closing is collective: a file that some ranks could not open is left open on the others (a
// file handle each, in a run that goes on to report the failure), not closed by them alone,
// which would wait forever for the ranks that have no file to close.
SharedFile::~SharedFile() {
  if (opened_ && handle_->file != MPI_FILE_NULL) MPI_File_close(&handle_->file);
}

void SharedFile::check(const char* what, int result) {
  if (result != MPI_SUCCESS && failure_.empty()) {
    failure_ = std::string(what) + " on rank " + std::to_string(rank_) + ": " + mpi_reason(result);
  }
}

void SharedFile::size(std::uint64_t bytes) {
  check("cannot size the file", MPI_File_set_size(handle_->file, static_cast<MPI_Offset>(bytes)));
}

void SharedFile::put_by_first(std::uint64_t at, const std::string& bytes) {
  if (rank_ != 0) return;
  check("cannot write the header",
        MPI_File_write_at(handle_->file, static_cast<MPI_Offset>(at), bytes.data(),
                          static_cast<int>(bytes.size()), MPI_BYTE, MPI_STATUS_IGNORE));
}

void SharedFile::put(std::uint64_t at, const void* data, std::uint64_t count,
                     std::size_t record_bytes) {
  const RecordType record(record_bytes);
  check("cannot write the rows",
        MPI_File_write_at_all(handle_->file, static_cast<MPI_Offset>(at), data,
                              static_cast<int>(count), record.get(), MPI_STATUS_IGNORE));
}

void SharedFile::get(std::uint64_t at, void* data, std::size_t bytes) {
  if (!failure_.empty()) {
    std::memset(data, 0, bytes);
    return;
  }
  MPI_Status status;
  check("cannot read the file", MPI_File_read_at(handle_->file, static_cast<MPI_Offset>(at), data,
                                                 static_cast<int>(bytes), MPI_BYTE, &status));
  int got = 0;
  MPI_Get_count(&status, MPI_BYTE, &got);
  if (failure_.empty() && static_cast<std::size_t>(got) != bytes) {
    failure_ = "the file ended early (read on rank " + std::to_string(rank_) + ")";
  }
  if (!failure_.empty()) std::memset(data, 0, bytes);
}

std::string SharedFile::finish() {
  if (mode_ == Mode::kWrite) check("cannot flush the file", MPI_File_sync(handle_->file));
  check("cannot close the file", MPI_File_close(&handle_->file));
  return on_every_rank(failure_.empty()) ? "" : why();
}

}  // namespace boids::mpi
