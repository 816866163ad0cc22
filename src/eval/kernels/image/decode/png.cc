// PNG through libpng's simplified API, which reports errors in
// png_image::message instead of longjmp-ing through the caller. Every PNG
// colour type and bit depth is read as 8-bit RGBA, and the alpha channel is
// dropped (not composited), so RGB values come out as stored.
#include <png.h>

#include "decode.h"

namespace onnxscript::eval::image {

RgbImage decode_png(std::span<const uint8_t> data) {
  png_image png{};
  png.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_memory(&png, data.data(), data.size()))
    throw DecodeError(png.message);
  RgbImage image;
  try {
    allocate(image, png.width, png.height);
  } catch (...) {
    png_image_free(&png);
    throw;
  }
  png.format = PNG_FORMAT_RGBA;
  std::vector<uint8_t> rgba(static_cast<size_t>(image.width * image.height * 4));
  if (!png_image_finish_read(&png, nullptr, rgba.data(), 0, nullptr)) {
    const std::string message = png.message;
    png_image_free(&png);
    throw DecodeError(message);
  }
  for (size_t p = 0, n = static_cast<size_t>(image.width * image.height); p < n; ++p)
    for (size_t k = 0; k < 3; ++k) image.pixels[p * 3 + k] = rgba[p * 4 + k];
  return image;
}

}  // namespace onnxscript::eval::image
