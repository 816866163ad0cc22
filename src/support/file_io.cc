#include "onnxscript/support/file_io.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <random>

#include "onnxscript/support/error.h"

namespace onnxscript {
namespace {

[[noreturn]] void fail_on(const std::filesystem::path& path, std::string_view action, int err) {
  throw IoError(fmt::format("{}: cannot {}: {}", path.string(), action, std::strerror(err)));
}

// Closes a descriptor when the scope ends.
struct FdCloser {
  int fd;
  ~FdCloser() {
    if (fd >= 0) ::close(fd);
  }
};

std::filesystem::path directory_of(const std::filesystem::path& p) {
  std::filesystem::path dir = p.parent_path();
  return dir.empty() ? std::filesystem::path(".") : dir;
}

// A name that other savers of the same file will not pick: mkstemp would do,
// but it creates files with mode 0600, and a model should get the usual
// permissions (0666 less the umask), which only open() applies for us.
std::string random_suffix() {
  static thread_local std::mt19937_64 rng{std::random_device{}() ^
                                          static_cast<uint64_t>(::getpid())};
  static constexpr char kChars[] = "abcdefghijklmnopqrstuvwxyz0123456789";
  std::string s(8, '0');
  for (char& c : s) c = kChars[rng() % (sizeof(kChars) - 1)];
  return s;
}

}  // namespace

// ---------------------------------------------------------------- read_file

std::string read_file(const std::filesystem::path& path) {
  // O_NONBLOCK so that opening a FIFO does not wait for a writer; it is
  // refused below, and regular files ignore the flag.
  int fd;
  do {
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) fail_on(path, "open", errno);
  FdCloser closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0) fail_on(path, "stat", errno);
  if (S_ISDIR(st.st_mode))
    throw IoError(fmt::format("{}: is a directory, not a file", path.string()));
  if (!S_ISREG(st.st_mode)) throw IoError(fmt::format("{}: not a regular file", path.string()));

  // Read to the end rather than st_size bytes: the file may change meanwhile,
  // and some (in /proc) report size 0. The end is found with a read into a
  // small buffer, so a file of the size stat gave is read in place.
  std::string bytes(static_cast<size_t>(st.st_size), '\0');
  size_t done = 0;
  char chunk[1 << 16];
  while (true) {
    const bool in_place = done < bytes.size();
    char* dest = in_place ? bytes.data() + done : chunk;
    const size_t room = in_place ? bytes.size() - done : sizeof chunk;
    const ssize_t n = ::read(fd, dest, room);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail_on(path, "read", errno);
    }
    if (n == 0) break;
    if (!in_place) bytes.append(chunk, static_cast<size_t>(n));
    done += static_cast<size_t>(n);
  }
  bytes.resize(done);
  return bytes;
}

// ---------------------------------------------------------------- AtomicFile

AtomicFile::AtomicFile(std::filesystem::path target) : target_(std::move(target)) {
  const std::filesystem::path dir = directory_of(target_);
  const std::string base = target_.filename().string();
  for (int attempt = 0; attempt < 100; ++attempt) {
    temp_ = dir / ("." + base + ".tmp-" + random_suffix());
    fd_ = ::open(temp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd_ >= 0) return;
    if (errno != EEXIST && errno != EINTR) break;
  }
  const int err = errno;
  throw IoError(fmt::format("{}: cannot create a temporary file in '{}': {}", target_.string(),
                            dir.string(), std::strerror(err)));
}

AtomicFile::~AtomicFile() {
  if (fd_ >= 0) ::close(fd_);
  if (!published_) ::unlink(temp_.c_str());
}

void AtomicFile::fail(const char* action) const { fail_on(target_, action, errno); }

void AtomicFile::write(const void* data, size_t size) {
  const char* p = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t n = ::write(fd_, p, size);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail("write");
    }
    p += n;
    size -= static_cast<size_t>(n);
    position_ += static_cast<uint64_t>(n);
  }
}

void AtomicFile::skip(uint64_t size) {
  if (size == 0) return;
  if (::lseek(fd_, static_cast<off_t>(size), SEEK_CUR) < 0) fail("seek");
  position_ += size;
}

void AtomicFile::finish() {
  struct stat st {};
  if (::fstat(fd_, &st) != 0) fail("stat the temporary file");
  if (static_cast<uint64_t>(st.st_size) < position_ &&
      ::ftruncate(fd_, static_cast<off_t>(position_)) != 0)
    fail("extend the temporary file");
  if (::fsync(fd_) != 0) fail("flush the temporary file");
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) fail("close the temporary file");
}

void AtomicFile::publish() {
  if (fd_ >= 0) finish();
  if (::rename(temp_.c_str(), target_.c_str()) != 0) fail("rename the temporary file into place");
  published_ = true;
  // The rename itself must reach the disk, or a crash could forget it.
  const int dir = ::open(directory_of(target_).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
}

// ---------------------------------------------------------------- write_file_atomically

void write_file_atomically(const std::filesystem::path& path,
                           const std::function<void(AtomicFile& out)>& write) {
  AtomicFile file(path);
  write(file);
  file.publish();
}

void write_file_atomically(const std::filesystem::path& path, std::string_view contents) {
  AtomicFile file(path);
  file.write(contents);
  file.publish();
}

}  // namespace onnxscript
