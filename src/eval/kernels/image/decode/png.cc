// PNG through libpng's read API. Every colour type and bit depth becomes
// 8-bit RGB: palettes and low-depth gray are expanded, gray is replicated,
// 16-bit samples are scaled by 255 / 65535 (rounded), alpha is dropped (not
// composited), and no gamma or colour-profile correction is applied, so the
// stored values come out as they are. (libpng's simplified API would treat
// 16-bit data as linear light and re-encode it as sRGB: 0x8080 became 186.)
//
// libpng reports errors by longjmp-ing to png_jmpbuf; only libpng's C frames
// lie between the setjmp below and the longjmp, and this frame's C++ objects
// outlive the jump. Warnings (such as a bad ancillary chunk) are ignored.
#include <png.h>

#include <cstring>

#include "decode.h"

namespace onnxscript::eval::image {
namespace {

struct PngSource {
  std::span<const uint8_t> data;
  size_t pos = 0;
  char message[256] = "";
};

void png_read_memory(png_structp png, png_bytep out, png_size_t n) {
  auto* s = static_cast<PngSource*>(png_get_io_ptr(png));
  if (n > s->data.size() - s->pos) png_error(png, "the PNG stream is truncated");
  std::memcpy(out, s->data.data() + s->pos, n);
  s->pos += n;
}

[[noreturn]] void png_fail(png_structp png, png_const_charp message) {
  auto* s = static_cast<PngSource*>(png_get_error_ptr(png));
  std::strncpy(s->message, message, sizeof s->message - 1);
  png_longjmp(png, 1);
}

void png_warn(png_structp, png_const_charp) {}

}  // namespace

RgbImage decode_png(std::span<const uint8_t> data) {
  PngSource source{data, 0, ""};
  RgbImage image;
  std::vector<png_bytep> rows;
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &source, png_fail, png_warn);
  if (!png) throw DecodeError("libpng could not allocate a reader");
  png_infop info = png_create_info_struct(png);
  if (!info) {
    png_destroy_read_struct(&png, nullptr, nullptr);
    throw DecodeError("libpng could not allocate a reader");
  }
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_read_struct(&png, &info, nullptr);
    throw DecodeError(source.message);
  }
  png_set_read_fn(png, &source, png_read_memory);
  // Bound what a corrupt header can make libpng allocate (per side and per chunk).
  png_set_user_limits(png, 1u << 20, 1u << 20);
  png_set_chunk_malloc_max(png, 1u << 26);
  png_read_info(png, info);
  const png_uint_32 width = png_get_image_width(png, info),
                    height = png_get_image_height(png, info);
  if (static_cast<int64_t>(width) > kMaxPixels / std::max<int64_t>(height, 1))
    png_error(png, "the image is larger than the 2^28 pixels supported");
  const int type = png_get_color_type(png, info);
  if (type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
  if (type == PNG_COLOR_TYPE_GRAY && png_get_bit_depth(png, info) < 8)
    png_set_expand_gray_1_2_4_to_8(png);
  if (png_get_bit_depth(png, info) == 16) png_set_scale_16(png);
  if (type & PNG_COLOR_MASK_ALPHA) png_set_strip_alpha(png);
  if (!(type & PNG_COLOR_MASK_COLOR)) png_set_gray_to_rgb(png);
  png_set_interlace_handling(png);
  png_read_update_info(png, info);
  if (png_get_rowbytes(png, info) != static_cast<png_size_t>(width) * 3)
    png_error(png, "the PNG does not convert to 8-bit RGB");
  try {
    allocate(image, width, height);
  } catch (...) {
    png_destroy_read_struct(&png, &info, nullptr);
    throw;
  }
  rows.resize(height);
  for (png_uint_32 y = 0; y < height; ++y) rows[y] = image.pixels.data() + size_t{y} * width * 3;
  png_read_image(png, rows.data());
  png_read_end(png, nullptr);
  png_destroy_read_struct(&png, &info, nullptr);
  return image;
}

}  // namespace onnxscript::eval::image
