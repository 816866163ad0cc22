// Netpbm, read here: P1/P4 (bitmap, 1 is black), P2/P5 (graymap) and P3/P6
// (pixmap), in ASCII (P1-P3) or binary (P4-P6) form. The header is the magic
// number, width, height and (except for bitmaps) maxval, separated by
// whitespace, with '#' comments to the end of the line. Samples above 255
// take two bytes, most significant first. Samples are rescaled from
// [0, maxval] to [0, 255], rounding to nearest; one above maxval is an error.
#include <cctype>

#include "decode.h"

namespace onnxscript::eval::image {
namespace {

class PnmReader {
 public:
  explicit PnmReader(std::span<const uint8_t> data) : data_(data) {}

  /// Skips whitespace and comments, then reads an unsigned decimal number.
  int64_t number(const char* what) {
    skip_space();
    if (pos_ >= data_.size() || !std::isdigit(data_[pos_]))
      throw DecodeError(std::string("the PNM ") + what + " is missing or not a number");
    int64_t v = 0;
    while (pos_ < data_.size() && std::isdigit(data_[pos_])) {
      v = v * 10 + (data_[pos_++] - '0');
      if (v > (int64_t{1} << 31))
        throw DecodeError(std::string("the PNM ") + what + " is too large");
    }
    return v;
  }
  /// A bitmap digit of P1, which needs no separator between samples.
  int bit() {
    skip_space();
    if (pos_ >= data_.size() || (data_[pos_] != '0' && data_[pos_] != '1'))
      throw DecodeError("a P1 sample is missing or not 0 or 1");
    return data_[pos_++] - '0';
  }
  /// After the header: exactly one whitespace byte before binary data.
  void end_header() {
    if (pos_ >= data_.size() || !std::isspace(data_[pos_]))
      throw DecodeError("the PNM header does not end with whitespace");
    ++pos_;
  }
  /// `n` raw bytes from the current position.
  const uint8_t* bytes(size_t n) {
    if (n > data_.size() - pos_)
      throw DecodeError("the PNM data is truncated (" + std::to_string(data_.size() - pos_) +
                        " bytes for " + std::to_string(n) + ")");
    const uint8_t* p = data_.data() + pos_;
    pos_ += n;
    return p;
  }
  void skip(size_t n) { pos_ += n; }

 private:
  void skip_space() {
    while (pos_ < data_.size()) {
      if (data_[pos_] == '#') {
        while (pos_ < data_.size() && data_[pos_] != '\n' && data_[pos_] != '\r') ++pos_;
      } else if (std::isspace(data_[pos_])) {
        ++pos_;
      } else {
        break;
      }
    }
  }
  std::span<const uint8_t> data_;
  size_t pos_ = 0;
};

}  // namespace

RgbImage decode_pnm(std::span<const uint8_t> data) {
  if (data.size() < 2 || data[0] != 'P' || data[1] < '1' || data[1] > '6')
    throw DecodeError("the stream does not start with P1 to P6");
  const int kind = data[1] - '0';
  PnmReader r(data);
  r.skip(2);
  const int64_t width = r.number("width"), height = r.number("height");
  const bool bitmap = kind == 1 || kind == 4;
  const int64_t maxval = bitmap ? 1 : r.number("maxval");
  if (maxval < 1 || maxval > 65535)
    throw DecodeError("the PNM maxval " + std::to_string(maxval) + " is outside [1, 65535]");
  RgbImage image;
  allocate(image, width, height);
  const bool ascii = kind <= 3;
  const int channels = kind == 3 || kind == 6 ? 3 : 1;
  const size_t sample_bytes = maxval > 255 ? 2 : 1;
  const int64_t count = width * height * channels;
  auto scale = [&](int64_t v) -> uint8_t {
    if (v > maxval)
      throw DecodeError("a sample " + std::to_string(v) + " is above maxval " +
                        std::to_string(maxval));
    return static_cast<uint8_t>(maxval == 255 ? v : (v * 255 + maxval / 2) / maxval);
  };
  std::vector<uint8_t> samples(static_cast<size_t>(count));
  if (kind == 1) {
    for (int64_t i = 0; i < count; ++i) samples[i] = r.bit() ? 0 : 255;
  } else if (ascii) {
    for (int64_t i = 0; i < count; ++i) samples[i] = scale(r.number("sample"));
  } else if (kind == 4) {
    r.end_header();
    const size_t row_bytes = static_cast<size_t>((width + 7) / 8);
    const uint8_t* p = r.bytes(row_bytes * static_cast<size_t>(height));
    for (int64_t y = 0; y < height; ++y)
      for (int64_t x = 0; x < width; ++x)
        samples[y * width + x] = (p[y * row_bytes + x / 8] >> (7 - x % 8)) & 1 ? 0 : 255;
  } else {
    r.end_header();
    const uint8_t* p = r.bytes(static_cast<size_t>(count) * sample_bytes);
    for (int64_t i = 0; i < count; ++i)
      samples[i] = scale(sample_bytes == 2 ? (p[2 * i] << 8) | p[2 * i + 1] : p[i]);
  }
  for (int64_t px = 0; px < width * height; ++px)
    for (int c = 0; c < 3; ++c)
      image.pixels[px * 3 + c] = samples[px * channels + (channels == 3 ? c : 0)];
  return image;
}

}  // namespace onnxscript::eval::image
