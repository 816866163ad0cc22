// Windows BMP, read here: the 14-byte file header, then a BITMAPCOREHEADER
// (12 bytes) or a BITMAPINFOHEADER or later (40, 52, 56, 108, 124 bytes).
// Uncompressed (BI_RGB) 1, 4 and 8 bits per pixel through the colour
// table, 16 (5-5-5), 24 and 32 bits, and BI_BITFIELDS / BI_ALPHABITFIELDS
// masks for 16 and 32 bits. Rows are padded to 4 bytes and stored bottom-up
// unless the height is negative. RLE, JPEG and PNG compression are refused.
// Every read is bounds-checked against the stream.
#include <cstdlib>

#include "decode.h"

namespace onnxscript::eval::image {
namespace {

class BmpReader {
 public:
  explicit BmpReader(std::span<const uint8_t> data) : data_(data) {}
  uint32_t u32(size_t at) const {
    need(at, 4);
    return data_[at] | (data_[at + 1] << 8) | (data_[at + 2] << 16) |
           (static_cast<uint32_t>(data_[at + 3]) << 24);
  }
  uint16_t u16(size_t at) const {
    need(at, 2);
    return static_cast<uint16_t>(data_[at] | (data_[at + 1] << 8));
  }
  uint8_t u8(size_t at) const {
    need(at, 1);
    return data_[at];
  }
  void need(size_t at, size_t n) const {
    if (at > data_.size() || n > data_.size() - at)
      throw DecodeError("the BMP stream is truncated (needs byte " + std::to_string(at + n) +
                        " of " + std::to_string(data_.size()) + ")");
  }

 private:
  std::span<const uint8_t> data_;
};

/// A channel extracted with a bit mask, scaled to 8 bits.
struct BmpMask {
  uint32_t mask = 0;
  int shift = 0;
  uint32_t max = 0;
  explicit BmpMask(uint32_t m) : mask(m) {
    if (!m) return;
    while (!((m >> shift) & 1u)) ++shift;
    max = m >> shift;
  }
  uint8_t operator()(uint32_t v) const {
    if (!mask) return 0;
    const uint64_t x = (v & mask) >> shift;
    return static_cast<uint8_t>((x * 255 + max / 2) / max);
  }
};

}  // namespace

RgbImage decode_bmp(std::span<const uint8_t> data) {
  const BmpReader r(data);
  if (r.u8(0) != 'B' || r.u8(1) != 'M') throw DecodeError("the stream does not start with 'BM'");
  const uint32_t pixel_offset = r.u32(10);
  const uint32_t header = r.u32(14);
  int64_t width = 0, height = 0;
  uint32_t bits = 0, compression = 0, colours_used = 0;
  size_t palette_at = 14 + header, palette_entry = 4;
  if (header == 12) {
    width = r.u16(18);
    height = static_cast<int16_t>(r.u16(20));
    bits = r.u16(24);
    palette_entry = 3;
  } else if (header == 40 || header == 52 || header == 56 || header == 108 || header == 124) {
    width = static_cast<int32_t>(r.u32(18));
    height = static_cast<int32_t>(r.u32(22));
    bits = r.u16(28);
    compression = r.u32(30);
    colours_used = r.u32(46);
  } else {
    throw DecodeError("the BMP header size " + std::to_string(header) + " is not supported");
  }
  const bool top_down = height < 0;
  height = std::llabs(height);
  uint32_t masks[3] = {0, 0, 0};
  constexpr uint32_t kRgb = 0, kBitfields = 3, kAlphaBitfields = 6;
  if (compression == kBitfields || compression == kAlphaBitfields) {
    if (bits != 16 && bits != 32)
      throw DecodeError("BI_BITFIELDS needs 16 or 32 bits per pixel, not " + std::to_string(bits));
    // The masks follow a 40-byte header; later headers hold them in place.
    for (int i = 0; i < 3; ++i) masks[i] = r.u32(14 + 40 + 4 * i);
    if (header == 40) palette_at += compression == kBitfields ? 12 : 16;
  } else if (compression != kRgb) {
    throw DecodeError("BMP compression " + std::to_string(compression) +
                      " (RLE, JPEG or PNG) is not supported");
  } else if (bits == 16) {
    masks[0] = 0x7c00;
    masks[1] = 0x03e0;
    masks[2] = 0x001f;
  } else if (bits == 32) {
    masks[0] = 0x00ff0000;
    masks[1] = 0x0000ff00;
    masks[2] = 0x000000ff;
  }
  if (bits != 1 && bits != 4 && bits != 8 && bits != 16 && bits != 24 && bits != 32)
    throw DecodeError(std::to_string(bits) + " bits per pixel is not supported");
  RgbImage image;
  allocate(image, width, height);

  std::vector<uint8_t> palette;  // R, G, B per entry
  if (bits <= 8) {
    const uint32_t entries = colours_used ? colours_used : (1u << bits);
    if (entries > 256) throw DecodeError("the colour table has more than 256 entries");
    palette.resize(entries * 3);
    for (uint32_t i = 0; i < entries; ++i) {
      const size_t at = palette_at + i * palette_entry;
      palette[i * 3] = r.u8(at + 2);
      palette[i * 3 + 1] = r.u8(at + 1);
      palette[i * 3 + 2] = r.u8(at);
    }
  }
  const BmpMask red(masks[0]), green(masks[1]), blue(masks[2]);
  const size_t stride = ((static_cast<size_t>(width) * bits + 31) / 32) * 4;
  r.need(pixel_offset, stride * static_cast<size_t>(height));
  for (int64_t y = 0; y < height; ++y) {
    const size_t row = pixel_offset + stride * static_cast<size_t>(top_down ? y : height - 1 - y);
    uint8_t* out = image.pixels.data() + y * width * 3;
    for (int64_t x = 0; x < width; ++x, out += 3) {
      if (bits <= 8) {
        const size_t bit = static_cast<size_t>(x) * bits;
        const uint32_t index = (data[row + bit / 8] >> (8 - bits - bit % 8)) & ((1u << bits) - 1);
        if (index * 3 >= palette.size())
          throw DecodeError("pixel index " + std::to_string(index) +
                            " is outside the colour table");
        out[0] = palette[index * 3];
        out[1] = palette[index * 3 + 1];
        out[2] = palette[index * 3 + 2];
      } else if (bits == 24) {
        const size_t at = row + static_cast<size_t>(x) * 3;
        out[0] = data[at + 2];
        out[1] = data[at + 1];
        out[2] = data[at];
      } else {
        const uint32_t v = bits == 16 ? r.u16(row + static_cast<size_t>(x) * 2)
                                      : r.u32(row + static_cast<size_t>(x) * 4);
        out[0] = red(v);
        out[1] = green(v);
        out[2] = blue(v);
      }
    }
  }
  return image;
}

}  // namespace onnxscript::eval::image
