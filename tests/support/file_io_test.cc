#include "onnxscript/support/file_io.h"
#include "error_message.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <thread>

#include "onnxscript/support/error.h"

namespace onnxscript {
namespace {

namespace fs = std::filesystem;

fs::path fresh_dir(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / ("onnxscript_file_io_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

size_t count_entries(const fs::path& dir) {
  return static_cast<size_t>(std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
}

// The message of the IoError that `f` throws; a test failure when it throws
// none.
template <typename F>
std::string io_error_of(F&& f) {
  return testing::message_of<IoError>(std::forward<F>(f));
}

TEST(FileIo, WritesAndReadsBack) {
  fs::path dir = fresh_dir("roundtrip");
  write_file_atomically(dir / "a.bin", std::string_view("hello\0world", 11));
  EXPECT_EQ(read_file(dir / "a.bin"), std::string("hello\0world", 11));
  EXPECT_EQ(count_entries(dir), 1u);
  write_file_atomically(dir / "empty", "");
  EXPECT_EQ(read_file(dir / "empty"), "");
}

TEST(FileIo, AFailedWriteKeepsTheOldFileAndLeavesNoTemporary) {
  fs::path dir = fresh_dir("failure");
  write_file_atomically(dir / "a.txt", "old contents");
  EXPECT_THROW(write_file_atomically(dir / "a.txt",
                                     [&](AtomicFile& out) {
                                       out.write("partial");
                                       throw Error("serialization failed half way");
                                     }),
               Error);
  EXPECT_EQ(read_file(dir / "a.txt"), "old contents");
  EXPECT_EQ(count_entries(dir), 1u);
}

TEST(FileIo, MissingDirectoryIsAnIoErrorNamingThePath) {
  fs::path target = fresh_dir("missing") / "no" / "such" / "dir" / "a.txt";
  const std::string written = io_error_of([&] { write_file_atomically(target, "x"); });
  EXPECT_NE(written.find(target.string()), std::string::npos) << written;
  const std::string read = io_error_of([&] { read_file(target); });
  EXPECT_NE(read.find(target.string()), std::string::npos) << read;
  EXPECT_NE(read.find("No such file"), std::string::npos) << read;
}

// The error says what is wrong, not just that reading failed.
TEST(FileIo, ReadingADirectoryIsAnIoErrorSayingSo) {
  const fs::path dir = fresh_dir("directory");
  const std::string what = io_error_of([&] { read_file(dir); });
  EXPECT_NE(what.find(dir.string()), std::string::npos) << what;
  EXPECT_NE(what.find("is a directory"), std::string::npos) << what;
}

// A FIFO would make a reader wait for a writer, and then read whatever it
// sends: read_file refuses it at once. (Should it wait, a helper opens the
// FIFO after a few seconds, so that the test fails rather than hangs.)
TEST(FileIo, ReadingAFifoIsRefusedWithoutWaitingForAWriter) {
  const fs::path fifo = fresh_dir("fifo") / "pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::mutex mutex;
  std::condition_variable cv;
  bool done = false;
  std::thread unblock([&] {
    std::unique_lock lock(mutex);
    if (cv.wait_for(lock, std::chrono::seconds(5), [&] { return done; })) return;
    const int fd = ::open(fifo.c_str(), O_RDWR);  // never blocks on Linux
    if (fd >= 0) ::close(fd);
  });
  const auto start = std::chrono::steady_clock::now();
  const std::string what = io_error_of([&] { read_file(fifo); });
  const auto waited = std::chrono::steady_clock::now() - start;
  {
    std::lock_guard lock(mutex);
    done = true;
  }
  cv.notify_all();
  unblock.join();
  EXPECT_NE(what.find(fifo.string()), std::string::npos) << what;
  EXPECT_NE(what.find("not a regular file"), std::string::npos) << what;
  EXPECT_LT(waited, std::chrono::seconds(4));
}

// A temporary made by mkstemp would leave the file at mode 0600.
TEST(FileIo, NewFilesGetTheUsualPermissions) {
  const fs::path dir = fresh_dir("permissions");
  const mode_t old_mask = ::umask(027);
  write_file_atomically(dir / "a.txt", "x");
  ::umask(old_mask);
  struct stat st {};
  ASSERT_EQ(::stat((dir / "a.txt").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0640u);
}

TEST(AtomicFile, SkippedBytesReadAsZerosEvenAtTheEnd) {
  const fs::path dir = fresh_dir("skip");
  AtomicFile file(dir / "holes.bin");
  file.write("ab");
  file.skip(5);
  file.write("c");
  file.skip(3);  // trailing: finish() extends the file
  EXPECT_EQ(file.position(), 11u);
  file.publish();
  EXPECT_EQ(read_file(dir / "holes.bin"), std::string("ab\0\0\0\0\0c\0\0\0", 11));
  EXPECT_EQ(count_entries(dir), 1u);
}

TEST(AtomicFile, UnpublishedFilesLeaveNoTraceAndTheTargetUntouched) {
  const fs::path dir = fresh_dir("unpublished");
  write_file_atomically(dir / "a.txt", "old");
  {
    AtomicFile file(dir / "a.txt");
    file.write("new");
    EXPECT_EQ(count_entries(dir), 2u);  // the temporary sits beside the target
    file.finish();
  }
  EXPECT_EQ(count_entries(dir), 1u);
  EXPECT_EQ(read_file(dir / "a.txt"), "old");
}

TEST(AtomicFile, AFailedRenameNamesTheTargetAndRemovesTheTemporary) {
  const fs::path dir = fresh_dir("rename");
  fs::create_directories(dir / "occupied" / "inside");  // a non-empty directory
  const std::string what = io_error_of([&] { write_file_atomically(dir / "occupied", "x"); });
  EXPECT_NE(what.find((dir / "occupied").string()), std::string::npos) << what;
  EXPECT_EQ(count_entries(dir), 1u);
}

}  // namespace
}  // namespace onnxscript
