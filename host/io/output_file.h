// Output files are written whole or not at all, and the outputs of one command together.
//
// Each output is checked when it is added, before any work: its temporary file is created
// then, beside the destination, so whatever would stop the final write (a missing or
// unwritable directory, a parent that is a regular file, a name too long, /proc) stops the
// command before it computes anything. The contents go to the temporary files; commit()
// renames them into place only once every output is whole. A command that fails before
// then leaves every file the user had as it was, and removes the temporary files it created,
// and only those (their names come from mkstemp, so they never collide with a user's file).
//
// A destination that exists and is neither a regular file nor a directory (a character
// device such as /dev/null, a FIFO, a terminal) is written directly at commit, after the
// renames: such a node is never replaced by a regular file.
#pragma once

#include <sys/types.h>
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace boids {

class OutputFiles {
 public:
  OutputFiles() = default;
  OutputFiles(const OutputFiles&) = delete;
  OutputFiles& operator=(const OutputFiles&) = delete;
  ~OutputFiles();  // removes the temporary files of a command that did not commit

  // Registers `path` as the output of `option` (e.g. "--save") and checks it now. Throws
  // InputError naming the option when it cannot be written, or when it names the same file
  // as an output added before (compared as files, so "./a.csv" and "a.csv" are one).
  // `suffix` ends the temporary file's name, for writers that choose a format by it.
  void add(const std::string& option, const std::string& path, const std::string& suffix = "");

  // Checks `path` as add() does, against the other outputs too, for an output written by its
  // own means (a trajectory grows as the run goes): nothing is kept or committed for it.
  void check(const std::string& option, const std::string& path);

  bool has(const std::string& option) const;

  // Writes the whole contents of an output (to its temporary file, flushed to disk). Throws
  // RuntimeError naming the file when the disk refuses.
  void write(const std::string& option, const std::string& contents);

  // The same in pieces, for outputs too large to hold twice: `produce` hands each piece to
  // the sink it is given.
  using ByteSink = std::function<void(const void* data, std::size_t size)>;
  void write_pieces(const std::string& option, const std::function<void(const ByteSink&)>& produce);

  // For a program that writes the output itself: the file it should write (the temporary
  // file, or the destination when that is a special file), and then the call that says the
  // contents are whole.
  const std::string& file_to_write(const std::string& option) const;
  void written_externally(const std::string& option);

  // A file that belongs with an output and no longer does (a state file's predators, when the
  // new state has none): removed at commit, after the outputs are in place, when it is a
  // regular file. Nothing happens to it if the command fails first.
  void retire(const std::string& path);

  // Puts every output in place, then removes the retired files. Every output must have been
  // written.
  void commit();

 private:
  struct Output {
    std::string option, path;
    bool special = false;       // a device, FIFO or terminal: written in place at commit
    std::string target;         // where the temporary file is renamed to (symbolic links resolved)
    std::string temporary;      // created by add(); empty for a special file
    std::string identity;       // the file, for telling two spellings of one path apart
    std::string directory;      // of the target, synced after the rename
    std::string contents;       // of a special file, until commit
    mode_t mode = 0644;         // the replaced file's, or what a new file gets under the umask
    bool checked_only = false;  // check(): no temporary file, nothing to commit
    bool external = false;      // written by another program (a special file: already written)
    bool written = false;
    bool committed = false;
  };
  Output& find(const std::string& option);
  const Output& find(const std::string& option) const;

  std::vector<Output> outputs_;
  std::vector<std::string> retired_;
};

// Replaces `path` with `contents` whole, or leaves it as it was; throws RuntimeError naming
// the file and why.
void write_file_atomically(const std::string& path, const std::string& contents);

// Writes all of `contents` to the open file `fd` (again after a signal's interruption);
// returns 0, or the errno of the write that failed.
int write_all(int fd, std::string_view contents);

// Whether the file name `path` ends in `extension` (".png"), in any case, after a name.
bool has_extension(const std::string& path, const std::string& extension);

// Checks that the command's standard output took everything written to it (a full disk or a
// closed pipe shows only when the buffer is flushed); throws RuntimeError saying why not.
void finish_standard_output();

// A scratch file in the temporary directory ($TMPDIR, else /tmp), removed when it goes out
// of scope; for handing data to a helper program.
class ScratchFile {
 public:
  explicit ScratchFile(const std::string& suffix);
  ScratchFile(const ScratchFile&) = delete;
  ScratchFile& operator=(const ScratchFile&) = delete;
  ~ScratchFile();
  const std::string& path() const { return path_; }
  void write(const std::string& contents);

 private:
  std::string path_;
  int fd_ = -1;
};

}  // namespace boids
