// ir::Dims: a tensor's dimensions, inline up to rank 4 and on the heap past
// it. Every operation is checked on both sides of that line, since the two
// layouts take different paths (and the sanitizer build checks that heap
// dimensions are freed exactly once).

#include <gtest/gtest.h>

#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "onnxscript/ir/dims.h"
#include "onnxscript/ir/tensor.h"

namespace onnxscript::ir {
namespace {

std::vector<int64_t> as_vector(const Dims& d) { return {d.begin(), d.end()}; }

// A vector is a copy, made only when asked for; a span is a view, free.
static_assert(!std::is_convertible_v<Dims, std::vector<int64_t>>);
static_assert(std::is_constructible_v<std::vector<int64_t>, Dims>);
static_assert(std::is_convertible_v<Dims, std::span<const int64_t>>);

// Ranks 0 to 7: inline, exactly full, and spilled to the heap.
std::vector<std::vector<int64_t>> some_shapes() {
  return {{}, {7}, {2, 3}, {2, 3, 5}, {2, 3, 5, 7}, {2, 3, 5, 7, 11}, {1, 2, 3, 4, 5, 6, 7}};
}

TEST(Dims, BuildsFromListsVectorsSpansAndIterators) {
  for (const std::vector<int64_t>& shape : some_shapes()) {
    SCOPED_TRACE(shape.size());
    EXPECT_EQ(as_vector(Dims(shape)), shape);
    EXPECT_EQ(as_vector(Dims(std::span<const int64_t>(shape))), shape);
    EXPECT_EQ(as_vector(Dims(shape.begin(), shape.end())), shape);
    const Dims d(shape);
    EXPECT_EQ(d.size(), shape.size());
    EXPECT_EQ(d.empty(), shape.empty());
    EXPECT_EQ(d.to_vector(), shape);
    const std::vector<int64_t> converted(d);
    EXPECT_EQ(converted, shape);
    const std::span<const int64_t> view = d;
    EXPECT_EQ(std::vector<int64_t>(view.begin(), view.end()), shape);
  }
  EXPECT_EQ(as_vector(Dims{4, 5, 6}), (std::vector<int64_t>{4, 5, 6}));
  EXPECT_EQ(as_vector(Dims(size_t{6}, 9)), (std::vector<int64_t>(6, 9)));
}

TEST(Dims, CopiesAndMovesKeepTheDimensionsAndLeaveTheSourceUsable) {
  for (const std::vector<int64_t>& shape : some_shapes()) {
    SCOPED_TRACE(shape.size());
    Dims original(shape);
    Dims copy(original);
    EXPECT_EQ(as_vector(copy), shape);
    copy.push_back(13);  // the copy owns its dimensions
    EXPECT_EQ(as_vector(original), shape);

    Dims moved(std::move(original));
    EXPECT_EQ(as_vector(moved), shape);
    EXPECT_TRUE(original.empty());  // NOLINT: moved-from is specified empty
    original.push_back(1);          // and usable
    EXPECT_EQ(as_vector(original), (std::vector<int64_t>{1}));

    // Assignment across layouts, both ways.
    for (const std::vector<int64_t>& other : some_shapes()) {
      Dims target(other);
      target = moved;
      EXPECT_EQ(as_vector(target), shape);
      Dims source(other);
      target = std::move(source);
      EXPECT_EQ(as_vector(target), other);
    }
    Dims& self = moved;
    moved = self;
    EXPECT_EQ(as_vector(moved), shape);
  }
}

TEST(Dims, EditsLikeAVectorAcrossTheInlineLimit) {
  Dims d;
  std::vector<int64_t> expected;
  for (int64_t i = 1; i <= 9; ++i) {
    d.push_back(i);
    expected.push_back(i);
    ASSERT_EQ(as_vector(d), expected);
  }
  d.insert(d.begin(), 0);
  expected.insert(expected.begin(), 0);
  d.insert(d.begin() + 3, 42);
  expected.insert(expected.begin() + 3, 42);
  EXPECT_EQ(as_vector(d), expected);
  d.erase(d.begin() + 1);
  expected.erase(expected.begin() + 1);
  EXPECT_EQ(as_vector(d), expected);
  d.pop_back();
  expected.pop_back();
  EXPECT_EQ(as_vector(d), expected);
  EXPECT_EQ(d.front(), expected.front());
  EXPECT_EQ(d.back(), expected.back());
  d[2] = -1;
  expected[2] = -1;
  EXPECT_EQ(as_vector(d), expected);
  d.resize(2);
  EXPECT_EQ(as_vector(d), (std::vector<int64_t>{0, 2}));
  d.resize(5, 8);
  EXPECT_EQ(as_vector(d), (std::vector<int64_t>{0, 2, 8, 8, 8}));
  d.clear();
  EXPECT_TRUE(d.empty());

  Dims small{1, 2};
  small.insert(small.end(), 3);
  small.insert(small.begin() + 1, 9);
  EXPECT_EQ(as_vector(small), (std::vector<int64_t>{1, 9, 2, 3}));
  small.erase(small.begin());
  EXPECT_EQ(as_vector(small), (std::vector<int64_t>{9, 2, 3}));
}

TEST(Dims, ComparesWithDimsAndVectors) {
  EXPECT_EQ(Dims({2, 3}), Dims({2, 3}));
  EXPECT_NE(Dims({2, 3}), Dims({3, 2}));
  EXPECT_NE(Dims({2, 3}), Dims({2, 3, 1}));
  EXPECT_EQ(Dims({1, 2, 3, 4, 5}), Dims({1, 2, 3, 4, 5}));
  EXPECT_TRUE(Dims({2, 3}) == (std::vector<int64_t>{2, 3}));
  EXPECT_TRUE((std::vector<int64_t>{2, 3}) == Dims({2, 3}));
  EXPECT_FALSE(Dims() == (std::vector<int64_t>{0}));
}

// A tensor's copies each hold their dimensions; the storage is shared.
TEST(Dims, TensorCopiesHoldTheirOwnDimensions) {
  for (const std::vector<int64_t>& shape : some_shapes()) {
    SCOPED_TRACE(shape.size());
    const Tensor t(DataType::kFloat, shape);
    Tensor copy = t;
    EXPECT_EQ(copy.shape(), shape);
    EXPECT_EQ(copy.raw_data(), t.raw_data());
    const Tensor moved = std::move(copy);
    EXPECT_EQ(moved.shape(), shape);
    EXPECT_EQ(t.reshaped({t.numel()}).shape(), (std::vector<int64_t>{t.numel()}));
    EXPECT_EQ(t.shape(), shape);
  }
}

}  // namespace
}  // namespace onnxscript::ir
